// What `promptwright test` prints, shared by a plain run (test.ts) and one against a revision
// (testBase.ts): each cell's verdict and figures in text, its record in JSON, and JUnit XML.
import type { AssertionResult, CellKey, CellResult, Outcome, SampleResult } from '../core/cases/types';
import { trajectoryLines } from '../core/tools/loop';
import { formatUsd } from '../core/cost/format';
import { count } from '../core/text';
import { markdownCode, markdownText } from './markdown';
import { terminalText } from './io';

export const cellName = (c: CellKey) => `case "${c.caseName}" on ${c.model}`;

const VERDICT: Record<CellResult['status'], string> = {
  queued: 'QUEUED',
  running: 'RUNNING',
  passed: 'PASS',
  failed: 'FAIL',
  error: 'ERROR',
  cancelled: 'CANCELLED',
  expired: 'EXPIRED',
  skipped: 'SKIPPED',
};

/** A cell that passed with nothing to check: its case has no assertions, so the reply was never judged. */
const unchecked = (r: CellResult): boolean =>
  r.status === 'passed' && samplesOf(r).every(s => s.assertions.length === 0);

/** A cell's samples (one for a result saved before samples existed). */
const samplesOf = (r: CellResult): readonly SampleResult[] =>
  r.samples ?? [
    {
      status: r.status === 'queued' || r.status === 'running' ? 'cancelled' : r.status,
      pass: r.pass,
      assertions: r.assertions,
      outcome: r.outcome,
      costUsd: null,
    },
  ];

/** The verdict with the samples that passed when there are several: `PASS`, `FAIL 2/5`; `NO ASSERTIONS`. */
export function verdictWord(r: CellResult): string {
  if (unchecked(r)) return 'NO ASSERTIONS';
  const n = r.samples?.length ?? 1;
  return n > 1 && r.status !== 'skipped' ? `${VERDICT[r.status]} ${r.passedSamples ?? 0}/${n}` : VERDICT[r.status];
}

/**
 * "  (1.2 s · in 312 · out 45 · $0.0021)": the first sample's latency and tokens, every sample's cost; a wait of
 * the client's own before the send (the rate limit) said apart when it took a second or more.
 */
export function figures(r: CellResult): string {
  const o = r.outcome;
  const parts: string[] = [];
  const ran = r.status !== 'cancelled' && r.status !== 'skipped';
  if (o.latencyMs !== undefined && ran) parts.push(`${(o.latencyMs / 1000).toFixed(1)} s`);
  if (o.waitedMs !== undefined && o.waitedMs >= 1000 && ran) parts.push(`waited ${(o.waitedMs / 1000).toFixed(1)} s`);
  if (o.usage?.input_tokens !== undefined) parts.push(`in ${o.usage.input_tokens}`);
  if (o.usage?.output_tokens !== undefined) parts.push(`out ${o.usage.output_tokens}`);
  if (typeof r.costUsd === 'number' && r.costUsd > 0) parts.push(formatUsd(r.costUsd));
  if (o.batchId) parts.push(o.batchId);
  return parts.length ? `  (${parts.join(' · ')})` : '';
}

/** A failed request, or an assertion that could not be checked: its type, message and request-id. */
const errorLine = (e: { type: string; message: string; requestId?: string }) =>
  `${e.type}: ${e.message}${e.requestId ? ` (request-id ${e.requestId})` : ''}`;

/** Why one sample did not pass: its failed request, or each assertion that failed or could not be checked. */
function sampleWhy(s: Pick<SampleResult, 'status' | 'outcome' | 'assertions'>): string[] {
  if (s.outcome.error && s.status === 'skipped') return [s.outcome.error.message];
  if (s.outcome.error && (s.status === 'error' || s.status === 'expired')) return [errorLine(s.outcome.error)];
  return s.assertions.filter((a: AssertionResult) => !a.pass).map(a => `✗ ${a.message}`);
}

/**
 * Why a cell did not pass, or what kept it from passing every sample: with one sample its failed request or
 * each failed assertion; with several, each sample that did not pass (`sample 2: ✗ …`).
 */
export function whyLines(r: CellResult): string[] {
  const samples = samplesOf(r);
  if (unchecked(r)) return ['its case has no assertions: the reply was not checked'];
  if (r.status === 'skipped') return sampleWhy(samples.find(s => s.status === 'skipped') ?? samples[0]!);
  if (samples.length === 1) return r.status === 'passed' ? [] : sampleWhy(samples[0]!);
  return samples.flatMap((s, i) =>
    s.pass || s.status === 'cancelled' ? [] : sampleWhy(s).map(why => `sample ${i + 1}: ${why}`),
  );
}

/** Why a cell is an error: its request failed, its judge did, or a max-cost had no price to be checked with. */
function errorKind(r: CellResult): 'request' | 'judge' | 'price' {
  const s = samplesOf(r).find(x => x.status === 'error');
  if (!s || s.outcome.error) return 'request';
  return s.assertions.some(a => a.error?.type === 'no_price') ? 'price' : 'judge';
}

/** A cell as the summary line counts it: what a run of 100,000 cells keeps of each, rather than its result. */
export interface TallyItem {
  status: CellResult['status'];
  /** passed with nothing to check */
  unchecked?: boolean;
  /** why an error is one */
  kind?: ReturnType<typeof errorKind>;
  flaky?: boolean;
  /** its samples' assertions: how many held, of how many */
  held: number;
  assertions: number;
  cost?: number | null;
  judgeCost?: number | null;
}

/** What the summary line counts of a cell. */
export function tallyItem(r: CellResult): TallyItem {
  const assertions = samplesOf(r).flatMap(s => s.assertions);
  return {
    status: r.status,
    ...(unchecked(r) ? { unchecked: true } : {}),
    ...(r.status === 'error' ? { kind: errorKind(r) } : {}),
    ...(r.flaky ? { flaky: true } : {}),
    held: assertions.filter(a => a.pass).length,
    assertions: assertions.length,
    ...(r.costUsd !== undefined ? { cost: r.costUsd } : {}),
    ...(r.judgeCostUsd !== undefined ? { judgeCost: r.judgeCostUsd } : {}),
  };
}

/**
 * What the summary line says of a run, added up a cell at a time in the cells' order (the costs summed as
 * core/cost's `sumCosts` sums them, so the line is the same to the last digit whether the run kept its results or not).
 */
export class Tally {
  cells = 0;
  private readonly counts = new Map<string, number>();
  private held = 0;
  private assertions = 0;
  private cost: number | null = 0;
  private judge: number | null | undefined;

  add(t: TallyItem): void {
    this.cells++;
    for (const key of [t.status, t.unchecked && 'unchecked', t.kind, t.flaky && 'flaky'])
      if (key) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.held += t.held;
    this.assertions += t.assertions;
    if (this.cost !== null) this.cost = t.cost === null ? null : this.cost + (t.cost ?? 0);
    if (t.judgeCost !== undefined && this.judge !== null)
      this.judge = t.judgeCost === null ? null : (this.judge ?? 0) + t.judgeCost;
  }

  private n(key: CellResult['status'] | 'unchecked' | ReturnType<typeof errorKind> | 'flaky'): number {
    return this.counts.get(key) ?? 0;
  }

  /** "6 cells: 4 passed, 2 failed, 1 flaky; 7 of 9 assertions held · $0.0132, judge $0.0021" */
  line(): string {
    const none = this.n('unchecked');
    const parts = [`${this.n('passed') - none} passed`, `${this.n('failed')} failed`];
    if (none) parts.push(`${none} with no assertions`);
    if (this.n('request')) parts.push(`${this.n('request')} could not run (the request failed)`);
    if (this.n('judge')) parts.push(`${this.n('judge')} not judged (the judge failed)`);
    if (this.n('price')) parts.push(`${this.n('price')} not priced (no price for max-cost)`);
    if (this.n('skipped')) parts.push(`${this.n('skipped')} skipped (not sent)`);
    if (this.n('cancelled')) parts.push(`${this.n('cancelled')} cancelled`);
    if (this.n('expired')) parts.push(`${this.n('expired')} expired (their batch ended before they ran)`);
    if (this.n('flaky')) parts.push(`${this.n('flaky')} flaky`);
    const said = this.cost === null ? 'cost unknown' : formatUsd(this.cost);
    const judge =
      this.judge === undefined ? '' : `, judge ${this.judge === null ? 'cost unknown' : formatUsd(this.judge)}`;
    return (
      `${count(this.cells, 'cell')}: ${parts.join(', ')}; ` +
      `${this.held} of ${count(this.assertions, 'assertion')} held · ${said}${judge}\n`
    );
  }
}

/** "6 cells: 4 passed, 2 failed, 1 flaky; 7 of 9 assertions held · $0.0132, judge $0.0021" */
export function summaryLine(results: readonly CellResult[]): string {
  const tally = new Tally();
  for (const r of results) tally.add(tallyItem(r));
  return tally.line();
}

/** What a run's judge did, under its summary line: nothing when it had nothing to judge. */
export const judgeLine = (calls: number, cached: number): string =>
  calls || cached ? `judge: ${count(calls, 'request')} sent, ${count(cached, 'verdict')} from the cache\n` : '';

/** A cell in text: its verdict and figures, why it did not pass, and a loop's turns when it did not. */
export function cellLines(r: CellResult): string {
  const flaky = r.flaky ? '  flaky' : '';
  const lines = [`  ${verdictWord(r).padEnd(9)} ${r.caseName} · ${r.model}${figures(r)}${flaky}`];
  for (const why of whyLines(r)) lines.push(`            ${why}`);
  if (r.status !== 'passed') for (const line of trajectoryLines(r.outcome)) lines.push(`            ${line}`);
  return lines.map(l => `${l}\n`).join('');
}

/** A loop's record fields: its turns and its calls in order (none for a one-turn cell). */
function loopRecord(o: Outcome) {
  if (o.turns === undefined) return {};
  return {
    turns: o.turns,
    tool_calls: (o.toolCalls ?? []).map(c => ({
      name: c.name,
      input: c.input,
      result: c.result,
      is_error: c.isError,
      source: c.source,
      turn: c.turn,
    })),
  };
}

// ---- json ----------------------------------------------------------------------------------------------------

/** An assertion's record: its verdict and message; a rubric's score and whether its verdict was kept; an error. */
function assertionRecord(a: AssertionResult) {
  return {
    type: a.type,
    pass: a.pass,
    message: a.message,
    ...(a.score !== undefined ? { score: a.score } : {}),
    ...(a.cached !== undefined ? { cached: a.cached } : {}),
    ...(a.error ? { error: a.error } : {}),
  };
}

/** A sample's record: what came, its verdict, its cost (and its judge's apart), a person's grade of it. */
function sampleRecord(s: SampleResult) {
  const o = s.outcome;
  return {
    pass: s.pass,
    status: s.status,
    text: o.text,
    usage: o.usage ?? null,
    stop_reason: o.stopReason ?? null,
    latency_ms: o.latencyMs === undefined ? null : Math.round(o.latencyMs),
    waited_ms: o.waitedMs === undefined ? null : Math.round(o.waitedMs),
    request_id: o.requestId ?? null,
    ...(o.batchId ? { batch_id: o.batchId } : {}),
    ...loopRecord(o),
    assertions: s.assertions.map(assertionRecord),
    cost_usd: s.costUsd,
    ...(s.judge
      ? {
          judge: {
            calls: s.judge.calls,
            input_tokens: s.judge.inputTokens,
            output_tokens: s.judge.outputTokens,
            cost_usd: s.judge.costUsd,
          },
        }
      : {}),
    ...(s.humanGrade ? { human_grade: s.humanGrade } : {}),
    ...(o.error ? { error: o.error } : {}),
  };
}

/**
 * A cell's record in `--format json`: its file (as shown), its verdict, and what its first sample did (text,
 * usage, …); then every sample, how many passed, whether it is flaky, and what it cost.
 */
export function cellRecord(file: string, r: CellResult, caseId?: string) {
  const samples = samplesOf(r);
  const first = samples[0];
  return {
    file,
    case: r.caseName,
    ...(caseId ? { case_id: caseId } : {}),
    model: r.model,
    pass: r.pass,
    status: r.status,
    assertions: r.assertions.map(assertionRecord),
    text: r.outcome.text,
    usage: r.outcome.usage ?? null,
    stop_reason: r.outcome.stopReason ?? null,
    latency_ms: r.outcome.latencyMs === undefined ? null : Math.round(r.outcome.latencyMs),
    waited_ms: r.outcome.waitedMs === undefined ? null : Math.round(r.outcome.waitedMs),
    request_id: r.outcome.requestId ?? null,
    ...(r.outcome.batchId ? { batch_id: r.outcome.batchId } : {}),
    ...loopRecord(r.outcome),
    ...(r.outcome.error ? { error: r.outcome.error } : {}),
    ...(first?.humanGrade ? { human_grade: first.humanGrade } : {}),
    samples: samples.map(sampleRecord),
    passed_samples: r.passedSamples ?? samples.filter(s => s.pass).length,
    min_pass: r.minPass ?? samples.length,
    flaky: r.flaky ?? false,
    cost_usd: r.costUsd ?? null,
    judge_cost_usd: r.judgeCostUsd ?? null,
  };
}

// ---- markdown --------------------------------------------------------------------------------------------------

/** A run as Markdown (a job summary, a comment): the summary line, then a row per cell with why it did not pass. */
export function markdownReport(results: readonly { file: string; r: CellResult }[]): string {
  return markdownHead(summaryLine(results.map(x => x.r))) + results.map(x => markdownRow(x.file, x.r)).join('');
}

/** The Markdown report's heading, summary line and table head. */
export function markdownHead(summary: string): string {
  const head = ['### Test cases', '', markdownText(summary.trim()), '', '| Verdict | File | Case | Model | Why |'];
  return `${[...head, '| :--- | :--- | :--- | :--- | :--- |'].join('\n')}\n`;
}

/** A cell's row of the Markdown report. */
export function markdownRow(file: string, r: CellResult): string {
  const why = whyLines(r).join(' · ');
  return (
    `| ${verdictWord(r)} | ${markdownCode(file)} | ${markdownText(r.caseName)} | ${markdownCode(r.model)} | ` +
    `${why ? markdownText(why) : ''} |\n`
  );
}

// ---- junit -----------------------------------------------------------------------------------------------------

/** What a testsuite (or the testsuites) counts. */
export interface JunitCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  ms: number;
}

/** A cell's `<testcase>`, and what it adds to its testsuite's counts. */
export interface JunitCase {
  xml: string;
  ms: number;
  /** the count it adds to besides `tests` */
  kind?: 'failures' | 'errors' | 'skipped';
}

/** Adds a testcase to its testsuite's counts (in the cells' order: the times are summed as they come). */
export function addCase(s: JunitCounts, c: Pick<JunitCase, 'ms' | 'kind'>): void {
  s.tests++;
  s.ms += c.ms;
  if (c.kind) s[c.kind]++;
}

export const noCounts = (): JunitCounts => ({ tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 });

/**
 * JUnit XML as CI dashboards read it: one testsuite per case file, one testcase per case × model; a failed
 * assertion is a `<failure>`, a failed request an `<error>`, a cancelled cell `<skipped>`; the reply text is
 * the testcase's `<system-out>`.
 */
export function toJunit(results: readonly { file: string; r: CellResult }[]): string {
  const suites = new Map<string, { counts: JunitCounts; cases: string[] }>();
  for (const { file, r } of results) {
    let s = suites.get(file);
    if (!s) suites.set(file, (s = { counts: noCounts(), cases: [] }));
    const c = junitCase(file, r);
    addCase(s.counts, c);
    s.cases.push(c.xml);
  }
  const body = [...suites].map(([name, s]) => `${junitSuiteHead(name, s.counts)}${s.cases.join('')}${JUNIT_SUITE_END}`);
  return `${junitHead([...suites.values()].map(s => s.counts))}${body.join('')}${JUNIT_END}`;
}

export const JUNIT_SUITE_END = '  </testsuite>\n';
export const JUNIT_END = '</testsuites>\n';

/** The report's first lines, up to the first testsuite: the totals of its testsuites (their times summed). */
export function junitHead(suites: readonly JunitCounts[]): string {
  const sum = (k: keyof JunitCounts) => suites.reduce((n, s) => n + s[k], 0);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="promptwright test" tests="${sum('tests')}" failures="${sum('failures')}" ` +
    `errors="${sum('errors')}" skipped="${sum('skipped')}" time="${seconds(sum('ms'))}">\n`
  );
}

/** A testsuite's opening line. */
export function junitSuiteHead(name: string, s: JunitCounts): string {
  return (
    `  <testsuite name="${attr(name)}" tests="${s.tests}" failures="${s.failures}" errors="${s.errors}" ` +
    `skipped="${s.skipped}" time="${seconds(s.ms)}">\n`
  );
}

/** A cell's `<testcase>`, with its line end. */
export function junitCase(name: string, r: CellResult): JunitCase {
  const ms = r.status === 'cancelled' || r.status === 'skipped' ? 0 : (r.outcome.latencyMs ?? 0);
  const caseName = attr(`${r.caseName} on ${r.model}`);
  const open = `    <testcase classname="${attr(name)}" name="${caseName}" time="${seconds(ms)}"`;
  const body: string[] = [];
  let kind: JunitCase['kind'];
  if (r.status === 'cancelled' || r.status === 'skipped' || unchecked(r)) {
    kind = 'skipped';
    const why = r.status === 'cancelled' ? 'Cancelled' : (whyLines(r)[0] ?? 'Not sent');
    body.push(`      <skipped message="${attr(why)}"/>`);
  } else if ((r.status === 'error' || r.status === 'expired') && r.outcome.error && (r.samples?.length ?? 1) === 1) {
    kind = 'errors';
    const e = r.outcome.error;
    const detail = `${e.type}: ${e.message}${e.requestId ? ` (request-id ${e.requestId})` : ''}`;
    body.push(`      <error message="${attr(detail)}" type="${attr(e.type)}">${text(detail)}</error>`);
  } else if (!r.pass) {
    // an assertion that could not be checked (the judge failed, no price) is an error, not a failure
    const why = whyLines(r);
    const several = (r.samples?.length ?? 1) > 1;
    const erred = r.status === 'error' || r.status === 'expired';
    kind = erred ? 'errors' : 'failures';
    const head = several
      ? `${r.passedSamples ?? 0} of ${r.samples!.length} samples passed (${r.minPass ?? r.samples!.length} needed)`
      : why.length > 1
        ? `${why.length} assertions failed`
        : '';
    const message = [head, why[0]?.replace('✗ ', '') ?? ''].filter(Boolean).join(': ');
    const tag = erred ? 'error' : 'failure';
    const type = erred ? 'error' : 'assertion';
    body.push(`      <${tag} message="${attr(message)}" type="${type}">${text(why.join('\n'))}</${tag}>`);
  }
  const out = [...trajectoryLines(r.outcome), r.outcome.text].filter(Boolean).join('\n');
  if (out) body.push(`      <system-out>${text(out)}</system-out>`);
  const xml = body.length ? `${open}>\n${body.join('\n')}\n    </testcase>` : `${open}/>`;
  return { xml: `${xml}\n`, ms, ...(kind ? { kind } : {}) };
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * Characters XML 1.0 cannot carry at all, not even as a reference (lone surrogates, U+FFFE/U+FFFF; control
 * characters are written out as escapes first): a reply may hold them, so they become U+FFFD rather than make the
 * report unreadable.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Element text: control characters written out as the terminal shows them (`\x1b`: a report is read in a terminal
 * too, and XML cannot carry most of them), `&`, `<` and `>` escaped (`>` for `]]>`).
 */
function text(s: string): string {
  return terminalText(s).replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value in double quotes: also quotes, and line breaks and tabs as references (kept, not normalised). */
function attr(s: string): string {
  return text(s)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}
