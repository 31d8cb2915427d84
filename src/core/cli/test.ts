// `promptwright test FILE...`: runs case files against the service for CI: every case on every
// model, each sample streamed, at most --concurrency requests at once, each judged by its assertions (a rubric
// by the judge model), through the case engine (testRun.ts, core/cases/engine.ts). A cell passes when at least
// min-pass of its samples pass. Exit 0 when every cell passes, 1 when any fails or a request fails, 2 for a
// usage error or a file with errors (nothing is sent then), 130 on Ctrl-C (what finished is printed first).
// With --base REF every cell runs on the files at that git revision too, and the report says what the change
// did (testBase.ts). With --batch the cells go as Message Batches, at half the price, resumable (testBatch.ts);
// a direct run is paced by the rate-limit headers (core/api/pacer.ts).
import { realPacer } from '../api/pacer';
import { sleep } from '../api/retry';
import type { RunArgs } from '../batches/store';
import { MAX_REPEAT } from '../cases/caseFile';
import { CASE_FILE_GLOB } from '../cases/fileNames';
import { DEFAULT_CASES_CONCURRENCY } from '../settings';
import { count } from '../text';
import { clientFromEnv, requireService } from './api';
import { all, one, parseArgs, UsageError, type Parsed } from './args';
import { filesOf } from './caseFiles';
import { choiceOption, chosenLine, CHOICE_OPTIONS } from './choice';
import { format } from './common';
import { pricesOption } from './prices';
import { EXIT, guarded } from './guard';
import type { CliIo } from './io';
import { testAgainstBase } from './testBase';
import { testAsBatch } from './testBatch';
import { mergeResults } from './testMerge';
import { endOfRun, prepareCells, printRun, runTestCells, samplingOption, type RunSettings } from './testRun';

const MAX_CONCURRENCY = 64;
/** Folders given as FILE stand for the case files in them. */

export function runTest(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  return guarded(io, 'test', async () => {
    const p = parseArgs(
      args,
      ['concurrency', 'model', 'base', 'repeat', 'min-pass', 'prices', ...CHOICE_OPTIONS],
      ['changed', 'no-cache', 'batch', 'no-wait', 'merge'],
    );
    const outputFormat = format(p, ['text', 'json', 'jsonl', 'junit', 'markdown'] as const);
    // the records of several runs (a CI matrix's shards) as one report: nothing is sent
    if (p.switches.has('merge')) return mergeResults(p.positionals, outputFormat, io, cwd);
    const choice = choiceOption(p);
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
    if (p.switches.has('no-wait') && !p.switches.has('batch'))
      throw new UsageError('--no-wait is for --batch: give --batch too');
    if (base !== undefined) {
      if (p.switches.has('batch')) throw new UsageError('--batch runs the working copy: not with --base');
      if (outputFormat === 'jsonl') throw new UsageError('--format jsonl is for a run of its own: not with --base');
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
    const { cells, errors, cases } = await prepareCells(files, cwd, io, models, settings, choice);
    const chosen = chosenLine(cases, choice);
    if (errors) {
      io.stderr.write(`promptwright test: nothing sent: ${count(errors, 'error')} (above)\n`);
      return EXIT.refused;
    }
    requireService(io);
    if (p.switches.has('batch')) {
      const noWait = p.switches.has('no-wait');
      const again = ['test', ...args.filter(a => a !== '--no-wait')];
      const o = { format: outputFormat, noWait, again, args: runArgs(p), ...(chosen ? { chosen } : {}) };
      return testAsBatch(cells, settings, io, cwd, o);
    }

    // the direct transport, paced by the rate-limit headers (core/api/pacer.ts): slower before the limit, not
    // after a storm of 429s
    const client = clientFromEnv(io, realPacer(sleep).hooks());
    const ran = await printRun(cells, outputFormat, io, onUpdate =>
      runTestCells(cells, settings, io, client, cwd, { onUpdate }),
    );
    return endOfRun(ran.results, io, outputFormat, cells, ran, chosen);
  });
}

/** What the command line said of the cells, kept with a batch so `batch collect` builds the same ones. */
function runArgs(p: Parsed): RunArgs {
  const models = all(p, 'model');
  const repeat = one(p, 'repeat');
  const minPass = one(p, 'min-pass');
  return {
    ...(models.length ? { models } : {}),
    ...(repeat !== undefined ? { repeat: Number(repeat) } : {}),
    ...(minPass !== undefined ? { minPass: Number(minPass) } : {}),
  };
}

function concurrencyOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_CASES_CONCURRENCY;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > MAX_CONCURRENCY)
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${raw}"`);
  return n;
}
