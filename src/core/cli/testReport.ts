// What `promptwright test` prints, shared by a plain run (test.ts) and one against a revision
// (testBase.ts): each cell's verdict and figures in text, its record in JSON, and JUnit XML.
import type { CellKey, CellResult } from '../cases/types';
import { count } from '../text';

export const cellName = (c: CellKey) => `case "${c.caseName}" on ${c.model}`;

export const VERDICT: Record<CellResult['status'], string> = {
  queued: 'QUEUED',
  running: 'RUNNING',
  passed: 'PASS',
  failed: 'FAIL',
  error: 'ERROR',
  cancelled: 'CANCELLED',
};

/** "  1.2 s · in 312 · out 45" */
export function figures(r: CellResult): string {
  const o = r.outcome;
  const parts: string[] = [];
  if (o.latencyMs !== undefined && r.status !== 'cancelled') parts.push(`${(o.latencyMs / 1000).toFixed(1)} s`);
  if (o.usage?.input_tokens !== undefined) parts.push(`in ${o.usage.input_tokens}`);
  if (o.usage?.output_tokens !== undefined) parts.push(`out ${o.usage.output_tokens}`);
  return parts.length ? `  (${parts.join(' · ')})` : '';
}

/** Why a cell did not pass: the failed request (type, message, request-id), or each failed assertion. */
export function whyLines(r: CellResult): string[] {
  if (r.outcome.error && r.status === 'error') {
    const e = r.outcome.error;
    return [`${e.type}: ${e.message}${e.requestId ? ` (request-id ${e.requestId})` : ''}`];
  }
  return r.assertions.filter(a => !a.pass).map(a => `✗ ${a.message}`);
}

/** "6 cells: 4 passed, 2 failed; 7 of 9 assertions held" */
export function summaryLine(results: readonly CellResult[]): string {
  const by = (s: CellResult['status']) => results.filter(r => r.status === s).length;
  const assertions = results.flatMap(r => r.assertions);
  const parts = [`${by('passed')} passed`, `${by('failed')} failed`];
  if (by('error')) parts.push(`${by('error')} could not run (the request failed)`);
  if (by('cancelled')) parts.push(`${by('cancelled')} cancelled`);
  return (
    `${count(results.length, 'cell')}: ${parts.join(', ')}; ` +
    `${assertions.filter(a => a.pass).length} of ${count(assertions.length, 'assertion')} held\n`
  );
}

// ---- json ----------------------------------------------------------------------------------------------------

/** A cell's record in `--format json`: its file (as shown), its verdict and what came. */
export function cellRecord(file: string, r: CellResult) {
  return {
    file,
    case: r.caseName,
    model: r.model,
    pass: r.pass,
    status: r.status,
    assertions: r.assertions.map(a => ({ type: a.type, pass: a.pass, message: a.message })),
    text: r.outcome.text,
    usage: r.outcome.usage ?? null,
    stop_reason: r.outcome.stopReason ?? null,
    latency_ms: r.outcome.latencyMs === undefined ? null : Math.round(r.outcome.latencyMs),
    request_id: r.outcome.requestId ?? null,
    ...(r.outcome.error ? { error: r.outcome.error } : {}),
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
    } else if (r.status === 'error' && r.outcome.error) {
      s.errors++;
      const e = r.outcome.error;
      const detail = `${e.type}: ${e.message}${e.requestId ? ` (request-id ${e.requestId})` : ''}`;
      body.push(`      <error message="${attr(detail)}" type="${attr(e.type)}">${text(detail)}</error>`);
    } else if (!r.pass) {
      s.failures++;
      const failed = r.assertions.filter(a => !a.pass);
      const message =
        failed.length === 1 ? failed[0]!.message : `${failed.length} assertions failed: ${failed[0]?.message ?? ''}`;
      const all = text(failed.map(a => a.message).join('\n'));
      body.push(`      <failure message="${attr(message)}" type="assertion">${all}</failure>`);
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
