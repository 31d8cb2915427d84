// The CLI's docs say what the code does, from the one declaration of each command (src/cli/args.ts): the
// synopsis of every command in docs/cli.md's "Commands", every exit code each command declares on a "**Exit code**"
// line, the table of exit codes and the README's line; and the docs a reader follows hold together: every link and
// anchor in the README and docs/ resolves, and docs/cli.md's contents list its sections in their order.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exitLine, synopsis, type Command } from '../../../src/cli/args';
import { EXIT_MEANINGS } from '../../../src/cli/guard';
import { COMMANDS } from '../../../src/cli/main';

const CLI_MD = fs.readFileSync('docs/cli.md', 'utf8');
const flat = (s: string) => s.replace(/\s+/g, ' ');
const every: Command[] = COMMANDS.flatMap(({ spec }) => ('commands' in spec ? spec.commands : [spec]));

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

/** The anchors a Markdown file has: its headings' (numbered as GitHub numbers repeats) and its `<a id>`s. */
function anchorsOf(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const body = text.replace(/^```[\s\S]*?^```/gm, '');
  for (const m of body.matchAll(/^#{1,6} (.+)$/gm)) {
    const s = slug(m[1]!);
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n ? `${s}-${n}` : s);
  }
  for (const m of body.matchAll(/<a id="([^"]+)"/g)) out.add(m[1]!);
  return out;
}

describe('the CLI’s docs (docs/cli.md, README.md) say what the code does', () => {
  it('"Commands" shows each command’s synopsis as --help does, generated from its declaration', () => {
    const block = /## Commands\n[^#]*?```text\n([\s\S]*?)```/.exec(CLI_MD)?.[1];
    assert.ok(block, 'docs/cli.md has a ## Commands text block');
    const expected = `${every.map(c => synopsis(c)).join('\n')}\n`;
    assert.equal(block, expected);
  });

  it('every command’s exit codes are on an **Exit code** line, as the command declares them', () => {
    const text = flat(CLI_MD);
    const missing = every.filter(c => c.exits && !text.includes(`**Exit code**: ${exitLine(c.exits)}.`));
    assert.deepEqual(
      missing.map(c => `${c.name}: **Exit code**: ${exitLine(c.exits!)}.`),
      [],
    );
  });

  it('the table of exit codes, and the README’s line, are the code’s (guard.ts)', () => {
    const table = /## Exit codes\n[^#|]*\| Code[^\n]*\n\|[^\n]*\n((?:\|[^\n]*\n)+)/.exec(CLI_MD)?.[1];
    assert.ok(table, 'docs/cli.md has an exit code table');
    const rows = table
      .trim()
      .split('\n')
      .map(r => r.split('|').map(c => c.trim()));
    assert.deepEqual(
      rows.map(r => [r[1], r[2]]),
      Object.entries(EXIT_MEANINGS).map(([code, meaning]) => [`\`${code}\``, meaning]),
    );
    assert.ok(
      flat(fs.readFileSync('README.md', 'utf8')).includes(`Exit codes: ${exitLine(EXIT_MEANINGS)}.`),
      `README: Exit codes: ${exitLine(EXIT_MEANINGS)}.`,
    );
  });

  it('docs/cli.md’s contents list every section, in order, and every entry finds its section', () => {
    const contents = /## Contents\n\n([\s\S]*?)\n\n/.exec(CLI_MD)?.[1] ?? '';
    const linked = [...contents.matchAll(/\]\(#([^)]+)\)/g)].map(m => m[1]!);
    const body = CLI_MD.slice(CLI_MD.indexOf('## Contents') + 12).replace(/^```[\s\S]*?^```/gm, '');
    // each ## section, by the anchor that names it (an `<a id>` just before it, else its heading's)
    const sections = [...body.matchAll(/(?:<a id="([^"]+)"><\/a>\n\n)?^## (.+)$/gm)].map(m => m[1] ?? slug(m[2]!));
    assert.deepEqual(
      sections.filter(s => !linked.includes(s)),
      [],
      'sections the contents do not list',
    );
    const order = linked.filter(l => sections.includes(l));
    assert.deepEqual(order, sections, 'in the order of the body');
    const anchors = anchorsOf(CLI_MD);
    assert.deepEqual(
      linked.filter(l => !anchors.has(l)),
      [],
      'entries with no anchor',
    );
  });

  it('every in-repo link and anchor in the README and docs/ resolves', () => {
    const docs = [
      'README.md',
      ...fs
        .readdirSync('docs')
        .filter(f => f.endsWith('.md'))
        .map(f => path.join('docs', f)),
    ];
    const broken: string[] = [];
    let links = 0;
    for (const doc of docs) {
      const text = fs.readFileSync(doc, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue; // another site, mail
        links++;
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const abs = file ? path.join(path.dirname(doc), decodeURIComponent(file)) : doc;
        if (!fs.existsSync(abs)) {
          broken.push(`${doc}: ${target} (no such file)`);
          continue;
        }
        if (anchor !== undefined && abs.endsWith('.md') && !anchorsOf(fs.readFileSync(abs, 'utf8')).has(anchor))
          broken.push(`${doc}: ${target} (no such anchor)`);
      }
    }
    assert.ok(links > 100, `${links} links followed`);
    assert.deepEqual(broken, []);
  });
});
