// `promptwright test --base REF [--changed] [FILE...]`: every cell runs on the working copy and on the case
// file (and its request) as they were at a git revision, in one run under one concurrency limit; each cell
// is then paired with its other self and the report says what the change did: same, fixed, broke, new (not
// at REF) or removed (only at REF). A version at REF that cannot be sent is reported with its problems (as
// a failure: the service would have refused it). The exit code is the working copy's, as `test` gives it.
import type { RunCell } from '../core/cases/engine';
import { caseNamed, cellsOf } from '../core/cases/runner';
import { versionCells } from '../core/cases/session';
import type { CellResult } from '../core/cases/types';
import { cellChange, pairCells, type CellChange } from '../core/diff/cells';
import { count } from '../core/text';
import { clientFromEnv, requireService } from './api';
import { UsageError } from './args';
import { baseSource, changedCaseFiles, comparedFiles, openBase, type Base, type ComparedFile } from './baseFiles';
import type { SuiteCase } from '../core/cases/load';
import { openSuiteFile, prepareSuiteFile, type LoadedCaseFile } from './caseFiles';
import { EXIT } from './guard';
import { betasFromEnv, type CliIo } from './io';
import { cellName } from './testReport';
import { printJsonArray } from './output';
import { baseReport, comparedRecord, type ComparedResult } from './testBaseReport';
import { jsonList, writeOutputs, type ReportFile } from './testOutputs';
import {
  costNotes,
  judgeProblems,
  overRequestLimit,
  runTestCells,
  samplingProblem,
  stopLines,
  type RunSettings,
} from './testRun';
import { isCaseFile } from '../core/fileNames';

export interface TestBaseOptions {
  base: string;
  changed: boolean;
  files: string[];
  format: 'text' | 'json' | 'junit' | 'markdown';
  settings: RunSettings;
  models: string[];
  folderGlob: string;
  /** --junit FILE, --output FILE */
  outputs: readonly ReportFile[];
}

/** A cell of the run, on one side: ready for the engine, or why it cannot be sent (`problems`). */
interface SideCell {
  side: 'base' | 'current';
  file: string;
  /** the case file on disk (the working copy's side), whose kept grades apply */
  abs?: string;
  caseName: string;
  model: string;
  /** a dataset's row: its case_id (the two sides' rows are paired by it) */
  rowId?: string;
  cell?: RunCell;
  problems?: string[];
}

/** The case_id of a cell's case when it is a dataset's row. */
function rowIdOf(loaded: LoadedCaseFile, caseName: string): string | undefined {
  const c = caseNamed(loaded.file, caseName) as Partial<SuiteCase> | undefined;
  return c?.from === 'dataset' ? c.id : undefined;
}

export async function testAgainstBase(o: TestBaseOptions, io: CliIo, cwd: string): Promise<number> {
  if (!o.changed && !o.files.length) throw new UsageError('expected at least one FILE, or --changed');
  const base = await openBase(o.base, cwd, io.signal);
  const files = o.changed
    ? changedCaseFiles(base, { args: o.files, cwd })
    : comparedFiles(base, { args: o.files, cwd, changed: false, folderGlob: o.folderGlob, include: isCaseFile });
  const betas = betasFromEnv(io.env);

  // the working copies, checked before anything is sent, as `test` checks them
  const current: SideCell[] = [];
  let errors = 0;
  const sampling = o.settings.sampling;
  for (const f of files) {
    if (!f.abs) continue;
    const keysOf = (l: LoadedCaseFile) => cellsOf(l.file, l.requestModel, o.models);
    const prepared = await prepareSuiteFile(f.abs, cwd, io, { keysOf, cellName, betas, sampling, display: f.display });
    errors += prepared.errors;
    const loaded = prepared.loaded;
    const problem = loaded && !prepared.errors && samplingProblem(loaded.file, f.display, sampling);
    if (problem) {
      io.stderr.write(`${problem}\n`);
      errors++;
    } else if (loaded)
      for (const c of prepared.cells) {
        const rowId = rowIdOf(loaded, c.caseName);
        current.push({
          side: 'current',
          file: f.display,
          abs: f.abs,
          caseName: c.caseName,
          model: c.model,
          ...(rowId ? { rowId } : {}),
          cell: c,
        });
      }
  }
  errors += judgeProblems(
    current.flatMap(c => (c.cell ? [{ ...c.cell, file: c.file }] : [])),
    io,
  );
  if (errors) {
    io.stderr.write(`promptwright test: nothing sent: ${count(errors, 'error')} (above)\n`);
    return EXIT.refused;
  }
  const { cells: before, fileProblems } = await baseCells(base, files, cwd, betas, o);

  const runnable = [...current, ...before].filter(c => c.cell);
  const over = await overRequestLimit(
    runnable.map(c => c.cell!),
    o.settings,
    io,
  );
  if (over !== undefined) return over;
  if (runnable.length) requireService(io);
  const client = clientFromEnv(io);
  const engineCells = runnable.map(c => ({ ...c.cell!, ...(c.abs ? { abs: c.abs } : {}) }));
  const { results, ...ran } = await runTestCells(engineCells, o.settings, io, client, cwd);
  const resultOf = new Map(runnable.map((c, i) => [c, results[i]!]));

  const compared: ComparedResult[] = pairCells(before, current).map(({ base: b, current: c }) => {
    const address = (c ?? b)!;
    const problems = b?.problems ?? (c && !b ? fileProblems.get(c.file) : undefined);
    const baseResult = b && !b.problems ? resultOf.get(b) : undefined;
    const now = c && resultOf.get(c);
    const change: CellChange = cellChange(problems ? null : baseResult, now);
    return {
      file: address.file,
      caseName: address.caseName,
      model: address.model,
      ...(address.rowId ? { rowId: address.rowId } : {}),
      ...(now ? { current: now } : {}),
      ...(problems ? { baseProblems: problems } : baseResult ? { base: baseResult } : {}),
      change,
    };
  });

  if (o.format === 'json') await printJsonArray(io, compared, comparedRecord);
  else io.stdout.write(baseReport(o.format, compared, { ref: base.ref, sha: base.sha }));
  await writeOutputs(io, o.outputs, kind =>
    kind === 'json' || kind === 'jsonl'
      ? jsonList(compared, kind, comparedRecord)
      : baseReport(kind, compared, { ref: base.ref, sha: base.sha }),
  );
  for (const note of costNotes(results)) io.stderr.write(`promptwright test: cost unknown: ${note}\n`);
  for (const line of stopLines(results, ran)) io.stderr.write(`promptwright test: ${line}\n`);
  if (io.signal?.aborted) {
    io.stderr.write('promptwright test: Cancelled.\n');
    return EXIT.cancelled;
  }
  const now = compared.flatMap(c => (c.current ? [c.current] : []));
  return now.every((r: CellResult) => r.pass) ? EXIT.ok : EXIT.service;
}

/**
 * The cells of each file as it was at the base, its own assertions with each. A case file there that cannot
 * be read at all has problems for the whole file (its cells are unknown); a cell whose body has errors has
 * its own.
 */
async function baseCells(
  base: Base,
  files: readonly ComparedFile[],
  cwd: string,
  betas: string[],
  o: Pick<TestBaseOptions, 'models' | 'settings'>,
): Promise<{ cells: SideCell[]; fileProblems: Map<string, string[]> }> {
  const source = await baseSource(base, files);
  const cells: SideCell[] = [];
  const fileProblems = new Map<string, string[]>();
  for (const f of files) {
    if (!f.baseAbs || !source(f.baseAbs, f.display)) continue;
    // its dataset as it was there (read whole from git), its rows kept to pair with the working copy's
    const opened = await openSuiteFile(f.baseAbs, cwd, { source, display: f.display });
    const version = versionCells(opened, { betas, models: o.models, sampling: o.settings.sampling });
    if (version.problems) {
      fileProblems.set(f.display, version.problems);
      continue;
    }
    for (const c of version.cells) {
      const rowId = rowIdOf(opened.loaded!, c.caseName);
      cells.push({ side: 'base', file: f.display, ...c, ...(rowId ? { rowId } : {}) });
    }
  }
  return { cells, fileProblems };
}
