// Hits you can measure: the tests' fake of the service and the offline demo report cache writes on a first call
// and reads on a second identical call with breakpoints (their own simulation, core/demo/promptCache.ts), so the
// panel's cache line, the CLI's summary and `test --format json` can be shown and tested. The usage reads in
// words as the panel says it.
import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/core/api/client';
import { usageWords } from '../../../src/core/api/usage';
import { DEMO_KEYS, startDemoServer } from '../../../src/core/demo/server';
import { SimulatedPromptCache } from '../../../src/core/demo/promptCache';
import { clientOf, useFake } from '../../support/fake';

const LONG = 'The handbook says the office opens at nine and closes at five. '.repeat(80); // ~1,300 tokens at 4 chars
const cached = (ttl?: string) => ({ type: 'ephemeral', ...(ttl ? { ttl } : {}) });
const ask = (q: string, o: { ttl?: string; model?: string; text?: string } = {}) => ({
  model: o.model ?? 'model-sonnet-4-5',
  max_tokens: 50,
  system: [{ type: 'text', text: o.text ?? LONG, cache_control: cached(o.ttl) }],
  messages: [{ role: 'user', content: q }],
});

describe('the fake reports cache writes, then reads on an identical call', () => {
  const fake = useFake();
  let client: ApiClient;
  before(async () => {
    client = clientOf(fake);
  });

  it('the first call writes the prefix (5 minutes), the second reads it; the counts add up to the input', async () => {
    const body = ask('When does the office open?');
    const { input_tokens: whole } = await client.countTokens(body);
    const first = (await client.createMessage(body)).usage;
    assert.ok(first.cache_creation_input_tokens! > 1024, JSON.stringify(first));
    assert.equal(first.cache_read_input_tokens, 0);
    assert.deepEqual(first.cache_creation, {
      ephemeral_5m_input_tokens: first.cache_creation_input_tokens,
      ephemeral_1h_input_tokens: 0,
    });
    assert.equal(first.input_tokens! + first.cache_creation_input_tokens!, whole);
    // streamed, as the panel and `run` ask: the same usage arrives in message_start
    const stream = await client.streamMessage({ ...body, stream: true });
    for await (const _ of stream);
    const second = stream.message!.usage;
    assert.equal(second.cache_read_input_tokens, first.cache_creation_input_tokens);
    assert.equal(second.cache_creation_input_tokens, 0);
    assert.equal(second.input_tokens, first.input_tokens);
    const read = second.cache_read_input_tokens!.toLocaleString('en-US');
    const total = whole.toLocaleString('en-US');
    const words = `^${total} input tokens \\(${read} read from the cache: \\d+% of the input\\)`;
    assert.match(usageWords(second), new RegExp(`${words} and \\d+ output tokens?\\.$`));
    assert.match(usageWords(first), /\(\d[\d,]* written to it, \d[\d,]* for 5 minutes and 0 for 1 hour\)/);
  });

  it('a later question still reads the prefix before it; a 1-hour breakpoint writes for an hour', async () => {
    await client.createMessage(ask('When does it open?', { ttl: '1h' }));
    const other = (await client.createMessage(ask('And when does it close?', { ttl: '1h' }))).usage;
    assert.ok(other.cache_read_input_tokens! > 1024);
    fake.clear();
    const hour = (await client.createMessage(ask('When does it open?', { ttl: '1h' }))).usage;
    assert.equal(hour.cache_creation!.ephemeral_5m_input_tokens, 0);
    assert.equal(hour.cache_creation!.ephemeral_1h_input_tokens, hour.cache_creation_input_tokens);
  });

  it('under the minimum nothing is written or read, and nothing is said; nor without a breakpoint', async () => {
    const short = ask('Hi', { text: 'You are terse.' });
    for (let i = 0; i < 2; i++) {
      const u = (await client.createMessage(short)).usage;
      assert.equal(u.cache_creation_input_tokens, 0);
      assert.equal(u.cache_read_input_tokens, 0);
    }
    // model-haiku-4-5 caches from 4,096 tokens: the same ~1,300-token prefix is not cached there
    const haiku = (await client.createMessage(ask('Hi', { model: 'model-haiku-4-5' }))).usage;
    assert.equal(haiku.cache_creation_input_tokens, 0);
    const plain = { model: 'model-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: LONG }] };
    await client.createMessage(plain);
    assert.equal((await client.createMessage(plain)).usage.cache_read_input_tokens, 0);
  });
});

describe('the simulated cache', () => {
  it('several breakpoints: reads the longest cached prefix, writes the rest apart by ttl; entries expire', () => {
    let now = 0;
    const sim = new SimulatedPromptCache(
      b => Math.ceil(JSON.stringify(b.messages).length / 4) + 2000,
      () => now,
    );
    const body = {
      model: 'model-sonnet-4-5',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'a'.repeat(400), cache_control: cached('1h') }] },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: 'b'.repeat(400), cache_control: cached() }] },
      ],
    };
    const first = sim.usage(body);
    assert.equal(first.cache_read_input_tokens, 0);
    assert.ok(
      first.cache_creation.ephemeral_1h_input_tokens > 2000 && first.cache_creation.ephemeral_5m_input_tokens > 100,
    );
    assert.equal(first.input_tokens, 0);
    now += 6 * 60_000; // the 5-minute entry is gone, the 1-hour one is not
    const later = sim.usage(body);
    assert.equal(later.cache_read_input_tokens, first.cache_creation.ephemeral_1h_input_tokens);
    assert.equal(later.cache_creation_input_tokens, first.cache_creation.ephemeral_5m_input_tokens);
  });
});

describe('the offline demo reports the same, and says it is simulated', () => {
  it('writes, then reads; the reply text says the cache figures are the demo’s', async () => {
    const demo = await startDemoServer({ delayMs: 0 });
    try {
      const client = new ApiClient({ baseUrl: demo.url, apiKey: DEMO_KEYS.api, maxRetries: 0 });
      const body = ask('When does the office open?');
      const first = await client.createMessage(body);
      const second = await client.createMessage(body);
      assert.ok(first.usage.cache_creation_input_tokens! > 1024);
      assert.equal(second.usage.cache_read_input_tokens, first.usage.cache_creation_input_tokens);
      assert.match(String(second.content[0]!.text), /simulated by the demo/);
      const plain = await client.createMessage({
        model: 'model-sonnet-4-5',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      assert.doesNotMatch(String(plain.content[0]!.text), /simulated/);
    } finally {
      await demo.close();
    }
  });
});
