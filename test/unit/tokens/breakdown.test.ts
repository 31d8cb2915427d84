import * as assert from 'node:assert/strict';
import { tokenBreakdown } from '../../../src/core/tokens/breakdown';

/** A stand-in count: one token per character of the JSON sent for messages/system/tools. */
const fakeCount = (calls: Record<string, unknown>[]) => async (b: Record<string, unknown>) => {
  calls.push(b);
  return JSON.stringify([b.system ?? null, b.tools ?? null, b.messages]).length;
};

describe('token breakdown', () => {
  const body = {
    model: 'model-opus-4-7',
    max_tokens: 10,
    system: 'Be brief.',
    tools: [{ name: 't', input_schema: { type: 'object' } }],
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'How are you?' },
    ],
  };
  it('gives system, tools and each message, as differences of prefix counts', async () => {
    const calls: Record<string, unknown>[] = [];
    const parts = await tokenBreakdown(body, fakeCount(calls));
    assert.deepEqual(
      parts.map(p => p.label),
      ['system', 'tools', 'messages[0] (user)', 'messages[1] (assistant)', 'messages[2] (user)'],
    );
    assert.deepEqual(
      parts.map(p => p.path),
      [['system'], ['tools'], ['messages', 0], ['messages', 1], ['messages', 2]],
    );
    // message parts add up to the whole conversation's count
    const msgSum = parts.slice(2).reduce((a, p) => a + p.tokens, 0);
    assert.equal(msgSum, JSON.stringify([null, null, body.messages]).length);
    assert.equal(calls.length, 5);
    for (const c of calls)
      assert.deepEqual(
        Object.keys(c).filter(k => !['model', 'messages', 'system', 'tools'].includes(k)),
        [],
      );
  });
  it('is cached: a second run after editing the last message pays for one prefix only', async () => {
    const cache = new Map<string, number>();
    const calls: Record<string, unknown>[] = [];
    await tokenBreakdown(body, fakeCount(calls), { cache });
    calls.length = 0;
    const edited = {
      ...body,
      messages: [...body.messages.slice(0, 2), { role: 'user', content: 'How are you doing?' }],
    };
    await tokenBreakdown(edited, fakeCount(calls), { cache });
    assert.equal(calls.length, 1);
  });
  it('runs at most `concurrency` calls at once', async () => {
    let active = 0,
      peak = 0;
    const many = {
      model: 'm',
      messages: Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` })),
    };
    await tokenBreakdown(
      many,
      async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise(r => setTimeout(r, 5));
        active--;
        return 1;
      },
      { concurrency: 3 },
    );
    assert.equal(peak, 3);
  });
});
