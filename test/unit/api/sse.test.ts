import * as assert from 'node:assert/strict';
import { LineTooLong } from '../../../src/core/api/limits';
import { SseDecoder, type SseEvent } from '../../../src/core/api/sse';
import { MessageAccumulator } from '../../../src/core/api/accumulator';
import { encodeSse, sseEvents } from '../../fake/server';
import { withFake } from '../../support/fake';
import type { StreamEvent, Usage } from '../../../src/core/api/types';

const enc = new TextEncoder();
/** The first event of a reply, with nothing in it yet. */
const messageStart = (usage: Usage): StreamEvent => ({
  type: 'message_start',
  message: {
    id: 'm',
    type: 'message',
    role: 'assistant',
    model: 'x',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  },
});
function decodeAll(chunks: Uint8Array[]): SseEvent[] {
  const d = new SseDecoder();
  const out: SseEvent[] = [];
  for (const c of chunks) out.push(...d.push(c));
  out.push(...d.end());
  return out;
}

/** A recorded stream: thinking, text with a multi-byte character and a citation, tool use. */
function recorded(): { bytes: Uint8Array; events: { event: string; data: unknown }[] } {
  const message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'model-opus-4-7',
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 40, cache_read_input_tokens: 3 },
    content: [
      { type: 'thinking', thinking: 'Hmm… let me think 🤔', signature: 'sig' },
      {
        type: 'text',
        text: 'Grüße — 你好 😀 done',
        citations: [
          {
            type: 'char_location',
            cited_text: 'x',
            document_index: 0,
            document_title: 'D',
            start_char_index: 0,
            end_char_index: 1,
          },
        ],
      },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Zürich', days: [1, 2] } },
    ],
  };
  const events = sseEvents({
    message,
    deltasPerText: [
      ['Hmm… ', 'let me think 🤔'],
      ['Grüße — ', '你好 😀', ' done'],
      ['{"city": "Zü', 'rich", "days": [1,', ' 2]}'],
    ],
  });
  return { bytes: enc.encode(encodeSse(events)), events };
}

describe('SSE decoder', () => {
  it('a 1 MB line in 64-byte chunks arrives whole, once (lines are joined once, when they end)', () => {
    const bytes = enc.encode(`event: message\ndata: ${'é'.repeat(500_000)}\r\n\r\n`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 64) chunks.push(bytes.subarray(i, i + 64));
    const got = decodeAll(chunks);
    assert.equal(got.length, 1);
    assert.equal(got[0]!.data, 'é'.repeat(500_000));
  });
  it('decodes a recorded stream split at every byte offset into the same events', () => {
    const { bytes, events } = recorded();
    const whole = decodeAll([bytes]);
    assert.equal(whole.length, events.length);
    for (let i = 1; i < bytes.length; i++) {
      const got = decodeAll([bytes.subarray(0, i), bytes.subarray(i)]);
      assert.deepEqual(got, whole, `split at ${i}`);
    }
  });
  it('and one byte at a time', () => {
    const { bytes } = recorded();
    const chunks = Array.from(bytes, b => Uint8Array.of(b));
    assert.deepEqual(decodeAll(chunks), decodeAll([bytes]));
  });
  it('handles CRLF and CR line ends (also split between chunks), comments, multi-line data, ids, a BOM', () => {
    const text = '\ufeff: comment\r\nevent: a\r\ndata: 1\r\ndata: 2\r\nid: 7\r\n\r\n:keepalive\rdata:x\r\rdata: y\n\n';
    const bytes = enc.encode(text);
    const expect = [
      { event: 'a', data: '1\n2', id: '7' },
      { event: 'message', data: 'x', id: '7' },
      { event: 'message', data: 'y', id: '7' },
    ];
    assert.deepEqual(decodeAll([bytes]), expect);
    for (let i = 1; i < bytes.length; i++)
      assert.deepEqual(decodeAll([bytes.subarray(0, i), bytes.subarray(i)]), expect, `split at ${i}`);
  });
  it('LF-only lines read in place (the fast path) give the same events as the general path, at every split', () => {
    const text =
      ': comment\nevent: a\ndata: 1\ndata:2\ndata: \nid: 7\n\nevent:b\ndata: {"x": "é"}\n\n' +
      'data\n\nevent: \ndata: last\nretry: 5\n\n';
    const bytes = enc.encode(text);
    const expect = [
      { event: 'a', data: '1\n2\n', id: '7' },
      { event: 'b', data: '{"x": "é"}', id: '7' },
      { event: 'message', data: '', id: '7' },
      { event: 'message', data: 'last', id: '7' },
    ];
    assert.deepEqual(decodeAll([bytes]), expect);
    for (let i = 1; i < bytes.length; i++)
      assert.deepEqual(decodeAll([bytes.subarray(0, i), bytes.subarray(i)]), expect, `split at ${i}`);
    assert.deepEqual(decodeAll(Array.from(bytes, b => Uint8Array.of(b))), expect, 'one byte at a time');
  });
});

describe('SSE decoder: a line or an event without end stops at its bound', () => {
  const tooLong = (e: unknown) => e instanceof LineTooLong;
  const cut = (text: string, size: number) => {
    const bytes = enc.encode(text);
    return Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
  };
  // the bound is for what the decoder holds of a line across chunks: a line inside one chunk is that chunk
  it('a line of 1,000 characters across chunks passes a bound of 1,000, one of 1,001 does not', () => {
    for (const size of [1, 7, 64]) {
      const ok = cut(`event: x\ndata: ${'a'.repeat(994)}\n\n`, size);
      const d = new SseDecoder(1000);
      assert.equal(ok.flatMap(c => d.push(c)).at(-1)?.data.length, 994, `chunks of ${size}`);
      const over = cut(`event: x\ndata: ${'a'.repeat(995)}\n\n`, size);
      const e = new SseDecoder(1000);
      assert.throws(() => over.forEach(c => e.push(c)), tooLong, `chunks of ${size}`);
    }
  });
  it('a line that never ends is not held past the bound; nor an event of data lines that never ends', () => {
    const d = new SseDecoder(10_000);
    assert.throws(() => {
      for (;;) d.push(enc.encode('x'.repeat(1000)));
    }, /^LineTooLong: A line of the event stream is longer than 9\.8 KiB, more than any answer/);
    const e = new SseDecoder(10_000);
    assert.throws(() => {
      for (;;) e.push(enc.encode('data: x\n'.repeat(100)));
    }, /^LineTooLong: An event's data is longer than 9\.8 KiB/);
  });
});

describe('SSE decoder, read by pulling', () => {
  it('keeps an event in the decoder until it reads on, its data where it is in its chunk', () => {
    const d = new SseDecoder();
    d.write(enc.encode('event: a\ndata: 1\n\nid: 7\ndata: 2\ndata: 3\n\n'));
    assert.ok(d.next());
    assert.deepEqual([d.event, d.dataText.slice(d.dataFrom, d.dataTo), d.id], ['a', '1', undefined]);
    assert.deepEqual(d.current, { event: 'a', data: '1' }, 'still there when read again');
    assert.ok(d.next());
    assert.deepEqual(d.current, { event: 'message', data: '2\n3', id: '7' });
    assert.equal(d.next(), false);
  });
  it('a chunk written before the events of the last one were all read goes after them', () => {
    const d = new SseDecoder();
    d.write(enc.encode('data: 1\n\ndata: 2\n\ndata: 3'));
    assert.ok(d.next());
    d.write(enc.encode('4\n\n'));
    const got: string[] = [d.current.data];
    while (d.next()) got.push(d.current.data);
    assert.deepEqual(got, ['1', '2', '34']);
  });
  it('nextMatching reads a whole event of a known shape at once, and only between events', () => {
    const re = /event: x\ndata: \d+\n\n/y;
    const d = new SseDecoder();
    d.write(enc.encode('event: x\ndata: 12\n\nevent: y\ndata: 3\n\nevent: x\ndata: 45\n\nevent: x\ndata: 6'));
    assert.equal(d.nextMatching(re), 0);
    assert.equal(d.text.slice(0, re.lastIndex), 'event: x\ndata: 12\n\n');
    assert.equal(d.nextMatching(re), -1, 'another shape: left to next()');
    assert.ok(d.next());
    assert.deepEqual(d.current, { event: 'y', data: '3' });
    const at = d.nextMatching(re);
    assert.equal(d.text.slice(at, re.lastIndex), 'event: x\ndata: 45\n\n');
    assert.equal(d.nextMatching(re), -1, 'not all there yet');
    assert.equal(d.next(), false);
    d.write(enc.encode('7\n\n'));
    assert.equal(d.nextMatching(re), -1, 'its first lines were read line by line: it ends that way');
    assert.ok(d.next());
    assert.deepEqual(d.current, { event: 'x', data: '67' });
  });
});

describe('message accumulator (doc1 §2.7)', () => {
  it('builds the final message from every split of a recorded stream', () => {
    const { bytes, events } = recorded();
    const final = (evs: SseEvent[]) => {
      const acc = new MessageAccumulator();
      for (const e of evs) acc.apply(JSON.parse(e.data) as StreamEvent);
      return acc.snapshot();
    };
    const expected = final(decodeAll([bytes]));
    assert.equal(expected!.content[0]!.thinking, 'Hmm… let me think 🤔');
    assert.equal(expected!.content[0]!.signature, 'sig');
    assert.equal(expected!.content[1]!.text, 'Grüße — 你好 😀 done');
    assert.equal((expected!.content[1]!.citations as unknown[]).length, 1);
    assert.deepEqual(expected!.content[2]!.input, { city: 'Zürich', days: [1, 2] });
    assert.equal(expected!.stop_reason, 'tool_use');
    assert.equal(events.length > 10, true);
    for (let i = 1; i < bytes.length; i += 7)
      assert.deepEqual(final(decodeAll([bytes.subarray(0, i), bytes.subarray(i)])), expected);
  });
  it('usage is overwritten by message_delta, not summed', () => {
    const acc = new MessageAccumulator();
    acc.apply(messageStart({ input_tokens: 10, output_tokens: 1 }));
    acc.apply({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 25 },
    });
    acc.apply({
      type: 'message_delta',
      delta: {},
      usage: { output_tokens: 30, server_tool_use: { web_search_requests: 2 } },
    });
    assert.deepEqual(acc.message!.usage, {
      input_tokens: 10,
      output_tokens: 30,
      server_tool_use: { web_search_requests: 2 },
    });
    assert.equal(acc.message!.stop_reason, 'end_turn');
  });
  it('keeps server tool blocks and stop_details', () => {
    const acc = new MessageAccumulator();
    acc.apply(messageStart({}));
    acc.apply({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} },
    });
    acc.apply({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: '{"query":' },
    });
    assert.equal(acc.snapshot()!.content[0]!.partial_json, '{"query":');
    acc.apply({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"x"}' } });
    acc.apply({ type: 'content_block_stop', index: 0 });
    acc.apply({
      type: 'content_block_start',
      index: 1,
      content_block: {
        type: 'web_search_tool_result',
        tool_use_id: 's1',
        content: [{ type: 'web_search_result', title: 'T', url: 'https://e.org', encrypted_content: 'e' }],
      },
    });
    acc.apply({ type: 'content_block_stop', index: 1 });
    acc.apply({
      type: 'message_delta',
      delta: { stop_reason: 'refusal', stop_details: { type: 'refusal', category: 'cyber', explanation: null } },
    });
    const m = acc.snapshot()!;
    assert.deepEqual(m.content[0]!.input, { query: 'x' });
    assert.equal(m.content[1]!.type, 'web_search_tool_result');
    assert.equal(m.stop_details!.category, 'cyber');
  });
  it('the fake service streams what its message says', async () => {
    await withFake({}, async fake => {
      const r = await fetch(`${fake.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': fake.apiKey, 'vendor-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'm',
          max_tokens: 5,
          stream: true,
          messages: [{ role: 'user', content: 'hi #thinking #tool' }],
        }),
      });
      const evs = decodeAll([new Uint8Array(await r.arrayBuffer())]);
      const acc = new MessageAccumulator();
      for (const e of evs) if (e.event !== 'ping') acc.apply(JSON.parse(e.data) as StreamEvent);
      assert.deepEqual(
        acc.snapshot()!.content.map(b => b.type),
        ['thinking', 'text', 'tool_use'],
      );
      assert.equal(acc.done, true);
    });
  });
});
