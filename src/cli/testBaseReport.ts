// How `test --base` prints: `--format json` (each cell's record with its `base` and its `change`), `text`
// (the changed cells first, each with a word diff of its reply where the reply differs), `markdown` (a table
// for a pull-request comment, found again by its first line) and `junit` (the working copy, as `test`).
import type { CellResult } from '../core/cases/types';
import { CHANGE_ORDER, type CellChange } from '../core/diff/cells';
import { differs, diffWords, plainWordDiff } from '../core/diff/wordDiff';
import { count } from '../core/text';
import { codeBlock, markdownCode, markdownText } from './markdown';
import { cellRecord, figures, summaryLine, toJunit, verdictWord, whyLines } from './testReport';

/**
 * One cell's results, paired across the two versions: the CLI's settled counterpart of the grid's live pair of
 * views (`ComparedCell`, core/cases/grid.ts).
 */
export interface ComparedResult {
  file: string;
  caseName: string;
  model: string;
  /** the working copy's result; undefined for a cell only the base has */
  current?: CellResult;
  /** the base's result; undefined for a cell new since the base, or one whose base version had errors */
  base?: CellResult;
  /** why the base version could not be sent */
  baseProblems?: string[];
  change: CellChange;
  /** a dataset's row: its case_id */
  rowId?: string;
}

/** Per case file with a dataset: its rows new since the base, and gone (a changed row is one of each). */
function rowChanges(cells: readonly ComparedResult[]): { file: string; added: number; removed: number }[] {
  const by = new Map<string, { added: Set<string>; removed: Set<string> }>();
  for (const x of cells) {
    if (!x.rowId || (x.change !== 'new' && x.change !== 'removed')) continue;
    const slot = by.get(x.file) ?? { added: new Set<string>(), removed: new Set<string>() };
    by.set(x.file, slot);
    (x.change === 'new' ? slot.added : slot.removed).add(x.rowId);
  }
  return [...by].map(([file, s]) => ({ file, added: s.added.size, removed: s.removed.size }));
}

/** `+N rows, −M rows` of a dataset. */
const rowsSaid = (r: { added: number; removed: number }) =>
  `+${count(r.added, 'row')}, \u2212${count(r.removed, 'row')}`;

/** The first line of the markdown block: a workflow finds its own comment by it, to update it. */
const TEST_COMMENT_MARKER = '<!-- promptwright:test -->';

interface Context {
  ref: string;
  sha: string;
}

/** The report in text, JUnit or markdown (JSON is each cell's comparedRecord, printed with printJsonArray). */
export function baseReport(
  format: 'text' | 'junit' | 'markdown',
  cells: readonly ComparedResult[],
  c: Context,
): string {
  switch (format) {
    case 'junit':
      return toJunit(cells.flatMap(x => (x.current ? [{ file: x.file, r: x.current }] : [])));
    case 'markdown':
      return markdown(cells, c);
    default:
      return text(cells, c);
  }
}

const short = (sha: string) => sha.slice(0, 7);

/** The base's side of a record: what came at REF, its problems when it could not be sent, null when none. */
function baseRecord(x: ComparedResult) {
  if (x.baseProblems)
    return {
      pass: null,
      text: null,
      usage: null,
      stop_reason: null,
      latency_ms: null,
      request_id: null,
      problems: x.baseProblems,
    };
  if (!x.base) return null;
  const r = cellRecord(x.file, x.base);
  return {
    pass: r.pass,
    text: r.text,
    usage: r.usage,
    stop_reason: r.stop_reason,
    latency_ms: r.latency_ms,
    request_id: r.request_id,
    ...(r.error ? { error: r.error } : {}),
    samples: r.samples,
    passed_samples: r.passed_samples,
    min_pass: r.min_pass,
    flaky: r.flaky,
    cost_usd: r.cost_usd,
    judge_cost_usd: r.judge_cost_usd,
  };
}

/** A cell as `test --base --format json` prints it: now, at the base, and what changed. */
export function comparedRecord(x: ComparedResult) {
  const now = x.current
    ? cellRecord(x.file, x.current)
    : {
        file: x.file,
        case: x.caseName,
        model: x.model,
        pass: null,
        status: 'removed',
        assertions: [],
        text: null,
        usage: null,
        stop_reason: null,
        latency_ms: null,
        request_id: null,
      };
  return { ...now, base: baseRecord(x), change: x.change };
}

/** Changed cells first (in CHANGE_ORDER), each group in the run's order. */
function ordered(cells: readonly ComparedResult[]): ComparedResult[] {
  return [...cells].sort((a, b) => CHANGE_ORDER.indexOf(a.change) - CHANGE_ORDER.indexOf(b.change));
}

/** The reply's word diff, when both sides have a reply and they differ. */
function replyDiff(x: ComparedResult): string | undefined {
  if (!x.base || !x.current) return undefined;
  const parts = diffWords(x.base.outcome.text, x.current.outcome.text);
  return differs(parts) ? plainWordDiff(parts) : undefined;
}

const verdict = (r: CellResult | undefined, problems?: string[]) => (problems ? 'NOT SENT' : r ? verdictWord(r) : '—');

function changeTally(cells: readonly ComparedResult[]): string {
  return CHANGE_ORDER.map(k => [k, cells.filter(x => x.change === k).length] as const)
    .filter(([, n]) => n)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}

function text(cells: readonly ComparedResult[], c: Context): string {
  const head = `Against ${c.ref} (${short(c.sha)}):\n`;
  if (!cells.length) return `${head}No case file differs from ${c.ref}, nor the request of one.\n`;
  const out = [head];
  const indent = '            ';
  let section = '';
  for (const x of ordered(cells)) {
    const title = x.change === 'same' ? 'Unchanged' : 'Changed';
    if (title !== section) out.push(`${(section = title)}\n`);
    const result = x.current ?? x.base;
    const where = `${x.file} · ${x.caseName} · ${x.model}`;
    const verdicts = `${verdict(x.base, x.baseProblems)} → ${verdict(x.current)}`;
    out.push(`  ${x.change.toUpperCase().padEnd(9)} ${where}  ${verdicts}${result ? figures(result) : ''}\n`);
    for (const p of x.baseProblems ?? []) out.push(`${indent}at ${c.ref}: ${p}\n`);
    if (x.current) for (const why of whyLines(x.current)) out.push(`${indent}${why}\n`);
    const diff = replyDiff(x);
    if (diff) out.push(`${indent}reply: ${diff.replace(/\n/g, `\n${indent}       `)}\n`);
  }
  const now = cells.flatMap(x => (x.current ? [x.current] : []));
  out.push(summaryLine(now), `against ${c.ref}: ${changeTally(cells)}\n`);
  for (const r of rowChanges(cells)) out.push(`${r.file}: dataset ${rowsSaid(r)}\n`);
  return out.join('');
}

const MARK: Record<CellChange, string> = {
  broke: '❌ **broke**',
  fixed: '✅ fixed',
  new: '🆕 new',
  removed: '➖ removed',
  same: 'same',
};

function cellVerdict(r: CellResult | undefined, problems?: string[]): string {
  if (problems) return 'not sent (errors)';
  if (!r) return '—';
  const word = r.status === 'passed' ? 'pass' : r.status === 'failed' ? 'fail' : r.status;
  const n = r.samples?.length ?? 1;
  return n > 1 ? `${word} ${r.passedSamples ?? 0}/${n}` : word;
}

function markdown(cells: readonly ComparedResult[], c: Context): string {
  const lines = [TEST_COMMENT_MARKER, `### Test cases against ${markdownCode(c.ref)}`, ''];
  if (!cells.length) {
    lines.push(`No case file changed against ${markdownCode(c.ref)} (${short(c.sha)}), nor the request of one.`);
    return `${lines.join('\n')}\n`;
  }
  const now = cells.flatMap(x => (x.current ? [x.current] : []));
  const passed = now.filter(r => r.pass).length;
  lines.push(
    `${count(now.length, 'cell')} now: ${passed} passed, ${now.length - passed} did not · ` +
      `against ${markdownCode(c.ref)} (${short(c.sha)}): ${changeTally(cells)}`,
    '',
    ...rowChanges(cells).flatMap(r => [`${markdownCode(r.file)} dataset: ${rowsSaid(r)}`, '']),
    '| Change | File | Case | Model | Before | After |',
    '| :--- | :--- | :--- | :--- | :---: | :---: |',
  );
  const sorted = ordered(cells);
  for (const x of sorted) {
    const row = [
      MARK[x.change],
      markdownCode(x.file),
      markdownText(x.caseName),
      markdownCode(x.model),
      cellVerdict(x.base, x.baseProblems),
      cellVerdict(x.current),
    ];
    lines.push(`| ${row.join(' | ')} |`);
  }
  const diffs = sorted.flatMap(x => {
    const diff = replyDiff(x);
    return diff ? [{ x, diff }] : [];
  });
  if (diffs.length) {
    lines.push('', `<details><summary>Replies that differ (${diffs.length})</summary>`, '');
    for (const { x, diff } of diffs)
      lines.push(
        `${markdownCode(x.file)} · ${markdownText(x.caseName)} · ${markdownCode(x.model)} (${x.change})`,
        '',
        codeBlock(diff),
        '',
      );
    lines.push('</details>');
  }
  return `${lines.join('\n')}\n`;
}
