// Breakpoints in the order the service processes them, the block each one's prefix ends with, the prefix cut
// as count_tokens is asked about it, the local estimate, and the counter that asks as few times as it can.
import * as assert from 'node:assert/strict';
import { cacheMarkers, lastCacheableBlock } from '../../../src/core/request/breakpoints';
import { PrefixCounter } from '../../../src/core/cache/counter';
import { estimatePrefix, jsonLength, prefixRequest } from '../../../src/core/cache/prefix';
import { pickCountFields } from '../../../src/core/api/countFields';
import { estimateTokens } from '../../../src/core/tokens/estimate';

const cc = (ttl?: string) => ({ cache_control: { type: 'ephemeral', ...(ttl ? { ttl } : {}) } });
const text = (t: string, extra: object = {}) => ({ type: 'text', text: t, ...extra });

const request = {
  model: 'model-sonnet-4-5',
  max_tokens: 100,
  cache_control: { type: 'ephemeral' },
  messages: [
    { role: 'user', content: [text('the long document', cc('1h')), text('the question')] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'look', input: {} }] },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: [text('part'), text('last', cc())] }],
    },
    { role: 'assistant', content: [text('Done.'), { type: 'thinking', thinking: 't', signature: 's' }] },
  ],
  system: [text('rules', cc('1h'))],
  tools: [{ name: 'look', input_schema: { type: 'object' }, ...cc('1h') }],
};

describe('cache breakpoints', () => {
  it('come in the order tools → system → messages (a nested marker after its parent) → top-level', () => {
    const m = cacheMarkers(request);
    assert.deepEqual(
      m.map(x => [x.at.join('.'), x.ttl, x.automatic]),
      [
        ['tools.0.cache_control', '1h', false],
        ['system.0.cache_control', '1h', false],
        ['messages.0.content.0.cache_control', '1h', false],
        ['messages.2.content.0.content.1.cache_control', '5m', false],
        ['cache_control', '5m', true],
      ],
    );
    // a nested marker's prefix ends with its parent block (doc1 §2.3); the top-level one's with the last
    // cacheable block, past the thinking block
    assert.deepEqual(m[3]!.block, ['messages', 2, 'content', 0]);
    assert.deepEqual(m[3]!.nested, { in: 'tool_result', last: true });
    assert.deepEqual(m[4]!.block, ['messages', 3, 'content', 0]);
    assert.deepEqual(m[4]!.holder, []);
  });

  it('the last cacheable block: string content, past thinking and empty text, else system, else the last tool', () => {
    assert.deepEqual(lastCacheableBlock({ messages: [{ role: 'user', content: 'Hi' }] }), ['messages', 0, 'content']);
    assert.deepEqual(
      lastCacheableBlock({
        messages: [
          { role: 'user', content: [text('a'), text('b')] },
          { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'x' }, text('')] },
        ],
      }),
      ['messages', 0, 'content', 1],
    );
    assert.deepEqual(lastCacheableBlock({ system: 'rules', messages: [] }), ['system']);
    assert.deepEqual(lastCacheableBlock({ system: [text('a'), text('b')], messages: [] }), ['system', 1]);
    assert.deepEqual(lastCacheableBlock({ tools: [{}, {}], messages: [] }), ['tools', 1]);
    assert.equal(lastCacheableBlock({ messages: [] }), undefined);
  });

  it('a prefix in the conversation is the request cut after its block, as count_tokens takes it', () => {
    const [, , first, nested, top] = cacheMarkers(request);
    const r = prefixRequest(request, first!.block)!;
    assert.equal(r.kind, 'whole');
    assert.deepEqual(r.body, {
      messages: [{ role: 'user', content: [text('the long document', cc('1h'))] }],
      model: 'model-sonnet-4-5',
      system: request.system,
      tools: request.tools,
      cache_control: { type: 'ephemeral' },
    });
    const n = prefixRequest(request, nested!.block)!;
    assert.equal((n.body.messages as unknown[]).length, 3);
    // the top-level marker's prefix ends with the last cacheable block (the thinking block after it is not in it)
    const t = prefixRequest(request, top!.block)!;
    assert.deepEqual((t.body.messages as { content: unknown[] }[])[3]!.content, [text('Done.')]);
    // when that block ends the request, the prefix is the body the status bar counts, byte for byte
    const done = { ...request, messages: request.messages.slice(0, 3) };
    const whole = prefixRequest(done, cacheMarkers(done).at(-1)!.block)!;
    assert.equal(JSON.stringify(whole.body), JSON.stringify(pickCountFields(done)));
    // string content: the whole message
    const s = prefixRequest(
      {
        model: 'm',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Yo' },
        ],
      },
      ['messages', 0, 'content'],
    )!;
    assert.deepEqual(s.body.messages, [{ role: 'user', content: 'Hi' }]);
  });

  it('a prefix in tools or system is the difference it makes to a minimal request (the model, one message)', () => {
    const [tool, sys] = cacheMarkers(request);
    const base = { model: 'model-sonnet-4-5', messages: [{ role: 'user', content: 'x' }] };
    assert.deepEqual(prefixRequest(request, tool!.block), {
      kind: 'difference',
      base,
      extra: { tools: request.tools },
      body: { ...base, tools: request.tools },
    });
    // a system prefix holds every tool (tools come first) and the system blocks up to the marker
    const two = { ...request, system: [text('rules', cc()), text('more')] };
    assert.deepEqual(prefixRequest(two, sys!.block)!, {
      kind: 'difference',
      base,
      extra: { tools: request.tools, system: [text('rules', cc())] },
      body: { ...base, tools: request.tools, system: [text('rules', cc())] },
    });
    assert.deepEqual(prefixRequest({ ...request, system: 'rules' }, ['system'])!.body.system, 'rules');
    // a request without messages cannot be sent: nothing to count
    assert.equal(prefixRequest({ ...request, messages: [] }, ['tools', 0]), undefined);
  });

  it('the estimate: the length of the JSON counted, about four characters a token, as the status bar estimates', () => {
    for (const v of [
      { a: 'é"\\\n\u2028', b: [1, null, true, { c: -1.5e-7 }], d: undefined, e: [undefined], f: '\ud83d\ude00\ud800' },
      request,
      'x'.repeat(10_000),
      [],
      {},
    ])
      assert.equal(jsonLength(v), JSON.stringify(v).length, JSON.stringify(v).slice(0, 40));
    const top = prefixRequest(request, cacheMarkers(request)[4]!.block)!;
    assert.equal(estimatePrefix(top), estimateTokens(top.body));
    // capped: a prefix of megabytes is measured no further than the minimum needs
    assert.ok(jsonLength({ text: 'x'.repeat(5_000_000) }, 10_000) > 10_000);
    const big = prefixRequest({ ...request, messages: [{ role: 'user', content: 'y'.repeat(1_000_000) }] }, [
      'messages',
      0,
      'content',
    ])!;
    assert.ok(estimatePrefix(big, 4096) > 4096);
  });
});

describe('counting prefixes (count_tokens, cached by body, a few at a time)', () => {
  const [tool, sys, first, nested, top] = cacheMarkers(request);
  const requests = [tool, sys, first, nested, top].map(m => prefixRequest(request, m!.block));

  it('counts each distinct body once (the shared base once), and nothing on a second look', async () => {
    let inFlight = 0;
    let most = 0;
    const counter = new PrefixCounter(
      async body => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise(r => setTimeout(r, 5));
        inFlight--;
        return JSON.stringify(body).length;
      },
      { concurrency: 2 },
    );
    const got = await counter.countAll(requests);
    // 5 prefixes: tools and system share their base (1), the other three are whole cuts
    assert.equal(counter.calls, 6);
    assert.ok(most <= 2, `at most 2 in flight, saw ${most}`);
    const len = (o: object) => JSON.stringify(o).length;
    const t = requests[0]!;
    assert.deepEqual(got[0], { tokens: len(t.body) - len((t as { base: object }).base) });
    assert.deepEqual(got[4], { tokens: len(requests[4]!.body) });
    assert.deepEqual(await counter.countAll(requests), got);
    assert.equal(counter.calls, 6, 'a second look costs no call');
    assert.equal(counter.known(requests[2]), len(requests[2]!.body));
  });

  it('the whole request counted elsewhere (the status bar, `count`) is not counted again', async () => {
    const counter = new PrefixCounter(() => Promise.resolve(7));
    counter.seed(requests[4]!.body, 1234);
    assert.deepEqual(await counter.countAll([requests[4]]), [{ tokens: 1234 }]);
    assert.equal(counter.calls, 0);
  });

  it('a refused prefix says why, and is asked again only when asked to', async () => {
    let calls = 0;
    const counter = new PrefixCounter(() => {
      calls++;
      return Promise.reject(Object.assign(new Error('messages: bad'), { type: 'invalid_request_error', status: 400 }));
    });
    const [r] = await counter.countAll([requests[2]]);
    assert.deepEqual(r, { error: { message: 'messages: bad', type: 'invalid_request_error', status: 400 } });
    assert.equal(counter.failure(requests[2]), 'messages: bad');
    await counter.countAll([requests[2]]);
    assert.equal(calls, 1);
    counter.retry([requests[2]]);
    await counter.countAll([requests[2]]);
    assert.equal(calls, 2);
    // a breakpoint with nothing to measure against is an error of its own, not a call
    assert.match(JSON.stringify((await counter.countAll([undefined]))[0]), /no message to count/);
  });
});
