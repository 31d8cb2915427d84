// How `count --base` prints: `--format json` (one record per count), `text` (one line per count and a
// total), `markdown` (a block for a pull-request comment that a workflow finds again by its first line).
import {
  deltaLine,
  deltaOf,
  exceeds,
  limitWords,
  signedPercent,
  signedTokens,
  type IncreaseLimit,
} from '../core/tokens/deltas';
import { markdownCode, markdownText } from './markdown';
import { thousands } from '../core/text';

/** One count at the base and now (`--format json` prints these as they are). */
export interface DeltaRow {
  file: string;
  case?: string;
  /** where the file was at the base, when it was renamed */
  base_file?: string;
  /** null: the file (or case) is new since the base, or its base version could not be counted */
  base_input_tokens: number | null;
  /** null: deleted since the base */
  input_tokens: number | null;
  delta: number | null;
  /** why the base version could not be counted (it has errors) */
  base_problems?: string[];
}

/** The first line of the markdown block: a workflow finds its own comment by it, to update it. */
const COUNT_COMMENT_MARKER = '<!-- promptwright:count -->';

interface ReportContext {
  ref: string;
  sha: string;
  limit?: IncreaseLimit;
}

/** The report in text or markdown (JSON is the rows themselves, printed with printJsonArray). */
export function deltaReport(format: 'text' | 'markdown', rows: readonly DeltaRow[], c: ReportContext): string {
  return format === 'markdown' ? markdown(rows, c) : text(rows, c);
}

const label = (r: DeltaRow) => `${r.file}${r.case !== undefined ? ` (case "${r.case}")` : ''}`;

function totals(rows: readonly DeltaRow[]) {
  const sum = (pick: (r: DeltaRow) => number | null) => rows.reduce((n, r) => n + (pick(r) ?? 0), 0);
  return deltaOf(
    sum(r => r.base_input_tokens),
    sum(r => r.input_tokens),
  );
}

const short = (sha: string) => sha.slice(0, 7);

function text(rows: readonly DeltaRow[], c: ReportContext): string {
  if (!rows.length) return `No request, case or count file differs from ${c.ref} (${short(c.sha)}).\n`;
  const labels = rows.map(label);
  const width = Math.max(...labels.map(l => l.length), 'total'.length);
  const side = (n: number | null) => (n === null ? '—' : thousands(n));
  const beforeWidth = Math.max(...rows.map(r => side(r.base_input_tokens).length));
  const line = (name: string, before: number | null, after: number | null, note = '') => {
    const d = deltaOf(before, after);
    const [from, rest] = deltaLine(d).split(' → ');
    return `${name.padEnd(width)}  ${from!.padStart(beforeWidth)} → ${rest!}${note}\n`;
  };
  const out = [`Input tokens, ${c.ref} (${short(c.sha)}) → the working copy:\n`];
  rows.forEach((r, i) => {
    const notes = [
      ...(r.base_file ? [`renamed from ${r.base_file}`] : []),
      ...(r.base_problems ? [`not counted at ${c.ref}: it has errors`] : []),
    ];
    out.push(line(labels[i]!, r.base_input_tokens, r.input_tokens, notes.length ? `  [${notes.join('; ')}]` : ''));
  });
  const t = totals(rows);
  out.push(line('total', t.before, t.after));
  return out.join('');
}

function markdown(rows: readonly DeltaRow[], c: ReportContext): string {
  const lines = [COUNT_COMMENT_MARKER, `### Input tokens against ${markdownCode(c.ref)}`, ''];
  if (!rows.length) {
    lines.push(`No request, case or count file changed against ${markdownCode(c.ref)} (${short(c.sha)}).`);
    return `${lines.join('\n')}\n`;
  }
  const cell = (n: number | null) => (n === null ? '—' : thousands(n));
  const change = (before: number | null, after: number | null, problems?: string[]) => {
    if (problems) return 'not counted before (errors)';
    const d = deltaOf(before, after);
    if (d.before === null) return 'new';
    if (d.after === null) return 'deleted';
    return d.percent === null ? signedTokens(d.delta!) : `${signedTokens(d.delta!)} (${signedPercent(d.percent)})`;
  };
  lines.push('| File | Before | After | Change |', '| :--- | ---: | ---: | ---: |');
  for (const r of rows) {
    const name =
      markdownCode(r.file) +
      (r.case !== undefined ? ` · ${markdownText(r.case)}` : '') +
      (r.base_file ? ` (renamed from ${markdownCode(r.base_file)})` : '');
    const values = [
      cell(r.base_input_tokens),
      cell(r.input_tokens),
      change(r.base_input_tokens, r.input_tokens, r.base_problems),
    ];
    lines.push(`| ${name} | ${values.join(' | ')} |`);
  }
  const t = totals(rows);
  lines.push(`| **Total** | **${cell(t.before)}** | **${cell(t.after)}** | **${change(t.before, t.after)}** |`, '');
  if (c.limit) {
    const over = rows
      .filter(r => r.base_input_tokens !== null && r.input_tokens !== null)
      .map(r => ({ r, d: deltaOf(r.base_input_tokens, r.input_tokens) }))
      .filter(({ d }) => d.delta !== null && exceeds(c.limit!, d));
    lines.push(
      over.length
        ? `**Over the allowed increase of ${limitWords(c.limit)}:** ` +
            over.map(({ r }) => markdownCode(label(r))).join(', ')
        : `Every count is within the allowed increase of ${limitWords(c.limit)}.`,
      '',
    );
  }
  lines.push(`<sub>Counted with \`count_tokens\` by Promptwright; ${markdownCode(c.ref)} is ${short(c.sha)}.</sub>`);
  return `${lines.join('\n')}\n`;
}
