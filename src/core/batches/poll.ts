// Waiting for batches to end: each is asked for (GET /v1/messages/batches/{id}) after 5 s, then after waits
// that grow by half each time up to 60 s, never sooner than a `retry-after` the service sent. A failed poll
// that may pass (429, 5xx, the network) is waited out the same way and the batch asked for again; one that
// will not (a 404: the batch is not there, a 401) ends the wait with its error. Cancelling stops the wait,
// never the batch.
import type { BatchAnswer, MessageBatch } from '../api/batches';
import { retryDelay, sleep as realSleep } from '../api/retry';

export interface PollPace {
  /** the first wait, ms (default 5,000) */
  firstMs: number;
  /** the longest wait, ms (default 60,000) */
  maxMs: number;
  /** each wait is the last one times this (default 1.5) */
  factor: number;
}

export const POLL_PACE: PollPace = { firstMs: 5000, maxMs: 60_000, factor: 1.5 };

/** The waits before each poll, in order (for tests and the docs). */
export function pollWaits(pace: PollPace, n: number): number[] {
  const out: number[] = [];
  let w = pace.firstMs;
  for (let i = 0; i < n; i++) {
    out.push(w);
    w = Math.min(pace.maxMs, Math.round(w * pace.factor));
  }
  return out;
}

export interface WaitOptions {
  pace?: PollPace;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** what the service said of a batch at each poll */
  onBatch?: (batch: MessageBatch) => void | Promise<void>;
  /** a poll failed and will be tried again after `waitMs` */
  onPollError?: (e: unknown, waitMs: number) => void;
}

/**
 * Polls every batch in `ids` until each has ended; resolves with them as they last were, in the order of `ids`.
 * `known` are batches already seen (a batch that has ended is not asked for again).
 */
export async function waitUntilEnded(
  ids: readonly string[],
  retrieve: (id: string, signal?: AbortSignal) => Promise<BatchAnswer>,
  o: WaitOptions = {},
  known: ReadonlyMap<string, MessageBatch> = new Map(),
): Promise<MessageBatch[]> {
  const pace = o.pace ?? POLL_PACE;
  const wait = o.sleep ?? realSleep;
  const last = new Map(known);
  let next = pace.firstMs;
  for (;;) {
    for (const id of ids) {
      if (last.get(id)?.processing_status === 'ended') continue;
      let answer: BatchAnswer;
      try {
        answer = await retrieve(id, o.signal);
      } catch (e) {
        const delay = !o.signal?.aborted && e instanceof Error ? retryDelay(e, 1) : undefined;
        if (delay === undefined) throw e;
        next = Math.max(next, delay);
        o.onPollError?.(e, next);
        continue;
      }
      last.set(id, answer.batch);
      await o.onBatch?.(answer.batch);
      if (answer.retryAfterMs !== undefined) next = Math.max(next, answer.retryAfterMs);
    }
    if (ids.every(id => last.get(id)?.processing_status === 'ended')) return ids.map(id => last.get(id)!);
    await wait(next, o.signal);
    next = Math.min(pace.maxMs, Math.round(next * pace.factor));
  }
}
