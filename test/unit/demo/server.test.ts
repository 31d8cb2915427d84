// The offline demo backend: the messages and count_tokens calls through the real client, streamed and
// whole, a tool call when the request offers tools, and the spec's error bodies for everything else.
import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/core/api/client';
import { ApiError } from '../../../src/core/api/errors';
import { DEMO_KEY, startDemoServer, type DemoServer } from '../../../src/core/demo/server';
import { estimateTokens } from '../../../src/core/tokens/scheduler';

describe('offline demo backend', () => {
  let demo: DemoServer;
  let client: ApiClient;
  const body = {
    model: 'model-opus-4-7',
    max_tokens: 256,
    messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    tools: [
      {
        name: 'get_weather',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ],
  };
  before(async () => {
    demo = await startDemoServer({ delayMs: 0 });
    client = new ApiClient({ baseUrl: demo.url, apiKey: DEMO_KEY, maxRetries: 0 });
  });
  after(() => demo.close());

  it('counts tokens with the estimate', async () => {
    assert.equal((await client.countTokens(body)).input_tokens, estimateTokens(body));
  });

  it('answers, saying no model ran, and calls the first tool with its required inputs', async () => {
    const m = await client.createMessage(body);
    assert.equal(m.stop_reason, 'tool_use');
    assert.match(String(m.content[0]!.text), /^\*\*Offline demo\*\*: no model ran/);
    assert.match(String(m.content[0]!.text), /What is the weather in Paris\?/);
    assert.deepEqual(m.content[1], {
      type: 'tool_use',
      id: 'toolu_demo_01',
      name: 'get_weather',
      input: { city: 'example' },
    });
    assert.ok(m.requestId?.startsWith('req_demo_'));
  });

  it('streams the same message, event by event, as the service does', async () => {
    const whole = await client.createMessage({ ...body, tools: undefined });
    const stream = await client.streamMessage({ ...body, tools: undefined, stream: true });
    const types: string[] = [];
    for await (const ev of stream) types.push(ev.type);
    assert.equal(types[0], 'message_start');
    assert.equal(types.at(-1), 'message_stop');
    assert.ok(types.filter(t => t === 'content_block_delta').length > 10);
    assert.equal(stream.message!.content[0]!.text, whole.content[0]!.text);
    assert.equal(stream.message!.stop_reason, 'end_turn');
  });

  it('refuses another key, and says what is not part of the demo', async () => {
    const other = new ApiClient({ baseUrl: demo.url, apiKey: 'sk-real', maxRetries: 0 });
    await assert.rejects(other.countTokens(body), (e: unknown) => e instanceof ApiError && e.status === 401);
    await assert.rejects(client.getResource('sesn_1', 'sesrsc_1'), (e: unknown) => {
      assert.ok(e instanceof ApiError && e.status === 404 && e.type === 'not_found_error');
      assert.match(e.message, /not part of the offline demo/);
      return true;
    });
  });
});
