// Nothing a request creates outlives it: after a stream read to message_stop, a stream given up half way,
// a failed request, a cancelled retry wait, a pager left early or a limiter wait cancelled, this process
// holds exactly the handles and timers it held before (process.getActiveResourcesInfo()). The fake runs
// in a child process with a long keep-alive, so its own sockets are not counted and an idle connection of
// the client's pool would show if it were not released.
import * as assert from 'node:assert/strict';
import { AdminClient } from '../../../src/core/admin/client';
import { BatchesClient } from '../../../src/core/api/batches';
import { ApiClient, type ClientOptions } from '../../../src/core/api/client';
import { ApiError, StreamError } from '../../../src/core/api/errors';
import { sleep } from '../../../src/core/api/retry';
import { RateLimiter } from '../../../src/core/compliance/limiter';
import { ModelsClient } from '../../../src/core/models/client';
import { startFakeProcess, type FakeProcess } from '../../fake/process';

const API_KEY = 'test-key';
const ADMIN_KEY = 'sk-vendor-admin-test';
const body = (text: string) => ({
  model: 'model-opus-4-7',
  max_tokens: 100,
  messages: [{ role: 'user', content: text }],
});

/** The handles and timers that keep this process alive, as a multiset (type -> count). */
function active(): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) m.set(r, (m.get(r) ?? 0) + 1);
  return m;
}

/** What `after` holds beyond `before`, e.g. ["Timeout", "TCPSocketWrap"]. */
function extra(before: Map<string, number>, after: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [k, n] of after) for (let i = n - (before.get(k) ?? 0); i > 0; i--) out.push(k);
  return out.sort();
}

/**
 * Runs `work`, lets closed sockets finish closing, and returns what it left behind. The settle loop
 * waits up to 500 ms: a socket that is being destroyed needs a few turns of the loop, a leaked timer
 * or pooled connection stays.
 */
async function leftBy(work: () => Promise<void>): Promise<string[]> {
  // mocha arms the test's own timeout timer just after the test function starts: count after it
  await new Promise(r => setImmediate(r));
  const before = active();
  await work();
  let left: string[] = [];
  for (let i = 0; i < 50; i++) {
    await new Promise(r => setImmediate(r));
    left = extra(before, active());
    if (!left.length) return left;
    await sleep(10);
  }
  return left;
}

describe('lifecycle: a request leaves no handle or timer behind', () => {
  let fake: FakeProcess;
  const client = (o: Partial<ClientOptions> = {}) =>
    new ApiClient({ baseUrl: fake.url, apiKey: API_KEY, adminKey: ADMIN_KEY, maxRetries: 2, ...o });

  before(async () => {
    fake = await startFakeProcess({ keepAliveMs: 60_000 });
  });
  after(async () => {
    await fake.close();
  });

  it('a stream read to message_stop', async () => {
    const left = await leftBy(async () => {
      const stream = await client().streamMessage(body('hello'));
      const types: string[] = [];
      for await (const ev of stream) types.push(ev.type);
      assert.equal(types.at(-1), 'message_stop');
    });
    assert.deepEqual(left, []);
  });

  it('a stream whose body the server keeps open after message_stop: given up within the drain bound', async () => {
    const left = await leftBy(async () => {
      const stream = await client().streamMessage(body('#linger stay'));
      assert.equal((await stream.finalMessage()).stop_reason, 'end_turn');
    });
    assert.deepEqual(left, []);
  });

  it('a stream whose consumer breaks out of for-await half way', async () => {
    const left = await leftBy(async () => {
      const stream = await client().streamMessage(body('#long=200 #slow=5 go on'));
      let deltas = 0;
      for await (const ev of stream) if (ev.type === 'content_block_delta' && ++deltas === 3) break;
      assert.equal(deltas, 3);
    });
    assert.deepEqual(left, []);
  });

  it('a stream that was started and then given up unread (cancel)', async () => {
    const left = await leftBy(async () => {
      const stream = await client().streamMessage(body('#long=200 #slow=5 unread'));
      stream.cancel();
    });
    assert.deepEqual(left, []);
  });

  it('a stream aborted by its caller in the middle', async () => {
    const left = await leftBy(async () => {
      const ctl = new AbortController();
      const stream = await client().streamMessage(body('#long=200 #slow=5 abort me'), { signal: ctl.signal });
      await assert.rejects(
        (async () => {
          for await (const ev of stream) if (ev.type === 'content_block_delta') ctl.abort();
        })(),
        (e: unknown) => e instanceof StreamError && e.type === 'aborted',
      );
    });
    assert.deepEqual(left, []);
  });

  it('a stream that stops sending and ends on the idle timeout', async () => {
    const left = await leftBy(async () => {
      const stream = await client({ streamIdleTimeoutMs: 150 }).streamMessage(body('#stall now'));
      await assert.rejects(
        stream.finalMessage(),
        (e: unknown) => e instanceof StreamError && e.type === 'idle_timeout',
      );
    });
    assert.deepEqual(left, []);
  });

  it('a JSON request (count_tokens), answered', async () => {
    const left = await leftBy(async () => {
      assert.ok((await client().countTokens(body('count me'))).input_tokens > 0);
    });
    assert.deepEqual(left, []);
  });

  it('a failed request (400, not retried) and a 500 after its retries', async () => {
    const left = await leftBy(async () => {
      await fake.fail({ status: 400, message: 'bad' });
      await assert.rejects(client().countTokens(body('x')), (e: unknown) => e instanceof ApiError && e.status === 400);
      await fake.fail({ status: 500 }, 2);
      await assert.rejects(
        client({ maxRetries: 1, sleep: async () => {} }).countTokens(body('x')),
        (e: unknown) => e instanceof ApiError && e.status === 500,
      );
    });
    assert.deepEqual(left, []);
  });

  it('a retry wait cancelled by the caller', async () => {
    const left = await leftBy(async () => {
      await fake.fail({ status: 529 });
      const ctl = new AbortController();
      const c = client({ onRetry: () => ctl.abort() }); // the real 1 s backoff, cancelled as it starts
      await assert.rejects(c.countTokens(body('x'), { signal: ctl.signal }));
    });
    assert.deepEqual(left, []);
  });

  it('a request that never gets an answer, cancelled', async () => {
    const left = await leftBy(async () => {
      await fake.fail({ stall: true });
      const ctl = new AbortController();
      const pending = client().countTokens(body('x'), { signal: ctl.signal });
      setTimeout(() => ctl.abort(), 50);
      await assert.rejects(pending);
    });
    assert.deepEqual(left, []);
  });

  it('a request that never gets an answer, ended by the request timeout', async () => {
    const left = await leftBy(async () => {
      await fake.fail({ stall: true });
      await assert.rejects(client({ requestTimeoutMs: 100, maxRetries: 0 }).countTokens(body('x')));
    });
    assert.deepEqual(left, []);
  });

  it('a cursor list left after its first page (break), and one read to the end', async () => {
    const left = await leftBy(async () => {
      const admin = new AdminClient(client().http);
      for await (const page of admin.users({ pageSize: 2 })) {
        assert.equal(page.data.length, 2);
        break;
      }
      let n = 0;
      for await (const page of admin.users({ pageSize: 1000 })) n += page.data.length;
      assert.ok(n > 2);
    });
    assert.deepEqual(left, []);
  });

  it('a next_page list (session resources) left after its first page', async () => {
    const left = await leftBy(async () => {
      for await (const page of client().resourcePages('ses_big', { limit: 100 })) {
        assert.equal(page.data.length, 100);
        break;
      }
    });
    assert.deepEqual(left, []);
  });

  it('a rate limiter wait cancelled', async () => {
    const left = await leftBy(async () => {
      const limiter = new RateLimiter(1, 60_000, { now: () => Date.now(), sleep });
      await limiter.acquire();
      const ctl = new AbortController();
      const waiting = limiter.acquire(ctl.signal);
      ctl.abort();
      await assert.rejects(waiting);
    });
    assert.deepEqual(left, []);
  });

  describe('an answer without end stops at its limit with a clear error, and leaves nothing behind', () => {
    // small limits, so the fake's endless bodies reach them at once (READ_LIMITS are the real ones, limits.ts)
    const readLimits = { json: 32 * 1024, message: 64 * 1024, stream: 256 * 1024, error: 16 * 1024 };
    const limited = () => client({ maxRetries: 0, readLimits });
    const event = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    const start =
      event('message_start', {
        type: 'message_start',
        message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], usage: {} },
      }) +
      event('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      });
    const delta = event('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'more ' },
    });
    const sse = { 'content-type': 'text/event-stream' };

    it('an error body (a 500 whose page goes on): the status, its type, and where reading stopped', async () => {
      const left = await leftBy(async () => {
        await fake.fail({ status: 500, endless: { head: '<html>', repeat: 'Internal error. ' } });
        await assert.rejects(limited().countTokens(body('count me')), (e: unknown) => {
          assert.ok(e instanceof ApiError);
          assert.equal(e.status, 500);
          assert.equal(e.type, 'api_error');
          assert.match(e.message, /^the service's error body was longer than 16 KiB; reading stopped there and the /);
          assert.match(e.message, /\(it began: "<html>Internal error\. Internal/);
          assert.match(e.requestId ?? '', /^req_fake_/);
          return true;
        });
      });
      assert.deepEqual(left, []);
    });

    for (const [what, call] of [
      ['count_tokens', (c: ApiClient) => c.countTokens(body('count me'))],
      ['GET /v1/models', (c: ApiClient) => new ModelsClient(c.http).all()],
      ['an administration list', (c: ApiClient) => new AdminClient(c.http).users().next()],
      ['a message not streamed', (c: ApiClient) => c.createMessage(body('hi'))],
    ] as const) {
      it(`a JSON answer without end: ${what}`, async () => {
        const left = await leftBy(async () => {
          await fake.fail({ endless: { head: '{"data": [', repeat: '{"id": "x"},' } });
          await assert.rejects(call(limited()), (e: unknown) => {
            assert.ok(e instanceof ApiError, String(e));
            assert.equal(e.type, 'response_too_large');
            const limit = what === 'a message not streamed' ? '64 KiB' : '32 KiB';
            assert.match(e.message, new RegExp(`^The service answered \\w+ /v1/\\S+ with more than ${limit}, more `));
            return true;
          });
        });
        assert.deepEqual(left, []);
      });
    }

    for (const [what, endless, message] of [
      [
        'events without end',
        { head: start, repeat: delta },
        /^The stream sent more than 256 KiB after [\d,]+ events \([\d,]+ characters of reply\), more than any reply /,
      ],
      [
        'a line without end',
        { head: 'event: message_start\ndata: ', repeat: 'x' },
        /^A line of the event stream is longer than 64 KiB/,
      ],
      [
        'an event of data lines without end',
        { head: 'event: message_start\n', repeat: `data: ${'x'.repeat(1000)}\n` },
        /^An event's data is longer than 64 KiB/,
      ],
    ] as const) {
      it(`a stream of ${what}: response_too_large, what came kept`, async () => {
        const left = await leftBy(async () => {
          await fake.fail({ headers: sse, endless });
          const stream = await limited().streamMessage(body('hi'));
          await assert.rejects(stream.finalMessage(), (e: unknown) => {
            assert.ok(e instanceof StreamError, String(e));
            assert.equal(e.type, 'response_too_large');
            assert.match(e.message, message);
            assert.match(e.requestId ?? '', /^req_fake_/);
            return true;
          });
          if (what === 'events without end')
            assert.match(JSON.stringify(stream.message?.content[0]), /"text":"(more )+/);
        });
        assert.deepEqual(left, []);
      });
    }

    it("a batch's results line without end: response_too_large with the request-id", async () => {
      const left = await leftBy(async () => {
        await fake.fail({ path: '/results', endless: { head: '{"custom_id": "', repeat: 'x' } });
        const results = new BatchesClient(limited().http).results('msgbatch_1');
        await assert.rejects(results.next(), (e: unknown) => {
          assert.ok(e instanceof ApiError, String(e));
          assert.equal(e.type, 'response_too_large');
          assert.match(e.message, /^The batch's results: Line 1 of the answer is longer than 64 KiB/);
          return true;
        });
      });
      assert.deepEqual(left, []);
    });
  });

  it('the check itself sees a leak: a timer left running is reported', async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const left = await leftBy(async () => {
      timer = setTimeout(() => {}, 5_000);
    });
    clearTimeout(timer);
    assert.deepEqual(left, ['Timeout']);
  });
});
