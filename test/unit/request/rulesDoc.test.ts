// RULES.md stays true: one heading per rule of the catalog, the summary table's severities, and every
// example fires its rule (and every "Fixed" version does not), checked with the validator itself.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { ModelCatalog, parseModelList } from '../../../src/core/models/catalog';
import { RULES, type RuleId } from '../../../src/core/request/catalog';
import { validateText } from '../../../src/core/request/validate';
import { NOW } from './helpers';

const md = fs.readFileSync('RULES.md', 'utf8');
const lines = md.split('\n');
const names = Object.keys(RULES) as RuleId[];

/** The lines of each `### rule` section. */
function sections(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let cur: string[] | undefined;
  for (const l of lines) {
    if (l.startsWith('### ')) out.set(l.slice(4), (cur = []));
    else if (l.startsWith('## ')) cur = undefined;
    else cur?.push(l);
  }
  return out;
}

interface Example {
  lang: string;
  text: string;
  fixed: boolean;
  betas: string[];
  /** a saved model list the example is checked with (`PROMPTWRIGHT_MODELS=FILE` before it) */
  models?: string;
}

/** A saved model list, as `promptwright check --models FILE` reads it. */
function catalog(file: string): ModelCatalog {
  const list = parseModelList(JSON.parse(fs.readFileSync(file, 'utf8')));
  if ('error' in list) throw new Error(`${file}: ${list.error}`);
  return new ModelCatalog(list.models);
}

function examples(body: string[]): Example[] {
  const out: Example[] = [];
  for (let i = 0; i < body.length; i++) {
    const m = /^```(\w*)$/.exec(body[i]!);
    if (!m) continue;
    let j = i + 1;
    while (j < body.length && body[j] !== '```') j++;
    let k = i - 1;
    while (k >= 0 && body[k]!.trim() === '') k--;
    const label = body[k] ?? '';
    const betas = /PROMPTWRIGHT_BETAS=([\w,.-]+)/.exec(label)?.[1]?.split(',') ?? [];
    // the label of an example, or of the one its "Fixed" version follows
    const models =
      /PROMPTWRIGHT_MODELS=([\w./-]+)/.exec(label)?.[1] ?? (/^Fixed/.test(label) ? out.at(-1)?.models : undefined);
    if (m[1] === 'json' || m[1] === 'yaml')
      out.push({
        lang: m[1],
        text: `${body.slice(i + 1, j).join('\n')}\n`,
        fixed: /^Fixed/.test(label),
        betas,
        ...(models ? { models } : {}),
      });
    i = j;
  }
  return out;
}

/** deprecated-model can only fire before the retirement date of the models it names (June 15, 2026). */
const CLOCK: Partial<Record<RuleId, Date>> = { 'deprecated-model': new Date('2026-05-01T00:00:00Z') };

describe('RULES.md', () => {
  it('has one heading per rule, in the catalog order, and lines of at most 120 characters', () => {
    assert.deepEqual(
      lines.filter(l => l.startsWith('### ')).map(l => l.slice(4)),
      names,
    );
    assert.deepEqual(
      lines.map((l, i) => [i + 1, l.length]).filter(([, n]) => (n as number) > 120),
      [],
    );
  });
  it('its summary table gives each rule the catalog severity', () => {
    for (const n of names) {
      const row = lines.find(l => l.startsWith(`| [${n}](#${n}) |`));
      assert.ok(row, `no table row for ${n}`);
      assert.equal(row.split('|')[2]!.trim(), RULES[n].severity, n);
    }
  });
  const bySection = sections();
  // case files' rules have case files as examples: test/unit/cases/rulesDoc.test.ts runs those
  const caseFileRules = new Set(lines.slice(lines.indexOf('## Case files')).filter(l => l.startsWith('### ')));
  for (const n of names) {
    const ex = examples(bySection.get(n) ?? []);
    if (!ex.length || caseFileRules.has(`### ${n}`)) continue;
    it(`${n}: its examples fire it, its fixed versions do not; the messages are plain text`, () => {
      for (const e of ex) {
        const got = validateText(e.text, e.lang === 'yaml' ? 'yaml' : 'json', {
          now: CLOCK[n] ?? NOW,
          betas: e.betas,
          ...(e.models ? { models: catalog(e.models) } : {}),
        });
        const codes = got.problems.map(p => p.code);
        assert.equal(
          codes.includes(n),
          !e.fixed,
          `${e.fixed ? 'fixed' : 'failing'} example gives [${codes.join(', ')}]:\n${e.text}`,
        );
        // the editor shows a diagnostic's message as it is: Markdown's backticks would show too
        for (const p of got.problems) assert.ok(!p.message.includes('`'), `${p.code}: ${p.message}`);
      }
    });
  }
});
