// `promptwright test FILE... --batch [--no-wait]` and `promptwright batch collect ID`: the suite's cells × samples
// as Message Batches (core/batches/), half the price, run by the same engine as `test` with its batch transport.
// Everything is checked before anything is sent (test.ts); each request gets a stable custom_id; the run is
// submitted once (split at 100,000 requests or 256 MB) and kept in PROMPTWRIGHT_CACHE_DIR/batches, so running the
// same command again resumes it: no second submission. Then it waits, printing progress from request_counts on
// stderr, and on `ended` reads the results, matches them by custom_id, runs the assertions (a rubric's judge
// calls go direct), and prints what `test` prints, with each cell's batch_id. Ctrl-C while waiting leaves the
// batch running and says how to resume (exit 130); `--no-wait` submits, says how to collect, and exits 0.
import * as path from 'node:path';
import { ApiError } from '../api/errors';
import { BatchesClient, type MessageBatch } from '../api/batches';
import { realPacer } from '../api/pacer';
import { sleep } from '../api/retry';
import { POLL_PACE, type PollPace } from '../batches/poll';
import { customIds, RequestTooLarge } from '../batches/requests';
import { BatchSession, RunNotFound, type BatchJob, type SessionEvent } from '../batches/session';
import { BatchStore, type RunArgs } from '../batches/store';
import { batchTransport } from '../batches/transport';
import { countsText, progressLine } from '../batches/view';
import { MAX_REPEAT } from '../cases/caseFile';
import { sampleJobs, type SampleJob } from '../cases/engine';
import { count } from '../text';
import { clientFromEnv, requireService } from './api';
import { parseArgs, UsageError } from './args';
import { format } from './common';
import { cacheDir, describeForCli } from './env';
import { EXIT } from './guard';
import type { CliIo } from './io';
import { pricesOption } from './prices';
import { endOfRun, prepareCells, printRun, runTestCells, type RunSettings, type TestCell } from './testRun';

export interface BatchRunOptions {
  format: string;
  noWait: boolean;
  /** the command that resumes this run (`test … --batch`, without --no-wait) */
  again: string[];
  /** what the command line said of the cells (kept, for `batch collect`) */
  args: RunArgs;
  /** collect the run this key names (`batch collect`): never submit */
  collect?: { runKey: string };
  /** how many cases were chosen of how many (`--filter`, `--sample`, `--shard`…) */
  chosen?: string;
}

/** Where the CLI keeps its batches: PROMPTWRIGHT_CACHE_DIR/batches (beside the judges' verdicts). */
export function batchStoreFromEnv(env: CliIo['env']): BatchStore {
  return new BatchStore(path.join(cacheDir(env), 'batches'));
}

/** The Message Batches client from the environment. */
export function batchesFromEnv(io: CliIo): BatchesClient {
  return new BatchesClient(clientFromEnv(io).http);
}

/** PROMPTWRIGHT_BATCH_POLL_MS=FIRST[,MAX]: the poll's first and longest waits (a testing knob). */
function paceFromEnv(env: CliIo['env']): PollPace {
  const raw = env.PROMPTWRIGHT_BATCH_POLL_MS;
  const m = raw ? /^(\d+)(?:,(\d+))?$/.exec(raw.trim()) : null;
  if (!m) return POLL_PACE;
  const first = Number(m[1]);
  return { ...POLL_PACE, firstMs: first, maxMs: m[2] ? Number(m[2]) : Math.max(first, POLL_PACE.maxMs) };
}

/** A word of a command as a shell reads it back. */
const shellWord = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** The suite's jobs, each with its custom_id and the cell × sample it stands for. */
function batchJobs(cells: readonly TestCell[]): { jobs: SampleJob[]; batch: BatchJob[]; idOf: Map<string, string> } {
  const jobs = sampleJobs(cells);
  const refs = jobs.map(j => {
    const c = cells[j.cell]!;
    return { file: c.file, caseName: c.caseName, model: c.model, sample: j.sample };
  });
  const ids = customIds(jobs.map((j, i) => ({ ...refs[i]!, body: j.body })));
  return {
    jobs,
    batch: jobs.map((j, i) => ({ customId: ids[i]!, ref: refs[i]!, params: j.body })),
    idOf: new Map(jobs.map((j, i) => [`${j.cell}:${j.sample}`, ids[i]!])),
  };
}

export async function testAsBatch(
  cells: readonly TestCell[],
  settings: RunSettings,
  io: CliIo,
  cwd: string,
  o: BatchRunOptions,
): Promise<number> {
  const { batch: jobs, idOf } = batchJobs(cells);
  // the judge's requests (rubrics) go direct, paced by the rate-limit headers
  const client = clientFromEnv(io, realPacer(sleep).hooks());
  const progress = progressPrinter(io);
  const files = [...new Set(cells.map(c => c.file))];
  const session = new BatchSession({
    client: new BatchesClient(client.http),
    store: batchStoreFromEnv(io.env),
    jobs,
    run: { cwd, files, args: o.args },
    pace: paceFromEnv(io.env),
    onEvent: e => progress.event(e),
    ...(o.collect ? { collect: o.collect } : {}),
  });
  const resume = () => {
    const ids = session.batchIds;
    const command = o.again.map(shellWord).join(' ');
    const lines = [`promptwright test: the batch goes on at the service; resume with: promptwright ${command}`];
    if (ids.length === 1) lines.push(`  (or: promptwright batch collect ${ids[0]})`);
    return `${lines.join('\n')}\n`;
  };

  try {
    await session.submit(io.signal);
  } catch (e) {
    if (e instanceof RequestTooLarge) {
      io.stderr.write(`promptwright test: nothing sent: ${e.message}\n`);
      return EXIT.refused;
    }
    if (e instanceof RunNotFound) throw new UsageError(e.message);
    // a batch made before the failure is kept: running the command again sends only the rest
    if (session.batchIds.length) io.stderr.write(resume());
    throw e;
  }
  if (io.signal?.aborted) {
    progress.done();
    io.stderr.write(resume());
    return EXIT.cancelled;
  }
  if (o.noWait && !(await allEnded(session, io))) {
    for (const id of session.batchIds) io.stdout.write(`${id}\n`);
    io.stderr.write(
      `promptwright test: ${count(jobs.length, 'request')} in ${count(session.batchIds.length, 'batch', 'batches')}` +
        `, processing; collect the cells with: promptwright ${o.again.map(shellWord).join(' ')}` +
        `${session.batchIds.length === 1 ? ` (or: promptwright batch collect ${session.batchIds[0]})` : ''}\n`,
    );
    return EXIT.ok;
  }

  const transport = batchTransport({
    session,
    idOf: job => idOf.get(`${job.cell}:${job.sample}`)!,
    concurrency: settings.concurrency,
    onEnded: () => progress.ended(session.batchIds.map(id => session.batches.get(id)).filter(b => !!b)),
  });
  // after a Ctrl-C the cells not yet read are not cancelled: their batch goes on, and they are not printed
  const ran = await printRun(cells, o.format, io, onUpdate =>
    runTestCells(cells, settings, io, client, cwd, {
      onUpdate: (r, u, i) => io.signal?.aborted || onUpdate(r, u, i),
      transport,
      batch: true,
    }),
  );
  progress.done();
  if (io.signal?.aborted) {
    io.stderr.write(resume());
    return EXIT.cancelled;
  }
  await session.collected();
  return endOfRun(ran.results, io, o.format, cells, ran, o.chosen);
}

/** Whether every batch of the run has ended, asking the service once for each that had not. */
async function allEnded(session: BatchSession, io: CliIo): Promise<boolean> {
  const pending = session.batchIds.filter(id => session.batches.get(id)?.processing_status !== 'ended');
  if (!pending.length) return true;
  try {
    await session.wait(io.signal, { once: true });
  } catch (e) {
    if (io.signal?.aborted) throw e;
    io.stderr.write(`promptwright test: the batch's status could not be read: ${describeForCli(e)}\n`);
    return false;
  }
  return session.batchIds.every(id => session.batches.get(id)?.processing_status === 'ended');
}

/**
 * The progress of a run's batches on stderr: a line rewritten in place on a terminal; elsewhere (CI logs) a line
 * each time a batch's status or counts change.
 */
function progressPrinter(io: CliIo) {
  const said = new Map<string, string>();
  let open = false;
  const write = (line: string) => {
    if (io.progress) {
      io.stderr.write(`\rpromptwright test: ${line}\x1b[K`);
      open = true;
    } else io.stderr.write(`promptwright test: ${line}\n`);
  };
  const done = () => {
    if (open) io.stderr.write('\n');
    open = false;
  };
  return {
    event(e: SessionEvent): void {
      if (e.kind === 'created') {
        done();
        const b = e.batch;
        io.stderr.write(
          `promptwright test: submitted ${b.id}: ${count(e.requests, 'request')} at the batch price, ` +
            `processed within 24 hours (expires ${b.expires_at})\n`,
        );
        said.set(b.id, `${b.processing_status} ${countsText(b.request_counts)}`);
      } else if (e.kind === 'resumed') {
        done();
        io.stderr.write(`promptwright test: resuming ${e.batchIds.join(', ')}: nothing is sent again\n`);
      } else if (e.kind === 'status') {
        const key = `${e.batch.processing_status} ${countsText(e.batch.request_counts)}`;
        if (io.progress) write(progressLine(e.batch));
        else if (said.get(e.batch.id) !== key) write(progressLine(e.batch));
        said.set(e.batch.id, key);
      } else if (e.kind === 'poll-error') {
        done();
        const again = Math.round(e.waitMs / 1000);
        io.stderr.write(`promptwright test: a poll failed (${describeForCli(e.error)}); again in ${again} s\n`);
      } else {
        done();
        io.stderr.write(`promptwright test: ${e.batchId}: ${e.problem}\n`);
      }
    },
    ended(batches: MessageBatch[]): void {
      done();
      // a batch found ended (a resumed run) was never polled: said here, once
      for (const b of batches)
        if (!said.get(b.id)?.startsWith('ended'))
          io.stderr.write(`promptwright test: ${b.id} ended: ${countsText(b.request_counts)}\n`);
      io.stderr.write('promptwright test: reading the results\n');
    },
    done,
  };
}

/**
 * `promptwright batch collect ID`: the run the batch belongs to, as it was submitted from here (its case files,
 * models and samples, kept in PROMPTWRIGHT_CACHE_DIR/batches); waits for it as `test --batch` does, then prints
 * its cells. Never submits.
 */
export async function collectBatch(id: string, argv: string[], io: CliIo): Promise<number> {
  const p = parseArgs(argv, []);
  const outputFormat = format(p, ['text', 'json', 'junit'] as const);
  const store = batchStoreFromEnv(io.env);
  const record = await store.batch(id);
  if (!record)
    throw new UsageError(
      `${id} was not submitted from here (${store.dir}): which cell each of its requests is cannot be known. ` +
        '`promptwright batch list --all` lists every batch of the workspace.',
    );
  const run = await store.run(record.run);
  if (!run) throw new UsageError(`${id}: its run (${record.run}) is not kept in ${store.dir} any more`);
  requireService(io);
  const settings: RunSettings = {
    concurrency: 4,
    sampling: {
      ...(run.args.repeat !== undefined && run.args.repeat <= MAX_REPEAT ? { repeat: run.args.repeat } : {}),
      ...(run.args.minPass !== undefined ? { minPass: run.args.minPass } : {}),
    },
    prices: pricesOption(p, run.cwd),
    refresh: false,
  };
  const files = run.files.map(f => path.resolve(run.cwd, f));
  const { cells, errors } = await prepareCells(files, run.cwd, io, run.args.models ?? [], settings);
  if (errors) io.stderr.write(`promptwright batch collect: ${count(errors, 'problem')} in the case files (above)\n`);
  const again = ['batch', 'collect', id];
  try {
    return await testAsBatch(cells, settings, io, run.cwd, {
      format: outputFormat,
      noWait: false,
      again,
      args: run.args,
      collect: { runKey: run.key },
    });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404)
      io.stderr.write(`promptwright batch collect: the service does not know ${id} (a key of another workspace?)\n`);
    throw e;
  }
}
