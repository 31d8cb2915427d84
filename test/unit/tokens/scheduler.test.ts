import * as assert from 'node:assert/strict';
import { TokenCountScheduler, type Clock, type CountState } from '../../../src/core/tokens/scheduler';

/** A fake clock: timers run when the test advances time. */
class FakeClock implements Clock {
  t = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private id = 0;
  now() {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number) {
    const id = ++this.id;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(h: unknown) {
    this.timers = this.timers.filter(x => x.id !== h);
  }
  async advance(ms: number) {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = next.at;
      next.fn();
      await new Promise(r => setImmediate(r));
    }
    this.t = end;
    await new Promise(r => setImmediate(r));
  }
}

const body = (text: string) => ({
  model: 'model-opus-4-7',
  max_tokens: 100,
  temperature: 1,
  messages: [{ role: 'user', content: text }],
});

describe('token count scheduling (fake clock)', () => {
  let clock: FakeClock;
  let states: CountState[];
  let sent: Record<string, unknown>[];
  let reply: (b: Record<string, unknown>, signal: AbortSignal) => Promise<{ tokens: number }>;
  const make = () =>
    new TokenCountScheduler({
      debounceMs: 300,
      clock,
      onState: s => states.push(s),
      count: (b, s) => {
        sent.push(b);
        return reply(b, s);
      },
    });
  beforeEach(() => {
    clock = new FakeClock();
    states = [];
    sent = [];
    reply = async b => ({ tokens: JSON.stringify(b).length });
  });

  it('a 50-keystroke burst 30 ms apart makes exactly one call, for the last text', async () => {
    const s = make();
    let text = '';
    for (let i = 0; i < 50; i++) {
      text += 'a';
      s.update(body(text));
      await clock.advance(30);
    }
    await clock.advance(1000);
    assert.equal(s.calls, 1);
    assert.deepEqual(sent[0], { model: 'model-opus-4-7', messages: [{ role: 'user', content: text }] });
    assert.deepEqual(states.at(-1), {
      kind: 'count',
      tokens: JSON.stringify(sent[0]).length,
      at: 1470 + 300,
      stale: false,
      cached: false,
    });
  });

  it('unchanged content (undo, switching back) makes zero calls: the cache answers', async () => {
    const s = make();
    s.update(body('one'));
    await clock.advance(400);
    s.update(body('two'));
    await clock.advance(400);
    assert.equal(s.calls, 2);
    s.update(body('one'));
    await clock.advance(400);
    s.update({ ...body('two'), max_tokens: 5, temperature: 0 });
    await clock.advance(400); // only fields count_tokens takes matter
    assert.equal(s.calls, 2);
    assert.equal((states.at(-1) as { cached: boolean }).cached, true);
  });

  it('a slow reply overtaken by a newer edit is dropped (and its request aborted)', async () => {
    const s = make();
    let aborted = false;
    reply = (b, signal) =>
      new Promise(resolve => {
        signal.addEventListener('abort', () => {
          aborted = true;
        });
        clock.setTimeout(() => resolve({ tokens: (b.messages as { content: string }[])[0]!.content.length }), 5000);
      });
    s.update(body('slow one'));
    await clock.advance(400);
    assert.equal(states.at(-1)!.kind, 'counting');
    s.update(body('new'));
    await clock.advance(10000);
    assert.equal(aborted, true);
    const counts = states.filter(x => x.kind === 'count') as { tokens: number }[];
    assert.deepEqual(
      counts.map(c => c.tokens),
      [3],
    ); // 'slow one' (8) never shown
  });

  it('the same body asked for by the live count and by countCached at once: one call, both answered', async () => {
    const s = make();
    let answer!: (v: { tokens: number }) => void;
    reply = () => new Promise(r => (answer = r));
    // the base version equals the working copy: both ask while the first call is on its way
    s.update(body('same text'), true);
    await clock.advance(0);
    const base = s.countCached(body('same text'), new AbortController().signal);
    const other = s.countCached(body('same text'), new AbortController().signal);
    answer({ tokens: 42 });
    assert.deepEqual(await base, { tokens: 42 });
    assert.deepEqual(await other, { tokens: 42 });
    await clock.advance(0);
    assert.equal(s.calls, 1);
    assert.equal(sent.length, 1);
    assert.equal(s.lastCount, 42);
  });

  it('countCached first, then the live count of the same body: the live count waits for that call', async () => {
    const s = make();
    let answer!: (v: { tokens: number }) => void;
    reply = () => new Promise(r => (answer = r));
    const base = s.countCached(body('first'), new AbortController().signal);
    s.update(body('first'), true);
    await clock.advance(0);
    answer({ tokens: 7 });
    assert.deepEqual(await base, { tokens: 7 });
    await clock.advance(0);
    assert.equal(sent.length, 1);
    assert.deepEqual(states.at(-1), { kind: 'count', tokens: 7, at: 0, stale: false, cached: false });
  });

  it('a file that does not parse keeps the last count, marked stale', async () => {
    const s = make();
    s.update(body('abc'));
    await clock.advance(400);
    s.update(undefined);
    assert.deepEqual(states.at(-1), { kind: 'count', tokens: s.lastCount, at: clock.t, stale: true, cached: false });
    assert.equal(s.calls, 1);
  });

  it('errors carry type and request-id, and keep the previous count', async () => {
    const s = make();
    s.update(body('a'));
    await clock.advance(400);
    reply = async () => {
      throw Object.assign(new Error('slow down'), { type: 'rate_limit_error', requestId: 'req_1' });
    };
    s.update(body('b'));
    await clock.advance(400);
    const e = states.at(-1) as Extract<CountState, { kind: 'error' }>;
    assert.equal(e.type, 'rate_limit_error');
    assert.equal(e.requestId, 'req_1');
    assert.equal(e.previous, s.lastCount);
  });

  it('"Count now" skips the debounce', async () => {
    const s = make();
    s.update(body('x'), true);
    await clock.advance(0);
    assert.equal(s.calls, 1);
  });
});
