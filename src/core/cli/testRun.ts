// How `promptwright test` (and `test --base`) runs its cells: the case engine (core/cases/engine.ts) with the
// CLI's direct transport (each sample streamed through the client from the environment, at most --concurrency
// at once), its judge (the same client, PROMPTWRIGHT_JUDGE_MODEL by default, verdicts kept in
// PROMPTWRIGHT_CACHE_DIR unless --no-cache), its prices (--prices FILE over the built-in table) and the grades
// people gave replies in the editor (the repository's .promptwright/results/, when it keeps them there).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ApiClient } from '../api/client';
import {
  directTransport,
  runCellOf,
  runCells,
  type CellUpdate,
  type RunCell,
  type RunOutcome,
  type Transport,
} from '../cases/engine';
import { gradeFor, parseResults, resultsPath } from '../cases/results';
import type { CaseChoice } from '../cases/choose';
import type { SuiteCase } from '../cases/load';
import { caseNamed, cellsOf, runCell, type Sampling } from '../cases/runner';
import type { CellResult } from '../cases/types';
import { DirectoryVerdictCache } from '../cases/verdictCache';
import type { PriceTable } from '../cost/prices';
import { count } from '../text';
import { one, UsageError, type Parsed } from './args';
import { prepareSuiteFile, type LoadedCaseFile } from './caseFiles';
import { cacheDir } from './env';
import { EXIT } from './guard';
import { betasFromEnv, type CliIo } from './io';
import { printJsonArray } from './output';
import { cellName, cellRecord, figures, summaryLine, toJunit, verdictWord, whyLines } from './testReport';

/** What the command line says of a run's samples, prices and verdict cache. */
export interface RunSettings {
  concurrency: number;
  sampling: Sampling;
  prices: PriceTable;
  /** --no-cache: ask the judge again (and keep what it says) */
  refresh: boolean;
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

/** `--repeat N` and `--min-pass K`: K of N at most. */
export function samplingOption(p: Parsed, maxRepeat: number): Sampling {
  const repeat = wholeOption(p, 'repeat', maxRepeat);
  const minPass = wholeOption(p, 'min-pass', maxRepeat);
  if (repeat !== undefined && minPass !== undefined && minPass > repeat)
    throw new UsageError(`--min-pass ${minPass} asks for more samples than --repeat ${repeat} runs`);
  return { ...(repeat !== undefined ? { repeat } : {}), ...(minPass !== undefined ? { minPass } : {}) };
}

/** Rubrics with no judge model to grade them (none in the case file, no PROMPTWRIGHT_JUDGE_MODEL): one error per
 * case file, said before anything is sent. */
export function judgeProblems(cells: readonly (RunCell & { file: string })[], io: CliIo): number {
  if (io.env.PROMPTWRIGHT_JUDGE_MODEL) return 0;
  const files = [
    ...new Set(cells.filter(c => !c.judge?.model && c.assertions.some(a => 'rubric' in a)).map(c => c.file)),
  ];
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
 * --concurrency at once; or through `transport` (Message Batches: `batch` prices every token at half).
 */
export function runTestCells<C extends RunCell & { abs?: string }>(
  cells: readonly C[],
  settings: RunSettings,
  io: CliIo,
  client: ApiClient,
  cwd: string,
  o: {
    onUpdate?: (r: CellResult, update: CellUpdate, index: number) => void;
    transport?: Transport;
    batch?: boolean;
  } = {},
): Promise<RunOutcome> {
  const grades = new Map<string, ReturnType<typeof gradesOf>>();
  const cache = new DirectoryVerdictCache(path.join(cacheDir(io.env), 'verdicts'), m =>
    io.stderr.write(`promptwright test: ${m}\n`),
  );
  const judgeModel = io.env.PROMPTWRIGHT_JUDGE_MODEL;
  return runCells({
    cells,
    transport:
      o.transport ??
      directTransport({
        concurrency: settings.concurrency,
        send: (job, signal, onEvent) => runCell(client, job.body, { signal, onEvent }),
      }),
    prices: settings.prices,
    ...(o.batch ? { batch: true } : {}),
    judging: {
      call: (body, signal) => client.createMessage(body, { signal }),
      ...(judgeModel ? { defaultModel: judgeModel } : {}),
      cache,
      refresh: settings.refresh,
    },
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
  source: LoadedCaseFile;
  file: string;
  abs: string;
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
    const prepared = await prepareSuiteFile(f, cwd, io, { keysOf, cellName, betas, ...(choice ? { choice } : {}) });
    errors += prepared.errors;
    cases.chosen += prepared.cases?.chosen ?? 0;
    cases.of += prepared.cases?.of ?? 0;
    const source = prepared.loaded;
    if (source)
      for (const c of prepared.cells) {
        const id = (caseNamed(source.file, c.caseName) as Partial<SuiteCase> | undefined)?.id;
        cells.push({
          ...runCellOf(source, c, settings.sampling),
          source,
          file: source.display,
          abs: f,
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

/** The report of a finished run (json, junit, or the text summary) and its exit code, as `test` prints it. */
export async function endOfRun(
  results: readonly CellResult[],
  io: CliIo,
  outputFormat: string,
  cells: readonly TestCell[],
  judge: { judgeCalls: number; judgeCached: number; printer?: ReturnType<typeof inOrderPrinter> },
  chosen?: string,
): Promise<number> {
  const byFile = results.map((r, i) => ({ file: cells[i]!.source.display, r, id: cells[i]!.caseId }));
  if (outputFormat === 'json') await printJsonArray(io, byFile, c => cellRecord(c.file, c.r, c.id));
  else if (outputFormat === 'junit') io.stdout.write(toJunit(byFile));
  else if (outputFormat === 'text') judge.printer?.summary(results, judge.judgeCalls, judge.judgeCached);
  // how many cases were chosen of how many: under the summary, or beside the records
  if (chosen) (outputFormat === 'text' ? io.stdout : io.stderr).write(`${chosen}\n`);
  for (const note of costNotes(results)) io.stderr.write(`promptwright test: cost unknown: ${note}\n`);
  if (io.signal?.aborted) {
    io.stderr.write('promptwright test: Cancelled.\n');
    return EXIT.cancelled;
  }
  return results.every(r => r.pass) ? EXIT.ok : EXIT.service;
}

// ---- text: one line per cell, printed in order as soon as the cells before it have finished --------------

function inOrderPrinter(io: CliIo, cells: readonly TestCell[]) {
  const done: (CellResult | undefined)[] = cells.map(() => undefined);
  let printed = 0;
  const print = (r: CellResult, i: number) => {
    const cell = cells[i]!;
    if (i === 0 || cells[i - 1]!.source !== cell.source) io.stdout.write(`${cell.source.display}\n`);
    const flaky = r.flaky ? '  flaky' : '';
    io.stdout.write(`  ${verdictWord(r).padEnd(9)} ${r.caseName} · ${r.model}${figures(r)}${flaky}\n`);
    for (const why of whyLines(r)) io.stdout.write(`            ${why}\n`);
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
      io.stdout.write(summaryLine(results));
      if (judgeCalls || judgeCached)
        io.stdout.write(
          `judge: ${count(judgeCalls, 'request')} sent, ${count(judgeCached, 'verdict')} from the cache\n`,
        );
    },
  };
}
