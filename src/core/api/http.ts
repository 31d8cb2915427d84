// The transport every client shares: one HTTP exchange with the spec's headers (doc1 §4, doc3 §5 and §9:
// x-api-key, vendor-version, content-type for bodies, vendor-beta when configured), timeouts, the retry
// rules (retry.ts), and errors typed by `error.type` that carry the request-id.
//
// It is built on the platform's `fetch` (Node's built-in undici): the extension host and the CLI's Node
// (20 and later) both have it, so the extension ships no HTTP library of its own (undici was 524 KB of
// the bundle), and in VS Code it honours the editor's proxy settings.
import {
  DEFAULT_API_VERSION,
  DEFAULT_MAX_RETRIES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
} from './defaults';
import { AbortedError, ApiError, ConfigError, ConnectionError, TimeoutError } from './errors';
import { redactSecrets } from '../redact';
import { READ_LIMITS, readText, sizeText, type ReadLimits } from './limits';
import { withRetry, type RetryEvent, type RetryOptions } from './retry';
import type { RateLimitInfo, RateWindow } from './types';

/** Which key a call needs (doc3 §5): the standard API key, the Admin key, or the Compliance Access Key. */
export type KeyKind = 'api' | 'admin' | 'compliance';

export interface HttpOptions {
  baseUrl: string;
  apiKey?: string;
  adminKey?: string;
  complianceKey?: string;
  apiVersion?: string;
  betas?: readonly string[];
  maxRetries?: number;
  /** a stream that sends nothing for this long ends with an idle-timeout error (partial output kept) */
  streamIdleTimeoutMs?: number;
  /** time allowed for a non-streaming response */
  requestTimeoutMs?: number;
  /** request/response log lines (never contain a key) */
  onLog?: (line: string) => void;
  /** a retry is about to wait */
  onRetry?: (e: RetryEvent & { method: string; path: string }) => void;
  /** rate-limit headers of each response */
  onRateLimit?: (info: RateLimitInfo) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** waited on before every attempt (a client-side rate limiter); may reject when the signal aborts */
  beforeAttempt?: (signal?: AbortSignal) => Promise<void>;
  /** an attempt that `beforeAttempt` let go has its answer (after `onRateLimit`), or failed without one */
  afterAttempt?: () => void;
  /** how much of an answer is read, at most (limits.ts; lower in tests) */
  readLimits?: Partial<ReadLimits>;
}

export interface CallOptions extends CallHooks {
  signal?: AbortSignal;
  /** each attempt goes out now (after any wait of the client's own: a pacer, a retry's backoff) */
  onSend?: () => void;
}

/**
 * Hooks of one call, run after the client's own of the same name: a client shared by many calls (the
 * extension keeps one per settings) shows a retry's wait on the cell it holds up, and paces a run's requests.
 */
export type CallHooks = Pick<HttpOptions, 'onRetry' | 'onRateLimit' | 'beforeAttempt' | 'afterAttempt'>;

/** Both sets of hooks, `first`'s before `then`'s of the same name. */
export function joinHooks(first: CallHooks, then: CallHooks): CallHooks {
  const out: CallHooks = { ...first, ...then };
  if (first.beforeAttempt && then.beforeAttempt) {
    const [a, b] = [first.beforeAttempt, then.beforeAttempt];
    out.beforeAttempt = async signal => {
      await a(signal);
      await b(signal);
    };
  }
  if (first.afterAttempt && then.afterAttempt) {
    const [a, b] = [first.afterAttempt, then.afterAttempt];
    out.afterAttempt = () => (a(), b());
  }
  if (first.onRetry && then.onRetry) {
    const [a, b] = [first.onRetry, then.onRetry];
    out.onRetry = e => (a(e), b(e));
  }
  if (first.onRateLimit && then.onRateLimit) {
    const [a, b] = [first.onRateLimit, then.onRateLimit];
    out.onRateLimit = i => (a(i), b(i));
  }
  return out;
}

export interface RequestSpec {
  method: string;
  path: string;
  query?: Record<string, string | readonly string[] | undefined>;
  body?: unknown;
  /**
   * the body already written as JSON, or made as a stream each time it is sent (a batch's requests, read from where
   * they were kept: never held whole)
   */
  json?: string | (() => ReadableStream<Uint8Array>);
  key?: KeyKind;
  /** extra vendor-beta values this endpoint needs */
  betas?: readonly string[];
  stream?: boolean;
  /** the `accept` header, when the body is neither JSON nor an event stream (JSON Lines) */
  accept?: string;
  /** what the answer holds, for how much of it is read: a message, or (by default) any other JSON */
  answer?: 'message' | 'json';
}

/** A 2xx response whose body is still to be read. `touch()` restarts the idle timer; `close()` ends it. */
export interface Raw {
  status: number;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array> | null;
  requestId?: string;
  touch(): void;
  close(): void;
  /** how much of the body is read, at most (READ_LIMITS when not given) */
  limits?: ReadLimits;
  /**
   * The body is being read to its end (`read`): the HTTP client gives the connection back to its pool a turn of
   * the event loop after that end, and the next request of this client waits for it, so it takes the same
   * connection rather than open another (a TCP and TLS handshake).
   */
  reuse?(read: Promise<void>): void;
  /** text from the body (an error event's message) without the keys this transport holds (Http.redact) */
  redact?(text: string): string;
}

export interface JsonResponse<T> {
  data: T;
  requestId?: string;
  status: number;
  /** the response's headers, names in lower case */
  headers: Record<string, string>;
}

const KEY_HELP: Record<KeyKind, { message: string; action: 'set-api-key' | 'set-admin-key' | 'set-compliance-key' }> = {
  api: { message: 'No API key: run "Promptwright: Set API Key".', action: 'set-api-key' },
  admin: { message: 'No Admin API key: run "Promptwright: Set Admin API Key".', action: 'set-admin-key' },
  compliance: {
    message: 'No Compliance Access Key: run "Promptwright: Set Compliance Key".',
    action: 'set-compliance-key',
  },
};

export class Http {
  /** when the connection a streamed response gave back is free again (Raw.reuse) */
  private connectionFree: Promise<void> | undefined;
  private readonly limits: ReadLimits;

  constructor(readonly o: HttpOptions) {
    this.limits = { ...READ_LIMITS, ...o.readLimits };
  }

  /**
   * Text the service sent back without any key this transport holds: a gateway that echoes the key in an error
   * would otherwise put it in every output that shows or keeps the error (stderr, JSON, JUnit, results files,
   * notifications). Every error made from an answer passes through it.
   */
  readonly redact = (text: string): string =>
    redactSecrets(text, [this.o.apiKey, this.o.adminKey, this.o.complianceKey]);

  /** A JSON request, retried by the spec's rules; a 2xx body that is not JSON is an `invalid_response`. */
  async json<T>(spec: RequestSpec, c: CallOptions = {}): Promise<JsonResponse<T>> {
    return withRetry(
      async () => {
        const raw = await this.send(spec, c);
        const limit = this.limits[spec.answer ?? 'json'];
        let text: string;
        try {
          const read = raw.body ? await readText(raw.body, limit) : { text: '', over: false };
          if (read.over) {
            const message =
              `The service answered ${spec.method} ${spec.path} with more than ${sizeText(limit)}, more than any ` +
              'answer of it holds; reading stopped there and the connection was closed.';
            throw new ApiError(raw.status, 'response_too_large', message, raw.requestId, raw.headers);
          }
          text = read.text;
        } catch (e) {
          throw mapNetworkError(e, c.signal);
        } finally {
          raw.close();
        }
        try {
          return {
            data: (text ? JSON.parse(text) : undefined) as T,
            status: raw.status,
            headers: raw.headers,
            ...(raw.requestId ? { requestId: raw.requestId } : {}),
          };
        } catch {
          const message = `the service answered ${raw.status} with a body that is not JSON`;
          throw new ApiError(raw.status, 'invalid_response', message, raw.requestId, raw.headers);
        }
      },
      this.retryOptions(spec, c),
    );
  }

  /** A streamed request: retried until the response starts, never after. */
  async stream(spec: RequestSpec, c: CallOptions = {}): Promise<Raw> {
    return withRetry(() => this.send({ ...spec, stream: true }, c), this.retryOptions(spec, c));
  }

  retryOptions(spec: RequestSpec, c: CallOptions): RetryOptions {
    const { method, path } = spec;
    return {
      maxRetries: this.o.maxRetries ?? DEFAULT_MAX_RETRIES,
      ...(c.signal ? { signal: c.signal } : {}),
      ...(this.o.sleep ? { sleep: this.o.sleep } : {}),
      onRetry: (e: RetryEvent) => {
        const why = e.error instanceof ApiError ? e.error.describe() : e.error.message;
        const attempt = `attempt ${e.attempt + 1} of ${e.maxAttempts}`;
        this.o.onLog?.(`retrying ${method} ${path} in ${(e.delayMs / 1000).toFixed(1)} s (${attempt}) after: ${why}`);
        this.o.onRetry?.({ ...e, method, path });
        c.onRetry?.({ ...e, method, path });
      },
    };
  }

  /** One HTTP exchange: throws ApiError for non-2xx, typed errors for the network. */
  async send(spec: RequestSpec, c: CallOptions = {}): Promise<Raw> {
    const base = this.o.baseUrl.trim().replace(/\/+$/, '');
    if (!base) {
      throw new ConfigError(
        'No service address: set "promptwright.baseUrl" (the base URL of the service).',
        'set-base-url',
      );
    }
    const kind = spec.key ?? 'api';
    const key = kind === 'admin' ? this.o.adminKey : kind === 'compliance' ? this.o.complianceKey : this.o.apiKey;
    if (!key) throw new ConfigError(KEY_HELP[kind].message, KEY_HELP[kind].action);
    await this.o.beforeAttempt?.(c.signal);
    if (c.beforeAttempt) {
      try {
        await c.beforeAttempt(c.signal);
      } catch (e) {
        this.o.afterAttempt?.(); // what the client's own hook let go is given back
        throw e;
      }
    }
    const betas = [...(this.o.betas ?? [])];
    for (const b of spec.betas ?? []) if (!betas.includes(b)) betas.push(b);
    const headers: Record<string, string> = {
      'x-api-key': key,
      'vendor-version': this.o.apiVersion || DEFAULT_API_VERSION,
      accept: spec.accept ?? (spec.stream ? 'text/event-stream' : 'application/json'),
    };
    if (spec.body !== undefined || spec.json !== undefined) headers['content-type'] = 'application/json';
    if (betas.length) headers['vendor-beta'] = betas.join(',');
    const path = spec.path + queryString(spec.query);
    if (this.connectionFree) await this.connectionFree;
    const t0 = Date.now();
    c.onSend?.();
    // the whole address, so the log (and the CLI's PROMPTWRIGHT_DEBUG) says where the key went
    this.o.onLog?.(`→ ${spec.method} ${base}${path}${spec.stream ? ' (stream)' : ''}`);
    const timer = new Deadline(
      spec.stream
        ? (this.o.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS)
        : (this.o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
      c.signal,
    );
    let res: Response;
    let body: string | undefined;
    try {
      const streamed = typeof spec.json === 'function' ? spec.json() : undefined;
      body =
        typeof spec.json === 'string' ? spec.json : spec.body !== undefined ? JSON.stringify(spec.body) : undefined;
      res = await fetch(`${base}${path}`, {
        method: spec.method,
        headers,
        signal: timer.signal,
        // a redirect is answered, never followed: fetch would send the key (and, on 307/308, the body) to
        // wherever it points, another origin included
        redirect: 'manual',
        ...(body !== undefined ? { body } : {}),
        // a stream goes as it is made (chunked): fetch asks to be told it is sent before the answer is read
        ...(streamed ? ({ body: streamed, duplex: 'half' } as RequestInit) : {}),
      });
    } catch (e) {
      this.o.afterAttempt?.();
      c.afterAttempt?.();
      timer.clear();
      const err = timer.timedOut
        ? new TimeoutError('No answer in time (the response did not start).')
        : mapNetworkError(e, c.signal);
      this.o.onLog?.(`✗ ${spec.method} ${path} ${err.message} (${Date.now() - t0} ms)`);
      throw err;
    }
    const h: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      h[k.toLowerCase()] = v;
    });
    const requestId = h['request-id'];
    const limits = rateLimitInfo(h);
    this.o.onRateLimit?.(limits);
    c.onRateLimit?.(limits);
    this.o.afterAttempt?.();
    c.afterAttempt?.();
    this.o.onLog?.(
      `← ${res.status} ${spec.method} ${path} (${Date.now() - t0} ms)${requestId ? ` request-id=${requestId}` : ''}`,
    );
    if (res.status >= 200 && res.status < 300) {
      if (spec.stream) timer.restart();
      return {
        status: res.status,
        headers: h,
        body: res.body,
        ...(requestId ? { requestId } : {}),
        limits: this.limits,
        touch: () => timer.restart(),
        close: () => timer.clear(),
        reuse: read => {
          const free = read.then(() => new Promise<void>(resolve => setImmediate(resolve)));
          this.connectionFree = free;
          void free.then(() => {
            if (this.connectionFree === free) this.connectionFree = undefined;
          });
        },
        redact: this.redact,
      };
    }
    if (res.status >= 300 && res.status < 400) {
      timer.clear();
      void res.body?.cancel().catch(() => {});
      const e = redirectError(res.status, h.location, `${base}${path}`, requestId, h);
      e.message = this.redact(e.message);
      throw e;
    }
    let text = '';
    try {
      const read = res.body ? await readText(res.body, this.limits.error) : { text: '', over: false };
      text = read.over ? overlongError(read.text, this.limits.error) : read.text;
    } catch {
      /* keep what we have */
    } finally {
      timer.clear();
    }
    // the size sent, for a 413's hint (counted only on this path: bodies can be megabytes)
    const bytes = body !== undefined ? new TextEncoder().encode(body).length : undefined;
    throw apiErrorFrom(res.status, this.redact(text), h, requestId, bytes);
  }
}

/**
 * A timeout that aborts the request: for the whole exchange, or (streams) for the next bytes, restarted
 * on every chunk. The caller's signal aborts it too; `timedOut` tells the two apart.
 */
class Deadline {
  private readonly ctl = new AbortController();
  private handle: ReturnType<typeof setTimeout> | undefined;
  private cleared = false;
  timedOut = false;

  constructor(
    private readonly ms: number,
    private readonly caller?: AbortSignal,
  ) {
    if (caller?.aborted) this.ctl.abort(caller.reason);
    caller?.addEventListener('abort', this.onAbort, { once: true });
    this.restart();
  }

  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  private readonly onAbort = () => {
    this.clear();
    this.ctl.abort(this.caller?.reason);
  };

  /** Starts the time again: the one timer is re-armed in place, not replaced (a stream restarts it per chunk). */
  restart(): void {
    if (this.cleared) return;
    if (this.handle) this.handle.refresh();
    else this.handle = setTimeout(this.expire, this.ms);
  }

  private readonly expire = () => {
    this.timedOut = true;
    this.ctl.abort(new TimeoutError('No data in time.'));
  };

  /** Ends the deadline for good: the timer and the listener on the caller's signal are released. */
  clear(): void {
    this.cleared = true;
    clearTimeout(this.handle);
    this.caller?.removeEventListener('abort', this.onAbort);
  }
}

function queryString(query: RequestSpec['query']): string {
  if (!query) return '';
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (typeof v === 'string') q.append(k, v);
    else for (const x of v) q.append(k, x);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

function rateLimitInfo(h: Record<string, string>): RateLimitInfo {
  const num = (k: string) => (h[k] !== undefined && Number.isFinite(Number(h[k])) ? Number(h[k]) : undefined);
  const info: RateLimitInfo = {};
  const limit = num('vendor-ratelimit-requests-limit');
  const remaining = num('vendor-ratelimit-requests-remaining');
  const retryAfter = num('retry-after');
  if (limit !== undefined) info.limit = limit;
  if (remaining !== undefined) info.remaining = remaining;
  if (h['vendor-ratelimit-requests-reset']) info.reset = h['vendor-ratelimit-requests-reset'];
  if (retryAfter !== undefined) info.retryAfter = retryAfter;
  if (h['vendor-organization-id']) info.organizationId = h['vendor-organization-id'];
  const others = new Map<string, RateWindow>();
  for (const [k, v] of Object.entries(h)) {
    const m = /^vendor-ratelimit-(.+)-(limit|remaining|reset)$/.exec(k);
    if (!m || m[1] === 'requests') continue;
    const w = others.get(m[1]!) ?? { name: m[1]! };
    if (m[2] === 'reset') w.reset = v;
    else if (v.trim() !== '' && Number.isFinite(Number(v))) w[m[2] as 'limit' | 'remaining'] = Number(v);
    others.set(m[1]!, w);
  }
  if (others.size) info.others = [...others.values()];
  return info;
}

const STATUS_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
  529: 'overloaded_error',
};

/** An error body past its limit, as its message: what it began with, and that the rest was not read. */
function overlongError(start: string, limit: number): string {
  const begins = start.trim().slice(0, 200);
  return (
    `the service's error body was longer than ${sizeText(limit)}; reading stopped there and the connection was ` +
    `closed${begins ? ` (it began: ${JSON.stringify(begins)}…)` : ''}`
  );
}

function apiErrorFrom(
  status: number,
  text: string,
  h: Record<string, string>,
  requestId: string | undefined,
  requestBytes?: number,
): ApiError {
  let type = STATUS_TYPES[status] ?? `http_${status}`;
  let message = text.trim().slice(0, 500) || `HTTP ${status}`;
  try {
    const j = JSON.parse(text) as { error?: { type?: unknown; message?: unknown } };
    if (j && typeof j.error === 'object' && j.error) {
      if (typeof j.error.type === 'string') type = j.error.type;
      if (typeof j.error.message === 'string') message = j.error.message;
    }
  } catch {
    /* not JSON: keep the text */
  }
  const raw = h['retry-after'];
  const ra = raw !== undefined && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
  return new ApiError(status, type, message, requestId, h, ra, requestBytes);
}

/**
 * A 3xx as an error that says where it pointed (relative to the request's address): no key follows a redirect,
 * so a person decides whether that address is the service and sets it as the base URL.
 */
function redirectError(
  status: number,
  location: string | undefined,
  url: string,
  requestId: string | undefined,
  h: Record<string, string>,
): ApiError {
  let target = location?.trim() ?? '';
  try {
    if (target) target = new URL(target, url).href;
  } catch {
    /* not an address: said as it came */
  }
  const where = target ? `redirected to ${target.slice(0, 500)}` : 'a redirect with no Location';
  return new ApiError(status, 'redirect', `${where} (from ${url.slice(0, 500)})`, requestId, h);
}

/** Maps what fetch and a body read throw to our typed errors (the library's codes stay in `cause`). */
export function mapNetworkError(e: unknown, signal?: AbortSignal): Error {
  if (signal?.aborted) return new AbortedError();
  if (e instanceof AbortedError || e instanceof TimeoutError || e instanceof ConfigError || e instanceof ApiError)
    return e;
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.cause instanceof TimeoutError) return new TimeoutError('No data in time.');
  if (err?.name === 'AbortError' || err?.code === 'UND_ERR_ABORTED') return new AbortedError();
  return new ConnectionError(`Cannot reach the service: ${networkDetail(e)}`, e);
}

/** The library's code and message of a network failure: "UND_ERR_SOCKET other side closed". */
export function networkDetail(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err?.cause?.code ?? err?.code;
  const detail = err?.cause?.message ?? err?.message ?? String(e);
  return `${code ? `${code} ` : ''}${detail}`;
}
