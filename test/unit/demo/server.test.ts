// The offline demo: every call the extension makes, through the real clients. Its replies say no model ran
// and follow the request: thinking when thinking is on, a call of the request's tool when the question is
// about it (or tool_choice says so), JSON valid against output_config.format, text otherwise.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { runCli } from '../../../src/cli/main';
import { AdminClient } from '../../../src/core/admin/client';
import { BatchesClient } from '../../../src/core/api/batches';
import { ApiClient } from '../../../src/core/api/client';
import { Http } from '../../../src/core/api/http';
import { ComplianceClient } from '../../../src/core/compliance/client';
import {
  DEMO_KEYS,
  DEMO_SESSION,
  DEMO_WORKSPACE,
  startDemoServer,
  type DemoServer,
} from '../../../src/core/demo/server';
import { estimateTokens } from '../../../src/core/tokens/estimate';

const weather = {
  name: 'get_weather',
  description: 'Current weather for a city, e.g. whether it will rain.',
  input_schema: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city'],
  },
};
const ask = (text: string, extra: Record<string, unknown> = {}) => ({
  model: 'model-opus-4-7',
  max_tokens: 256,
  messages: [{ role: 'user', content: text }],
  ...extra,
});

describe('offline demo backend', () => {
  let demo: DemoServer;
  let client: ApiClient;
  const options = () => ({
    baseUrl: demo.url,
    apiKey: DEMO_KEYS.api,
    adminKey: DEMO_KEYS.admin,
    complianceKey: DEMO_KEYS.compliance,
    maxRetries: 0,
  });
  before(async () => {
    demo = await startDemoServer({ delayMs: 0, batchProcessingMs: 50 });
    client = new ApiClient(options());
  });
  after(() => demo.close());

  it('answers a Message Batch: in progress, then ended, its results the demo’s replies', async () => {
    const batches = new BatchesClient(client.http);
    const { batch } = await batches.create([
      { custom_id: 'a', params: ask('First question') },
      { custom_id: 'b', params: ask('Second question #errored') },
    ]);
    assert.equal(batch.processing_status, 'in_progress');
    await new Promise(r => setTimeout(r, 80));
    const ended = (await batches.retrieve(batch.id)).batch;
    assert.equal(ended.processing_status, 'ended');
    assert.deepEqual(ended.request_counts, { processing: 0, succeeded: 1, errored: 1, canceled: 0, expired: 0 });
    const by = new Map<string, string>();
    for await (const l of batches.results(batch.id))
      by.set(l.custom_id, l.result.type === 'succeeded' ? JSON.stringify(l.result.message.content) : l.result.type);
    assert.match(by.get('a')!, /Offline demo: no model ran.*First question/);
    assert.equal(by.get('b'), 'errored');
    const listed = await batches.pages().next();
    assert.equal(listed.value!.data[0]!.id, batch.id);
  });

  it('counts tokens with the estimate', async () => {
    const body = ask('How many tokens?');
    assert.equal((await client.countTokens(body)).input_tokens, estimateTokens(body));
  });

  it('text that says no model ran, repeating the question, when the request asks for nothing else', async () => {
    const m = await client.createMessage(ask('Explain a context window.', { tools: [weather] }));
    assert.equal(m.stop_reason, 'end_turn');
    assert.equal(m.content.length, 1);
    assert.match(String(m.content[0]!.text), /^\*\*Offline demo: no model ran\.\*\*/);
    assert.match(String(m.content[0]!.text), /Explain a context window\./);
    assert.ok(m.requestId?.startsWith('req_demo_'));
  });

  it("calls the request's tool when the question is about it, with input from its schema", async () => {
    const m = await client.createMessage(ask('Will it rain in Paris tomorrow?', { tools: [weather] }));
    assert.equal(m.stop_reason, 'tool_use');
    assert.deepEqual(m.content[1], {
      type: 'tool_use',
      id: 'toolu_offline_demo_01',
      name: 'get_weather',
      input: { city: 'example', unit: 'celsius' },
    });
    // tool_choice decides when the request says: none never, any and tool always
    const none = await client.createMessage(ask('Will it rain?', { tools: [weather], tool_choice: { type: 'none' } }));
    assert.equal(none.stop_reason, 'end_turn');
    const forced = await client.createMessage(ask('Hello', { tools: [weather], tool_choice: { type: 'any' } }));
    assert.equal(forced.stop_reason, 'tool_use');
  });

  it('JSON valid against output_config.format, and a thinking block when thinking is on', async () => {
    const schema = {
      type: 'object',
      properties: {
        answer: { type: 'string' },
        language: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['answer', 'language', 'tags'],
      additionalProperties: false,
    };
    const body = ask('Where is order 1234?', {
      output_config: { format: { type: 'json_schema', schema } },
      thinking: { type: 'adaptive' },
    });
    const m = await client.createMessage(body);
    assert.equal(m.content[0]!.type, 'thinking');
    assert.match(String(m.content[0]!.thinking), /no model ran/);
    const reply = JSON.parse(String(m.content[1]!.text)) as Record<string, unknown>;
    assert.ok(
      new Validator(schema as ConstructorParameters<typeof Validator>[0]).validate(reply).valid,
      JSON.stringify(reply),
    );
    assert.match(String(reply.answer), /Where is order 1234\?/);
  });

  it('streams the same message, thinking included, event by event, as the service does', async () => {
    const body = ask('Stream this', { thinking: { type: 'enabled', budget_tokens: 1024 } });
    const whole = await client.createMessage(body);
    const stream = await client.streamMessage(body);
    const types: string[] = [];
    for await (const ev of stream) types.push(ev.type);
    assert.equal(types[0], 'message_start');
    assert.equal(types.at(-1), 'message_stop');
    assert.deepEqual(stream.message!.content, whole.content);
  });

  it('serves a session with a resource of each type, rate limits, administration and compliance', async () => {
    const types: string[] = [];
    for await (const page of client.resourcePages(DEMO_SESSION)) types.push(...page.data.map(r => r.type));
    assert.deepEqual(types.sort(), ['file', 'github_repository', 'memory_store']);
    assert.ok((await client.rateLimits()).length > 0);
    assert.ok((await client.workspaceRateLimits(DEMO_WORKSPACE)).length > 0);
    const http = new Http(options());
    const admin = new AdminClient(http);
    assert.ok((await admin.org()).name);
    const created = await admin.createWorkspace({ name: 'Tried in the demo' });
    assert.equal((await admin.workspace(created.id)).name, 'Tried in the demo', 'editable in memory');
    const compliance = new ComplianceClient(http);
    assert.ok((await compliance.organizations()).length > 0);
    const first = await compliance.activityPage({}, { pageSize: 10 });
    assert.equal(first.data.length, 10);
  });

  it("refuses another key with the spec's error body", async () => {
    const other = new ApiClient({ baseUrl: demo.url, apiKey: 'sk-real', maxRetries: 0 });
    await assert.rejects(other.countTokens(ask('x')), (e: unknown) => {
      const err = e as { status?: number; type?: string };
      return err.status === 401 && err.type === 'authentication_error';
    });
  });

  it('examples/: no words meant to steer a fake; the case file does on the demo what its comment says', async () => {
    for (const f of fs.readdirSync('examples'))
      assert.doesNotMatch(fs.readFileSync(`examples/${f}`, 'utf8'), /#(tool|json|thinking|cite|long|slow)\b/, f);
    let out = '';
    const code = await runCli(['test', 'examples/support.cases.yaml'], {
      stdout: { write: t => (out += t) },
      stderr: { write: () => undefined },
      env: { PROMPTWRIGHT_BASE_URL: demo.url, PROMPTWRIGHT_API_KEY: DEMO_KEYS.api },
    });
    assert.equal(code, 1, out);
    assert.match(out, /6 cells: 4 passed, 2 failed/);
    // the failing row is the one the comment names, for the reason it gives
    const failed = out.split('\n').filter(l => /^\s+FAIL/.test(l));
    assert.deepEqual(
      failed.map(l => /FAIL\s+(.*?) {2}/.exec(l)?.[1]),
      ['refund in French · model-sonnet-4-6', 'refund in French · model-haiku-4-5'],
    );
    assert.match(fs.readFileSync('examples/support.cases.yaml', 'utf8'), /"refund in French" fails, on purpose/);
    assert.match(out, /regex \/"language": "fr"\/: no match/);
  });

  it('examples/refunds.cases.yaml: the demo’s judge passes the rubric its comment says, fails the other', async () => {
    let out = '';
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-demo-verdicts-'));
    try {
      const code = await runCli(['test', 'examples/refunds.cases.yaml', '--format', 'json'], {
        stdout: { write: t => (out += t) },
        stderr: { write: () => undefined },
        env: { PROMPTWRIGHT_BASE_URL: demo.url, PROMPTWRIGHT_API_KEY: DEMO_KEYS.api, PROMPTWRIGHT_CACHE_DIR: cache },
      });
      assert.equal(code, 1, out);
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
    const cells = JSON.parse(out) as {
      samples: { assertions: { type: string; pass: boolean; message: string }[]; cost_usd: number }[];
    }[];
    assert.equal(cells.length, 2);
    for (const c of cells) {
      assert.equal(c.samples.length, 3);
      for (const s of c.samples) {
        assert.deepEqual(
          s.assertions.map(a => [a.type, a.pass]),
          [
            ['rubric', true],
            ['rubric', false],
            ['max-cost', true],
          ],
        );
        assert.match(s.assertions[1]!.message, /The reply lacks "30 jours"/);
        assert.ok(s.cost_usd > 0);
      }
    }
    const text = fs.readFileSync('examples/refunds.cases.yaml', 'utf8');
    assert.match(text, /the rubric quoting "remboursé" passes[\s\S]*the one quoting\n# "30 jours" fails, on purpose/);
  });
});
