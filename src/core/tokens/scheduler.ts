// Live token counting without flooding the service: counts after the author pauses (debounce), aborts
// the call in flight when the text changes, never shows a reply for an older version, and caches by a
// hash of the exact body sent (so undo, re-open or switching back costs no call). Pure: the clock and
// the count function are injected, so it is tested with a fake clock.
import { pickCountFields } from '../api/countFields';
import { bodyHash } from '../request/hash';

export type CountState =
  | { kind: 'idle' }
  | { kind: 'counting'; previous?: number }
  | { kind: 'count'; tokens: number; at: number; stale: boolean; cached: boolean; requestId?: string }
  | { kind: 'estimate'; tokens: number; reason: 'no-key' | 'no-base-url' | 'offline' | 'live-off' | 'untrusted' }
  | { kind: 'retrying'; inMs: number; previous?: number; why: string }
  | { kind: 'error'; message: string; type?: string; requestId?: string; previous?: number };

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: h => clearTimeout(h as NodeJS.Timeout),
};

export interface CountResult {
  tokens: number;
  requestId?: string;
}

export interface SchedulerOptions {
  /** performs POST /v1/messages/count_tokens with the body given (already reduced to the counted fields) */
  count: (body: Record<string, unknown>, signal: AbortSignal) => Promise<CountResult>;
  onState: (s: CountState) => void;
  debounceMs: number;
  clock?: Clock;
  /** entries kept in the cache */
  cacheSize?: number;
}

export class TokenCountScheduler {
  private readonly clock: Clock;
  private readonly cache = new Map<string, CountResult>();
  /** calls on their way, by body: a second asker of the same body waits for the first instead of calling */
  private readonly pending = new Map<string, Promise<CountResult>>();
  private timer: unknown;
  private inflight: AbortController | undefined;
  /** increases with every update: a reply for an older generation is dropped */
  private generation = 0;
  private last: number | undefined;
  /** calls made (for tests and the benchmark) */
  calls = 0;

  constructor(private readonly o: SchedulerOptions) {
    this.clock = o.clock ?? realClock;
  }

  get lastCount(): number | undefined {
    return this.last;
  }

  /**
   * The document changed. `body` is the parsed request, or undefined when the text does not parse (the
   * last count is kept and marked stale). `immediate` skips the debounce (the "Count now" command).
   */
  update(body: Record<string, unknown> | undefined, immediate = false): void {
    const gen = ++this.generation;
    this.clock.clearTimeout(this.timer);
    this.inflight?.abort();
    this.inflight = undefined;
    if (!body) {
      if (this.last !== undefined)
        this.o.onState({ kind: 'count', tokens: this.last, at: this.clock.now(), stale: true, cached: false });
      else this.o.onState({ kind: 'idle' });
      return;
    }
    const sent = pickCountFields(body);
    let key: string;
    try {
      key = bodyHash(sent);
    } catch (e) {
      // JSON.stringify recurses: a body nested thousands of levels deep cannot be sent at all
      this.o.onState({ kind: 'error', message: `This request cannot be sent as JSON (${(e as Error).message}).` });
      return;
    }
    const hit = this.cache.get(key);
    if (hit) {
      // refresh LRU order
      this.cache.delete(key);
      this.cache.set(key, hit);
      this.last = hit.tokens;
      this.o.onState({
        kind: 'count',
        tokens: hit.tokens,
        at: this.clock.now(),
        stale: false,
        cached: true,
        ...(hit.requestId ? { requestId: hit.requestId } : {}),
      });
      return;
    }
    const run = () => void this.run(gen, sent, key);
    if (immediate) run();
    else this.timer = this.clock.setTimeout(run, this.o.debounceMs);
  }

  /**
   * Counts another body (a base version's, to set beside the live count) through the same cache: a body
   * counted before, live or not, costs no call. The live count's state is not touched.
   */
  async countCached(body: Record<string, unknown>, signal: AbortSignal): Promise<CountResult> {
    const sent = pickCountFields(body);
    const key = bodyHash(sent);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const on = this.pending.get(key);
    if (on) {
      try {
        return await on;
      } catch {
        // that call was given up (the live count moved on): count it here
        if (signal.aborted) throw new Error('cancelled');
      }
    }
    return this.call(key, sent, signal);
  }

  /** One count_tokens call, known to every asker of the same body while it is on its way. */
  private async call(key: string, sent: Record<string, unknown>, signal: AbortSignal): Promise<CountResult> {
    this.calls++;
    const p = this.o.count(sent, signal);
    this.pending.set(key, p);
    try {
      const r = await p;
      this.remember(key, r);
      return r;
    } finally {
      if (this.pending.get(key) === p) this.pending.delete(key);
    }
  }

  private remember(key: string, r: CountResult): void {
    this.cache.set(key, r);
    while (this.cache.size > (this.o.cacheSize ?? 200)) this.cache.delete(this.cache.keys().next().value as string);
  }

  /** Forget every cached count (the service or the key changed: old numbers may not apply). */
  clearCache(): void {
    this.cache.clear();
  }

  /** Forget the in-flight call and the last count (another document became active). */
  reset(): void {
    this.generation++;
    this.clock.clearTimeout(this.timer);
    this.inflight?.abort();
    this.inflight = undefined;
    this.last = undefined;
  }

  dispose(): void {
    this.reset();
  }

  private async run(gen: number, sent: Record<string, unknown>, key: string): Promise<void> {
    if (gen !== this.generation) return;
    const ctl = new AbortController();
    this.inflight = ctl;
    this.o.onState({ kind: 'counting', ...(this.last !== undefined ? { previous: this.last } : {}) });
    try {
      // the same body on its way for another asker (the base version's count): its answer, unless it failed
      const shared = await this.pending.get(key)?.catch(() => undefined);
      const r = shared ?? (await this.call(key, sent, ctl.signal));
      if (gen !== this.generation) return; // an older version: never shown
      this.last = r.tokens;
      this.o.onState({
        kind: 'count',
        tokens: r.tokens,
        at: this.clock.now(),
        stale: false,
        cached: false,
        ...(r.requestId ? { requestId: r.requestId } : {}),
      });
    } catch (e) {
      if (gen !== this.generation || ctl.signal.aborted) return;
      const err = e as { message?: string; type?: string; requestId?: string };
      this.o.onState({
        kind: 'error',
        message: err.message ?? String(e),
        ...(err.type ? { type: err.type } : {}),
        ...(err.requestId ? { requestId: err.requestId } : {}),
        ...(this.last !== undefined ? { previous: this.last } : {}),
      });
    } finally {
      if (this.inflight === ctl) this.inflight = undefined;
    }
  }

  /** Tells the state a retry wait began (from the client's onRetry, for the call in flight). */
  retrying(inMs: number, why: string): void {
    this.o.onState({ kind: 'retrying', inMs, why, ...(this.last !== undefined ? { previous: this.last } : {}) });
  }
}
