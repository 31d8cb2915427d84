// A streamed reply's events are what JSON.parse makes of each event's data, whatever the chunking: text deltas
// read in place in their chunk (the hot path) and every other event alike.
import * as assert from 'node:assert/strict';
import { StreamError } from '../../../src/core/api/errors';
import { MessageStream } from '../../../src/core/api/stream';
import type { Raw } from '../../../src/core/api/http';

const DATA: object[] = [
  { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: {} } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'plain ' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'line\nbreak, "quotes" and \\ ' } },
  // escapes without a quote: only the check for a backslash sends it to JSON.parse
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'tab\tand \\ and\n' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ünïcödé ☃ 😀 ' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 12, content_block: { type: 'tool_use', id: 't', name: 'f', input: {} } },
  { type: 'content_block_delta', index: 12, delta: { type: 'input_json_delta', partial_json: '{"text":"}}"' } },
  { type: 'content_block_delta', index: 12, delta: { type: 'input_json_delta', partial_json: '}' } },
  { type: 'content_block_stop', index: 12 },
  { type: 'content_block_start', index: 13, content_block: { type: 'text', text: '' } },
  // the same delta with its keys in another order: parsed whole
  { index: 13, type: 'content_block_delta', delta: { text: 'reordered', type: 'text_delta' } },
  { type: 'content_block_stop', index: 13 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
  { type: 'message_stop' },
];

const sse = DATA.map(d => `event: ${(d as { type: string }).type}\ndata: ${JSON.stringify(d)}\n\n`).join('');

function raw(chunks: Uint8Array[]): Raw {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const ch of chunks) c.enqueue(ch);
      c.close();
    },
  });
  return { status: 200, headers: {}, body, touch: () => {}, close: () => {} };
}

async function events(chunks: Uint8Array[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const ev of new MessageStream(raw(chunks))) out.push(ev);
  return out;
}

describe('the events of a streamed reply', () => {
  const bytes = new TextEncoder().encode(sse);

  it('are the JSON of each event, text deltas included, in one chunk', async () => {
    assert.deepEqual(await events([bytes]), DATA);
  });

  it('are the same whatever the chunking (split at every byte, and in two at each place)', async () => {
    assert.deepEqual(await events([...bytes].map(b => Uint8Array.of(b))), DATA);
    for (let at = 1; at < bytes.length; at += 7)
      assert.deepEqual(await events([bytes.subarray(0, at), bytes.subarray(at)]), DATA, `split at ${at}`);
  });

  it('accumulate into the message, tool input parsed', async () => {
    const s = new MessageStream(raw([bytes]));
    const m = await s.finalMessage();
    assert.equal(m.content[0]?.text, 'plain line\nbreak, "quotes" and \\ tab\tand \\ and\nünïcödé ☃ 😀 ');
    assert.deepEqual(m.content[12]?.input, { text: '}}' });
    assert.equal(m.content[13]?.text, 'reordered');
    assert.equal(m.stop_reason, 'end_turn');
  });

  it('stay as they came while the message is built from them', async () => {
    const s = new MessageStream(raw([bytes]));
    const got: unknown[] = [];
    for await (const ev of s) got.push(ev);
    assert.deepEqual(got, DATA);
    assert.equal(s.message?.content[0]?.text, 'plain line\nbreak, "quotes" and \\ tab\tand \\ and\nünïcödé ☃ 😀 ');
    assert.deepEqual(s.message?.content[12]?.input, { text: '}}' });
  });

  it('are read one by one from a long run of text deltas, whatever their texts hold', async () => {
    const texts = Array.from({ length: 700 }, (_, i) => [`w${i} `, 'a"}}b', 'x"}}', '\\"}}\n\n', 'é', ''][i % 6]!);
    const deltas = texts.map(text => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }));
    const data = [...DATA.slice(0, 2), ...deltas, ...DATA.slice(-2)];
    const body = data.map(d => `event: ${(d as { type: string }).type}\ndata: ${JSON.stringify(d)}\n\n`).join('');
    const s = new MessageStream(raw([new TextEncoder().encode(body)]));
    const got: unknown[] = [];
    for await (const ev of s) got.push(ev);
    assert.deepEqual(got, data);
    assert.equal(s.message?.content[0]?.text, texts.join(''));
  });

  it('are the same with CRLF line ends, and with CR ones', async () => {
    for (const end of ['\r\n', '\r']) {
      const other = new TextEncoder().encode(sse.replace(/\n/g, end));
      assert.deepEqual(await events([other]), DATA, JSON.stringify(end));
      assert.deepEqual(await events([other.subarray(0, 500), other.subarray(500)]), DATA, JSON.stringify(end));
    }
  });

  it('are JSON first: a text delta JSON.parse rejects ends the stream as invalid, whole or in pieces', async () => {
    const start = DATA.slice(0, 2).map(d => `event: ${(d as { type: string }).type}\ndata: ${JSON.stringify(d)}\n\n`);
    const head = '{"type":"content_block_delta","index":';
    for (const data of [
      `${head}0,"delta":{"type":"text_delta","text":"a\tb"}}`, // a raw tab: JSON has it escaped
      `${head}0,"delta":{"type":"text_delta","text":"a\\xb"}}`, // an escape JSON does not have
      `${head}00,"delta":{"type":"text_delta","text":"ab"}}`, // a number with a leading zero
      `${head}0,"delta":{"type":"text_delta","text":"ab"}}}`,
    ]) {
      const bytes = new TextEncoder().encode(`${start.join('')}event: content_block_delta\ndata: ${data}\n\n`);
      for (const chunks of [[bytes], [bytes.subarray(0, bytes.length - 9), bytes.subarray(bytes.length - 9)]]) {
        await assert.rejects(events(chunks), (e: unknown) => {
          assert.ok(e instanceof StreamError);
          assert.equal(e.type, 'invalid_stream', data);
          assert.equal(e.message, 'event content_block_delta carries data that is not JSON');
          return true;
        });
      }
    }
  });

  it('that the message cannot take end the stream as invalid and release it, also when a chunk held them', async () => {
    // a delta before its block's start, after events of the same chunk: handed out without entering the async path
    const events = [DATA[0], DATA[2], DATA[1]].map(d => `event: x\ndata: ${JSON.stringify(d)}\n\n`).join('');
    let closed = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start: c => c.enqueue(new TextEncoder().encode(events)),
      cancel: () => {
        cancelled = true;
      },
    });
    const stream = new MessageStream({ status: 200, headers: {}, body, touch: () => {}, close: () => closed++ });
    const it = stream[Symbol.asyncIterator]();
    assert.equal((await it.next()).done, false);
    await assert.rejects(it.next(), (e: unknown) => e instanceof StreamError && e.type === 'invalid_stream');
    await new Promise(resolve => setImmediate(resolve));
    assert.equal(closed, 1, 'the idle timer is released');
    assert.ok(cancelled, 'the body is cancelled');
  });
});
