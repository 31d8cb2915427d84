// Suites at scale (npm run bench): `promptwright test FILE --batch` as a whole process, against the fake over TCP, on a
// suite of 10,000 requests (2,500 cases × 2 models × 2 samples) sent as one Message Batch; `--batch` on a dataset of
// 100,000 rows against one of 1,000 (JSON Lines; text with --junit); and a direct run of 2,000 cells against the fake's
// request limit, paced by the rate-limit headers. Figures: creates made; the CLI's peak resident memory against the
// same process printing `--version`, and on 100,000 rows against 1,000; results matched to their cells; the time from
// the first poll that saw the batch `ended` to the last verdict printed; and the 429s of the direct run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BatchesClient } from '../src/core/api/batches';
import { Http } from '../src/core/api/http';
import { startFake } from '../test/fake/server';
import type { Figure } from './bench';

const CASES = 2_500;
const MODELS = ['model-sonnet-4-6', 'model-haiku-4-5'];
const SAMPLES = 2;
const REQUESTS = CASES * MODELS.length * SAMPLES;
const DIRECT_CASES = 1_000;
/** The direct run's limit, time scaled 20×: 600 requests per 3 s stands for 600 per minute. */
const LIMIT = { limit: 600, windowMs: 3_000 };
/** The batch's processing time at the fake, and the CLI's poll (first and longest wait). */
const PROCESSING_MS = 3_000;
const POLL_MS = '50,200';
/** A process still running after this is killed (and the bench fails). */
const RUN_LIMIT_MS = 240_000;
/** The dataset of the JSON Lines batch run, and the one its memory is measured against. */
const DATASET_ROWS = 100_000;
const FLOOR_ROWS = 1_000;

interface Cell {
  case: string;
  status: string;
  batch_id?: string;
  samples?: { status: string }[];
}

interface Ran {
  code: number | null;
  out: string;
  err: string;
  /** peak resident memory (KB), as the process read it of itself on exit */
  peakKb: number;
  /** when the last chunk of stdout arrived (Date.now()) */
  lastOutAt: number;
}

/** A suite of `cases` × the models × `repeat`: each case says its word, asserted to be there. */
function writeSuite(dir: string, name: string, cases: number, repeat: number): string {
  const messages = [{ role: 'user', content: 'Say {{word}}' }];
  fs.writeFileSync(
    path.join(dir, 'say.prompt.json'),
    JSON.stringify({ model: 'model-opus-4-7', max_tokens: 50, messages }),
  );
  const file = `${name}.cases.json`;
  const suite = {
    request: 'say.prompt.json',
    models: MODELS,
    ...(repeat > 1 ? { repeat } : {}),
    cases: Array.from({ length: cases }, (_, i) => ({
      name: `case ${i}`,
      vars: { word: `word${i}` },
      assert: [{ contains: `word${i}` }],
    })),
  };
  fs.writeFileSync(path.join(dir, file), JSON.stringify(suite));
  return file;
}

/**
 * `promptwright ARGS` as a process; a module loaded first (--require) writes its peak resident memory
 * (getrusage's maxRSS, Linux's VmHWM) to a file as it exits.
 */
async function runCli(dir: string, env: Record<string, string | undefined>, args: string[]): Promise<Ran> {
  const peakFile = path.join(dir, `peak-${process.hrtime.bigint()}`);
  const child = spawn(
    process.execPath,
    ['--require', path.join(dir, 'peak.cjs'), path.resolve('dist/cli.js'), ...args],
    { cwd: dir, env: { ...env, PW_BENCH_PEAK_FILE: peakFile }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  let lastOutAt = 0;
  child.stdout.on('data', d => {
    out += String(d);
    lastOutAt = Date.now();
  });
  child.stderr.on('data', d => (err += String(d)));
  const stuck = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
  const code = await new Promise<number | null>(resolve => child.on('close', resolve));
  clearTimeout(stuck);
  if (!fs.existsSync(peakFile))
    throw new Error(
      `promptwright ${args.join(' ')} ended without exiting (code ${code}; killed after ` +
        `${RUN_LIMIT_MS / 1000} s or crashed)\n${err.slice(-2000)}`,
    );
  return { code, out, err, peakKb: Number(fs.readFileSync(peakFile, 'utf8')), lastOutAt };
}

export async function batchBench(figs: Figure[]): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-bench-batch-'));
  fs.writeFileSync(
    path.join(dir, 'peak.cjs'),
    "process.on('exit', () => require('fs').writeFileSync(process.env.PW_BENCH_PEAK_FILE, " +
      'String(process.resourceUsage().maxRSS)));\n',
  );
  try {
    await asBatch(dir, figs);
    await datasetBatch(dir, figs);
    await direct(dir, figs);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The CLI's environment for a batch run against `fake`: its own cache, a quick poll. */
function batchEnv(fake: { url: string; apiKey: string }, dir: string): Record<string, string | undefined> {
  return {
    ...process.env,
    PROMPTWRIGHT_BASE_URL: fake.url,
    PROMPTWRIGHT_API_KEY: fake.apiKey,
    PROMPTWRIGHT_CACHE_DIR: path.join(dir, 'cache'),
    PROMPTWRIGHT_BATCH_POLL_MS: POLL_MS,
  };
}

async function asBatch(dir: string, figs: Figure[]): Promise<void> {
  const fake = await startFake({ keepAliveMs: 60_000, batchProcessingMs: PROCESSING_MS });
  try {
    const file = writeSuite(dir, 'batch', CASES, SAMPLES);
    const env = batchEnv(fake, dir);
    // the floor: the median of three (a single one varied by a third between runs)
    const floors: number[] = [];
    for (let i = 0; i < 3; i++) floors.push((await runCli(dir, env, ['--version'])).peakKb);
    const floorKb = floors.sort((a, b) => a - b)[1]!;
    const ran = await runCli(dir, env, ['test', file, '--batch', '--format', 'json', '--max-requests', `${REQUESTS}`]);
    if (ran.code !== 0) throw new Error(`promptwright test --batch exited ${ran.code}\n${ran.err.slice(-2000)}`);
    const creates = fake.requests.filter(r => r.method === 'POST' && r.path === '/v1/messages/batches');
    const direct = fake.requests.filter(r => r.method === 'POST' && r.path === '/v1/messages').length;
    const id = fake.batches.all[0]!.id;
    const cells = JSON.parse(ran.out) as Cell[];
    const matched = cells
      .filter(c => c.batch_id === id)
      .reduce((n, c) => n + (c.samples ?? [c]).filter(s => s.status === 'passed').length, 0);
    // the batch as the service says it: when it ended; the first poll answered after that is when the CLI knew
    const { batch } = await new BatchesClient(new Http({ baseUrl: fake.url, apiKey: fake.apiKey })).retrieve(id);
    const endedAt = Date.parse(batch.ended_at ?? '');
    const polls = fake.requests.filter(r => r.method === 'GET' && r.path === `/v1/messages/batches/${id}`);
    const knew = polls.find(p => p.at >= endedAt)?.answeredAt ?? NaN;
    const tail = (ran.lastOutAt - knew) / 1000;
    const ratio = ran.peakKb / floorKb;
    const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
    figs.push(
      {
        name: `test --batch, ${REQUESTS.toLocaleString('en-US')} requests: creates`,
        value: String(creates.length),
        target: '1, and no POST /v1/messages',
        ok: creates.length === 1 && direct === 0,
        extra:
          `${CASES.toLocaleString('en-US')} cases × ${MODELS.length} models × ${SAMPLES} samples as one batch ` +
          `(${(Buffer.byteLength(JSON.stringify(creates[0]?.body)) / 1e6).toFixed(1)} MB); ${direct} direct requests`,
      },
      {
        // the goal: the results are read as a stream and the JSON printed a piece at a time, so what the run holds is
        // its cells' verdicts: no more than a second Node process's worth of memory (CONTRIBUTING)
        name: '  peak resident memory vs --version',
        value: `${ratio.toFixed(2)}x`,
        target: '<= 2x',
        ok: ratio <= 2,
        extra:
          `the CLI's maxRSS at exit: ${mb(ran.peakKb)} vs ${mb(floorKb)} for --version (median of 3); ` +
          `${(ran.out.length / 1e6).toFixed(1)} MB of JSON printed`,
      },
      {
        name: '  results matched to their cells',
        value: `${matched.toLocaleString('en-US')}`,
        target: `${REQUESTS.toLocaleString('en-US')} of ${REQUESTS.toLocaleString('en-US')}`,
        ok: matched === REQUESTS,
        extra: `${cells.length.toLocaleString('en-US')} cells printed, each with its batch_id; every sample passed`,
      },
      {
        // a user waiting on a suite sees its verdicts within seconds of the batch ending: 2,000 results a second
        name: '  from ended to the last verdict printed',
        value: `${tail.toFixed(2)} s`,
        target: '<= 5 s',
        ok: tail <= 5,
        extra:
          `from the answer of the first poll that said ended (${(knew - endedAt).toFixed(0)} ms after ended_at: ` +
          `the poll's wait, ${POLL_MS} ms, and the fake making the results) to the JSON printed`,
      },
    );
  } finally {
    await fake.close();
  }
}

/** A case file whose dataset has `rows` rows `wN,contains: wN`. */
function writeDataset(dir: string, rows: number): string {
  fs.writeFileSync(
    path.join(dir, 'word.prompt.yaml'),
    'model: model-haiku-4-5\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "{{word}}"\n',
  );
  const out = fs.openSync(path.join(dir, `rows${rows}.csv`), 'w');
  fs.writeSync(out, 'word,__expected\n');
  for (let from = 0; from < rows; from += 1000) {
    const block: string[] = [];
    for (let i = from; i < Math.min(rows, from + 1000); i++) block.push(`w${i},contains: w${i}\n`);
    fs.writeSync(out, block.join(''));
  }
  fs.closeSync(out);
  const file = `rows${rows}.cases.yaml`;
  fs.writeFileSync(path.join(dir, file), `request: word.prompt.yaml\ndataset: rows${rows}.csv\n`);
  return file;
}

/**
 * `test --batch` on a dataset of 100,000 rows, which goes through a spool on disk in every format: its peak memory
 * against the same command on 1,000 rows of the same shape, in JSON Lines, and in text (the default) with `--junit`.
 */
async function datasetBatch(dir: string, figs: Figure[]): Promise<void> {
  const fake = await startFake({ keepAliveMs: 60_000, batchProcessingMs: 200 });
  try {
    const env = batchEnv(fake, dir);
    /** `args` on `rows` rows, which prints `more` lines besides a line a row: its peak memory (KB) */
    const run = async (rows: number, args: readonly string[], more: number) => {
      const file = writeDataset(dir, rows);
      const ran = await runCli(dir, env, ['test', file, '--batch', ...args, '--max-requests', `${rows}`]);
      fake.clear(); // the fake's log of what it was sent is not the CLI's memory, but the bench's
      const printed = ran.out.split('\n').length - 1;
      if (ran.code !== 0 || printed !== rows + more)
        throw new Error(`test --batch on ${rows} rows exited ${ran.code}, ${printed} lines\n${ran.err.slice(-2000)}`);
      return ran.peakKb;
    };
    for (const { args, more, said } of [
      { args: ['--format', 'jsonl'], more: 0, said: 'records' },
      // the text's case file name and summary line; the JUnit file written beside, then renamed onto its name
      { args: ['--junit', 'rows.xml'], more: 2, said: 'cells in text and JUnit' },
    ]) {
      const floorKb = await run(FLOOR_ROWS, args, more);
      const t0 = Date.now();
      const peakKb = await run(DATASET_ROWS, args, more);
      const secs = (Date.now() - t0) / 1000;
      const ratio = peakKb / floorKb;
      figs.push({
        // the goal: the suite streams through a spool on disk, so memory is bounded by what is in flight, not the rows
        name: `test --batch ${args.join(' ')}, ${DATASET_ROWS.toLocaleString('en-US')} rows: peak memory vs 1,000`,
        value: `${ratio.toFixed(2)}x`,
        target: '<= 1.5x',
        ok: ratio <= 1.5,
        extra:
          `the CLI's maxRSS at exit: ${(peakKb / 1024).toFixed(0)} MB vs ${(floorKb / 1024).toFixed(0)} MB on ` +
          `${FLOOR_ROWS.toLocaleString('en-US')} rows; ${DATASET_ROWS.toLocaleString('en-US')} ${said} in ` +
          `${secs.toFixed(0)} s`,
      });
    }
  } finally {
    await fake.close();
  }
}

async function direct(dir: string, figs: Figure[]): Promise<void> {
  const fake = await startFake({ keepAliveMs: 60_000, requestLimit: LIMIT });
  try {
    const file = writeSuite(dir, 'direct', DIRECT_CASES, 1);
    const env = { ...process.env, PROMPTWRIGHT_BASE_URL: fake.url, PROMPTWRIGHT_API_KEY: fake.apiKey };
    const t0 = Date.now();
    const max = `${DIRECT_CASES * MODELS.length}`;
    const ran = await runCli(dir, env, [
      'test',
      file,
      '--format',
      'json',
      '--concurrency',
      '16',
      '--max-requests',
      max,
    ]);
    const secs = (Date.now() - t0) / 1000;
    const cells = JSON.parse(ran.out) as Cell[];
    const passed = cells.filter(c => c.status === 'passed').length;
    const limited = fake.requests.filter(r => r.status === 429).length;
    const total = DIRECT_CASES * MODELS.length;
    figs.push({
      name: `test, ${total.toLocaleString('en-US')} cells under 600 requests a minute: 429s`,
      value: String(limited),
      target: '<= 5',
      ok: limited <= 5 && passed === total && ran.code === 0,
      extra:
        `${passed.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} cells passed in ${secs.toFixed(1)} s ` +
        `at concurrency 16, most in any window ${fake.requestBudget.maxInAnyWindow()}; time scaled 20x: ` +
        '600 per 3 s stands for 600 per minute',
    });
  } finally {
    await fake.close();
  }
}
