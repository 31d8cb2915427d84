// A request budget as the service states one (doc3 §8): at most `limit` requests in any span of `windowMs`, the
// strictest reading of "N requests per minute", and the headers that say where a client stands:
// `vendor-ratelimit-requests-limit`, `-remaining` and `-reset` (when the budget is whole again: the newest
// counted request leaves the window, so a client that waits for it, or for retry-after, finds it whole). A
// request over the budget is refused (429 with retry-after) and uses none of it. The compliance interface's
// shared budget and the fake's per-minute limit on the messages interface are each one of these.
import { iso } from './admin';

export interface RateOptions {
  /** requests admitted in any span of windowMs */
  limit: number;
  windowMs: number;
}

/** What taking a request from the budget decided, with the headers its answer carries. */
export type Taken = { ok: true; headers: Record<string, string> } | { ok: false; headers: Record<string, string> };

export class SlidingBudget {
  /** times (ms) of the requests counted against the budget, oldest first (all kept: maxInAnyWindow reads them) */
  readonly log: number[] = [];
  /** times (ms) of the requests refused with 429 (over the budget; they use no quota) */
  readonly throttled: number[] = [];
  private head = 0;

  constructor(readonly rate: RateOptions) {}

  private used(now: number): number {
    while (this.head < this.log.length && this.log[this.head]! <= now - this.rate.windowMs) this.head++;
    return this.log.length - this.head;
  }

  private resetAt(now: number): number {
    const newest = this.log[this.log.length - 1];
    return this.used(now) && newest !== undefined ? newest + this.rate.windowMs : now;
  }

  headers(now = Date.now()): Record<string, string> {
    return {
      'vendor-ratelimit-requests-limit': String(this.rate.limit),
      'vendor-ratelimit-requests-remaining': String(Math.max(0, this.rate.limit - this.used(now))),
      'vendor-ratelimit-requests-reset': iso(this.resetAt(now)),
    };
  }

  /** Counts a request, or refuses it with the 429's headers (retry-after: whole seconds until the reset). */
  take(now = Date.now()): Taken {
    if (this.used(now) >= this.rate.limit) {
      this.throttled.push(now);
      const wait = Math.max(1, Math.ceil((this.resetAt(now) - now) / 1000));
      return { ok: false, headers: { ...this.headers(now), 'retry-after': String(wait) } };
    }
    this.log.push(now);
    return { ok: true, headers: this.headers(now) };
  }

  /** The most requests a client sent (counted or refused with 429) in any span of windowMs. */
  maxInAnyWindow(windowMs = this.rate.windowMs): number {
    const t = [...this.log, ...this.throttled].sort((a, b) => a - b);
    let best = 0;
    for (let i = 0, j = 0; j < t.length; j++) {
      while (t[j]! - t[i]! >= windowMs) i++;
      best = Math.max(best, j - i + 1);
    }
    return best;
  }

  reset(): void {
    this.log.length = 0;
    this.throttled.length = 0;
    this.head = 0;
  }
}
