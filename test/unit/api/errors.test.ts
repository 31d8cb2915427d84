// Errors that agree with the response, and cancels that end the exchange, at the transport (what the CLI
// and the editor both show): a 500 the service asked not to retry, a 413 with the size sent, a stream that
// closed after N events (the library's code kept apart for the log), and an abort that closes the socket
// and stops the retries.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, type ClientOptions } from '../../../src/core/api/client';
import {
  AbortedError,
  ApiError,
  ConfigError,
  ConnectionError,
  describeError,
  errorDetail,
  errorType,
  hintFor,
  StreamError,
  TimeoutError,
} from '../../../src/core/api/errors';
import { encodeSse } from '../../fake/server';
import { useFake } from '../../support/fake';

const req = (text: string) => ({
  model: 'model-opus-4-7',
  max_tokens: 100,
  messages: [{ role: 'user', content: text }],
});

describe('errors true to the response, and cancels (API client)', () => {
  const fake = useFake();
  const client = (o: Partial<ClientOptions> = {}) =>
    new ApiClient({ baseUrl: fake.url, apiKey: fake.apiKey, maxRetries: 3, ...o });

  describe('hints', () => {
    const e500 = (h: Record<string, string>) => new ApiError(500, 'api_error', 'm', undefined, h);

    it('500 with x-should-retry: false: the service asked not to retry; no retry offered', () => {
      const e = e500({ 'x-should-retry': 'false' });
      assert.match(hintFor(e), /^the service asked not to retry this request \(x-should-retry: false\)/);
      assert.equal(e.action, 'none');
      assert.equal(hintFor(e500({})), 'a service error: retry later.');
      assert.equal(e500({}).action, 'retry');
      // the header is a 500's only (doc3 §7 rule 3): a 503 is retried whatever it says, and the hint agrees
      const e503 = new ApiError(503, 'service_unavailable', 'm', undefined, { 'x-should-retry': 'false' });
      assert.equal(hintFor(e503), 'a service error: retry later.');
    });

    it('413: the body sent, in bytes, and how to make it smaller', async () => {
      fake.fail({ status: 413, message: 'too big' });
      const body = req(`look ${'A'.repeat(5000)}`);
      await assert.rejects(client().createMessage(body), (e: unknown) => {
        assert.ok(e instanceof ApiError && e.status === 413);
        const sent = Buffer.byteLength(JSON.stringify(fake.requests[0]!.body));
        assert.equal(e.requestBytes, sent);
        assert.match(
          e.describe(),
          new RegExp(
            `^request_too_large \\(413\\): too big \\[request-id req_fake_\\d+\\] — the request body is too large ` +
              `\\(${sent.toLocaleString('en-US')} bytes of JSON\\): send images and PDFs as a "file" source by ` +
              'file_id',
          ),
        );
        return true;
      });
      assert.match(
        hintFor(new ApiError(413, 'request_too_large', 'm', undefined, {})),
        /^the request body is too large:/,
      );
    });
  });

  describe('a stream that closed early', () => {
    it('#cut: "closed after N events (M characters of reply)", the library code only in the detail', async () => {
      const s = await client().streamMessage(req('x #cut #long=40'));
      let events = 0;
      let chars = 0;
      await assert.rejects(
        (async () => {
          for await (const ev of s) {
            events++;
            if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') chars += ev.delta.text.length;
          }
        })(),
        (e: unknown) => {
          assert.ok(e instanceof StreamError && e.type === 'connection_error', String(e));
          assert.equal(e.message, `The connection closed after ${events} events (${chars} characters of reply)`);
          assert.deepEqual(e.received, { events, replyChars: chars });
          assert.match(describeError(e), /; the partial reply is kept \[request-id req_fake_stream_\d+\]$/);
          assert.doesNotMatch(describeError(e), /UND_ERR|Cannot reach|other side closed|terminated/);
          assert.match(errorDetail(e), /^ \(.+\)$/, 'the library detail is there for the log');
          return true;
        },
      );
    });

    it('a body that ends before message_stop says so, with the counts', async () => {
      const server = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_short' });
        const usage = { input_tokens: 3, output_tokens: 1 };
        res.end(
          encodeSse([
            {
              event: 'message_start',
              data: {
                type: 'message_start',
                message: { id: 'm', type: 'message', role: 'assistant', model: 'x', content: [], usage },
              },
            },
            {
              event: 'content_block_start',
              data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
            },
            {
              event: 'content_block_delta',
              data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
            },
          ]),
        );
      });
      await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const s = await client({ baseUrl: url }).streamMessage(req('x'));
        await assert.rejects(
          s.finalMessage(),
          (e: unknown) =>
            e instanceof StreamError &&
            e.message === 'The connection closed after 3 events (5 characters of reply), before message_stop' &&
            e.partial?.content[0]?.text === 'Hello',
        );
      } finally {
        server.close();
      }
    });
  });

  describe('an abort ends the exchange at once', () => {
    it('a request the service never answers: rejected, the socket closed, never retried', async () => {
      fake.fail({ stall: true });
      const ctl = new AbortController();
      const pending = client().countTokens(req('x'), { signal: ctl.signal });
      while (!fake.requests.length) await new Promise(r => setTimeout(r, 2));
      const t0 = Date.now();
      ctl.abort();
      await assert.rejects(pending, (e: unknown) => e instanceof AbortedError);
      const rejectedMs = Date.now() - t0;
      const sent = fake.requests[0]!;
      while (sent.closedAt === undefined) await new Promise(r => setTimeout(r, 2));
      assert.ok(rejectedMs < 1000, `rejected ${rejectedMs} ms after the abort`);
      assert.ok(sent.closedAt - t0 < 1000, 'the fake saw the connection close');
      await new Promise(r => setTimeout(r, 50));
      assert.equal(fake.requests.length, 1, 'no retry after the abort');
    });

    it('a wait between retries wakes on the abort, and nothing more is sent', async () => {
      fake.fail({ status: 529 });
      const ctl = new AbortController();
      let waiting = 0;
      const pending = client({ onRetry: e => (waiting = e.delayMs) }).countTokens(req('x'), { signal: ctl.signal });
      while (!waiting) await new Promise(r => setTimeout(r, 2));
      const t0 = Date.now();
      ctl.abort();
      await assert.rejects(pending, (e: unknown) => e instanceof AbortedError);
      assert.ok(Date.now() - t0 < waiting, 'woke before the backoff ended');
      assert.equal(fake.requests.length, 1);
    });
  });
});

describe('what kind of failure, in words', () => {
  it("the service's error.type when it answered, else a word for what happened; never a class name", () => {
    assert.equal(errorType(new ApiError(529, 'overloaded_error', 'busy', 'req_1', {})), 'overloaded_error');
    assert.equal(errorType(new ConnectionError('fetch failed')), 'connection_error');
    assert.equal(errorType(new TimeoutError('no headers in 60 s')), 'timeout');
    assert.equal(errorType(new AbortedError()), 'aborted');
    assert.equal(errorType(new ConfigError('No API key', 'set-api-key')), 'configuration_error');
    assert.equal(errorType(new TypeError('x is undefined')), 'internal_error');
    assert.equal(errorType('a string'), 'internal_error');
  });
});
