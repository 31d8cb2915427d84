// How `promptwright test` (and `test --base`) runs its cells: the case engine (core/cases/engine.ts) with the
// CLI's direct transport (each sample streamed through the client from the environment, at most --concurrency
// at once), its judge (the same client, PROMPTWRIGHT_JUDGE_MODEL by default, verdicts kept in
// PROMPTWRIGHT_CACHE_DIR unless --no-cache), its prices (--prices FILE over the built-in table) and the grades
// people gave replies in the editor (the repository's .promptwright/results/, when it keeps them there).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ApiClient } from '../api/client';
import { directTransport, runCells, type CellUpdate, type RunCell, type RunOutcome } from '../cases/engine';
import { gradeFor, parseResults, resultsPath } from '../cases/results';
import { runCell, type Sampling } from '../cases/runner';
import type { CellResult } from '../cases/types';
import { DirectoryVerdictCache } from '../cases/verdictCache';
import type { PriceTable } from '../cost/prices';
import { one, UsageError, type Parsed } from './args';
import { cacheDir } from './env';
import type { CliIo } from './io';

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

/** Runs the cells through the engine as the CLI does. */
export function runTestCells<C extends RunCell & { abs?: string }>(
  cells: readonly C[],
  settings: RunSettings,
  io: CliIo,
  client: ApiClient,
  cwd: string,
  onUpdate?: (r: CellResult, update: CellUpdate, index: number) => void,
): Promise<RunOutcome> {
  const grades = new Map<string, ReturnType<typeof gradesOf>>();
  const cache = new DirectoryVerdictCache(path.join(cacheDir(io.env), 'verdicts'), m =>
    io.stderr.write(`promptwright test: ${m}\n`),
  );
  const judgeModel = io.env.PROMPTWRIGHT_JUDGE_MODEL;
  return runCells({
    cells,
    transport: directTransport({
      concurrency: settings.concurrency,
      send: (job, signal, onEvent) => runCell(client, job.body, { signal, onEvent }),
    }),
    prices: settings.prices,
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
    ...(onUpdate ? { onUpdate } : {}),
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
