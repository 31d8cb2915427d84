import * as assert from 'node:assert/strict';
import { ApiClient, type ClientOptions } from '../../../src/core/api/client';
import { AbortedError, ApiError, ConfigError, ConnectionError, StreamError } from '../../../src/core/api/errors';
import { backoffMs, retryDelay } from '../../../src/core/api/retry';
import { useFake } from '../../support/fake';

const req = (text: string, extra: Record<string, unknown> = {}) => ({
  model: 'model-opus-4-7',
  max_tokens: 100,
  messages: [{ role: 'user', content: text }],
  ...extra,
});

describe('API client against the fake service', () => {
  const fake = useFake();
  let waits: number[];
  let logs: string[];
  const client = (o: Partial<ClientOptions> = {}) =>
    new ApiClient({
      baseUrl: fake.url,
      apiKey: fake.apiKey,
      adminKey: fake.adminKey,
      maxRetries: 3,
      sleep: async ms => {
        waits.push(ms);
      },
      onLog: l => logs.push(l),
      ...o,
    });
  beforeEach(() => {
    waits = [];
    logs = [];
  });

  describe('requests and headers (doc1 §4, doc3 §9)', () => {
    it('sends x-api-key, vendor-version, content-type and vendor-beta', async () => {
      await client({ betas: ['fast-mode-2026-02-01', 'pdfs-2024-09-25'] }).countTokens(req('hi'));
      const h = fake.requests[0]!.headers;
      assert.equal(h['x-api-key'], fake.apiKey);
      assert.equal(h['vendor-version'], '2023-06-01');
      assert.equal(h['content-type'], 'application/json');
      assert.equal(h['vendor-beta'], 'fast-mode-2026-02-01,pdfs-2024-09-25');
    });
    it('count_tokens sends only the fields it takes', async () => {
      const r = await client().countTokens(
        req('hi', { max_tokens: 5, temperature: 1, stream: true, system: 's', tools: [], metadata: { user_id: 'u' } }),
      );
      assert.ok(r.input_tokens > 0);
      assert.deepEqual(Object.keys(fake.requests[0]!.body as object).sort(), ['messages', 'model', 'system', 'tools']);
      assert.match(r.requestId!, /^req_fake_/);
    });
    it('session requests also send vendor-beta managed-agents-2026-04-01', async () => {
      await client().getResource('ses_demo', 'sesrsc_demo_0');
      assert.equal(fake.requests[0]!.headers['vendor-beta'], 'managed-agents-2026-04-01');
    });
    it('a missing base URL or key is a ConfigError that says how to fix it', async () => {
      await assert.rejects(
        client({ baseUrl: '' }).countTokens(req('x')),
        (e: unknown) => e instanceof ConfigError && e.action === 'set-base-url',
      );
      await assert.rejects(
        client({ apiKey: '' }).countTokens(req('x')),
        (e: unknown) => e instanceof ConfigError && e.action === 'set-api-key',
      );
      await assert.rejects(
        client({ adminKey: '' }).rateLimits(),
        (e: unknown) => e instanceof ConfigError && e.action === 'set-admin-key',
      );
      assert.equal(fake.requests.length, 0);
    });
    it('rate-limit headers are read and exposed (doc3 §8)', async () => {
      const seen: unknown[] = [];
      await client({ onRateLimit: i => seen.push(i) }).countTokens(req('x'));
      assert.deepEqual(Object.keys(seen[0] as object).sort(), ['limit', 'organizationId', 'remaining', 'reset']);
    });
  });

  describe('errors and retries (doc3 §7)', () => {
    for (const status of [400, 401, 403, 404, 409]) {
      it(`${status} is never retried, and carries type, message and request-id`, async () => {
        fake.fail({ status, message: `boom ${status}` }, 5);
        await assert.rejects(client().countTokens(req('x')), (e: unknown) => {
          assert.ok(e instanceof ApiError);
          assert.equal(e.status, status);
          assert.equal(e.message, `boom ${status}`);
          assert.match(e.requestId!, /^req_fake_/);
          assert.match(e.describe(), new RegExp(`${e.type} \\(${status}\\): boom ${status} \\[request-id req_fake_`));
          return true;
        });
        assert.equal(fake.requests.length, 1);
        assert.deepEqual(waits, []);
      });
    }
    it('errors are typed by error.type, not by message text', async () => {
      fake.fail({ status: 400, errorType: 'invalid_request_error', message: 'rate limit exceeded (not really)' });
      await assert.rejects(
        client().countTokens(req('x')),
        (e: unknown) => e instanceof ApiError && e.type === 'invalid_request_error',
      );
    });
    it('429 waits retry-after seconds, then retries', async () => {
      fake.fail({ status: 429, headers: { 'retry-after': '7' } });
      const r = await client().countTokens(req('x'));
      assert.ok(r.input_tokens > 0);
      assert.deepEqual(waits, [7000]);
    });
    it('429 without retry-after backs off 1 s, 2 s, 4 s', async () => {
      fake.fail({ status: 429 }, 3);
      await client().countTokens(req('x'));
      assert.deepEqual(waits, [1000, 2000, 4000]);
    });
    it('backoff doubles up to 60 s', () => {
      assert.deepEqual([1, 2, 3, 6, 7, 8, 20].map(backoffMs), [1000, 2000, 4000, 32000, 60000, 60000, 60000]);
    });
    it('500 with x-should-retry: false is not retried; without it, it is', async () => {
      fake.fail({ status: 500, headers: { 'x-should-retry': 'false' } });
      await assert.rejects(client().countTokens(req('x')), (e: unknown) => e instanceof ApiError && e.status === 500);
      assert.equal(fake.requests.length, 1);
      fake.clear();
      fake.fail({ status: 500 });
      await client().countTokens(req('x'));
      assert.equal(fake.requests.length, 2);
      assert.deepEqual(waits, [1000]);
    });
    for (const status of [502, 503, 504, 529]) {
      it(`${status} is retried with backoff`, async () => {
        fake.fail(
          {
            status,
            rawBody:
              status === 529
                ? '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'
                : '<html>bad gateway</html>',
          },
          2,
        );
        await client().countTokens(req('x'));
        assert.deepEqual(waits, [1000, 2000]);
      });
    }
    it('gives up after max attempts with the last error', async () => {
      fake.fail({ status: 529 }, 10);
      await assert.rejects(
        client({ maxRetries: 2 }).countTokens(req('x')),
        (e: unknown) => e instanceof ApiError && e.status === 529,
      );
      assert.equal(fake.requests.length, 3);
    });
    it('connection errors are retried and then reported', async () => {
      const c = new ApiClient({
        baseUrl: 'http://127.0.0.1:9',
        apiKey: 'k',
        maxRetries: 2,
        sleep: async ms => {
          waits.push(ms);
        },
      });
      await assert.rejects(c.countTokens(req('x')), (e: unknown) => e instanceof ConnectionError);
      assert.deepEqual(waits, [1000, 2000]);
    });
    it('every retry is announced first, and a wait can be cancelled', async () => {
      fake.fail({ status: 429, headers: { 'retry-after': '30' } });
      const ctl = new AbortController();
      const events: number[] = [];
      const c = client({
        sleep: undefined,
        onRetry: e => {
          events.push(e.delayMs);
          ctl.abort();
        },
      });
      const t0 = Date.now();
      await assert.rejects(c.countTokens(req('x'), { signal: ctl.signal }), (e: unknown) => e instanceof AbortedError);
      assert.deepEqual(events, [30000]);
      assert.ok(Date.now() - t0 < 1000);
    });
    it("one client shared by calls: each call's hooks (retry notice, pacer) run for that call only", async () => {
      const c = client();
      const seen: string[] = [];
      const hooks = (name: string) => ({
        onRetry: (e: { delayMs: number }) => seen.push(`${name} retry ${e.delayMs}`),
        beforeAttempt: () => Promise.resolve(void seen.push(`${name} before`)),
        onRateLimit: () => seen.push(`${name} limits`),
        afterAttempt: () => seen.push(`${name} after`),
      });
      fake.fail({ status: 529 });
      await c.countTokens(req('x'), hooks('a'));
      await c.countTokens(req('y'), hooks('b'));
      assert.deepEqual(seen, [
        'a before',
        'a limits',
        'a after',
        'a retry 1000',
        'a before',
        'a limits',
        'a after',
        'b before',
        'b limits',
        'b after',
      ]);
    });
    it('retryDelay follows the table', () => {
      const e = (status: number, h: Record<string, string> = {}, ra?: number) =>
        new ApiError(status, 't', 'm', undefined, h, ra);
      assert.equal(retryDelay(e(409), 1), undefined);
      assert.equal(retryDelay(e(429, {}, 3), 1), 3000);
      assert.equal(retryDelay(e(500, { 'x-should-retry': 'false' }), 1), undefined);
      assert.equal(retryDelay(e(503), 3), 4000);
    });
  });

  describe('streaming', () => {
    it('a finished stream gives its connection back: the next request reuses it (no new handshake)', async () => {
      const c = client();
      for (let i = 0; i < 3; i++) await (await c.streamMessage(req(`turn ${i}`))).finalMessage();
      await c.countTokens(req('and a count'));
      const ports = fake.requests.map(r => r.clientPort);
      assert.equal(ports.length, 4);
      assert.equal(new Set(ports).size, 1, `ports ${ports.join(', ')}`);
    });
    it('a stream left at message_stop gives its connection back too: the next request waits for it', async () => {
      const c = client();
      for (let i = 0; i < 3; i++) {
        for await (const ev of await c.streamMessage(req(`turn ${i}`))) if (ev.type === 'message_stop') break;
      }
      await c.countTokens(req('and a count'));
      const ports = fake.requests.map(r => r.clientPort);
      assert.equal(ports.length, 4);
      assert.equal(new Set(ports).size, 1, `ports ${ports.join(', ')}`);
    });
    it('streams text, thinking and tool use into the final message', async () => {
      const s = await client().streamMessage(req('weather? #thinking #tool'));
      const m = await s.finalMessage();
      assert.deepEqual(
        m.content.map(b => b.type),
        ['thinking', 'text', 'tool_use'],
      );
      assert.deepEqual(m.content[2]!.input, { location: 'Paris', unit: 'celsius' });
      assert.equal(m.stop_reason, 'tool_use');
      assert.equal((fake.requests[0]!.body as { stream: boolean }).stream, true);
    });
    it('text deltas with escapes (quotes, backslashes, newlines, unicode) decode exactly', async () => {
      const said = 'say "hi"\nthen \\ and \u00e9 — ok';
      const m = await (await client().streamMessage(req(said))).finalMessage();
      assert.equal(m.content[0]!.text, `Hello! You said: ${said}`);
    });
    it('a 529 before the stream starts is retried', async () => {
      fake.fail({ status: 529 });
      const m = await (await client().streamMessage(req('hi'))).finalMessage();
      assert.match(String(m.content[0]!.text), /Hello/);
      assert.deepEqual(waits, [1000]);
    });
    for (const [word, type] of [
      ['#error', 'overloaded_error'],
      ['#cut', 'connection_error'],
    ] as const) {
      it(`${word}: ends with a typed StreamError and keeps the partial message`, async () => {
        const s = await client().streamMessage(req(`tell me ${word} #long=40`));
        const seen: string[] = [];
        await assert.rejects(
          (async () => {
            for await (const ev of s)
              if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') seen.push(ev.delta.text);
          })(),
          (e: unknown) => {
            assert.ok(e instanceof StreamError, String(e));
            assert.equal(e.type, type);
            assert.ok(e.partial && String(e.partial.content[0]!.text).length > 0, 'partial text kept');
            assert.equal(String(e.partial.content[0]!.text), seen.join(''));
            assert.match(e.requestId!, /^req_fake_stream_/);
            return true;
          },
        );
      });
    }
    it('#stall: the idle timeout ends the stream and keeps the partial message', async () => {
      const s = await client({ streamIdleTimeoutMs: 300 }).streamMessage(req('x #stall #long=20'));
      const t0 = Date.now();
      await assert.rejects(
        s.finalMessage(),
        (e: unknown) => e instanceof StreamError && e.type === 'idle_timeout' && !!e.partial,
      );
      assert.ok(Date.now() - t0 < 3000);
    });
    it('the idle timeout starts again with every chunk: a reply longer than it but never idle so long', async () => {
      const s = await client({ streamIdleTimeoutMs: 200 }).streamMessage(req('x #slow=40 #long=12'));
      const t0 = Date.now();
      const m = await s.finalMessage();
      assert.ok(Date.now() - t0 > 400, `the reply took ${Date.now() - t0} ms, not more than the timeout`);
      assert.equal(m.content[0]?.text, Array.from({ length: 12 }, (_, i) => `w${i} `).join(''));
    });
    it('cancelling through an AbortSignal closes the stream within 100 ms', async () => {
      const ctl = new AbortController();
      const s = await client().streamMessage(req('slow #slow=50 #long=200'), { signal: ctl.signal });
      let n = 0;
      let abortedAt = 0;
      await assert.rejects(
        (async () => {
          for await (const ev of s) {
            if (ev.type === 'content_block_delta' && ++n === 5) {
              abortedAt = performance.now();
              ctl.abort();
            }
          }
        })(),
        (e: unknown) => e instanceof StreamError && e.type === 'aborted',
      );
      const latency = performance.now() - abortedAt;
      assert.ok(latency < 100, `cancel took ${latency.toFixed(1)} ms`);
      assert.ok(String(s.message!.content[0]!.text).length > 0);
    });
  });

  describe('pages (doc2 §4.1)', () => {
    it('follows next_page to the end', async () => {
      let n = 0,
        pages = 0;
      for await (const p of client().resourcePages('ses_big', { limit: 1000 })) {
        n += p.data.length;
        pages++;
      }
      assert.equal(n, 2500);
      assert.equal(pages, 3);
    });
    it('a 429 on a page waits and repeats the same page (the cursor does not advance)', async () => {
      const c = client();
      const it = c.resourcePages('ses_big', { limit: 1000 });
      await it.next();
      fake.fail({ status: 429, headers: { 'retry-after': '2' }, path: '/resources' });
      const second = await it.next();
      assert.equal((second.value as { data: unknown[] }).data.length, 1000);
      const pageParams = fake.requests.map(r => r.query.page);
      assert.equal(pageParams[1], pageParams[2]);
      assert.deepEqual(waits, [2000]);
      await it.return(undefined);
    });
    it('stops when the consumer stops', async () => {
      for await (const _ of client().resourcePages('ses_big', { limit: 10 })) break;
      assert.equal(fake.requests.length, 1);
    });
    it('limit is checked before sending (1 to 1000)', async () => {
      await assert.rejects(client().resourcePages('ses_big', { limit: 1001 }).next(), RangeError);
    });
    it('attaches a file with the default or a given mount path', async () => {
      const r = await client().attachFile('ses_demo', 'file_abc');
      assert.equal(r.mount_path, '/mnt/session/uploads/file_abc');
      assert.deepEqual(fake.requests[0]!.body, { type: 'file', file_id: 'file_abc' });
    });
    it('reads organization and workspace rate limits with the Admin key', async () => {
      const org = await client().rateLimits();
      assert.ok(org.length >= 3);
      assert.equal(fake.requests[0]!.headers['x-api-key'], fake.adminKey);
      const ws = await client().workspaceRateLimits('wrkspc_demo');
      assert.equal(ws[0]!.limits[0]!.org_limit, 4000);
    });
  });

  it('no log line ever contains the key', async () => {
    fake.fail({ status: 429 });
    fake.fail({ status: 401 });
    await client()
      .countTokens(req('x'))
      .catch(() => undefined);
    await client()
      .countTokens(req('x'))
      .catch(() => undefined);
    await (await client().streamMessage(req('x'))).finalMessage();
    await client().rateLimits();
    assert.ok(logs.length >= 6);
    for (const l of logs) {
      assert.equal(l.includes(fake.apiKey), false, l);
      assert.equal(l.includes(fake.adminKey), false, l);
    }
  });
});
