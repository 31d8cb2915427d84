// Message Batches as the case engine's second transport (core/cases/engine.ts): the same jobs the direct
// transport sends one by one went as batches (BatchSession.submit, before the run), so sending them is waiting
// for the batches to end and handing back each job's outcome as its result line arrives, matched by custom_id.
// Results are settled a few at a time (a sample's rubrics call the judge), while the next lines are read.
import type { BatchResult } from '../api/batches';
import { batchError } from '../api/batches';
import type { BatchSession } from '../batches/session';
import { replyText } from './assertions';
import { EXPIRED, type SampleJob, type Transport, type TransportHandlers } from './engine';
import type { Outcome } from './types';

/** The error type of a request no result line answered. */
export const MISSING = 'missing_result';

/** A job's outcome from its result line: the message, or why there is none (errored, canceled, expired). */
export function outcomeOf(result: BatchResult, batchId: string): Outcome {
  switch (result.type) {
    case 'succeeded': {
      const m = result.message;
      return { message: m, text: replyText(m), usage: m.usage, stopReason: m.stop_reason, batchId };
    }
    case 'errored':
      return { text: '', error: batchError(result.error), batchId };
    case 'canceled':
      // the engine's word for a request a cancel kept from running
      return {
        text: '',
        error: { type: 'aborted', message: 'The batch was cancelled before this request was processed.' },
        batchId,
      };
    case 'expired':
      return {
        text: '',
        error: { type: EXPIRED, message: 'The batch expired (24 hours after it was made) before this request ran.' },
        batchId,
      };
  }
}

/**
 * Hands jobs their outcomes a few at a time (a sample's rubrics call the judge): `add` waits while `concurrency`
 * are being settled; `all` waits for the rest.
 */
export function settler(handlers: TransportHandlers, concurrency: number) {
  const settling = new Set<Promise<void>>();
  const limit = Math.max(1, Math.floor(concurrency) || 1);
  return {
    add: async (job: SampleJob, outcome: Outcome): Promise<void> => {
      handlers.started(job);
      const p = handlers.done(job, outcome).finally(() => settling.delete(p));
      settling.add(p);
      if (settling.size >= limit) await Promise.race(settling);
    },
    all: () => Promise.all(settling),
  };
}

export interface BatchTransportOptions {
  /** the run's batches, already submitted (or found) */
  session: BatchSession;
  /** a job's custom_id */
  idOf: (job: SampleJob) => string;
  /** how many results are settled at once (their judge calls go direct, at most this many at a time) */
  concurrency: number;
  /** every batch has ended: the results are read now */
  onEnded?: () => void;
}

/**
 * Waits for the session's batches to end, then hands each job its result's outcome. A cancel stops the wait
 * and the reading (the batches go on at the service; the jobs not handed back are the engine's cancelled
 * ones). A job no result line answers ends as an error that says so.
 */
export function batchTransport(o: BatchTransportOptions): Transport {
  return {
    async send(jobs, handlers, signal) {
      try {
        await o.session.wait(signal);
      } catch (e) {
        if (signal.aborted) return;
        throw e;
      }
      o.onEnded?.();
      const byId = new Map(jobs.map(j => [o.idOf(j), j]));
      const answered = new Set<SampleJob>();
      const { add: settle, all: settled } = settler(handlers, o.concurrency);
      try {
        for await (const m of o.session.results(signal)) {
          const job = byId.get(m.job.customId);
          if (!job) continue;
          answered.add(job);
          await settle(job, outcomeOf(m.result, m.batchId));
        }
      } catch (e) {
        await settled();
        if (signal.aborted) return;
        throw e;
      }
      const batches = o.session.batchIds.join(', ');
      for (const [id, job] of byId) {
        if (answered.has(job)) continue;
        const message = `no result for ${id} in ${batches}: not a request the batch holds (changed since it was sent?)`;
        await settle(job, { text: '', error: { type: MISSING, message } });
      }
      await settled();
    },
  };
}
