// The compliance interface allows 600 requests a minute per parent organization, one budget shared by
// every key and endpoint (doc3 §8). A client-side limiter keeps an export under it rather than meeting
// 429s: before each request it waits until fewer than `limit` requests were started in the last window.
// The service counts requests as they arrive, and a request that left a few milliseconds after another may
// arrive before it: a slot is reused only a margin (1% of the window by default) after the window has passed,
// so that no window at the service holds more than `limit`. Measured without it: 601 in a window and a 429.
// Clock and sleep are injected, so it is tested with a fake clock.

export interface LimiterClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export class RateLimiter {
  /** start times of the most recent requests, oldest first (at most `limit`) */
  private readonly starts: number[] = [];
  /** a wait the service asked for (a 429's retry-after), applied to every request until it passes */
  private pausedUntil = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: LimiterClock,
    /** how long after the window a slot is reused: the spread of the requests' ways to the service */
    readonly marginMs = Math.ceil(windowMs / 100),
  ) {}

  /** Waits for a slot, then counts the request as started. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const span = this.windowMs + this.marginMs;
      while (this.starts.length && this.starts[0]! <= now - span) this.starts.shift();
      const wait = Math.max(
        this.pausedUntil - now,
        this.starts.length >= this.limit ? this.starts[0]! + span - now : 0,
      );
      if (wait <= 0) break;
      await this.clock.sleep(wait, signal);
    }
    this.starts.push(this.clock.now());
    if (this.starts.length > this.limit) this.starts.shift();
  }

  /** The service said to wait (429 retry-after): no request starts before then. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  /** Requests started in the window ending now (for progress and tests). */
  inWindow(): number {
    const now = this.clock.now();
    return this.starts.filter(t => t > now - this.windowMs).length;
  }
}

/** The budget doc3 §8 states. */
export const COMPLIANCE_BUDGET = { limit: 600, windowMs: 60_000 } as const;
