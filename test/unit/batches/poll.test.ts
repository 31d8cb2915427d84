import * as assert from 'node:assert/strict';
import type { BatchAnswer, MessageBatch } from '../../../src/core/api/batches';
import { AbortedError, ApiError, ConnectionError } from '../../../src/core/api/errors';
import { POLL_PACE, pollWaits, waitUntilEnded } from '../../../src/core/batches/poll';

const batch = (id: string, status: string): MessageBatch => ({
  id,
  type: 'message_batch',
  processing_status: status,
  request_counts: { processing: 1, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
  created_at: '2026-05-01T10:00:00Z',
  expires_at: '2026-05-02T10:00:00Z',
  ended_at: null,
  archived_at: null,
  cancel_initiated_at: null,
  results_url: null,
});

/** A service whose batches end after `polls` polls each; it answers with `script` entries first when given. */
function service(polls: Record<string, number>, script: (BatchAnswer | Error)[] = []) {
  const asked: string[] = [];
  const retrieve = (id: string): Promise<BatchAnswer> => {
    asked.push(id);
    const next = script.shift();
    if (next instanceof Error) return Promise.reject(next);
    if (next) return Promise.resolve(next);
    polls[id]!--;
    return Promise.resolve({ batch: batch(id, polls[id]! <= 0 ? 'ended' : 'in_progress') });
  };
  return { asked, retrieve };
}

describe('polling batches until they end', () => {
  it('waits 5 s, then half as long again each time, up to 60 s', () => {
    assert.deepEqual(pollWaits(POLL_PACE, 10), [5000, 7500, 11250, 16875, 25313, 37970, 56955, 60000, 60000, 60000]);
  });

  it('asks at once, then after each wait, until every batch has ended; an ended one is not asked again', async () => {
    const waits: number[] = [];
    const s = service({ a: 1, b: 3 });
    const seen: string[] = [];
    const done = await waitUntilEnded(['a', 'b'], s.retrieve, {
      sleep: async ms => void waits.push(ms),
      onBatch: b => void seen.push(`${b.id}:${b.processing_status}`),
    });
    assert.deepEqual(
      done.map(b => [b.id, b.processing_status]),
      [
        ['a', 'ended'],
        ['b', 'ended'],
      ],
    );
    assert.deepEqual(s.asked, ['a', 'b', 'b', 'b']);
    assert.deepEqual(waits, [5000, 7500]);
    assert.deepEqual(seen, ['a:ended', 'b:in_progress', 'b:in_progress', 'b:ended']);
  });

  it('a batch known to have ended is not asked for at all', async () => {
    const s = service({});
    const known = new Map([['a', batch('a', 'ended')]]);
    const done = await waitUntilEnded(['a'], s.retrieve, {}, known);
    assert.equal(done[0]!.processing_status, 'ended');
    assert.deepEqual(s.asked, []);
  });

  it('honours a retry-after the service sends, on an answer or a 429', async () => {
    const waits: number[] = [];
    const limited = new ApiError(429, 'rate_limit_error', 'slow down', 'req_1', {}, 42);
    const s = service({ a: 2 }, [{ batch: batch('a', 'in_progress'), retryAfterMs: 20_000 }, limited]);
    const errors: number[] = [];
    await waitUntilEnded(['a'], s.retrieve, {
      sleep: async ms => void waits.push(ms),
      onPollError: (_e, ms) => errors.push(ms),
    });
    assert.deepEqual(waits, [20_000, 42_000, 60_000]);
    assert.deepEqual(errors, [42_000]);
  });

  it('waits out the network and 5xx; a 404 (no such batch) ends the wait with its error', async () => {
    const waits: number[] = [];
    const s = service({ a: 1 }, [new ConnectionError('reset'), new ApiError(529, 'overloaded_error', 'busy', 'r', {})]);
    await waitUntilEnded(['a'], s.retrieve, { sleep: async ms => void waits.push(ms) });
    assert.equal(waits.length, 2);
    const gone = service({}, [new ApiError(404, 'not_found_error', 'no batch', 'r', {})]);
    await assert.rejects(
      waitUntilEnded(['x'], gone.retrieve, { sleep: async () => {} }),
      (e: unknown) => e instanceof ApiError && e.status === 404,
    );
  });

  it('a cancel stops the wait (not the batch) at once', async () => {
    const ctl = new AbortController();
    const s = service({ a: 100 });
    const t0 = Date.now();
    setTimeout(() => ctl.abort(), 30);
    await assert.rejects(
      waitUntilEnded(['a'], s.retrieve, { signal: ctl.signal, pace: { firstMs: 60_000, maxMs: 60_000, factor: 1 } }),
      AbortedError,
    );
    assert.ok(Date.now() - t0 < 1000);
  });
});
