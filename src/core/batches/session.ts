// One suite run as Message Batches, resumable: `submit` sends what this run has not sent yet (nothing, when the
// same run is pending or ended and not collected: no second submission), in batches the service takes, and
// keeps each batch's id and cell map before the next is sent; `wait` polls until every batch has ended;
// `results` reads each batch's results a line at a time and matches them to the run's requests by custom_id;
// `collected` marks the run done, so that running it again submits anew. The same for the CLI and the editor.
//
// A create that has been sent is not cut short by a cancel: it is let finish and kept, so the batch it made
// (paid for) is never lost track of; the cancel then takes effect.
import type { BatchAnswer, BatchesClient, BatchResultLine, MessageBatch } from '../api/batches';
import { ConnectionError, TimeoutError } from '../api/errors';
import { backoffMs, sleep as realSleep } from '../api/retry';
import { waitUntilEnded, type PollPace } from './poll';
import { BATCH_CAPS, splitBySize, type BatchCaps } from './requests';
import {
  BatchStore,
  recordOf,
  runKeyOf,
  type BatchRecord,
  type CellRef,
  type RoundOf,
  type RunArgs,
  type RunRecord,
  type SentCell,
} from './store';

/** One request of the run: its custom_id, the cell × sample it stands for, and the params it sends. */
export interface BatchJob {
  customId: string;
  ref: CellRef;
  /** absent when the run is spooled (`SessionOptions.spool`): read from there as it is sent */
  params?: Record<string, unknown>;
}

/**
 * Where a run too large to hold keeps its requests and cells (cli/testBatchSpool.ts), each as JSON: read as
 * each batch is made and kept, then let go.
 */
export interface JobSpool {
  /** the bytes of a job's request as a create body holds it */
  bytes(job: BatchJob): number;
  /** makes the batch of these jobs, their requests read as they are sent */
  create(client: BatchesClient, jobs: readonly BatchJob[]): Promise<BatchAnswer>;
  /** keeps a batch made of these jobs: its cell map and its sent cells, as `keptWith` makes them */
  keep(store: BatchStore, record: BatchRecord, jobs: readonly BatchJob[]): Promise<void>;
}

export type SessionEvent =
  /** a batch was created (`of`: how many the run sends in all) */
  | { kind: 'created'; batch: MessageBatch; requests: number; of: number }
  /** the run was found pending: nothing is sent again */
  | { kind: 'resumed'; batchIds: string[] }
  /** what the service said of a batch at a poll */
  | { kind: 'status'; batch: MessageBatch }
  /** a poll failed and will be tried again */
  | { kind: 'poll-error'; error: unknown; waitMs: number }
  /** a results line that is not one of this run's requests, or not a result */
  | { kind: 'unmatched'; batchId: string; problem: string };

export interface SessionOptions {
  client: BatchesClient;
  store: BatchStore;
  jobs: readonly BatchJob[];
  /**
   * where the run was started, its case files (as shown), what the command line said of its cells, and which
   * round of a suite of tool-use loops it is (core/cases/batchRounds.ts)
   */
  run: { cwd: string; files: string[]; args: RunArgs; rounds?: RoundOf };
  /** the run's cells as sent, each job's `ref.cell` a place in it: kept with each batch for `batch collect ID` */
  cells?: readonly SentCell[];
  /** the run's requests and cells on disk (its jobs carry no params): `cells` is not given then */
  spool?: JobSpool;
  caps?: BatchCaps;
  pace?: PollPace;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onEvent?: (e: SessionEvent) => void;
  /** tries of a results read cut by the network (the lines already read are not handed out again) */
  resultsRetries?: number;
  /**
   * Collect a run already submitted (`batch collect ID`, the editor's Collect): this run, whatever its requests'
   * ids add up to now, and never a submission, collected or not; `batchIds`, when given, are the batches to read
   * (the run's record may name a later submission's).
   */
  collect?: { runKey: string; batchIds?: readonly string[] };
}

/** A run that should have been submitted, and was not found. */
export class RunNotFound extends Error {
  override name = 'RunNotFound';
}

/** A result matched to the request it answers. */
export interface MatchedResult {
  job: BatchJob;
  batchId: string;
  result: BatchResultLine['result'];
}

export class BatchSession {
  /** the run's key: the same suite unchanged has the same one */
  readonly key: string;
  private record: RunRecord | undefined;
  /** collecting batches whose run record now names another submission: that record is left alone */
  private separate = false;
  /** what the service last said of each batch */
  readonly batches = new Map<string, MessageBatch>();
  private readonly byId: Map<string, BatchJob>;

  constructor(private readonly o: SessionOptions) {
    this.byId = new Map(o.jobs.map(j => [j.customId, j]));
    if (this.byId.size !== o.jobs.length) throw new RangeError('the custom_ids of a run must be unique');
    this.key = o.collect?.runKey ?? runKeyOf(o.jobs.map(j => j.customId));
  }

  /** The run's batches, once submitted (or found). */
  get batchIds(): string[] {
    return this.record?.batchIds ?? [];
  }

  /** Whether this run is pending (submitted and not yet collected), without sending anything. */
  async pending(): Promise<boolean> {
    const r = await this.o.store.run(this.key);
    return !!r && !r.collectedAt && r.batchIds.length > 0;
  }

  /**
   * Sends what the run has not sent yet. A run found pending (or ended and not collected) is resumed: only the
   * requests none of its batches holds are sent (a split whose later batches failed to be created goes on).
   */
  async submit(signal?: AbortSignal): Promise<{ created: MessageBatch[]; resumed: boolean }> {
    const found = await this.o.store.run(this.key);
    if (this.o.collect) {
      const ids = this.o.collect.batchIds ?? found?.batchIds ?? [];
      if (!ids.length) throw new RunNotFound(`no run ${this.key} was submitted from here`);
      // the run's record, when it is still these batches' (a later submission of the same suite replaces it)
      const same = !!found && ids.every(id => found.batchIds.includes(id));
      this.record = same ? found : { ...BatchStore.newRun(this.key, this.o.run), batchIds: [...ids] };
      this.separate = !same;
      for (const id of ids) {
        const kept = await this.o.store.batch(id);
        if (kept) this.batches.set(id, lastKnown(kept));
      }
      this.o.onEvent?.({ kind: 'resumed', batchIds: [...ids] });
      return { created: [], resumed: true };
    }
    const resumed = !!found && !found.collectedAt && found.batchIds.length > 0;
    const record = resumed ? found : BatchStore.newRun(this.key, this.o.run);
    this.record = record;
    let toSend = this.o.jobs;
    if (resumed) {
      const sent = new Set<string>();
      for (const id of record.batchIds) {
        const kept = await this.o.store.batch(id);
        if (kept) this.batches.set(id, lastKnown(kept));
        for (const customId of Object.keys((await this.o.store.cells(id)) ?? {})) sent.add(customId);
      }
      toSend = this.o.jobs.filter(j => !sent.has(j.customId));
      this.o.onEvent?.({ kind: 'resumed', batchIds: [...record.batchIds] });
    }
    // kept before anything is sent: a folder that cannot be written stops the run while it costs nothing
    await this.o.store.saveRun(record);
    const created: MessageBatch[] = [];
    const spool = this.o.spool;
    const sizeOf = (j: BatchJob) => ({
      id: j.customId,
      bytes: spool ? spool.bytes(j) : Buffer.byteLength(JSON.stringify({ custom_id: j.customId, params: j.params })),
    });
    for (const chunk of splitBySize(toSend, sizeOf, this.o.caps ?? BATCH_CAPS)) {
      if (signal?.aborted) break;
      // no signal: a create that went out is let finish and kept (see the head of this file)
      const { batch } = spool
        ? await spool.create(this.o.client, chunk)
        : await this.o.client.create(chunk.map(j => ({ custom_id: j.customId, params: j.params ?? {} })));
      const kept = recordOf(batch, { key: this.key, ...this.o.run }, chunk.length);
      if (spool) await spool.keep(this.o.store, kept, chunk);
      else {
        const { cells, sent } = this.keptWith(chunk);
        await this.o.store.addBatch(kept, cells, sent);
      }
      record.batchIds.push(batch.id);
      await this.o.store.saveRun(record);
      this.batches.set(batch.id, batch);
      created.push(batch);
      this.o.onEvent?.({ kind: 'created', batch, requests: chunk.length, of: this.o.jobs.length });
    }
    return { created, resumed };
  }

  /** A batch's cell map and the cells its requests stand for, renumbered in the order the batch holds them. */
  private keptWith(jobs: readonly BatchJob[]): { cells: Record<string, CellRef>; sent?: SentCell[] } {
    const cells: Record<string, CellRef> = {};
    const all = this.o.cells;
    if (!all) {
      for (const j of jobs) cells[j.customId] = j.ref;
      return { cells };
    }
    const place = new Map<number, number>();
    const sent: SentCell[] = [];
    for (const j of jobs) {
      const at = j.ref.cell;
      if (at === undefined || !all[at]) {
        cells[j.customId] = j.ref;
        continue;
      }
      if (!place.has(at)) place.set(at, sent.push(all[at]) - 1);
      cells[j.customId] = { ...j.ref, cell: place.get(at)! };
    }
    return { cells, sent };
  }

  /**
   * Polls every batch of the run until each has ended (what the service says is kept as it comes); `once`: asks
   * once for each that had not ended, and waits for nothing.
   */
  async wait(signal?: AbortSignal, o: { once?: boolean } = {}): Promise<MessageBatch[]> {
    const known = new Map([...this.batches].filter(([, b]) => b.processing_status === 'ended'));
    if (o.once) {
      for (const id of this.batchIds.filter(i => !known.has(i))) {
        const { batch } = await this.o.client.retrieve(id, signal ? { signal } : {});
        this.batches.set(id, batch);
        await this.o.store.updateBatch(batch);
        this.o.onEvent?.({ kind: 'status', batch });
      }
      return this.batchIds.map(id => this.batches.get(id)!).filter(Boolean);
    }
    const ended = await waitUntilEnded(
      this.batchIds,
      (id, s) => this.o.client.retrieve(id, s ? { signal: s } : {}),
      {
        ...(this.o.pace ? { pace: this.o.pace } : {}),
        ...(signal ? { signal } : {}),
        ...(this.o.sleep ? { sleep: this.o.sleep } : {}),
        onBatch: async batch => {
          this.batches.set(batch.id, batch);
          await this.o.store.updateBatch(batch);
          this.o.onEvent?.({ kind: 'status', batch });
        },
        onPollError: (error, waitMs) => this.o.onEvent?.({ kind: 'poll-error', error, waitMs }),
      },
      known,
    );
    for (const b of ended) this.batches.set(b.id, b);
    return ended;
  }

  /**
   * Every result of the run's batches, matched to its request, as it is read. A read the network cuts is
   * started again, and the lines already handed out are skipped.
   */
  async *results(signal?: AbortSignal): AsyncGenerator<MatchedResult> {
    const seen = new Set<BatchJob>();
    const tries = 1 + (this.o.resultsRetries ?? 3);
    const wait = this.o.sleep ?? realSleep;
    for (const batchId of this.batchIds) {
      for (let attempt = 1; ; attempt++) {
        try {
          const lines = this.o.client.results(batchId, {
            ...(signal ? { signal } : {}),
            onMalformed: m => this.o.onEvent?.({ kind: 'unmatched', batchId, problem: m.problem }),
          });
          for await (const line of lines) {
            const job = this.byId.get(line.custom_id);
            if (job && seen.has(job)) continue;
            if (!job) {
              this.o.onEvent?.({ kind: 'unmatched', batchId, problem: `no request of this run is ${line.custom_id}` });
              continue;
            }
            // the job, not the line's own copy of its id: what is kept per result is an entry, not a string
            seen.add(job);
            yield { job, batchId, result: line.result };
          }
          break;
        } catch (e) {
          const passing = e instanceof ConnectionError || e instanceof TimeoutError;
          if (!passing || attempt >= tries || signal?.aborted) throw e;
          await wait(backoffMs(attempt), signal);
        }
      }
    }
  }

  /** The requests no result answered (after `results` has been read). */
  missing(matched: ReadonlySet<string>): BatchJob[] {
    return this.o.jobs.filter(j => !matched.has(j.customId));
  }

  /** Every batch of the run has been read and its cells given their verdicts: running it again submits anew. */
  async collected(at = new Date()): Promise<void> {
    await this.o.store.markCollected(this.batchIds, at);
    if (this.record && !this.separate) {
      this.record.collectedAt = at.toISOString();
      await this.o.store.saveRun(this.record);
    }
  }
}

/** A kept batch as a MessageBatch (what the service last said of it). */
function lastKnown(r: Awaited<ReturnType<BatchStore['batch']>> & object): MessageBatch {
  return {
    id: r.id,
    type: 'message_batch',
    processing_status: r.processingStatus,
    request_counts: r.requestCounts ?? { processing: r.requests, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
    created_at: r.createdAt,
    expires_at: r.expiresAt,
    ended_at: r.endedAt ?? null,
    archived_at: null,
    cancel_initiated_at: null,
    results_url: null,
  };
}
