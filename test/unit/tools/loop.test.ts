import * as assert from 'node:assert/strict';
import type { Message } from '../../../src/core/api/types';
import type { GivenAnswer } from '../../../src/core/tools/answers';
import { runToolLoop, sumUsage, ToolLoop, type TurnReply } from '../../../src/core/tools/loop';

const signal = new AbortController().signal;

function reply(content: Message['content'], stop: string, usage = { input_tokens: 10, output_tokens: 5 }): TurnReply {
  const message: Message = {
    id: 'msg',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage,
  };
  return { message, usage, stopReason: stop, latencyMs: 3, requestId: 'req' };
}
const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });

describe('the tool-use loop', () => {
  it('answers given in the panel go by tool_use id, before any entry; the state holds the turns', async () => {
    const given = new Map<string, GivenAnswer>();
    const first = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    const loop = new ToolLoop(first, { given, file: { a: [{ result: 'from the file' }] }, maxTurns: 10 }, {});
    // the same call twice in one turn: each gets its own answer; a fixture's (Use Fixture) keeps is_error and source
    given
      .set('t1', { content: 'one', isError: false })
      .set('t2', { content: 'two', isError: true, source: 'recorded' });
    const step = await loop.advance(reply([use('t1', 'a', { x: 1 }), use('t2', 'a', { x: 1 })], 'tool_use'), signal);
    assert.equal(step.kind, 'continue');
    assert.deepEqual(loop.state().added, [
      { role: 'assistant', content: [use('t1', 'a', { x: 1 }), use('t2', 'a', { x: 1 })] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'one' },
          { type: 'tool_result', tool_use_id: 't2', content: 'two', is_error: true },
        ],
      },
    ]);
    assert.deepEqual(
      loop.calls.map(c => [c.id, c.source, c.result, c.turn]),
      [
        ['t1', 'given', 'one', 1],
        ['t2', 'recorded', 'two', 1],
      ],
    );
    // a call with no answer given falls back to the entries
    await loop.advance(reply([use('t3', 'a', {})], 'tool_use'), signal);
    assert.deepEqual(loop.calls[2]!.source, 'file');
    assert.equal((loop.body.messages as unknown[]).length, 5);
  });

  it('answers every call of a turn in one user message of tool_results, in order; ends on end_turn', async () => {
    const loop = new ToolLoop(
      { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
      { file: { a: [{ result: 'A' }], b: [{ result: { ok: false }, is_error: true }] }, maxTurns: 5 },
      {},
    );
    const sent: Record<string, unknown>[] = [];
    const replies = [
      reply([{ type: 'text', text: 'checking' }, use('t1', 'a', { x: 1 }), use('t2', 'b', {})], 'tool_use'),
      reply([{ type: 'text', text: 'done' }], 'end_turn'),
    ];
    const r = await runToolLoop(loop, body => (sent.push(body), Promise.resolve(replies[sent.length - 1]!)), signal);
    assert.equal(sent.length, 2);
    assert.deepEqual((sent[1]!.messages as unknown[]).slice(1), [
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'checking' }, use('t1', 'a', { x: 1 }), use('t2', 'b', {})],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'A' },
          { type: 'tool_result', tool_use_id: 't2', content: '{"ok":false}', is_error: true },
        ],
      },
    ]);
    assert.equal(r.turns.length, 2);
    assert.deepEqual(
      r.calls.map(c => [c.name, c.source, c.turn, c.isError]),
      [
        ['a', 'file', 1, false],
        ['b', 'file', 1, true],
      ],
    );
    assert.equal(r.limit, undefined);
    assert.equal(r.error, undefined);
  });

  it('a reply that fails, or stops on anything but tool_use, ends the loop at once', async () => {
    for (const last of [
      reply([{ type: 'text', text: 'x' }], 'max_tokens'),
      { error: { type: 'api_error', message: 'boom' } },
    ]) {
      const loop = new ToolLoop({ messages: [] }, { file: {}, maxTurns: 5 }, {});
      let n = 0;
      const r = await runToolLoop(loop, () => (n++, Promise.resolve(last)), signal);
      assert.equal(n, 1);
      assert.equal(r.turns.length, 1);
    }
  });

  it('max-turns requests and still calling: the loop ends, saying the model went round in circles', async () => {
    const loop = new ToolLoop({ messages: [] }, { file: { a: [{ result: 'same' }] }, maxTurns: 3 }, {});
    let n = 0;
    const r = await runToolLoop(
      loop,
      () => (n++, Promise.resolve(reply([use(`t${n}`, 'a', { q: 1 })], 'tool_use'))),
      signal,
    );
    assert.equal(n, 3);
    assert.equal(r.calls.length, 2);
    assert.match(r.limit!, /^max-turns 3 reached: the model still calls tools after 3 requests \(a \{"q":1\}\)\./);
    assert.match(r.limit!, /same call in every turn/);
  });

  it('a call with no answer: an error naming the tool and its input, and nothing more is sent', async () => {
    const loop = new ToolLoop({ messages: [] }, { maxTurns: 5 }, {});
    let n = 0;
    const r = await runToolLoop(
      loop,
      () => (n++, Promise.resolve(reply([use('t', 'lookup_order', { order_id: '999' })], 'tool_use'))),
      signal,
    );
    assert.equal(n, 1);
    assert.deepEqual(r.error, { type: 'no_tool_answer', message: 'no answer for lookup_order {"order_id":"999"}' });
  });

  it('usage is summed over the turns', () => {
    assert.deepEqual(
      sumUsage([
        { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 4 },
        undefined,
        { input_tokens: 30, output_tokens: 5, service_tier: 'standard' },
      ]),
      { input_tokens: 40, output_tokens: 7, cache_read_input_tokens: 4, service_tier: 'standard' },
    );
  });
});
