// `promptwright test FILE...`: runs case files against the service for CI: every case on every
// model, streamed, at most --concurrency at once, each judged by its assertions. Exit 0 when every assertion
// of every cell passes, 1 when any fails or a request fails, 2 for a usage error or a file with errors
// (nothing is sent then), 130 on Ctrl-C (what finished is printed first). With --base REF every cell runs
// on the files at that git revision too, and the report says what the change did (testBase.ts).
import { cellsOf, runCell, runMatrix } from '../cases/runner';
import type { CellKey, CellResult } from '../cases/types';
import { count } from '../text';
import { clientFromEnv, requireService } from './api';
import { all, one, parseArgs, UsageError } from './args';
import { filesOf, prepareCaseFile, type LoadedCaseFile } from './caseFiles';
import { format } from './common';
import { EXIT, guarded } from './guard';
import { betasFromEnv, type CliIo } from './io';
import { testAgainstBase } from './testBase';
import { cellName, cellRecord, figures, summaryLine, toJunit, VERDICT, whyLines } from './testReport';

const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 64;
/** Folders given as FILE stand for the case files in them. */
const CASE_FOLDER_GLOB = '**/*.cases.{yaml,yml,json}';

/** A cell of the whole run: which loaded file it belongs to, and the body it sends. */
interface RunCell extends CellKey {
  source: LoadedCaseFile;
  body: Record<string, unknown>;
}

export function runTest(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  return guarded(io, 'test', async () => {
    const p = parseArgs(args, ['concurrency', 'model', 'base'], ['changed']);
    const outputFormat = format(p, ['text', 'json', 'junit', 'markdown'] as const);
    const concurrency = concurrencyOf(one(p, 'concurrency'));
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
        concurrency,
        models,
        folderGlob: CASE_FOLDER_GLOB,
      };
      return testAgainstBase(o, io, cwd);
    }
    if (changed || outputFormat === 'markdown')
      throw new UsageError(
        `${changed ? '--changed' : '--format markdown'} compares with a revision: give --base REF too`,
      );
    const files = filesOf(p.positionals, cwd, CASE_FOLDER_GLOB);

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

// ---- text: one line per cell, printed in order as soon as the cells before it have finished --------------

function inOrderPrinter(io: CliIo, cells: readonly RunCell[]) {
  const done: (CellResult | undefined)[] = cells.map(() => undefined);
  let printed = 0;
  const print = (r: CellResult, i: number) => {
    const cell = cells[i]!;
    if (i === 0 || cells[i - 1]!.source !== cell.source) io.stdout.write(`${cell.source.display}\n`);
    io.stdout.write(`  ${VERDICT[r.status].padEnd(9)} ${r.caseName} · ${r.model}${figures(r)}\n`);
    for (const why of whyLines(r)) io.stdout.write(`            ${why}\n`);
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
      io.stdout.write(summaryLine(results));
    },
  };
}
