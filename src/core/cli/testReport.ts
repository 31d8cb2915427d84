// What `promptwright test` prints, shared by a plain run (test.ts) and one against a revision
// (testBase.ts): each cell's verdict and figures in text, its record in JSON, and JUnit XML.
import type { AssertionResult, CellKey, CellResult, SampleResult } from '../cases/types';
import { sumCosts } from '../cost/cost';
import { formatUsd } from '../cost/format';
import { count } from '../text';

export const cellName = (c: CellKey) => `case "${c.caseName}" on ${c.model}`;

const VERDICT: Record<CellResult['status'], string> = {
  queued: 'QUEUED',
  running: 'RUNNING',
  passed: 'PASS',
  failed: 'FAIL',
  error: 'ERROR',
  cancelled: 'CANCELLED',
  expired: 'EXPIRED',
};

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

/** The verdict with the samples that passed when there are several: `PASS`, `FAIL 2/5`. */
export function verdictWord(r: CellResult): string {
  const n = r.samples?.length ?? 1;
  return n > 1 ? `${VERDICT[r.status]} ${r.passedSamples ?? 0}/${n}` : VERDICT[r.status];
}

/** "  (1.2 s · in 312 · out 45 · $0.0021)": the first sample's time and tokens, every sample's cost. */
export function figures(r: CellResult): string {
  const o = r.outcome;
  const parts: string[] = [];
  if (o.latencyMs !== undefined && r.status !== 'cancelled') parts.push(`${(o.latencyMs / 1000).toFixed(1)} s`);
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
  if (s.outcome.error && (s.status === 'error' || s.status === 'expired')) return [errorLine(s.outcome.error)];
  return s.assertions.filter((a: AssertionResult) => !a.pass).map(a => `✗ ${a.message}`);
}

/**
 * Why a cell did not pass, or what kept it from passing every sample: with one sample its failed request or
 * each failed assertion; with several, each sample that did not pass (`sample 2: ✗ …`).
 */
export function whyLines(r: CellResult): string[] {
  const samples = samplesOf(r);
  if (samples.length === 1) return r.status === 'passed' ? [] : sampleWhy(samples[0]!);
  return samples.flatMap((s, i) =>
    s.pass || s.status === 'cancelled' ? [] : sampleWhy(s).map(why => `sample ${i + 1}: ${why}`),
  );
}

/** The run's cost: "$0.0132, judge $0.0021", or that it is unknown. */
function costSummary(results: readonly CellResult[]): string {
  const cost = sumCosts(results.map(r => (r.costUsd === undefined ? 0 : r.costUsd)));
  const judged = results.filter(r => r.judgeCostUsd !== undefined);
  const judge = judged.length ? sumCosts(judged.map(r => r.judgeCostUsd!)) : undefined;
  const said = cost === null ? 'cost unknown' : formatUsd(cost);
  if (judge === undefined) return said;
  return `${said}, judge ${judge === null ? 'cost unknown' : formatUsd(judge)}`;
}

/** "6 cells: 4 passed, 2 failed, 1 flaky; 7 of 9 assertions held · $0.0132, judge $0.0021" */
export function summaryLine(results: readonly CellResult[]): string {
  const by = (s: CellResult['status']) => results.filter(r => r.status === s).length;
  // every sample's assertions
  const assertions = results.flatMap(r => samplesOf(r).flatMap(s => s.assertions));
  const parts = [`${by('passed')} passed`, `${by('failed')} failed`];
  if (by('error')) parts.push(`${by('error')} could not run (the request failed)`);
  if (by('cancelled')) parts.push(`${by('cancelled')} cancelled`);
  if (by('expired')) parts.push(`${by('expired')} expired (their batch ended before they ran)`);
  const flaky = results.filter(r => r.flaky).length;
  if (flaky) parts.push(`${flaky} flaky`);
  return (
    `${count(results.length, 'cell')}: ${parts.join(', ')}; ` +
    `${assertions.filter(a => a.pass).length} of ${count(assertions.length, 'assertion')} held · ` +
    `${costSummary(results)}\n`
  );
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
    request_id: o.requestId ?? null,
    ...(o.batchId ? { batch_id: o.batchId } : {}),
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
    request_id: r.outcome.requestId ?? null,
    ...(r.outcome.batchId ? { batch_id: r.outcome.batchId } : {}),
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

// ---- junit -----------------------------------------------------------------------------------------------------

/**
 * JUnit XML as CI dashboards read it: one testsuite per case file, one testcase per case × model; a failed
 * assertion is a `<failure>`, a failed request an `<error>`, a cancelled cell `<skipped>`; the reply text is
 * the testcase's `<system-out>`.
 */
export function toJunit(results: readonly { file: string; r: CellResult }[]): string {
  const suites = new Map<
    string,
    { name: string; cases: string[]; tests: number; failures: number; errors: number; skipped: number; ms: number }
  >();
  results.forEach(({ file: name, r }) => {
    let s = suites.get(name);
    if (!s) suites.set(name, (s = { name, cases: [], tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 }));
    s.tests++;
    const ms = r.status === 'cancelled' ? 0 : (r.outcome.latencyMs ?? 0);
    s.ms += ms;
    const caseName = attr(`${r.caseName} on ${r.model}`);
    const open = `    <testcase classname="${attr(name)}" name="${caseName}" time="${seconds(ms)}"`;
    const body: string[] = [];
    if (r.status === 'cancelled') {
      s.skipped++;
      body.push('      <skipped message="Cancelled"/>');
    } else if ((r.status === 'error' || r.status === 'expired') && r.outcome.error && (r.samples?.length ?? 1) === 1) {
      s.errors++;
      const e = r.outcome.error;
      const detail = `${e.type}: ${e.message}${e.requestId ? ` (request-id ${e.requestId})` : ''}`;
      body.push(`      <error message="${attr(detail)}" type="${attr(e.type)}">${text(detail)}</error>`);
    } else if (!r.pass) {
      // an assertion that could not be checked (the judge failed, no price) is an error, not a failure
      const why = whyLines(r);
      const several = (r.samples?.length ?? 1) > 1;
      const erred = r.status === 'error' || r.status === 'expired';
      if (erred) s.errors++;
      else s.failures++;
      const head = several
        ? `${r.passedSamples ?? 0} of ${r.samples!.length} samples passed (${r.minPass ?? r.samples!.length} needed)`
        : why.length > 1
          ? `${why.length} assertions failed`
          : '';
      const message = [head, why[0]?.replace('✗ ', '') ?? ''].filter(Boolean).join(': ');
      const kind = erred ? 'error' : 'failure';
      const type = erred ? 'error' : 'assertion';
      body.push(`      <${kind} message="${attr(message)}" type="${type}">${text(why.join('\n'))}</${kind}>`);
    }
    if (r.outcome.text) body.push(`      <system-out>${text(r.outcome.text)}</system-out>`);
    s.cases.push(body.length ? `${open}>\n${body.join('\n')}\n    </testcase>` : `${open}/>`);
  });
  const all = [...suites.values()];
  const sum = (k: 'tests' | 'failures' | 'errors' | 'skipped' | 'ms') => all.reduce((n, s) => n + s[k], 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="promptwright test" tests="${sum('tests')}" failures="${sum('failures')}" ` +
      `errors="${sum('errors')}" skipped="${sum('skipped')}" time="${seconds(sum('ms'))}">`,
    ...all.flatMap(s => [
      `  <testsuite name="${attr(s.name)}" tests="${s.tests}" failures="${s.failures}" errors="${s.errors}" ` +
        `skipped="${s.skipped}" time="${seconds(s.ms)}">`,
      ...s.cases,
      '  </testsuite>',
    ]),
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * Characters XML 1.0 cannot carry at all, not even as a reference (most control characters, lone surrogates,
 * U+FFFE/U+FFFF): a reply may hold them, so they become U+FFFD rather than make the report unreadable.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Element text: `&`, `<` and `>` escaped (`>` for `]]>`). */
function text(s: string): string {
  return s.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
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
