import * as assert from 'node:assert/strict';
import * as http_ from 'node:http';
import type { AddressInfo } from 'node:net';
import { batchError, BatchesClient } from '../../src/core/api/batches';
import { ApiClient } from '../../src/core/api/client';
import { ApiError, StreamError } from '../../src/core/api/errors';
import { Http } from '../../src/core/api/http';
import { describeForCli } from '../../src/core/environment';
import { redactKnown, redactSecrets } from '../../src/core/redact';
import { useFake } from '../support/fake';

describe('redactSecrets', () => {
  it('removes every occurrence of a registered secret', () => {
    const s = redactSecrets('key sk-abc123 then sk-abc123 again', ['sk-abc123']);
    assert.equal(s.includes('sk-abc123'), false);
    assert.equal(s, 'key [redacted] then [redacted] again');
  });
  it('redacts x-api-key header values even when the secret is unknown', () => {
    assert.equal(redactSecrets(`curl -H 'x-api-key: abcdef'`), `curl -H 'x-api-key: [redacted]'`);
    assert.equal(redactSecrets('{"x-api-key":"abcdef"}'), '{"x-api-key":"[redacted]"}');
  });
  it('leaves text without secrets alone', () => {
    assert.equal(redactSecrets('nothing here', ['sk-zzz']), 'nothing here');
  });
  it('redactKnown takes the given secrets only, the longest first, and no value too short to be a key', () => {
    assert.equal(
      redactKnown('x-api-key: abcdef sk-ab sk-abcdef', ['sk-ab', 'sk-abcdef', 'ab', undefined]),
      'x-api-key: abcdef [redacted] [redacted]',
    );
  });
});

describe('a key the service echoes back is gone from the error before anything shows or keeps it', () => {
  const KEYS = { api: 'sk-api-secret-1234', admin: 'sk-vendor-admin-secret-5678', compliance: 'sk-vendor-api01-full' };
  const fake = useFake({ apiKey: KEYS.api, adminKey: KEYS.admin });
  const http = (baseUrl: string) =>
    new Http({
      baseUrl,
      apiKey: KEYS.api,
      adminKey: KEYS.admin,
      complianceKey: KEYS.compliance,
      maxRetries: 0,
    });
  const body = { model: 'model-opus-4-7', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
  const echo = `bad key: ${KEYS.api}, ${KEYS.admin}, ${KEYS.compliance}; x-api-key: ${KEYS.api}`;
  const noKey = (text: string) => {
    for (const k of Object.values(KEYS)) assert.ok(!text.includes(k), `a key in: ${text}`);
  };

  /** A server of one answer, for what the fake does not send: an SSE error event, a JSON Lines result. */
  async function answering(status: number, type: string, text: string): Promise<{ url: string; close(): void }> {
    const server = http_.createServer((_req, res) => {
      res.writeHead(status, { 'content-type': type, location: `https://elsewhere.example/?k=${KEYS.api}` });
      res.end(text);
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
  }

  it('an error body (JSON or not), with any of the three keys in it', async () => {
    fake.fail({ status: 400, message: echo });
    fake.fail({ status: 400, rawBody: `<html>${echo}</html>` });
    for (let i = 0; i < 2; i++)
      await assert.rejects(new ApiClient(http(fake.url).o).countTokens(body), (e: unknown) => {
        assert.ok(e instanceof ApiError);
        assert.match(e.message, /bad key: \[redacted\], \[redacted\], \[redacted\]; x-api-key: \[redacted\]/);
        noKey(e.describe());
        noKey(describeForCli(e));
        return true;
      });
  });

  it("a stream's error event", async () => {
    const event = JSON.stringify({ type: 'error', error: { type: 'api_error', message: echo } });
    const s = await answering(200, 'text/event-stream', `event: error\ndata: ${event}\n\n`);
    try {
      const stream = await new ApiClient(http(s.url).o).streamMessage(body);
      await assert.rejects(
        (async () => {
          for await (const _ of stream);
        })(),
        (e: unknown) => {
          assert.ok(e instanceof StreamError, String(e));
          assert.match(e.message, /\[redacted\]/);
          noKey(e.describe());
          return true;
        },
      );
    } finally {
      s.close();
    }
  });

  it("a batch result's error, and a line that is not a result", async () => {
    const lines = [
      { custom_id: 'a', result: { type: 'errored', error: { type: 'error', error: { type: 'x', message: echo } } } },
      { custom_id: 'b', result: { type: 'nonsense', note: echo } },
    ];
    const s = await answering(200, 'application/x-jsonl', lines.map(l => JSON.stringify(l)).join('\n'));
    try {
      const problems: string[] = [];
      const got = [];
      for await (const line of new BatchesClient(http(s.url)).results('b1', {
        onMalformed: m => problems.push(m.problem),
      }))
        got.push(line);
      assert.equal(got.length, 1);
      const error = batchError(got[0]!.result.type === 'errored' ? got[0]!.result.error : undefined);
      assert.match(error.message, /\[redacted\]/);
      noKey(JSON.stringify(got));
      assert.equal(problems.length, 1);
      noKey(problems.join('\n'));
    } finally {
      s.close();
    }
  });

  it("a redirect's Location", async () => {
    const s = await answering(302, 'text/plain', '');
    try {
      await assert.rejects(new ApiClient(http(s.url).o).countTokens(body), (e: unknown) => {
        assert.ok(e instanceof ApiError && e.message.includes('https://elsewhere.example/?k=[redacted]'), String(e));
        return true;
      });
    } finally {
      s.close();
    }
  });
});
