// A suite of tool-use loops as Message Batches, a round at a time. Each round sends, as one batch (split at the
// service's caps), the next request of every cell × sample still looping; once it has ended, each reply is read
// and its calls answered by the loop the direct run uses (core/tools/loop.ts); the cells still calling tools
// make the next round. A cell that is not a loop ends with the first round. So a loop cell's verdict, turns and
// calls are a direct run's, at the batch price.
//
// Between rounds, what every loop has done (the messages it added, its turns, its calls, how it ended) is kept
// in the batch store (`<dir>/rounds/<suite key>.json`) before the next round is sent, and each round's batches
// are a run of the store, tagged with the round: running the same suite again resumes where it stopped, with no
// round sent twice (a process stopped while it answered a round's calls answers them again). A round found ended
// and not read is read; one found pending is waited for. The suite's key is its first round's (the custom_ids of
// its cells unchanged).
import { customIds } from '../batches/requests';
import type { BatchJob, BatchSession } from '../batches/session';
import { runKeyOf, VERSION, type BatchStore, type CellRef, type RoundOf } from '../batches/store';
import type { LiveBackends } from '../tools/answers';
import { ToolLoop, type LoopState } from '../tools/loop';
import { MISSING, outcomeOf, settler } from './batchTransport';
import type { RunCell, SampleJob, Transport } from './engine';
import { sampleJobs } from './engine';
import { loopOutcome } from './loops';
import type { Outcome } from './types';

/** How a cell × sample ended: its last reply (or why it has none), and why max-turns or a call ended its loop. */
interface End {
  reply: Outcome;
  limit?: string;
  error?: { type: string; message: string };
}

/** What a suite of loops has done, as kept between rounds: each cell × sample by its first custom_id. */
interface RoundsState {
  version: number;
  key: string;
  /** the round to send (or being waited for) */
  round: number;
  jobs: Record<string, Partial<LoopState> & { end?: End }>;
}

export interface RoundsOptions<C extends RunCell> {
  store: BatchStore;
  cells: readonly C[];
  /** where a cell × sample comes from: its custom_id in every round is made from it and what the round sends */
  refOf(job: SampleJob): CellRef;
  /** what answers a loop cell's calls live (MCP servers, a simulating model) */
  live(cell: C): LiveBackends;
  /** a round's session for its requests; `rounds` goes into its run record */
  session(jobs: BatchJob[], rounds: RoundOf): BatchSession;
  /** a round is sent: how many requests it holds */
  onRound?(round: number, requests: number): void;
  /** how many replies are answered at once (a live backend's calls take time) */
  concurrency?: number;
}

export class BatchRounds<C extends RunCell> {
  /** the suite's key: its first round's run key */
  readonly key: string;
  /** the round being sent or waited for (from 1) */
  round = 1;
  /** the current round's session; undefined when every cell × sample has ended */
  session: BatchSession | undefined;
  private submitted = false;
  private readonly jobs: SampleJob[];
  private readonly firstIds: string[];
  private readonly loops: (ToolLoop | undefined)[] = [];
  private readonly ends: (End | undefined)[] = [];
  /** the current round's requests: custom_id → the cell × sample */
  private pending = new Map<string, number>();

  constructor(private readonly o: RoundsOptions<C>) {
    this.jobs = sampleJobs(o.cells);
    this.firstIds = customIds(this.jobs.map(j => ({ ...o.refOf(j), body: j.body })));
    this.key = runKeyOf(this.firstIds);
  }

  /** Reads what an earlier run of the suite did, if anything, and makes the round to send. */
  async open(): Promise<void> {
    const kept = await this.o.store.rounds<RoundsState>(this.key);
    this.round = kept?.round ?? 1;
    this.jobs.forEach((job, i) => {
      const cell = this.o.cells[job.cell]!;
      const k = kept?.jobs[this.firstIds[i]!];
      const state = k && { added: k.added ?? [], turns: k.turns ?? [], calls: k.calls ?? [] };
      if (cell.tools) this.loops[i] = new ToolLoop(job.body, cell.tools, this.o.live(cell), state);
      this.ends[i] = k?.end;
    });
    this.makeSession();
  }

  /** Whether a cell × sample has ended. */
  ended(i: number): boolean {
    return !!this.ends[i];
  }

  /** Sends the current round (resumed when it was sent before). */
  async submit(signal?: AbortSignal): Promise<void> {
    if (!this.session || this.submitted) return;
    this.o.onRound?.(this.round, this.pending.size);
    await this.session.submit(signal);
    this.submitted = true;
  }

  /**
   * Waits for the current round to end, answers the calls of every reply, keeps what the loops have done, and
   * makes the next round (not sent yet). Resolves to the cells × samples that ended in this round.
   */
  async advance(signal: AbortSignal): Promise<number[]> {
    const session = this.session;
    if (!session) return [];
    await session.wait(signal);
    const ended: number[] = [];
    const answering = new Set<Promise<void>>();
    const limit = Math.max(1, this.o.concurrency ?? 4);
    const take = async (i: number, reply: Outcome) => {
      const loop = this.loops[i];
      const p = (async () => {
        if (!loop) {
          this.ends[i] = { reply };
          ended.push(i);
          return;
        }
        const step = await loop.advance(reply, signal);
        if (step.kind === 'continue') return;
        this.ends[i] = {
          reply,
          ...(step.kind === 'limit' ? { limit: step.message } : {}),
          ...(step.kind === 'error' ? { error: step.error } : {}),
        };
        ended.push(i);
      })().finally(() => answering.delete(p));
      answering.add(p);
      if (answering.size >= limit) await Promise.race(answering);
    };
    const answered = new Set<number>();
    try {
      for await (const m of session.results(signal)) {
        const i = this.pending.get(m.job.customId);
        if (i === undefined || answered.has(i)) continue;
        answered.add(i);
        await take(i, outcomeOf(m.result, m.batchId));
      }
    } finally {
      await Promise.all(answering);
    }
    if (signal.aborted) throw new Error('Cancelled.');
    const batches = session.batchIds.join(', ');
    for (const [id, i] of this.pending) {
      if (answered.has(i)) continue;
      const message = `no result for ${id} in ${batches}: not a request the batch holds (changed since it was sent?)`;
      await take(i, { text: '', error: { type: MISSING, message } });
    }
    await Promise.all(answering);
    this.round++;
    await this.o.store.saveRounds(this.state());
    await session.collected();
    this.makeSession();
    return ended;
  }

  /** A cell × sample's outcome, once it has ended: a loop's with its turns and calls. */
  outcome(i: number): Outcome {
    const end = this.ends[i]!;
    const loop = this.loops[i];
    if (!loop) return end.reply;
    const last = end.reply;
    const r = { last, turns: loop.turns, calls: loop.calls, ...end };
    return { ...loopOutcome(r), ...(last.batchId ? { batchId: last.batchId } : {}) };
  }

  /** Every round has been read and its cells given their verdicts: running the suite again starts anew. */
  async collected(): Promise<void> {
    await this.o.store.forgetRounds(this.key);
  }

  /**
   * The engine's transport: each cell × sample that has ended is handed back at once; then each round is sent,
   * waited for and answered, and the cells × samples that end in it handed back, until none is left. A cancel
   * stops the wait (the round goes on at the service; running the suite again resumes it).
   */
  transport(o: { concurrency: number; onEnded?: () => void }): Transport {
    return {
      send: async (jobs, handlers, signal) => {
        const at = new Map(this.jobs.map((j, i) => [`${j.cell}:${j.sample}`, i]));
        const settling = settler(handlers, o.concurrency);
        const settle = (job: SampleJob, i: number) => settling.add(job, this.outcome(i));
        const byIndex = new Map<number, SampleJob>();
        for (const job of jobs) {
          const i = at.get(`${job.cell}:${job.sample}`);
          if (i !== undefined) byIndex.set(i, job);
        }
        const report = async (ended: readonly number[]) => {
          for (const i of ended) {
            const job = byIndex.get(i);
            if (job) await settle(job, i);
          }
        };
        try {
          await report([...byIndex.keys()].filter(i => this.ended(i)));
          while (this.session && !signal.aborted) {
            await this.submit(signal);
            if (signal.aborted) break;
            await this.session.wait(signal);
            o.onEnded?.();
            await report(await this.advance(signal));
          }
        } catch (e) {
          if (!signal.aborted) throw e;
        } finally {
          await settling.all();
        }
      },
    };
  }

  /** The current round: every cell × sample that has not ended, each with what it sends now. */
  private makeSession(): void {
    const open = this.jobs.flatMap((job, i) => (this.ends[i] ? [] : [{ job, i }]));
    this.submitted = false;
    this.pending = new Map();
    if (!open.length) {
      this.session = undefined;
      return;
    }
    const sends = open.map(({ job, i }) => ({ ref: this.o.refOf(job), body: this.loops[i]?.body ?? job.body, i }));
    const ids = customIds(sends.map(s => ({ ...s.ref, body: s.body })));
    const jobs = sends.map((s, n) => {
      this.pending.set(ids[n]!, s.i);
      return { customId: ids[n]!, ref: s.ref, params: s.body };
    });
    this.session = this.o.session(jobs, { suite: this.key, round: this.round });
  }

  private state(): RoundsState {
    const jobs: RoundsState['jobs'] = {};
    this.jobs.forEach((_, i) => {
      const end = this.ends[i];
      jobs[this.firstIds[i]!] = { ...(this.loops[i]?.state() ?? {}), ...(end ? { end } : {}) };
    });
    return { version: VERSION, key: this.key, round: this.round, jobs };
  }
}
