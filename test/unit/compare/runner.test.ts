// The compare runner against the fake: columns stream at once within the concurrency, each ends with its
// whole reply (text, thinking, tool calls, stop_reason, usage, latency, request-id); a column that cannot
// be sent says why and is not sent; a cancel keeps the partial replies; a second sample says what differs.
import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/core/api/client';
import { runColumns, sampleDifferences, sendWith, type ColumnResult } from '../../../src/core/compare/runner';
import { clientOf, useFake } from '../../support/fake';

const body = (content: string, model = 'model-opus-4-7') => ({
  model,
  max_tokens: 100,
  messages: [{ role: 'user', content }],
});

describe('compare: runner', function () {
  this.timeout(20_000);
  const fake = useFake();
  let client: ApiClient;
  before(async () => {
    client = clientOf(fake);
  });

  it('streams every column at once and ends each with its whole reply', async () => {
    const events: number[] = [];
    const results = await runColumns({
      columns: [{ body: body('Think #thinking #tool #slow=20') }, { body: body('Plain #slow=20', 'model-haiku-4-5') }],
      concurrency: 4,
      send: sendWith(client),
      onEvent: i => events.push(i),
    });
    assert.deepEqual(
      results.map(r => r.status),
      ['done', 'done'],
    );
    const [a, b] = results as [ColumnResult, ColumnResult];
    assert.deepEqual(
      a.outcome.message!.content.map(x => x.type),
      ['thinking', 'text', 'tool_use'],
    );
    assert.equal(a.outcome.stopReason, 'tool_use');
    assert.match(a.outcome.requestId!, /^req_fake_/);
    assert.ok(a.outcome.usage!.input_tokens! > 0 && a.outcome.latencyMs! >= 0);
    assert.equal(b.outcome.text, 'Hello! You said: Plain');
    assert.equal(b.outcome.message!.model, 'model-haiku-4-5');
    assert.ok(events.includes(0) && events.includes(1));
    // both were open at the fake at once
    const [q1, q2] = fake.requests;
    assert.ok(q1!.at < (q2!.closedAt ?? Infinity) && q2!.at < (q1!.closedAt ?? Infinity));
  });

  it('a column that cannot be sent is reported with its problems and never sent', async () => {
    const statuses: string[] = [];
    const results = await runColumns({
      columns: [{ problems: ['missing-field at /max_tokens: required'] }, { body: body('ok') }],
      concurrency: 1,
      send: sendWith(client),
      onStatus: (i, r) => statuses.push(`${i}:${r.status}`),
    });
    assert.equal(results[0]!.status, 'not-sent');
    assert.deepEqual(results[0]!.problems, ['missing-field at /max_tokens: required']);
    assert.equal(fake.requests.length, 1);
    assert.deepEqual(statuses, ['0:not-sent', '1:running', '1:done']);
  });

  it('a cancel stops every column and keeps what arrived; queued columns never start', async () => {
    const ctl = new AbortController();
    const slow = body('Go #long=200 #slow=20');
    let texts = 0;
    const results = await runColumns({
      columns: [{ body: slow }, { body: slow }, { body: slow }],
      concurrency: 2,
      signal: ctl.signal,
      send: sendWith(client),
      onEvent: () => {
        if (++texts === 20) ctl.abort();
      },
    });
    assert.deepEqual(
      results.map(r => r.status),
      ['cancelled', 'cancelled', 'cancelled'],
    );
    assert.ok(results[0]!.outcome.text.startsWith('w0 '), 'the partial reply is kept');
    assert.equal(fake.requests.length, 2, 'the third column was never sent');
  });

  it('a second sample: what differs from the first', () => {
    const outcome = (text: string, stop = 'end_turn') => ({ text, stopReason: stop });
    assert.deepEqual(sampleDifferences(outcome('a'), outcome('a')), []);
    assert.deepEqual(sampleDifferences(outcome('a'), outcome('b', 'max_tokens')), [
      'text',
      'stop_reason (end_turn → max_tokens)',
    ]);
  });
});
