// The retry rules of doc3 §7, exactly:
//  1. 400, 401, 403, 404, 409: never retried.
//  2. 429: wait `retry-after` seconds, else exponential backoff (1 s, doubling, at most 60 s).
//  3. 500: not retried when `x-should-retry: false`, else backoff. 502, 503, 504, 529: backoff.
// Connection errors and timeouts are retried with the same backoff. Every wait is cancellable and
// announced to the caller first (so a UI can show "retrying in N s").
import { AbortedError, ApiError, ConnectionError, TimeoutError } from './errors';

export interface RetryEvent {
  /** the attempt that failed (1-based) */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  error: Error;
}

export interface RetryOptions {
  /** retries after the first attempt (the setting promptwright.maxRetries) */
  maxRetries: number;
  signal?: AbortSignal;
  onRetry?: (e: RetryEvent) => void;
  /** injectable for tests */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const BACKOFF_START_MS = 1000;
const BACKOFF_MAX_MS = 60_000;

/** Backoff before retry number `retry` (1-based): 1 s, 2 s, 4 s, … capped at 60 s. */
export function backoffMs(retry: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** Math.max(0, retry - 1));
}

/** How long to wait before retrying after `error`, or undefined when it must not be retried. */
export function retryDelay(error: unknown, retry: number): number | undefined {
  if (error instanceof ApiError) {
    const s = error.status;
    if (s === 429) return error.retryAfter !== undefined ? error.retryAfter * 1000 : backoffMs(retry);
    if (s === 500) return error.headers['x-should-retry'] === 'false' ? undefined : backoffMs(retry);
    if (s === 502 || s === 503 || s === 504 || s === 529) return backoffMs(retry);
    return undefined; // 400, 401, 403, 404, 409 and every other status
  }
  if (error instanceof ConnectionError || error instanceof TimeoutError) return backoffMs(retry);
  return undefined;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError());
      return;
    }
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new AbortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function withRetry<T>(op: (attempt: number) => Promise<T>, o: RetryOptions): Promise<T> {
  const maxAttempts = 1 + Math.max(0, o.maxRetries);
  const wait = o.sleep ?? sleep;
  for (let attempt = 1; ; attempt++) {
    if (o.signal?.aborted) throw new AbortedError();
    try {
      return await op(attempt);
    } catch (e) {
      const delay = attempt < maxAttempts ? retryDelay(e, attempt) : undefined;
      if (delay === undefined || o.signal?.aborted) throw e;
      o.onRetry?.({ attempt, maxAttempts, delayMs: delay, error: e as Error });
      await wait(delay, o.signal);
    }
  }
}
