// `promptwright test FILE...`: runs case files against the service for CI: every case on every
// model, each sample streamed, at most --concurrency requests at once, each judged by its assertions (a rubric
// by the judge model), through the case engine (testRun.ts, core/cases/engine.ts). A cell passes when at least
// min-pass of its samples pass. Exit 0 when every cell passes, 1 when any fails or a request fails, 2 for a
// usage error or a file with errors (nothing is sent then), 130 on Ctrl-C (what finished is printed first).
// With --base REF every cell runs on the files at that git revision too, and the report says what the change
// did (testBase.ts). With --batch the cells go as Message Batches, at half the price, resumable (testBatch.ts);
// a direct run is paced by the rate-limit headers (core/api/pacer.ts). --junit FILE and --output FILE write
// reports beside what the terminal shows (testOutputs.ts).
import { realPacer } from '../core/api/pacer';
import { sleep } from '../core/api/retry';
import { MAX_REPEAT } from '../core/cases/caseFile';
import { CASE_FILE_GLOB } from '../core/fileNames';
import { DEFAULT_CASES_CONCURRENCY } from '../core/settings';
import { count } from '../core/text';
import { clientFromEnv, requireService, waitNotice } from './api';
import { all, formatOption, one, parseArgs, UsageError, type Command, type Option, type Parsed } from './args';
import { filesOf } from './caseFiles';
import { choiceOption, chosenLine, CHOICE_OPTIONS } from './choice';
import { CTRL_C, EXIT, guarded } from './guard';
import type { CliIo } from './io';
import { PRICES, pricesOption } from './prices';
import { testAgainstBase } from './testBase';
import { testAsBatch, testSpooledBatch } from './testBatch';
import { mergeResults } from './testMerge';
import { outputsOf, REPORT_OPTIONS } from './testOutputs';
import { RunTools } from './testTools';
import {
  endOfRun,
  maxRequestsOption,
  overRequestLimit,
  prepareCells,
  printRun,
  runTestCells,
  samplingOption,
  type RunSettings,
} from './testRun';

const MAX_CONCURRENCY = 64;

/** The options of a run's cells, shared with `batch collect`'s reports. */
const CELL_OPTIONS: readonly Option[] = [
  { name: 'concurrency', value: 'N', help: `cells in flight at once, 1 to ${MAX_CONCURRENCY} (default 4)` },
  {
    name: 'model',
    value: 'M',
    repeatable: true,
    help: "run on this model instead of the case files' models (or the request's own)",
  },
  { name: 'repeat', value: 'N', help: `samples per cell, 1 to ${MAX_REPEAT} (default: the file's repeat, else 1)` },
  {
    name: 'min-pass',
    value: 'K',
    help: "samples that must pass for the cell to pass (default: the file's min-pass, else all); at most the samples",
  },
];

export const TEST: Command = {
  name: 'test',
  args: '[FILE...]',
  summary:
    'Runs case files (*.cases.yaml, *.cases.json) against the service: each case on each model, each sample ' +
    'streamed, judged by its assertions (rubric: by the judge model). Everything is checked before anything is ' +
    'sent. --batch sends the cells as Message Batches (half the price, resumable); --base REF runs them on the ' +
    'files at a git revision too and says what the change did.',
  options: [
    formatOption(
      ['text', 'json', 'jsonl', 'junit', 'markdown'],
      'what stdout shows (default text); jsonl: a cell record a line, as each cell ends',
    ),
    ...REPORT_OPTIONS,
    ...CELL_OPTIONS,
    PRICES,
    { name: 'no-cache', help: 'ask the judge again instead of reusing kept verdicts (the new ones are kept)' },
    {
      name: 'max-requests',
      value: 'N',
      help:
        'send nothing when the run would send more than N requests (replies and judge calls; default 1,000, ' +
        'asked at a terminal outside CI)',
    },
    { name: 'fail-fast', short: 'x', help: 'stop sending after the first cell that does not pass' },
    ...CHOICE_OPTIONS,
    { name: 'batch', help: 'send the cells as Message Batches: every token at half the price, within 24 hours' },
    { name: 'no-wait', help: 'with --batch: submit, print the batch ids, and exit' },
    { name: 'base', value: 'REF', help: 'run every cell on the files at git revision REF too, and compare' },
    { name: 'changed', help: 'with --base: the case files that differ from REF, or whose request file does' },
    {
      name: 'record',
      help:
        'tool-use loops: answer the calls no case-file entry matches live (mcp, simulate) and write them to ' +
        "NAME.fixtures.yaml beside NAME.cases.yaml, which later runs read after the case file's own entries",
    },
    {
      name: 'merge',
      help:
        'read FILE... as the cell records of earlier runs (--format jsonl or json: the shards of a CI matrix) and ' +
        'print them as one report; sends nothing',
    },
  ],
  exits: {
    0: 'every cell passed (a cell with no assertions too)',
    1:
      'a cell did not pass: an assertion failed, a request or its judge failed, no price for max-cost, a cell ' +
      'skipped, expired or cancelled in its batch',
    2:
      'a usage error, a file with errors, a rubric without a judge model, min-pass above the samples run, or no ' +
      'key or address (nothing sent)',
    130: CTRL_C,
  },
};

export function runTest(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  return guarded(io, 'test', async () => {
    const p = parseArgs(args, TEST);
    const outputFormat = (one(p, 'format') ?? 'text') as 'text' | 'json' | 'jsonl' | 'junit' | 'markdown';
    // the records of several runs (a CI matrix's shards) as one report: nothing is sent
    if (p.switches.has('merge')) return mergeResults(p.positionals, outputFormat, io, cwd);
    const outputs = outputsOf(p, cwd);
    const choice = choiceOption(p);
    const settings: RunSettings = {
      concurrency: concurrencyOf(one(p, 'concurrency')),
      sampling: samplingOption(p, MAX_REPEAT),
      prices: pricesOption(p, cwd),
      refresh: p.switches.has('no-cache'),
      failFast: p.switches.has('fail-fast'),
    };
    const maxRequests = maxRequestsOption(p);
    if (maxRequests !== undefined) settings.maxRequests = maxRequests;
    const models = all(p, 'model');
    if (models.some(m => !m.trim())) throw new UsageError('--model needs a model id');
    const base = one(p, 'base');
    const changed = p.switches.has('changed');
    const batch = p.switches.has('batch');
    if (p.switches.has('no-wait') && !batch) throw new UsageError('--no-wait is for --batch: give --batch too');
    const record = p.switches.has('record');
    if (record && (batch || base !== undefined))
      throw new UsageError('--record runs the working copy directly: not with --batch or --base');
    if (settings.failFast && (batch || base !== undefined))
      throw new UsageError(
        '--fail-fast stops a direct run at its first failure: ' +
          (batch ? 'a batch sends every cell at once' : 'not with --base, which compares every cell'),
      );
    if (base !== undefined) {
      if (batch) throw new UsageError('--batch runs the working copy: not with --base');
      if (outputFormat === 'jsonl') throw new UsageError('--format jsonl is for a run of its own: not with --base');
      if (!base.trim()) throw new UsageError('--base needs a git revision (HEAD, origin/main, a commit)');
      const o = { base, changed, files: p.positionals, format: outputFormat, settings, models, outputs };
      return testAgainstBase({ ...o, folderGlob: CASE_FILE_GLOB }, io, cwd);
    }
    if (changed) throw new UsageError('--changed compares with a revision: give --base REF too');
    const files = filesOf(p.positionals, cwd, CASE_FILE_GLOB);

    const report = { format: outputFormat, outputs };
    const noWait = p.switches.has('no-wait');
    const again = ['test', ...args.filter(a => a !== '--no-wait')];
    const batchRun = { ...report, noWait, again, args: runArgs(p) };
    // a batch: the suite goes through a spool on disk, in memory bounded by what is in flight, in every format and
    // report file (a suite of tool-use loops, which goes a round at a time, is held in memory below)
    if (batch) {
      const spooled = await testSpooledBatch(files, cwd, io, { models, settings, ...(choice ? { choice } : {}) });
      if (spooled !== undefined) return spooled(batchRun);
    }

    // everything is checked before anything is sent
    const { cells, errors, cases } = await prepareCells(files, cwd, io, models, settings, choice);
    const chosen = chosenLine(cases, choice);
    if (errors) {
      io.stderr.write(`promptwright test: nothing sent: ${count(errors, 'error')} (above)\n`);
      return EXIT.refused;
    }
    const over = await overRequestLimit(cells, settings, io);
    if (over !== undefined) return over;
    requireService(io);
    if (batch) return testAsBatch(cells, settings, io, cwd, { ...batchRun, ...(chosen ? { chosen } : {}) });

    // the direct transport, paced by the rate-limit headers (core/api/pacer.ts): slower before the limit, not
    // after a storm of 429s; a wait over 2 s is said
    const client = clientFromEnv(io, realPacer(sleep, waitNotice(io)).hooks());
    const tools = new RunTools(io, client, { record });
    try {
      const ran = await printRun(cells, outputFormat, io, onUpdate =>
        runTestCells(cells, settings, io, client, cwd, { onUpdate, tools }),
      );
      // --record: each loop case file's fixtures replaced with what was recorded (not after a Ctrl-C: half a run)
      if (record && !io.signal?.aborted)
        tools.writeFixtures([...new Set(cells.flatMap(c => (c.tools && c.abs !== undefined ? [c.abs] : [])))], cwd);
      return await endOfRun(ran.results, io, report, cells, ran, chosen);
    } finally {
      await tools.close();
    }
  });
}

/** What the command line said of the cells, kept with a batch. */
function runArgs(p: Parsed) {
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
