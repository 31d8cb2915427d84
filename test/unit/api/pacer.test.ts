// The adaptive pacer: what it decides from the headers, and a whole run in virtual time (2,000 requests, 16
// at once, against a service that allows 600 a minute), with and without it.
import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/core/api/client';
import { RateLimitPacer, realPacer } from '../../../src/core/api/pacer';
import { sleep } from '../../../src/core/api/retry';
import type { RateLimitInfo } from '../../../src/core/api/types';
import { SlidingBudget } from '../../../src/core/demo/budget';
import { startFake } from '../../fake/server';

/** Virtual time: sleeps resolve when the clock is moved past them, in order. */
class VirtualTime {
  now = 0;
  private timers: { at: number; seq: number; fire: () => void }[] = [];
  private seq = 0;
  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('aborted'));
      this.at(this.now + Math.max(0, ms), resolve);
    });
  at(t: number, fire: () => void): void {
    this.timers.push({ at: t, seq: this.seq++, fire });
  }
  /** Runs until nothing is scheduled; between timers, every promise chain settles. */
  async run(): Promise<void> {
    for (;;) {
      await new Promise(r => setImmediate(r));
      if (!this.timers.length) return;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const t = this.timers.shift()!;
      this.now = Math.max(this.now, t.at);
      t.fire();
    }
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('adaptive pacing from the rate-limit headers', () => {
  it('goes at once while the budget lasts', () => {
    const p = new RateLimitPacer({ now: () => 0, sleep: async () => {} });
    assert.equal(p.waitMs(0), 0);
    p.observe({ limit: 600, remaining: 500, reset: iso(60_000) });
    assert.ok(p.waitMs(1000) <= 0);
  });

  it('with none left, waits until the reset (and a margin); after it, goes', async () => {
    let now = 1000;
    const p = new RateLimitPacer({ now: () => now, sleep: async ms => void (now += ms) });
    p.observe({ limit: 600, remaining: 0, reset: iso(30_000) });
    assert.equal(p.waitMs(now), 29_100);
    await p.acquire();
    assert.equal(now, 30_100);
    assert.equal(p.stats.waits > 0, true);
  });

  it('counts the requests in flight and started since an answer against what it said was left', async () => {
    let now = 0;
    const p = new RateLimitPacer({ now: () => now, sleep: async ms => void (now += ms) });
    for (let i = 0; i < 3; i++) await p.acquire(); // three in flight
    p.observe({ limit: 4, remaining: 3, reset: iso(60_000) }); // one of them answered: two still in flight
    p.release();
    assert.ok(p.waitMs(now) <= 0, 'one left');
    await p.acquire();
    assert.ok(p.waitMs(now) > 50_000, 'none left: until the reset');
  });

  it('spreads the last tenth of the budget over the time to the reset', async () => {
    let now = 0;
    const p = new RateLimitPacer({ now: () => now, sleep: async ms => void (now += ms) });
    p.observe({ limit: 600, remaining: 30, reset: iso(30_000) });
    await p.acquire();
    // 29 left over 30 s: about a second apart
    const w = p.waitMs(now);
    assert.ok(w > 900 && w < 1100, String(w));
  });

  it('a 429’s retry-after holds every request', () => {
    const p = new RateLimitPacer({ now: () => 5000, sleep: async () => {} });
    p.observe({ retryAfter: 7 });
    assert.equal(p.waitMs(5000), 7000);
  });

  it('another family nearly spent (tokens) waits for its reset; one with room does not', () => {
    const p = new RateLimitPacer({ now: () => 0, sleep: async () => {} });
    const info = (remaining: number): RateLimitInfo => ({
      others: [{ name: 'input-tokens', limit: 100_000, remaining, reset: iso(20_000) }],
    });
    p.observe(info(50_000));
    assert.ok(p.waitMs(0) <= 0);
    p.observe(info(1000));
    assert.equal(p.waitMs(0), 20_100);
  });

  describe('2,000 requests, 16 at once, against 600 a minute (virtual time)', () => {
    /**
     * Workers send requests through the pacer (or not); the service counts each as it arrives (5 ms after it
     * leaves) in a sliding window and answers after `latencyMs` with the headers; a 429 is tried again after
     * its retry-after, as the client's retry rules do.
     */
    async function simulate(paced: boolean, latencyMs = 400) {
      const time = new VirtualTime();
      const budget = new SlidingBudget({ limit: 600, windowMs: 60_000 });
      const pacer = new RateLimitPacer({ now: () => time.now, sleep: time.sleep });
      let next = 0;
      let limited = 0;
      const send = (): Promise<RateLimitInfo & { ok: boolean }> =>
        new Promise(resolve => {
          time.at(time.now + 5, () => {
            const taken = budget.take(time.now);
            const h = taken.headers;
            const info = {
              ok: taken.ok,
              limit: Number(h['vendor-ratelimit-requests-limit']),
              remaining: Number(h['vendor-ratelimit-requests-remaining']),
              reset: h['vendor-ratelimit-requests-reset']!,
              ...(h['retry-after'] ? { retryAfter: Number(h['retry-after']) } : {}),
            };
            time.at(time.now + latencyMs, () => resolve(info));
          });
        });
      const worker = async () => {
        while (next < 2000) {
          next++;
          for (;;) {
            if (paced) await pacer.acquire();
            const r = await send();
            if (paced) {
              pacer.observe(r);
              pacer.release();
            }
            if (r.ok) break;
            limited++;
            await time.sleep((r.retryAfter ?? 1) * 1000);
          }
        }
      };
      const all = Promise.all(Array.from({ length: 16 }, worker));
      await time.run();
      await all;
      return { limited, seconds: time.now / 1000, maxInWindow: budget.maxInAnyWindow() };
    }

    it('paced: at most 5 429s (goal), and about as fast as the limit allows', async () => {
      const r = await simulate(true);
      assert.ok(r.limited <= 5, `${r.limited} 429s`);
      // 2,000 at 600 a minute can take no less than 3 more windows after the first: 180 s
      assert.ok(r.seconds >= 180 && r.seconds < 260, `${r.seconds} s`);
    });

    it('unpaced (the same run without the pacer) meets the limit in a storm: the test can fail', async () => {
      const r = await simulate(false);
      assert.ok(r.limited > 20, `${r.limited} 429s`);
    });
  });
});

describe('the pacer on the client, against the fake’s request limit', function () {
  this.timeout(20_000);
  it('sends 60 requests 8 at once under a limit of 20 per 500 ms with at most one 429; unpaced, more', async () => {
    const fake = await startFake({ requestLimit: { limit: 20, windowMs: 500 } });
    try {
      const run = async (paced: boolean) => {
        fake.clear();
        const pacer = realPacer(sleep);
        const client = new ApiClient({
          baseUrl: fake.url,
          apiKey: fake.apiKey,
          maxRetries: 10,
          ...(paced ? pacer.hooks() : {}),
        });
        let next = 0;
        const worker = async () => {
          while (next < 60) {
            next++;
            await client.countTokens({ model: 'model-opus-4-7', messages: [{ role: 'user', content: 'hi' }] });
          }
        };
        await Promise.all(Array.from({ length: 8 }, worker));
        return { limited: fake.requests.filter(r => r.status === 429).length, waits: pacer.stats.waits };
      };
      const paced = await run(true);
      assert.ok(paced.limited <= 1, `${paced.limited} 429s`);
      assert.ok(paced.waits > 0, 'it waited');
      const unpaced = await run(false);
      assert.ok(unpaced.limited > paced.limited, `unpaced: ${unpaced.limited} 429s`);
      const answer = fake.requests.find(r => r.status === 429)!;
      assert.ok(answer, 'the fake refuses over its limit');
    } finally {
      await fake.close();
    }
  });

  it('every answer carries the limit, what is left and when it is whole again', async () => {
    const fake = await startFake({ requestLimit: { limit: 3, windowMs: 60_000 } });
    try {
      const seen: RateLimitInfo[] = [];
      const client = new ApiClient({
        baseUrl: fake.url,
        apiKey: fake.apiKey,
        maxRetries: 0,
        onRateLimit: i => seen.push(i),
      });
      const body = { model: 'model-opus-4-7', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
      for (let i = 0; i < 3; i++) await client.createMessage(body);
      await assert.rejects(client.createMessage(body), /rate_limit_error|more than 3/);
      assert.deepEqual(
        seen.map(s => [s.limit, s.remaining]),
        [
          [3, 2],
          [3, 1],
          [3, 0],
          [3, 0],
        ],
      );
      assert.ok(seen[3]!.retryAfter! >= 59, 'retry-after until the window is whole');
      assert.ok(Date.parse(seen[0]!.reset!) > Date.now() + 50_000);
    } finally {
      await fake.close();
    }
  });
});
