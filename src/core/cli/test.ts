// `promptwright test FILE...`: runs case files against the service for CI: every case on every
// model, each sample streamed, at most --concurrency requests at once, each judged by its assertions (a rubric
// by the judge model), through the case engine (testRun.ts, core/cases/engine.ts). A cell passes when at least
// min-pass of its samples pass. Exit 0 when every cell passes, 1 when any fails or a request fails, 2 for a
// usage error or a file with errors (nothing is sent then), 130 on Ctrl-C (what finished is printed first).
// With --base REF every cell runs on the files at that git revision too, and the report says what the change
// did (testBase.ts).
import { MAX_REPEAT } from '../cases/caseFile';
import { runCellOf, type RunCell } from '../cases/engine';
import { CASE_FILE_GLOB } from '../cases/fileNames';
import { cellsOf } from '../cases/runner';
import type { CellResult } from '../cases/types';
import { DEFAULT_CASES_CONCURRENCY } from '../settings';
import { count } from '../text';
import { clientFromEnv, requireService } from './api';
import { all, one, parseArgs, UsageError } from './args';
import { filesOf, prepareCaseFile, type LoadedCaseFile } from './caseFiles';
import { format } from './common';
import { pricesOption } from './prices';
import { EXIT, guarded } from './guard';
import { betasFromEnv, type CliIo } from './io';
import { testAgainstBase } from './testBase';
import { cellName, cellRecord, figures, summaryLine, toJunit, verdictWord, whyLines } from './testReport';
import { costNotes, judgeProblems, runTestCells, samplingOption, type RunSettings } from './testRun';

const MAX_CONCURRENCY = 64;
/** Folders given as FILE stand for the case files in them. */

/** A cell of the whole run: which loaded file it belongs to (as shown, and on disk). */
interface TestCell extends RunCell {
  source: LoadedCaseFile;
  file: string;
  abs: string;
}

export function runTest(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  return guarded(io, 'test', async () => {
    const p = parseArgs(
      args,
      ['concurrency', 'model', 'base', 'repeat', 'min-pass', 'prices'],
      ['changed', 'no-cache'],
    );
    const outputFormat = format(p, ['text', 'json', 'junit', 'markdown'] as const);
    const settings: RunSettings = {
      concurrency: concurrencyOf(one(p, 'concurrency')),
      sampling: samplingOption(p, MAX_REPEAT),
      prices: pricesOption(p, cwd),
      refresh: p.switches.has('no-cache'),
    };
    const models = all(p, 'model');
    if (models.some(m => !m.trim())) throw new UsageError('--model needs a model id');
    const base = one(p, 'base');
    const changed = p.switches.has('changed');
    if (base !== undefined) {
      if (!base.trim()) throw new UsageError('--base needs a git revision (HEAD, origin/main, a commit)');
      const o = {
        base,
        changed,
        files: p.positionals,
        format: outputFormat,
        settings,
        models,
        folderGlob: CASE_FILE_GLOB,
      };
      return testAgainstBase(o, io, cwd);
    }
    if (changed || outputFormat === 'markdown')
      throw new UsageError(
        `${changed ? '--changed' : '--format markdown'} compares with a revision: give --base REF too`,
      );
    const files = filesOf(p.positionals, cwd, CASE_FILE_GLOB);

    // everything is checked before anything is sent
    const betas = betasFromEnv(io.env);
    const cells: TestCell[] = [];
    let errors = 0;
    for (const f of files) {
      const keysOf = (l: LoadedCaseFile) => cellsOf(l.file, l.requestModel, models);
      const prepared = prepareCaseFile(f, cwd, io, { keysOf, cellName, betas });
      errors += prepared.errors;
      const source = prepared.loaded;
      if (source)
        for (const c of prepared.cells)
          cells.push({ ...runCellOf(source, c, settings.sampling), source, file: source.display, abs: f });
    }
    errors += judgeProblems(cells, io);
    if (errors) {
      io.stderr.write(`promptwright test: nothing sent: ${count(errors, 'error')} (above)\n`);
      return EXIT.refused;
    }
    requireService(io);

    const client = clientFromEnv(io);
    const printer = outputFormat === 'text' ? inOrderPrinter(io, cells) : undefined;
    const { results, judgeCalls, judgeCached } = await runTestCells(cells, settings, io, client, cwd, (r, u, i) => {
      if (u.kind === 'ended') printer?.ended(r, i);
    });
    const byFile = results.map((r, i) => ({ file: cells[i]!.source.display, r }));
    if (outputFormat === 'json')
      io.stdout.write(
        `${JSON.stringify(
          byFile.map(c => cellRecord(c.file, c.r)),
          null,
          2,
        )}\n`,
      );
    else if (outputFormat === 'junit') io.stdout.write(toJunit(byFile));
    else printer?.summary(results, judgeCalls, judgeCached);
    for (const note of costNotes(results)) io.stderr.write(`promptwright test: cost unknown: ${note}\n`);
    if (io.signal?.aborted) {
      io.stderr.write('promptwright test: Cancelled.\n');
      return EXIT.cancelled;
    }
    return results.every(r => r.pass) ? EXIT.ok : EXIT.service;
  });
}

function concurrencyOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_CASES_CONCURRENCY;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > MAX_CONCURRENCY)
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${raw}"`);
  return n;
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
