// Counting breakpoint prefixes with count_tokens, as the Token Breakdown counts parts: a few calls at a time,
// each body counted once (cached by a hash of the exact body sent, so a second look at an unchanged file, or
// at a file edited after its breakpoints, costs no call), and the same body asked twice at once sent once.
import { bodyHash } from '../request/hash';
import type { PrefixRequest } from './prefix';

type Obj = Record<string, unknown>;

export type CountFn = (body: Obj, signal?: AbortSignal) => Promise<number>;

/** A prefix counted by the service, or why it could not be. */
export type PrefixCount =
  { tokens: number } | { error: { message: string; type?: string; requestId?: string; status?: number } };

export class PrefixCounter {
  private readonly cache = new Map<string, number>();
  private readonly inflight = new Map<string, Promise<number>>();
  /** why a body could not be counted (asked again only by `retry`, or after `clear`) */
  private readonly failures = new Map<string, string>();
  /** count_tokens calls made (tests and the benchmark read it) */
  calls = 0;

  constructor(
    private readonly count: CountFn,
    private readonly o: { concurrency?: number; cacheSize?: number } = {},
  ) {}

  /** What is known without a call: the prefix's tokens if every body it needs was counted. */
  known(r: PrefixRequest | undefined): number | undefined {
    if (!r) return undefined;
    const whole = this.cached(r.body);
    if (whole === undefined || r.kind === 'whole') return whole;
    const base = this.cached(r.base);
    return base === undefined ? undefined : Math.max(0, whole - base);
  }

  /** Why the prefix could not be counted, if its last count failed. */
  failure(r: PrefixRequest | undefined): string | undefined {
    if (!r) return undefined;
    const keys = [this.key(r.body), r.kind === 'difference' ? this.key(r.base) : undefined];
    for (const k of keys) if (k !== undefined && this.failures.has(k)) return this.failures.get(k);
    return undefined;
  }

  /** Forgets the failures of these prefixes, so that the next count asks again. */
  retry(requests: readonly (PrefixRequest | undefined)[]): void {
    for (const r of requests) {
      if (!r) continue;
      for (const k of [this.key(r.body), r.kind === 'difference' ? this.key(r.base) : undefined])
        if (k !== undefined) this.failures.delete(k);
    }
  }

  /** Counts each prefix (undefined where there is none), at most `concurrency` calls at a time. */
  async countAll(requests: readonly (PrefixRequest | undefined)[], signal?: AbortSignal): Promise<PrefixCount[]> {
    // every distinct body once, the bases (shared by the tools and system prefixes) among them
    const bodies = new Map<string, Obj>();
    const keys = requests.map(r => {
      if (!r) return undefined;
      try {
        const k = { body: bodyHash(r.body), base: r.kind === 'difference' ? bodyHash(r.base) : undefined };
        bodies.set(k.body, r.body);
        if (r.kind === 'difference') bodies.set(k.base!, r.base);
        return k;
      } catch (e) {
        // JSON.stringify recurses: a body nested thousands of levels deep cannot be sent at all
        return { unsendable: (e as Error).message };
      }
    });
    const results = new Map<string, PrefixCount>();
    const queue = [...bodies];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (signal?.aborted) return;
        const [key, body] = next;
        const failed = this.failures.get(key);
        if (failed !== undefined) {
          results.set(key, { error: { message: failed } });
          continue;
        }
        try {
          results.set(key, { tokens: await this.one(key, body, signal) });
        } catch (e) {
          const err = e as { message?: string; type?: string; requestId?: string; status?: number };
          if (!signal?.aborted) this.failures.set(key, err?.message ?? String(e));
          results.set(key, {
            error: {
              message: err?.message ?? String(e),
              ...(err?.type ? { type: err.type } : {}),
              ...(err?.requestId ? { requestId: err.requestId } : {}),
              ...(typeof err?.status === 'number' ? { status: err.status } : {}),
            },
          });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.o.concurrency ?? 3, queue.length) }, worker));
    if (signal?.aborted) throw Object.assign(new Error('Cancelled.'), { name: 'AbortedError' });
    return requests.map((r, i) => {
      const k = keys[i];
      if (!r || !k) return { error: { message: 'the request has no message to count this prefix against' } };
      if ('unsendable' in k) return { error: { message: `this request cannot be sent as JSON (${k.unsendable})` } };
      const whole = results.get(k.body)!;
      if ('error' in whole || k.base === undefined) return whole;
      const base = results.get(k.base)!;
      return 'error' in base ? base : { tokens: Math.max(0, whole.tokens - base.tokens) };
    });
  }

  /** Records a count made elsewhere (the whole request's, which is often the last prefix). */
  seed(body: Obj, tokens: number): void {
    const key = this.key(body);
    if (key !== undefined) this.cache.set(key, tokens);
  }

  /** Forget every count (the service or the key changed: old numbers may not apply). */
  clear(): void {
    this.cache.clear();
    this.failures.clear();
  }

  private cached(body: Obj): number | undefined {
    const key = this.key(body);
    return key === undefined ? undefined : this.cache.get(key);
  }

  private key(body: Obj): string | undefined {
    try {
      return bodyHash(body);
    } catch {
      return undefined;
    }
  }

  private one(key: string, body: Obj, signal?: AbortSignal): Promise<number> {
    const hit = this.cache.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let p = this.inflight.get(key);
    if (!p) {
      this.calls++;
      p = this.count(body, signal).then(
        n => {
          this.inflight.delete(key);
          this.cache.set(key, n);
          while (this.cache.size > (this.o.cacheSize ?? 500))
            this.cache.delete(this.cache.keys().next().value as string);
          return n;
        },
        (e: unknown) => {
          this.inflight.delete(key);
          throw e;
        },
      );
      this.inflight.set(key, p);
    }
    return p;
  }
}
