// Adaptive pacing for many direct requests (a suite's cells): every answer says how much of the rate limit is
// left (`vendor-ratelimit-requests-remaining`) and when it is whole again (`-reset`, RFC 3339; doc3 §8), so the
// client slows down before the limit instead of meeting it in a storm of 429s. Before each attempt:
//   - the budget is what the latest answer said was left, less the requests in flight when it came (some may
//     not have been counted yet: counted as if they were) and those started since;
//   - none left: wait until the reset; little left (under a tenth of the limit): the rest is spread evenly
//     over the time to the reset, so the workers do not spend it at once;
//   - another family of the headers (the public API's tokens, input-tokens, output-tokens) nearly spent (2% of
//     its limit left): wait until its reset, since what one request will take of it is not known beforehand;
//   - a 429's `retry-after` holds every request, not only the one that met it.
// A window whose reset has passed is taken as whole until the next answer says otherwise. The clock and sleep
// are injected, so it is tested with a fake clock; `afterAttempt` keeps the count of requests in flight exact
// (an attempt that failed without an answer ends too).
import type { RateLimitInfo } from './types';

export interface PacerClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** How long after a reset requests start again: the service's clock and ours may differ a little. */
const RESET_MARGIN_MS = 100;
/** The longest single sleep: a fresh answer may free the wait sooner, so it is looked at again. */
const RECHECK_MS = 1000;
/** A wait longer than this is said (`onLongWait`): a person watching should not think the run is stuck. */
export const LONG_WAIT_MS = 2000;

interface Observation {
  remaining: number;
  limit?: number;
  resetAt: number;
  /** requests started, and those in flight, when it came */
  startedAt: number;
  inFlight: number;
}

interface OtherWindow {
  name: string;
  remaining: number;
  limit?: number;
  resetAt: number;
}

export interface PacerStats {
  /** times an attempt waited, and for how long in all */
  waits: number;
  waitedMs: number;
}

export class RateLimitPacer {
  private started = 0;
  private ended = 0;
  private lastStart = -Infinity;
  private pausedUntil = 0;
  private requests: Observation | undefined;
  private others = new Map<string, OtherWindow>();
  readonly stats: PacerStats = { waits: 0, waitedMs: 0 };
  /** the end of the last wait said: the workers that wait for the same reset say it once */
  private saidUntil = -Infinity;

  constructor(
    private readonly clock: PacerClock,
    private readonly onLongWait?: (ms: number) => void,
  ) {}

  /** The hooks of an Http client (HttpOptions) that this pacer drives. */
  hooks(): {
    beforeAttempt: (signal?: AbortSignal) => Promise<void>;
    onRateLimit: (info: RateLimitInfo) => void;
    afterAttempt: () => void;
  } {
    return {
      beforeAttempt: signal => this.acquire(signal),
      onRateLimit: info => this.observe(info),
      afterAttempt: () => this.release(),
    };
  }

  /** Waits until a request may start, then counts it as started. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (let first = true; ; first = false) {
      const now = this.clock.now();
      const wait = this.waitMs(now);
      if (wait <= 0) break;
      if (first && wait > LONG_WAIT_MS && now + wait > this.saidUntil + RECHECK_MS) {
        this.saidUntil = now + wait;
        this.onLongWait?.(wait);
      }
      this.stats.waits++;
      const slice = Math.min(wait, RECHECK_MS);
      this.stats.waitedMs += slice;
      await this.clock.sleep(slice, signal);
    }
    this.started++;
    this.lastStart = this.clock.now();
  }

  /** An attempt ended (answered or not). */
  release(): void {
    this.ended = Math.min(this.started, this.ended + 1);
  }

  /** What an answer's headers said. */
  observe(info: RateLimitInfo): void {
    const now = this.clock.now();
    if (info.retryAfter !== undefined && info.retryAfter >= 0)
      this.pausedUntil = Math.max(this.pausedUntil, now + info.retryAfter * 1000);
    const resetAt = info.reset !== undefined ? Date.parse(info.reset) : NaN;
    if (info.remaining !== undefined && Number.isFinite(resetAt))
      this.requests = {
        remaining: info.remaining,
        ...(info.limit !== undefined ? { limit: info.limit } : {}),
        resetAt,
        startedAt: this.started,
        // this answer's own request is still counted in flight until afterAttempt: it is not one of them
        inFlight: Math.max(0, this.started - this.ended - 1),
      };
    for (const w of info.others ?? []) {
      const at = w.reset !== undefined ? Date.parse(w.reset) : NaN;
      if (w.remaining === undefined || !Number.isFinite(at)) continue;
      this.others.set(w.name, {
        name: w.name,
        remaining: w.remaining,
        resetAt: at,
        ...(w.limit !== undefined ? { limit: w.limit } : {}),
      });
    }
  }

  /** How long a request starting at `now` must wait (0: it may start). */
  waitMs(now: number): number {
    let wait = this.pausedUntil - now;
    const o = this.requests;
    if (o && now < o.resetAt + RESET_MARGIN_MS) {
      const budget = o.remaining - o.inFlight - (this.started - o.startedAt);
      if (budget <= 0) wait = Math.max(wait, o.resetAt + RESET_MARGIN_MS - now);
      else if (o.limit !== undefined && budget < o.limit / 10) {
        const gap = (o.resetAt - now) / budget;
        wait = Math.max(wait, this.lastStart + gap - now);
      }
    }
    for (const w of this.others.values()) {
      if (now >= w.resetAt + RESET_MARGIN_MS) continue;
      const floor = w.limit !== undefined ? w.limit * 0.02 : 0;
      if (w.remaining <= floor) wait = Math.max(wait, w.resetAt + RESET_MARGIN_MS - now);
    }
    return wait;
  }
}

/** A pacer on the real clock; `onLongWait` hears of each wait over LONG_WAIT_MS, once for all the requests held. */
export function realPacer(
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  onLongWait?: (ms: number) => void,
): RateLimitPacer {
  return new RateLimitPacer({ now: () => Date.now(), sleep }, onLongWait);
}
