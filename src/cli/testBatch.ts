// `promptwright test FILE... --batch [--no-wait]` and `promptwright batch collect ID`: the suite's cells × samples
// as Message Batches (core/batches/), half the price, run by the same engine as `test` with its batch transport.
// Everything is checked before anything is sent (test.ts); each request gets a stable custom_id; the run is
// submitted once (split at 100,000 requests or 256 MB) and kept in PROMPTWRIGHT_CACHE_DIR/batches, so running the
// same command again resumes it: no second submission. Then it waits, printing progress from request_counts on
// stderr, and on `ended` reads the results, matches them by custom_id, runs the assertions (a rubric's judge
// calls go direct), and prints what `test` prints, with each cell's batch_id. Ctrl-C while waiting leaves the
// batch running and says how to resume (exit 130); `--no-wait` submits, says how to collect, and exits 0.
import * as path from 'node:path';
import { ApiError } from '../core/api/errors';
import { BatchesClient, type MessageBatch } from '../core/api/batches';
import { realPacer } from '../core/api/pacer';
import { sleep } from '../core/api/retry';
import { POLL_PACE, type PollPace } from '../core/batches/poll';
import { RequestTooLarge } from '../core/batches/requests';
import {
  BatchSession,
  RunNotFound,
  type BatchJob,
  type SessionEvent,
  type SessionOptions,
} from '../core/batches/session';
import { BatchStore, type RoundOf, type RunArgs } from '../core/batches/store';
import { countsText, progressLine } from '../core/batches/view';
import { BatchRounds } from '../core/cases/batchRounds';
import { batchTransport } from '../core/cases/batchTransport';
import { batchJobsOf } from '../core/cases/session';
import type { Assertion, AssertionResult, CellResult, Outcome } from '../core/cases/types';
import { count } from '../core/text';
import { clientFromEnv, requireService, waitNotice } from './api';
import { one, UsageError, type Parsed } from './args';
import { describeForCli } from '../core/environment';
import { cacheDir } from './env';
import { EXIT } from './guard';
import { rewriteLine, type CliIo } from './io';
import { pricesOption } from './prices';
import { outputsOf } from './testOutputs';
import {
  endOfRun,
  overRequestLimit,
  printRun,
  runTestCells,
  type ReportTo,
  type RunSettings,
  type TestCell,
} from './testRun';
import { RunTools } from './testTools';
import { removeStaleSpools } from './spoolFiles';
import { hasLoops, runSpooled, sentOf, spoolSuite, SpooledSuite } from './testBatchSpool';
import { SpooledReport } from './testSpoolReport';
import type { CaseChoice } from '../core/cases/choose';
import { chosenLine } from './choice';

export interface BatchRunOptions extends ReportTo {
  noWait: boolean;
  /** the command that resumes this run (`test … --batch`, without --no-wait) */
  again: string[];
  /** what the command line said of the cells (kept with the run) */
  args: RunArgs;
  /**
   * collect these batches of the run this key names (`batch collect`): never submit; each job's custom_id is the
   * one the batch holds (`idOf`, by `cell:sample`), not one made again from the cells
   */
  collect?: { runKey: string; batchIds: string[]; idOf: Map<string, string> };
  /** how many cases were chosen of how many (`--filter`, `--sample`, `--shard`…) */
  chosen?: string;
  /** the suite as written to disk (`test --batch`, testBatchSpool.ts): `cells` is empty then */
  spooled?: SpooledSuite;
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

export async function testAsBatch(
  cells: readonly TestCell[],
  settings: RunSettings,
  io: CliIo,
  cwd: string,
  o: BatchRunOptions,
): Promise<number> {
  // the judge's requests (rubrics) and the simulated tools go direct, paced by the rate-limit headers
  const client = clientFromEnv(io, realPacer(sleep, waitNotice(io)).hooks());
  const progress = progressPrinter(io, statusEveryMs(io.env));
  const spooled = o.spooled;
  const files = [...new Set(spooled ? spooled.files : cells.map(c => c.file))];
  const store = batchStoreFromEnv(io.env);
  const sessionOf = (jobs: BatchJob[], extra: SessionExtra) =>
    new BatchSession({
      client: new BatchesClient(client.http),
      store,
      jobs,
      run: { cwd, files, args: o.args, ...(extra.rounds ? { rounds: extra.rounds } : {}) },
      pace: paceFromEnv(io.env),
      onEvent: e => progress.event(e),
      ...(extra.cells ? { cells: extra.cells } : {}),
      ...(extra.collect ? { collect: extra.collect } : {}),
      ...(extra.spool ? { spool: extra.spool } : {}),
    });
  // a suite of tool-use loops goes a round at a time (core/cases/batchRounds.ts); any other, as one submission
  const tools = cells.some(c => c.tools) ? new RunTools(io, client, { record: false }) : undefined;
  const rounds = tools && roundsOf(cells, tools, store, io, sessionOf);
  let spooledTools: RunTools | undefined;
  let report: SpooledReport | undefined;
  const single = rounds
    ? undefined
    : spooled
      ? { session: sessionOf(spooled.jobs, { spool: spooled }), jobs: spooled.jobs.length, idOf: undefined }
      : singleRun(cells, o, sessionOf);
  const session = () => (rounds ? rounds.session : single!.session);
  const resume = () => {
    const ids = session()?.batchIds ?? [];
    const command = o.again.map(shellWord).join(' ');
    const lines = [`promptwright test: the batch goes on at the service; resume with: promptwright ${command}`];
    if (ids.length === 1 && !rounds) lines.push(`  (or: promptwright batch collect ${ids[0]})`);
    return `${lines.join('\n')}\n`;
  };

  try {
    try {
      await rounds?.open();
      await (rounds ? rounds.submit(io.signal) : single!.session.submit(io.signal));
      // --no-wait: the rounds that have ended are read and the next sent, until one is still processing
      while (o.noWait && rounds?.session && !io.signal?.aborted && (await allEnded(rounds.session, io))) {
        await rounds.advance(io.signal ?? new AbortController().signal);
        await rounds.submit(io.signal);
      }
    } catch (e) {
      if (e instanceof RequestTooLarge) {
        io.stderr.write(`promptwright test: nothing sent: ${e.message}\n`);
        return EXIT.refused;
      }
      if (e instanceof RunNotFound) throw new UsageError(e.message);
      // a batch made before the failure is kept: running the command again sends only the rest
      if (session()?.batchIds.length) io.stderr.write(resume());
      throw e;
    }
    if (io.signal?.aborted) {
      progress.done();
      io.stderr.write(resume());
      return EXIT.cancelled;
    }
    const waiting = session();
    if (o.noWait && waiting && !(await allEnded(waiting, io))) {
      for (const id of waiting.batchIds) io.stdout.write(`${id}\n`);
      const again = `promptwright ${o.again.map(shellWord).join(' ')}`;
      const batches = count(waiting.batchIds.length, 'batch', 'batches');
      const one = waiting.batchIds.length === 1 ? ` (or: promptwright batch collect ${waiting.batchIds[0]})` : '';
      io.stderr.write(
        rounds
          ? `promptwright test: round ${rounds.round} of the tool-use loops in ${batches}, processing; ` +
              `go on with: ${again}\n`
          : `promptwright test: ${count(single!.jobs, 'request')} in ${batches}, processing; collect the cells ` +
              `with: ${again}${one}\n`,
      );
      return EXIT.ok;
    }

    const ended = () => {
      const current = session();
      progress.ended((current?.batchIds ?? []).map(id => current!.batches.get(id)).filter(b => !!b));
    };
    if (spooled) {
      report = new SpooledReport(spooled.dir, spooled.cells, o, io);
      const run = await runSpooled(spooled, single!.session, {
        settings,
        io,
        client,
        cwd,
        tools: (spooledTools ??= new RunTools(io, client, { record: false })),
        report,
        onEnded: ended,
      });
      progress.done();
      if (io.signal?.aborted) {
        io.stderr.write(resume());
        return EXIT.cancelled;
      }
      await single!.session.collected();
      return await report.end(run, o.chosen);
    }
    const transport = rounds
      ? rounds.transport({ concurrency: settings.concurrency, onEnded: ended })
      : batchTransport({
          session: single!.session,
          idOf: job => single!.idOf!(job)!,
          concurrency: settings.concurrency,
          onEnded: ended,
        });
    // after a Ctrl-C the cells not yet read are not cancelled: their batch goes on, and they are not printed
    // JSON Lines with no report file: a cell's record is out as it ends, so the run keeps only its verdict
    const streamed = o.format === 'jsonl' && !o.outputs.length;
    const ran = await printRun(cells, o.format, io, onUpdate =>
      runTestCells(cells, settings, io, client, cwd, {
        onUpdate: (r, u, i) => {
          if (io.signal?.aborted) return;
          onUpdate(r, u, i);
          if (streamed && u.kind === 'ended') keepVerdictOnly(r);
        },
        transport,
        batch: true,
        ...(tools ? { tools } : {}),
      }),
    );
    progress.done();
    if (io.signal?.aborted) {
      io.stderr.write(resume());
      return EXIT.cancelled;
    }
    await (rounds ? rounds.collected() : single!.session.collected());
    return endOfRun(ran.results, io, o, cells, ran, o.chosen);
  } finally {
    progress.stop();
    await tools?.close();
    await spooledTools?.close();
    report?.remove();
    spooled?.remove();
  }
}

/**
 * `test --batch`: the suite read into a spool (problems said; nothing sent when there are any, exit 2), the run's
 * limit on requests checked, then a function that runs it (testBatch.ts) and ends it; undefined when the suite has
 * tool-use loops, which go a round at a time from cells held in memory.
 */
export async function testSpooledBatch(
  files: readonly string[],
  cwd: string,
  io: CliIo,
  o: { models: string[]; settings: RunSettings; choice?: CaseChoice },
): Promise<((run: Omit<BatchRunOptions, 'spooled' | 'chosen'>) => Promise<number>) | undefined> {
  if (files.some(f => hasLoops(f))) return undefined;
  const spools = path.join(batchStoreFromEnv(io.env).dir, 'spool');
  removeStaleSpools(spools);
  const spool = new SpooledSuite(path.join(spools, `${process.pid}-${Date.now()}`));
  let handed = false;
  try {
    const read = await spoolSuite(spool, files, cwd, io, o);
    const chosen = chosenLine(read.cases, o.choice);
    const ends = (code: number) => Promise.resolve(code);
    if (read.errors) {
      io.stderr.write(`promptwright test: nothing sent: ${count(read.errors, 'error')} (above)\n`);
      return () => ends(EXIT.refused);
    }
    const over = await overRequestLimit(spool.count, o.settings, io);
    if (over !== undefined) return () => ends(over);
    requireService(io);
    handed = true;
    return run => testAsBatch([], o.settings, io, cwd, { ...run, spooled: spool, ...(chosen ? { chosen } : {}) });
  } finally {
    if (!handed) spool.remove();
  }
}

/**
 * A printed cell's result cut to what the end of the run reads (its status, pass, model and cost, and the notes
 * of prices not known): its replies and assertion messages go, so 100,000 cells do not hold 100,000 replies.
 */
function keepVerdictOnly(r: CellResult): void {
  const slim = (x: { outcome: Outcome; assertions: AssertionResult[] }) => {
    const { error, batchId } = x.outcome;
    x.outcome = { text: '', ...(error ? { error } : {}), ...(batchId ? { batchId } : {}) };
    x.assertions = x.assertions.filter(a => a.error?.type === 'no_price');
  };
  slim(r);
  for (const s of r.samples ?? []) slim(s);
}

type SessionExtra = Pick<SessionOptions, 'cells' | 'collect' | 'spool'> & { rounds?: RoundOf };
type SessionOf = (jobs: BatchJob[], extra: SessionExtra) => BatchSession;

/** A suite without loops: every cell × sample in one submission (split at the caps), or a run to collect. */
function singleRun(cells: readonly TestCell[], o: BatchRunOptions, sessionOf: SessionOf) {
  // each cell × sample with its custom_id (a batch to collect: the one it holds), the cells kept with each batch
  const { jobs, idOf } = batchJobsOf(cells, c => c.file, o.collect?.idOf);
  const collect = o.collect ? { runKey: o.collect.runKey, batchIds: o.collect.batchIds } : undefined;
  const sent = cells.map(sentOf);
  return { session: sessionOf(jobs, { cells: sent, ...(collect ? { collect } : {}) }), idOf, jobs: jobs.length };
}

/** A suite of tool-use loops, a round at a time; each round said on stderr from the second on. */
function roundsOf(
  cells: readonly TestCell[],
  tools: RunTools,
  store: BatchStore,
  io: CliIo,
  sessionOf: SessionOf,
): BatchRounds<TestCell> {
  return new BatchRounds<TestCell>({
    store,
    cells,
    refOf: j => {
      const c = cells[j.cell]!;
      return { file: c.file, caseName: c.caseName, model: c.model, sample: j.sample, cell: j.cell };
    },
    live: cell => tools.live(cell),
    session: (jobs, rounds) => sessionOf(jobs, { rounds }),
    onRound: (round, requests) => {
      if (round > 1)
        io.stderr.write(
          `promptwright test: round ${round} of the tool-use loops: ${count(requests, 'request')} of the cells ` +
            'still calling tools\n',
        );
    },
  });
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

/** PROMPTWRIGHT_BATCH_STATUS_MS: without a terminal, a status line at least this often (a testing knob). */
function statusEveryMs(env: CliIo['env']): number {
  const raw = env.PROMPTWRIGHT_BATCH_STATUS_MS?.trim();
  return raw && /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : STATUS_EVERY_MS;
}

/** Without a terminal (a CI log), how long a batch's wait may go without a line, whether or not anything changed. */
const STATUS_EVERY_MS = 30_000;

/**
 * The progress of a run's batches on stderr: a line rewritten in place on a terminal; elsewhere (CI logs) a line
 * each time a batch's status or counts change, and at least every `everyMs` while it waits, with its counts and
 * how long it has run, so a log that says nothing for minutes is never a wait that looks like a hang. `stop`
 * clears the timer that keeps that promise, on every path.
 */
function progressPrinter(io: CliIo, everyMs: number) {
  const said = new Map<string, string>();
  /** the last status of each batch still waited for */
  const waiting = new Map<string, MessageBatch>();
  let open = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  const again = () => {
    stop();
    if (io.progress || !waiting.size) return;
    timer = setTimeout(() => {
      for (const b of waiting.values()) io.stderr.write(`promptwright test: ${progressLine(b)}\n`);
      again();
    }, everyMs);
    timer.unref?.();
  };
  const write = (line: string) => {
    if (io.progress) {
      rewriteLine(io, `promptwright test: ${line}`);
      open = true;
    } else io.stderr.write(`promptwright test: ${line}\n`);
  };
  const done = () => {
    if (open) io.stderr.write('\n');
    open = false;
  };
  const watch = (b: MessageBatch) => {
    if (b.processing_status === 'ended') waiting.delete(b.id);
    else waiting.set(b.id, b);
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
        watch(b);
        again();
      } else if (e.kind === 'resumed') {
        done();
        io.stderr.write(`promptwright test: resuming ${e.batchIds.join(', ')}: nothing is sent again\n`);
      } else if (e.kind === 'status') {
        const key = `${e.batch.processing_status} ${countsText(e.batch.request_counts)}`;
        watch(e.batch);
        if (io.progress || said.get(e.batch.id) !== key) {
          write(progressLine(e.batch));
          again();
        }
        said.set(e.batch.id, key);
      } else if (e.kind === 'poll-error') {
        done();
        const wait = Math.round(e.waitMs / 1000);
        io.stderr.write(`promptwright test: a poll failed (${describeForCli(e.error)}); again in ${wait} s\n`);
      } else {
        done();
        io.stderr.write(`promptwright test: ${e.batchId}: ${e.problem}\n`);
      }
    },
    ended(batches: MessageBatch[]): void {
      done();
      stop();
      waiting.clear();
      // a batch found ended (a resumed run) was never polled: said here, once
      for (const b of batches)
        if (!said.get(b.id)?.startsWith('ended'))
          io.stderr.write(`promptwright test: ${b.id} ended: ${countsText(b.request_counts)}\n`);
      io.stderr.write('promptwright test: reading the results\n');
    },
    done,
    stop,
  };
}

/**
 * `promptwright batch collect ID`: the batch as it was submitted from here, read back from what was kept with it
 * (PROMPTWRIGHT_CACHE_DIR/batches): its results matched by its own custom_ids, judged by the assertions its cells
 * were sent with, whatever the case files say now and whatever was submitted since. Its run's other batches (a suite
 * split in several) are read with it. Waits for it as `test --batch` does, then prints its cells. Never submits.
 */
export async function collectBatch(id: string, p: Parsed, io: CliIo): Promise<number> {
  const outputFormat = one(p, 'format') ?? 'text';
  const store = batchStoreFromEnv(io.env);
  const record = await store.batch(id);
  if (!record)
    throw new UsageError(
      `${id} was not submitted from here (${store.dir}): which cell each of its requests is cannot be known. ` +
        '`promptwright batch list --all` lists every batch of the workspace.',
    );
  // the batches of the same submission: the run's record still names this one unless the suite was sent again
  const run = await store.run(record.run);
  if (run?.rounds)
    throw new UsageError(
      `${id} is round ${run.rounds.round} of a suite of tool-use loops, which goes on a round at a time: ` +
        `run \`promptwright test ${record.files.map(shellWord).join(' ')} --batch\` in ${record.cwd} to resume it`,
    );
  const batchIds = run?.batchIds.includes(id) ? run.batchIds : [id];
  const cells: TestCell[] = [];
  const place = new Map<string, number>();
  const idOf = new Map<string, string>();
  for (const batchId of batchIds) {
    const [refs, sent] = [await store.cells(batchId), await store.sent<Assertion>(batchId)];
    if (!refs || !sent)
      throw new UsageError(
        `${batchId}: its cells were not kept with it (submitted by an earlier version): ` +
          'run the `promptwright test … --batch` that submitted it again to resume it',
      );
    for (const [customId, ref] of Object.entries(refs)) {
      const c = ref.cell === undefined ? undefined : sent[ref.cell];
      if (!c) continue;
      const key = JSON.stringify([c.file, c.caseName, c.model]);
      let at = place.get(key);
      if (at === undefined) {
        at = cells.push({ ...c }) - 1;
        place.set(key, at);
      }
      idOf.set(`${at}:${ref.sample}`, customId);
    }
  }
  requireService(io);
  const settings: RunSettings = { concurrency: 4, sampling: {}, prices: pricesOption(p, record.cwd), refresh: false };
  try {
    return await testAsBatch(cells, settings, io, record.cwd, {
      format: outputFormat,
      outputs: outputsOf(p, process.cwd()),
      noWait: false,
      again: ['batch', 'collect', id],
      args: run?.args ?? {},
      collect: { runKey: record.run, batchIds, idOf },
    });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404)
      io.stderr.write(`promptwright batch collect: the service does not know ${id} (a key of another workspace?)\n`);
    throw e;
  }
}
