// The simulated Message Batches (core/demo/batches.ts) that the demo and the tests' fake share: a test can end a
// batch's processing at once instead of waiting for it.
import * as assert from 'node:assert/strict';
import { SimulatedBatches } from '../../../src/core/demo/batches';

const ask = (text: string) => ({
  model: 'model-sonnet-4-6',
  max_tokens: 16,
  messages: [{ role: 'user', content: text }],
});
const answer = () => ({ message: { type: 'message', content: [{ type: 'text', text: 'hi' }], usage: {} } });
const ORIGIN = 'http://127.0.0.1:1';

function call(b: SimulatedBatches, method: string, path: string, body?: unknown) {
  const reply = b.handle(method, new URL(path, ORIGIN), body, ORIGIN)!;
  return reply as { status: number; body: Record<string, unknown>; lines?: string[] };
}

describe('demo: simulated Message Batches', () => {
  it('finish(id) ends a pending batch now, every request succeeded, its results ready', () => {
    const batches = new SimulatedBatches({ processingMs: 3_600_000, answer });
    const made = call(batches, 'POST', '/v1/messages/batches', {
      requests: [
        { custom_id: 'a', params: ask('one') },
        { custom_id: 'b', params: ask('two') },
      ],
    }).body;
    const id = String(made.id);
    assert.equal(call(batches, 'GET', `/v1/messages/batches/${id}`).body.processing_status, 'in_progress');
    assert.equal(call(batches, 'GET', `/v1/messages/batches/${id}/results`).status, 400);

    batches.finish(id);
    const ended = call(batches, 'GET', `/v1/messages/batches/${id}`).body;
    assert.equal(ended.processing_status, 'ended');
    assert.deepEqual(ended.request_counts, { processing: 0, succeeded: 2, errored: 0, canceled: 0, expired: 0 });
    const lines = call(batches, 'GET', `/v1/messages/batches/${id}/results`).lines ?? [];
    assert.deepEqual(lines.map(l => (JSON.parse(l) as { custom_id: string }).custom_id).sort(), ['a', 'b']);
  });

  it('finish(id) leaves an ended batch as it was, and an unknown id is nothing', () => {
    let now = 1_000;
    const batches = new SimulatedBatches({ processingMs: 10, answer, now: () => now });
    const id = String(
      call(batches, 'POST', '/v1/messages/batches', { requests: [{ custom_id: 'a', params: ask('x') }] }).body.id,
    );
    now += 50;
    const before = call(batches, 'GET', `/v1/messages/batches/${id}`).body.ended_at;
    now += 50;
    batches.finish(id);
    batches.finish('msgbatch_none');
    assert.equal(call(batches, 'GET', `/v1/messages/batches/${id}`).body.ended_at, before);
  });
});
