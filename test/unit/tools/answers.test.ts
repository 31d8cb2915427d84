import * as assert from 'node:assert/strict';
import {
  answerCall,
  deepSubset,
  MAX_ANSWER_CHARS,
  NoAnswer,
  normalizeTools,
  type CellTools,
  type LiveBackends,
} from '../../../src/core/tools/answers';

const signal = new AbortController().signal;
const call = (name: string, input: unknown) => ({ id: 'toolu_1', name, input });
const tools = (o: Partial<CellTools>): CellTools => ({ maxTurns: 10, ...o });

describe('tool answers', () => {
  it('a `when` is a deep subset of the input: objects key by key, lists and values whole', () => {
    assert.ok(deepSubset({ order_id: '1234' }, { order_id: '1234', verbose: true }));
    assert.ok(deepSubset({ a: { b: 1 } }, { a: { b: 1, c: 2 } }));
    assert.ok(!deepSubset({ a: { b: 1 } }, { a: { b: 2 } }));
    assert.ok(!deepSubset({ order_id: 1234 }, { order_id: '1234' }), 'a number is not its text');
    assert.ok(deepSubset({ tags: [1, 2] }, { tags: [1, 2] }));
    assert.ok(!deepSubset({ tags: [1] }, { tags: [1, 2] }), 'a list matches whole');
    assert.ok(!deepSubset({ missing: null }, {}), 'a key that is not there is not null');
  });

  it('the shorthand, one entry and a list all become a list of entries', () => {
    assert.deepEqual(normalizeTools({ a: 'Sunny', b: { mcp: 'docs' }, c: [{ when: { x: 1 }, result: { y: 2 } }] }), {
      a: [{ result: 'Sunny' }],
      b: [{ mcp: 'docs' }],
      c: [{ when: { x: 1 }, result: { y: 2 } }],
    });
  });

  it('first match wins: the case’s entries, the file’s, the recorded fixtures, the live backend', async () => {
    const t = tools({
      case: { a: [{ when: { k: 1 }, result: 'case' }] },
      file: { a: [{ result: 'file' }], b: [{ when: { k: 1 }, result: 'file b' }, { mcp: 'docs' }] },
      recorded: { b: [{ when: { k: 2 }, result: 'recorded' }] },
    });
    const live: LiveBackends = { mcp: () => Promise.resolve({ content: 'live', isError: false }) };
    const got = async (name: string, input: unknown) => {
      const a = await answerCall(t, live, call(name, input), signal);
      return [a.content, a.source];
    };
    assert.deepEqual(await got('a', { k: 1 }), ['case', 'case']);
    // the case's entries replace the file's for that tool: no fallback to the file's
    await assert.rejects(answerCall(t, live, call('a', { k: 2 }), signal), /no answer for a \{"k":2\}/);
    assert.deepEqual(await got('b', { k: 1 }), ['file b', 'file']);
    assert.deepEqual(await got('b', { k: 2 }), ['recorded', 'recorded']);
    assert.deepEqual(await got('b', { k: 3 }), ['live', 'mcp']);
  });

  it('an object or a list goes as its JSON text, a string as it is; is_error is kept', async () => {
    const t = tools({
      file: { a: [{ result: { status: 'shipped' } }], b: [{ result: 'no such order', is_error: true }] },
    });
    assert.deepEqual(await answerCall(t, {}, call('a', {}), signal), {
      content: '{"status":"shipped"}',
      isError: false,
      source: 'file',
    });
    assert.deepEqual(await answerCall(t, {}, call('b', {}), signal), {
      content: 'no such order',
      isError: true,
      source: 'file',
    });
  });

  it('no answer names the tool and its input', async () => {
    await assert.rejects(
      answerCall(tools({}), {}, call('lookup_order', { order_id: '999' }), signal),
      (e: unknown) =>
        e instanceof NoAnswer &&
        e.type === 'no_tool_answer' &&
        e.message === 'no answer for lookup_order {"order_id":"999"}',
    );
  });

  it('an answer over the limit (a 10 MB fixture) is the cell’s error, saying what to do', async () => {
    const t = tools({ file: { a: [{ result: 'x'.repeat(10 * 1024 * 1024) }] } });
    await assert.rejects(answerCall(t, {}, call('a', {}), signal), (e: unknown) => {
      assert.ok(e instanceof NoAnswer && e.type === 'tool_answer_too_large');
      assert.match(e.message, /10\.5 million characters, over the 1,000,000/);
      assert.match(e.message, /Shorten the answer/);
      return MAX_ANSWER_CHARS === 1_000_000;
    });
  });

  it('recording reads no recorded fixture and keeps each live answer', async () => {
    const kept: string[] = [];
    const t = tools({ file: { a: [{ simulate: 'a clock' }] }, recorded: { a: [{ result: 'old' }] } });
    const live: LiveBackends = {
      simulate: () => Promise.resolve('12:00'),
      record: (c, a) => kept.push(`${c.name}=${JSON.stringify(a.content)}`),
    };
    const a = await answerCall(t, live, call('a', {}), signal);
    assert.deepEqual([a.content, a.source], ['12:00', 'simulated']);
    assert.deepEqual(kept, ['a="12:00"']);
  });
});
