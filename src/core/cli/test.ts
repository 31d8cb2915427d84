// `promptwright test FILE...`: runs case files against the service for CI: every case on every
// model, streamed, at most --concurrency at once, each judged by its assertions. Exit 0 when every assertion
// of every cell passes, 1 when any fails or a request fails, 2 for a usage error or a file with errors
// (nothing is sent then), 130 on Ctrl-C (what finished is printed first).
import { cellsOf, runCell, runMatrix } from '../cases/runner';
import type { CellKey, CellResult } from '../cases/types';
import { ConfigError } from '../api/errors';
import { count } from '../text';
import { clientFromEnv } from './api';
import { all, one, parseArgs, UsageError } from './args';
import { filesOf, prepareCaseFile, type LoadedCaseFile } from './caseFiles';
import { format } from './common';
import { EXIT, guarded } from './guard';
import { betasFromEnv, type CliIo } from './io';

const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 64;

/** A cell of the whole run: which loaded file it belongs to, and the body it sends. */
interface RunCell extends CellKey {
  source: LoadedCaseFile;
  body: Record<string, unknown>;
}

export function runTest(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  return guarded(io, 'test', async () => {
    const p = parseArgs(args, ['concurrency', 'model']);
    const outputFormat = format(p, ['text', 'json', 'junit'] as const);
    const concurrency = concurrencyOf(one(p, 'concurrency'));
    const models = all(p, 'model');
    if (models.some(m => !m.trim())) throw new UsageError('--model needs a model id');
    const files = filesOf(p.positionals, cwd, '**/*.cases.{yaml,yml,json}');

    // everything is checked before anything is sent
    const betas = betasFromEnv(io.env);
    const cells: RunCell[] = [];
    let errors = 0;
    for (const f of files) {
      const keysOf = (l: LoadedCaseFile) => cellsOf(l.file, l.requestModel, models);
      const prepared = prepareCaseFile(f, cwd, io, { keysOf, cellName, betas });
      errors += prepared.errors;
      const source = prepared.loaded;
      if (source) cells.push(...prepared.cells.map(c => ({ ...c, source })));
    }
    if (errors) {
      io.stderr.write(`promptwright test: nothing sent: ${count(errors, 'error')} (above)\n`);
      return EXIT.refused;
    }
    requireService(io);

    const client = clientFromEnv(io);
    const printer = outputFormat === 'text' ? inOrderPrinter(io, cells) : undefined;
    const results = await runMatrix({
      cells,
      concurrency,
      ...(io.signal ? { signal: io.signal } : {}),
      run: (cell, signal, onEvent) => runCell(client, cell.body, { signal, onEvent }),
      assertionsOf: cell => cell.source.file.cases.find(c => c.name === cell.caseName)?.assert ?? [],
      ...(printer ? { onUpdate: (r, ev, i) => printer.update(r, ev, i) } : {}),
    });
    if (outputFormat === 'json') io.stdout.write(`${JSON.stringify(toJson(cells, results), null, 2)}\n`);
    else if (outputFormat === 'junit') io.stdout.write(toJunit(cells, results));
    else printer?.summary(results);
    if (io.signal?.aborted) {
      io.stderr.write('promptwright test: Cancelled.\n');
      return EXIT.cancelled;
    }
    return results.every(r => r.pass) ? EXIT.ok : EXIT.service;
  });
}

function concurrencyOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_CONCURRENCY;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > MAX_CONCURRENCY)
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${raw}"`);
  return n;
}

/** Without a service address or a key nothing can run: said before anything is sent (exit 2). */
function requireService(io: CliIo): void {
  if (!io.env.PROMPTWRIGHT_BASE_URL) throw new ConfigError('no service address', 'set-base-url');
  if (!io.env.PROMPTWRIGHT_API_KEY) throw new ConfigError('no API key', 'set-api-key');
}

const cellName = (c: CellKey) => `case "${c.caseName}" on ${c.model}`;

// ---- text: one line per cell, printed in order as soon as the cells before it have finished --------------

const VERDICT: Record<CellResult['status'], string> = {
  queued: 'QUEUED',
  running: 'RUNNING',
  passed: 'PASS',
  failed: 'FAIL',
  error: 'ERROR',
  cancelled: 'CANCELLED',
};

function inOrderPrinter(io: CliIo, cells: readonly RunCell[]) {
  const done: (CellResult | undefined)[] = cells.map(() => undefined);
  let printed = 0;
  const print = (r: CellResult, i: number) => {
    const cell = cells[i]!;
    if (i === 0 || cells[i - 1]!.source !== cell.source) io.stdout.write(`${cell.source.display}\n`);
    io.stdout.write(`  ${VERDICT[r.status].padEnd(9)} ${r.caseName} · ${r.model}${figures(r)}\n`);
    if (r.outcome.error && r.status === 'error') {
      const e = r.outcome.error;
      io.stdout.write(`            ${e.type}: ${e.message}${e.requestId ? ` (request-id ${e.requestId})` : ''}\n`);
    } else for (const a of r.assertions) if (!a.pass) io.stdout.write(`            ✗ ${a.message}\n`);
  };
  const flush = () => {
    while (printed < cells.length && done[printed]) print(done[printed]!, printed++);
  };
  return {
    update(r: CellResult, ev: unknown, i: number) {
      if (ev !== undefined || r.status === 'queued' || r.status === 'running') return;
      done[i] = r;
      flush();
    },
    summary(results: readonly CellResult[]) {
      // cells that never started (a cancel) are printed too, once everything has settled
      results.forEach((r, i) => (done[i] ??= r));
      flush();
      const by = (s: CellResult['status']) => results.filter(r => r.status === s).length;
      const assertions = results.flatMap(r => r.assertions);
      const parts = [`${by('passed')} passed`, `${by('failed')} failed`];
      if (by('error')) parts.push(`${by('error')} could not run (the request failed)`);
      if (by('cancelled')) parts.push(`${by('cancelled')} cancelled`);
      io.stdout.write(
        `${count(results.length, 'cell')}: ${parts.join(', ')}; ` +
          `${assertions.filter(a => a.pass).length} of ${count(assertions.length, 'assertion')} held\n`,
      );
    },
  };
}

/** "  1.2 s · in 312 · out 45" */
function figures(r: CellResult): string {
  const o = r.outcome;
  const parts: string[] = [];
  if (o.latencyMs !== undefined && r.status !== 'cancelled') parts.push(`${(o.latencyMs / 1000).toFixed(1)} s`);
  if (o.usage?.input_tokens !== undefined) parts.push(`in ${o.usage.input_tokens}`);
  if (o.usage?.output_tokens !== undefined) parts.push(`out ${o.usage.output_tokens}`);
  return parts.length ? `  (${parts.join(' · ')})` : '';
}

// ---- json ----------------------------------------------------------------------------------------------------

function toJson(cells: readonly RunCell[], results: readonly CellResult[]) {
  return results.map((r, i) => ({
    file: cells[i]!.source.display,
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
  }));
}

// ---- junit -----------------------------------------------------------------------------------------------------

/**
 * JUnit XML as CI dashboards read it: one testsuite per case file, one testcase per case × model; a failed
 * assertion is a `<failure>`, a failed request an `<error>`, a cancelled cell `<skipped>`; the reply text is
 * the testcase's `<system-out>`.
 */
function toJunit(cells: readonly RunCell[], results: readonly CellResult[]): string {
  const suites = new Map<
    string,
    { name: string; cases: string[]; tests: number; failures: number; errors: number; skipped: number; ms: number }
  >();
  results.forEach((r, i) => {
    const name = cells[i]!.source.display;
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
