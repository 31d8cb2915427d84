// How `promptwright test` (and `test --base`) runs its cells: the case engine (core/cases/engine.ts) with the
// CLI's direct transport (each sample streamed through the client from the environment, at most --concurrency
// at once), its judge (the same client, PROMPTWRIGHT_JUDGE_MODEL by default, verdicts kept in
// PROMPTWRIGHT_CACHE_DIR unless --no-cache), its prices (--prices FILE over the built-in table) and the grades
// people gave replies in the editor (the repository's .promptwright/results/, when it keeps them there).
import type { McpServerConfig } from '../core/tools/mcpConfig';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ApiClient } from '../core/api/client';
import {
  requestCount,
  requestCountWords,
  runCells,
  type CellUpdate,
  type RunCell,
  type RequestCount,
  type RunOutcome,
  type Transport,
} from '../core/cases/engine';
import { gradeFor, parseResults, resultsPath } from '../core/cases/results';
import type { CaseChoice } from '../core/cases/choose';
import type { SuiteCase } from '../core/cases/load';
import { caseNamed, cellsOf, type Sampling } from '../core/cases/runner';
import { directRun, rubricsWithoutJudge } from '../core/cases/session';
import type { CaseFile, CellResult, OutcomeError } from '../core/cases/types';
import { DirectoryVerdictCache } from '../core/cases/verdictCache';
import type { PriceTable } from '../core/cost/prices';
import { DEFAULT_MAX_REQUESTS } from '../core/settings';
import { count, thousands } from '../core/text';
import { one, UsageError, type Parsed } from './args';
import { prepareSuiteFile, type LoadedCaseFile } from './caseFiles';
import { cacheDir } from './env';
import { confirmed, EXIT } from './guard';
import { betasFromEnv, type CliIo } from './io';
import { printJsonArray } from './output';
import { jsonList, writeOutputs, type ReportFile } from './testOutputs';
import { RunTools } from './testTools';
import { cellLines, cellName, cellRecord, judgeLine, markdownReport, summaryLine, toJunit } from './testReport';

/** What the command line says of a run's samples, prices and verdict cache. */
export interface RunSettings {
  concurrency: number;
  sampling: Sampling;
  prices: PriceTable;
  /** --no-cache: ask the judge again (and keep what it says) */
  refresh: boolean;
  /** --fail-fast: stop sending at the first cell that does not pass */
  failFast?: boolean;
  /** --max-requests N: the most requests the run may send (undefined: DEFAULT_MAX_REQUESTS, asked at a terminal) */
  maxRequests?: number;
}

/** A whole number from 1 to `max` given to `--name`, or undefined when not given. */
function wholeOption(p: Parsed, name: string, max: number): number | undefined {
  const raw = one(p, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > max)
    throw new UsageError(`--${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  return n;
}

/** `--repeat N` and `--min-pass K`: K of N at most (each case file's own samples are checked with it). */
export function samplingOption(p: Parsed, maxRepeat: number): Sampling {
  const repeat = wholeOption(p, 'repeat', maxRepeat);
  const minPass = wholeOption(p, 'min-pass', maxRepeat);
  if (repeat !== undefined && minPass !== undefined && minPass > repeat)
    throw new UsageError(`--min-pass ${minPass} asks for more samples than --repeat ${repeat} runs`);
  return { ...(repeat !== undefined ? { repeat } : {}), ...(minPass !== undefined ? { minPass } : {}) };
}

/**
 * A case file's samples as the command line changes them, when more must pass than run (`--min-pass 3` on a file
 * that runs one sample, `--repeat 2` on one whose min-pass is 4): said, never capped in silence. A file that asks
 * that by itself is a case-file error (min-pass-over-repeat), said where the file is read.
 */
export function samplingProblem(file: CaseFile, display: string, sampling: Sampling): string | undefined {
  if (sampling.repeat === undefined && sampling.minPass === undefined) return undefined;
  const repeat = sampling.repeat ?? file.repeat ?? 1;
  const minPass = sampling.minPass ?? file.minPass ?? repeat;
  if (minPass <= repeat) return undefined;
  const need = sampling.minPass !== undefined ? `--min-pass ${minPass}` : `its min-pass ${minPass}`;
  const runs = sampling.repeat !== undefined ? `--repeat ${repeat}` : `its repeat (${repeat})`;
  return `${display}: error: ${need} asks for more samples than ${runs} runs: give --repeat ${minPass} or more`;
}

/** `--max-requests N`, a whole number from 1 up; undefined when not given. */
export function maxRequestsOption(p: Parsed): number | undefined {
  return wholeOption(p, 'max-requests', 10_000_000);
}

/** Whether the CLI runs in CI: `CI` set, as every CI service sets it, and not to "false" or "0". */
const inCi = (env: CliIo['env']) => !!env.CI && !/^(false|0)$/i.test(env.CI);

/**
 * The run's limit on what it sends, checked before anything is sent: within `--max-requests` (by default 1,000) it
 * goes on (undefined). Over it, it stops with how many requests it would send (exit 2), unless the limit is the
 * default and a person at a terminal outside CI says yes to sending them.
 */
export async function overRequestLimit(
  cells: readonly Pick<RunCell, 'repeat' | 'assertions'>[] | RequestCount,
  settings: Pick<RunSettings, 'maxRequests'>,
  io: CliIo,
): Promise<number | undefined> {
  const n = 'samples' in cells ? cells : requestCount(cells);
  const limit = settings.maxRequests ?? DEFAULT_MAX_REQUESTS;
  if (n.samples + n.judge <= limit) return undefined;
  const would = `this run would send ${requestCountWords(n)}`;
  if (settings.maxRequests === undefined && io.interactive && io.confirm && !inCi(io.env)) {
    if (await confirmed(io, false, `promptwright test: ${would}, over ${thousands(limit)}. Send them?`))
      return undefined;
    io.stderr.write('Not confirmed: nothing was sent.\n');
    return EXIT.refused;
  }
  const given = settings.maxRequests === undefined ? ' (the default)' : '';
  io.stderr.write(
    `promptwright test: nothing sent: ${would}, over --max-requests ${limit}${given}; ` +
      `give --max-requests ${n.samples + n.judge} to send them\n`,
  );
  return EXIT.refused;
}

/** Rubrics with no judge model to grade them (none in the case file, no PROMPTWRIGHT_JUDGE_MODEL): one error per
 * case file, said before anything is sent. */
export function judgeProblems(cells: readonly (RunCell & { file: string })[], io: CliIo): number {
  const files = [...new Set(rubricsWithoutJudge(cells, io.env.PROMPTWRIGHT_JUDGE_MODEL).map(c => c.file))];
  for (const file of files)
    io.stderr.write(
      `${file}: error: its rubric assertions have no judge model: give "judge: { model: … }" in the case ` +
        'file, or set PROMPTWRIGHT_JUDGE_MODEL\n',
    );
  return files.length;
}

/** The grades people gave this case file's replies in the editor, when its results are in the repository. */
function gradesOf(caseFileAbs: string, cwd: string) {
  try {
    return parseResults(fs.readFileSync(resultsPath(caseFileAbs, cwd), 'utf8'))?.grades;
  } catch {
    return undefined; // no results kept in the repository
  }
}

/**
 * Runs the cells through the engine as the CLI does: by default each sample streamed through `client`, at most
 * --concurrency at once, a loop cell's turns one after another with its calls answered by `tools` (the run's MCP
 * servers, closed when the run ends unless the caller owns `tools`); or through `transport` (Message Batches:
 * `batch` prices every token at half).
 */
/** How a run's cells are sent and reported. */
interface RunTestOptions {
  onUpdate?: (r: CellResult, update: CellUpdate, index: number) => void;
  transport?: Transport;
  batch?: boolean;
  tools?: RunTools;
}

export async function runTestCells<C extends RunCell & { abs?: string }>(
  cells: readonly C[],
  settings: RunSettings,
  io: CliIo,
  client: ApiClient,
  cwd: string,
  o: RunTestOptions = {},
): Promise<RunOutcome> {
  const tools = o.tools ?? new RunTools(io, client, { record: false });
  try {
    return await runWithTools(cells, settings, io, client, cwd, { ...o, tools });
  } finally {
    if (!o.tools) await tools.close();
  }
}

function runWithTools<C extends RunCell & { abs?: string }>(
  cells: readonly C[],
  settings: RunSettings,
  io: CliIo,
  client: ApiClient,
  cwd: string,
  o: RunTestOptions & { tools: RunTools },
): Promise<RunOutcome> {
  const grades = new Map<string, ReturnType<typeof gradesOf>>();
  const cache = new DirectoryVerdictCache(path.join(cacheDir(io.env), 'verdicts'), m =>
    io.stderr.write(`promptwright test: ${m}\n`),
  );
  const judgeModel = io.env.PROMPTWRIGHT_JUDGE_MODEL;
  const direct = directRun(cells, {
    client: () => client,
    concurrency: settings.concurrency,
    live: cell => o.tools.live(cell),
    judge: { ...(judgeModel ? { defaultModel: judgeModel } : {}), cache, refresh: settings.refresh },
  });
  return runCells({
    cells,
    transport: o.transport ?? direct.transport,
    prices: settings.prices,
    ...(o.batch ? { batch: true } : {}),
    ...(settings.failFast ? { failFast: true } : {}),
    judging: direct.judging,
    gradeOf: (cell, text) => {
      // the cells of each file share its grades (read once, when a reply needs them)
      const abs = (cell as C).abs;
      if (!abs) return undefined;
      if (!grades.has(abs)) grades.set(abs, gradesOf(abs, cwd));
      return gradeFor(grades.get(abs), cell.caseName, text);
    },
    ...(io.signal ? { signal: io.signal } : {}),
    ...(o.onUpdate ? { onUpdate: o.onUpdate } : {}),
  });
}

/** What has no price, each said once: a model whose replies, or whose judging, could not be priced. */
export function costNotes(results: readonly CellResult[]): string[] {
  const notes = new Set<string>();
  for (const r of results)
    for (const s of r.samples ?? []) {
      if (s.costNote) notes.add(s.costNote);
      if (s.judge?.costNote) notes.add(s.judge.costNote);
      for (const a of s.assertions) if (a.error?.type === 'no_price') notes.add(a.error.message);
    }
  return [...notes];
}
/** A cell of the whole run: which loaded file it belongs to (as shown, and on disk), and its case's id. */
export interface TestCell extends RunCell {
  file: string;
  abs?: string;
  /** the case file's own `mcp-servers:` (they win by name over .vscode/mcp.json's) */
  mcpServers?: Record<string, McpServerConfig>;
  /** the case's stable id (`case_id`) */
  caseId?: string;
}

/** How many cases a run chose, of how many its case files have. */
export interface ChosenCount {
  chosen: number;
  of: number;
}

/**
 * The cells of the case files, each case on each model (`models` replaces the files'), every problem printed as
 * `file:line:col`; `errors` counts them (then nothing may be sent).
 */
export async function prepareCells(
  files: readonly string[],
  cwd: string,
  io: CliIo,
  models: string[],
  settings: Pick<RunSettings, 'sampling'>,
  choice?: CaseChoice,
): Promise<{ cells: TestCell[]; errors: number; cases: ChosenCount }> {
  const betas = betasFromEnv(io.env);
  const cells: TestCell[] = [];
  const cases = { chosen: 0, of: 0 };
  let errors = 0;
  for (const f of files) {
    const keysOf = (l: LoadedCaseFile) => cellsOf(l.file, l.requestModel, models);
    const prepared = await prepareSuiteFile(f, cwd, io, {
      keysOf,
      cellName,
      betas,
      sampling: settings.sampling,
      ...(choice ? { choice } : {}),
    });
    errors += prepared.errors;
    cases.chosen += prepared.cases?.chosen ?? 0;
    cases.of += prepared.cases?.of ?? 0;
    const source = prepared.loaded;
    const problem = source && !prepared.errors && samplingProblem(source.file, source.display, settings.sampling);
    if (problem) {
      io.stderr.write(`${problem}\n`);
      errors++;
    } else if (source)
      for (const c of prepared.cells) {
        const id = (caseNamed(source.file, c.caseName) as Partial<SuiteCase> | undefined)?.id;
        cells.push({
          ...c,
          file: source.display,
          abs: f,
          ...(source.file.mcpServers ? { mcpServers: source.file.mcpServers } : {}),
          ...(id ? { caseId: id } : {}),
        });
      }
  }
  errors += judgeProblems(cells, io);
  return { cells, errors, cases };
}

/**
 * Runs the cells as `run` says and prints them as they end (text: in order, as soon as those before have), then
 * hands back what the run did.
 */
export async function printRun<T extends RunOutcome>(
  cells: readonly TestCell[],
  outputFormat: string,
  io: CliIo,
  run: (onUpdate: (r: CellResult, u: CellUpdate, i: number) => void) => Promise<T>,
): Promise<T & { printer?: ReturnType<typeof inOrderPrinter> }> {
  const printer = outputFormat === 'text' ? inOrderPrinter(io, cells) : undefined;
  const outcome = await run((r, u, i) => {
    if (u.kind !== 'ended') return;
    printer?.ended(r, i);
    // JSON Lines: each cell's record as it ends, one a line
    if (outputFormat === 'jsonl')
      io.stdout.write(`${JSON.stringify(cellRecord(cells[i]!.file, r, cells[i]!.caseId))}\n`);
  });
  return { ...outcome, ...(printer ? { printer } : {}) };
}

/** What a run's report goes to: stdout in `format`, and each report file. */
export interface ReportTo {
  format: string;
  outputs: readonly ReportFile[];
}

/**
 * The report of a finished run (json, junit, markdown, or the text summary; and the report files) and its exit
 * code, as `test` prints it; why the run stopped early, when it did, on stderr.
 */
export async function endOfRun(
  results: readonly CellResult[],
  io: CliIo,
  report: ReportTo,
  cells: readonly TestCell[],
  ran: Pick<RunOutcome, 'judgeCalls' | 'judgeCached' | 'stopped' | 'stoppedModels'> & {
    printer?: ReturnType<typeof inOrderPrinter>;
  },
  chosen?: string,
): Promise<number> {
  const byFile = results.map((r, i) => ({ file: cells[i]!.file, r, id: cells[i]!.caseId }));
  const record = (c: (typeof byFile)[number]) => cellRecord(c.file, c.r, c.id);
  if (report.format === 'json') await printJsonArray(io, byFile, record);
  else if (report.format === 'junit') io.stdout.write(toJunit(byFile));
  else if (report.format === 'markdown') io.stdout.write(markdownReport(byFile));
  else if (report.format === 'text') ran.printer?.summary(results, ran.judgeCalls, ran.judgeCached);
  // how many cases were chosen of how many: under the summary, or beside the records
  if (chosen) (report.format === 'text' ? io.stdout : io.stderr).write(`${chosen}\n`);
  await writeOutputs(io, report.outputs, kind =>
    kind === 'junit' ? toJunit(byFile) : kind === 'markdown' ? markdownReport(byFile) : jsonList(byFile, kind, record),
  );
  return runEnded(
    io,
    costNotes(results),
    stopLines(results, ran),
    results.every(r => r.pass),
  );
}

/** What every run says last on stderr (prices it lacks, why cells were not sent, a cancel), and its exit code. */
export function runEnded(io: CliIo, costNotes: Iterable<string>, stops: readonly string[], pass: boolean): number {
  for (const note of costNotes) io.stderr.write(`promptwright test: cost unknown: ${note}\n`);
  for (const line of stops) io.stderr.write(`promptwright test: ${line}\n`);
  if (io.signal?.aborted) {
    io.stderr.write('promptwright test: Cancelled.\n');
    return EXIT.cancelled;
  }
  return pass ? EXIT.ok : EXIT.service;
}

/**
 * Why cells were not sent, a line each: the key the service refused (and the variable to set), a model it does not
 * know (its column), the first failure of a fail-fast run.
 */
export function stopLines(
  results: readonly Pick<CellResult, 'status' | 'model'>[],
  ran: Pick<RunOutcome, 'stopped' | 'stoppedModels'>,
): string[] {
  const skipped = results.filter(r => r.status === 'skipped');
  const notSent = (rs: readonly unknown[]) => `${count(rs.length, 'cell')} not sent`;
  const lines: string[] = [];
  const said = (e?: OutcomeError) =>
    e ? `${e.type}: ${e.message}${e.requestId ? ` (request-id ${e.requestId})` : ''}` : '';
  const stop = ran.stopped;
  if (stop?.kind === 'refused-key')
    lines.push(
      `the service refused the key (${said(stop.error)}): set PROMPTWRIGHT_API_KEY to a key it accepts; ` +
        `the run stopped, ${notSent(skipped)}`,
    );
  for (const [model, s] of ran.stoppedModels ?? []) {
    const column = skipped.filter(r => r.model === model);
    lines.push(`the service does not know ${model} (${said(s.error)}): its column stopped, ${notSent(column)}`);
  }
  if (stop?.kind === 'fail-fast' && skipped.length)
    lines.push(`--fail-fast: the run stopped at the first cell that did not pass, ${notSent(skipped)}`);
  return lines;
}

// ---- text: one line per cell, printed in order as soon as the cells before it have finished --------------

function inOrderPrinter(io: CliIo, cells: readonly TestCell[]) {
  const done: (CellResult | undefined)[] = cells.map(() => undefined);
  let printed = 0;
  const print = (r: CellResult, i: number) => {
    const cell = cells[i]!;
    if (i === 0 || cells[i - 1]!.file !== cell.file) io.stdout.write(`${cell.file}\n`);
    io.stdout.write(cellLines(r));
  };
  const flush = () => {
    while (printed < cells.length && done[printed]) print(done[printed]!, printed++);
  };
  return {
    ended(r: CellResult, i: number) {
      done[i] = r;
      flush();
    },
    summary(results: readonly CellResult[], judgeCalls: number, judgeCached: number) {
      // cells that never started (a cancel) are printed too, once everything has settled
      results.forEach((r, i) => (done[i] ??= r));
      flush();
      io.stdout.write(summaryLine(results) + judgeLine(judgeCalls, judgeCached));
    },
  };
}
