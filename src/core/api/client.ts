// The one client for the service, on undici. Headers exactly as the spec says (doc1 §4, doc3 §9):
// x-api-key, vendor-version, content-type for bodies, vendor-beta when configured. Every call takes an
// AbortSignal, follows the retry rules (retry.ts), and throws typed errors that carry the request-id.
import { request, type Dispatcher } from 'undici';
import { pickCountFields } from '../request/count';
import { MessageAccumulator } from './accumulator';
import { AbortedError, ApiError, ConfigError, ConnectionError, StreamError, TimeoutError } from './errors';
import { withRetry, type RetryEvent } from './retry';
import { SseDecoder } from './sse';
import type { Message, Page, RateLimitEntry, RateLimitInfo, SessionResource, StreamEvent, TokenCount } from './types';

export const API_VERSION = '2023-06-01';
export const SESSIONS_BETA = 'managed-agents-2026-04-01';

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  adminKey?: string;
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
  dispatcher?: Dispatcher;
}

export interface CallOptions { signal?: AbortSignal }

interface Raw { status: number; headers: Record<string, string>; body: Dispatcher.ResponseData['body']; requestId?: string }

export class ApiClient {
  constructor(readonly o: ClientOptions) {}

  /** POST /v1/messages/count_tokens with only the fields it takes. */
  async countTokens(body: Record<string, unknown>, c: CallOptions = {}): Promise<TokenCount & { requestId?: string }> {
    const r = await this.json<TokenCount>('POST', '/v1/messages/count_tokens', pickCountFields(body), c);
    return { ...r.data, ...(r.requestId ? { requestId: r.requestId } : {}) };
  }

  /** POST /v1/messages without streaming. */
  async createMessage(body: Record<string, unknown>, c: CallOptions = {}): Promise<Message & { requestId?: string }> {
    const { stream: _omit, ...rest } = body;
    const r = await this.json<Message>('POST', '/v1/messages', rest, c);
    return { ...r.data, ...(r.requestId ? { requestId: r.requestId } : {}) };
  }

  /** POST /v1/messages with `stream: true`. Retries apply until the stream starts; after that a failure keeps the partial message. */
  async streamMessage(body: Record<string, unknown>, c: CallOptions = {}): Promise<MessageStream> {
    const raw = await withRetry(() => this.send('POST', '/v1/messages', { ...body, stream: true }, c, { stream: true }), this.retryOptions('POST', '/v1/messages', c));
    return new MessageStream(raw, c.signal);
  }

  /** GET /v1/sessions/{id}/resources, a page at a time, following next_page. Stops (and aborts) when the consumer stops. */
  async *resourcePages(sessionId: string, opts: { limit?: number; signal?: AbortSignal; page?: string } = {}): AsyncGenerator<Page<SessionResource>> {
    if (opts.limit !== undefined && (!Number.isInteger(opts.limit) || opts.limit < 1 || opts.limit > 1000)) {
      throw new RangeError(`limit must be a whole number from 1 to 1000, got ${opts.limit}`);
    }
    yield* this.pages<SessionResource>(`/v1/sessions/${encodeURIComponent(sessionId)}/resources`, { ...(opts.limit ? { limit: String(opts.limit) } : {}) }, { signal: opts.signal, sessions: true, ...(opts.page ? { page: opts.page } : {}) });
  }

  async getResource(sessionId: string, resourceId: string, c: CallOptions = {}): Promise<SessionResource> {
    return (await this.json<SessionResource>('GET', `/v1/sessions/${encodeURIComponent(sessionId)}/resources/${encodeURIComponent(resourceId)}`, undefined, c, { sessions: true })).data;
  }

  /** POST /v1/sessions/{id}/resources with type `file`. */
  async attachFile(sessionId: string, fileId: string, mountPath?: string, c: CallOptions = {}): Promise<SessionResource> {
    if (!fileId.trim()) throw new RangeError('file_id is required');
    const body = { type: 'file', file_id: fileId.trim(), ...(mountPath?.trim() ? { mount_path: mountPath.trim() } : {}) };
    return (await this.json<SessionResource>('POST', `/v1/sessions/${encodeURIComponent(sessionId)}/resources`, body, c, { sessions: true })).data;
  }

  /** GET /v1/organizations/rate_limits (Admin key), all pages. */
  async rateLimits(q: { model?: string; groupType?: string } = {}, c: CallOptions = {}): Promise<RateLimitEntry[]> {
    const query: Record<string, string> = {};
    if (q.model) query.model = q.model;
    if (q.groupType) query.group_type = q.groupType;
    return this.all<RateLimitEntry>('/v1/organizations/rate_limits', query, c);
  }

  /** GET /v1/organizations/workspaces/{id}/rate_limits (Admin key), all pages. */
  async workspaceRateLimits(workspaceId: string, q: { groupType?: string } = {}, c: CallOptions = {}): Promise<RateLimitEntry[]> {
    return this.all<RateLimitEntry>(`/v1/organizations/workspaces/${encodeURIComponent(workspaceId)}/rate_limits`, q.groupType ? { group_type: q.groupType } : {}, c);
  }

  // ---- internals ------------------------------------------------------------------------------------

  private async all<T>(path: string, query: Record<string, string>, c: CallOptions): Promise<T[]> {
    const out: T[] = [];
    for await (const p of this.pages<T>(path, query, { signal: c.signal, admin: true })) out.push(...p.data);
    return out;
  }

  private async *pages<T>(path: string, query: Record<string, string>, o: { signal?: AbortSignal; sessions?: boolean; admin?: boolean; page?: string }): AsyncGenerator<Page<T>> {
    const ctl = new AbortController();
    const onAbort = () => ctl.abort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let page: string | null | undefined = o.page;
      do {
        const q = new URLSearchParams(query);
        if (page) q.set('page', page);
        const qs = q.toString();
        // a 429 retries this same request: the cursor only advances after a page arrived (doc3 §7 rule 2)
        const r = await this.json<Page<T>>('GET', `${path}${qs ? `?${qs}` : ''}`, undefined, { signal: ctl.signal }, o);
        page = r.data.next_page;
        yield r.data;
      } while (page);
    } finally {
      ctl.abort();
      o.signal?.removeEventListener('abort', onAbort);
    }
  }

  private retryOptions(method: string, path: string, c: CallOptions) {
    return {
      maxRetries: this.o.maxRetries ?? 2,
      ...(c.signal ? { signal: c.signal } : {}),
      ...(this.o.sleep ? { sleep: this.o.sleep } : {}),
      onRetry: (e: RetryEvent) => {
        this.o.onLog?.(`retrying ${method} ${path} in ${(e.delayMs / 1000).toFixed(1)} s (attempt ${e.attempt + 1} of ${e.maxAttempts}) after: ${e.error instanceof ApiError ? e.error.describe() : e.error.message}`);
        this.o.onRetry?.({ ...e, method, path });
      },
    };
  }

  private async json<T>(method: string, path: string, body: unknown, c: CallOptions, o: { sessions?: boolean; admin?: boolean } = {}): Promise<{ data: T; requestId?: string }> {
    return withRetry(async () => {
      const raw = await this.send(method, path, body, c, o);
      let text: string;
      try { text = await raw.body.text(); } catch (e) { throw mapNetworkError(e, c.signal); }
      try {
        return { data: JSON.parse(text) as T, ...(raw.requestId ? { requestId: raw.requestId } : {}) };
      } catch {
        throw new ApiError(raw.status, 'invalid_response', `the service answered ${raw.status} with a body that is not JSON`, raw.requestId, raw.headers);
      }
    }, this.retryOptions(method, path, c));
  }

  /** One HTTP exchange: throws ApiError for non-2xx, typed errors for the network. */
  private async send(method: string, path: string, body: unknown, c: CallOptions, o: { sessions?: boolean; admin?: boolean; stream?: boolean }): Promise<Raw> {
    const base = this.o.baseUrl.trim().replace(/\/+$/, '');
    if (!base) throw new ConfigError('No base URL: set "promptwright.baseUrl" (the service address, {base_url} in the spec).', 'set-base-url');
    const key = o.admin ? this.o.adminKey : this.o.apiKey;
    if (!key) {
      throw o.admin
        ? new ConfigError('No Admin API key: run "Promptwright: Set Admin API Key" (rate limits need an Admin key).', 'set-admin-key')
        : new ConfigError('No API key: run "Promptwright: Set API Key".', 'set-api-key');
    }
    const betas = [...(this.o.betas ?? [])];
    if (o.sessions && !betas.includes(SESSIONS_BETA)) betas.push(SESSIONS_BETA);
    const headers: Record<string, string> = { 'x-api-key': key, 'vendor-version': this.o.apiVersion || API_VERSION, accept: o.stream ? 'text/event-stream' : 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (betas.length) headers['vendor-beta'] = betas.join(',');
    const t0 = Date.now();
    this.o.onLog?.(`→ ${method} ${path}${o.stream ? ' (stream)' : ''}`);
    let res: Dispatcher.ResponseData;
    try {
      const idle = this.o.streamIdleTimeoutMs ?? 60_000;
      const overall = this.o.requestTimeoutMs ?? 600_000;
      res = await request(`${base}${path}`, {
        method: method as Dispatcher.HttpMethod, headers, signal: c.signal ?? null,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        headersTimeout: o.stream ? idle : overall, bodyTimeout: o.stream ? idle : overall,
        ...(this.o.dispatcher ? { dispatcher: this.o.dispatcher } : {}),
      });
    } catch (e) {
      const err = mapNetworkError(e, c.signal);
      this.o.onLog?.(`✗ ${method} ${path} ${err.message} (${Date.now() - t0} ms)`);
      throw err;
    }
    const h = flatHeaders(res.headers);
    const requestId = h['request-id'];
    this.o.onRateLimit?.(rateLimitInfo(h));
    this.o.onLog?.(`← ${res.statusCode} ${method} ${path} (${Date.now() - t0} ms)${requestId ? ` request-id=${requestId}` : ''}`);
    if (res.statusCode >= 200 && res.statusCode < 300) return { status: res.statusCode, headers: h, body: res.body, ...(requestId ? { requestId } : {}) };
    let text = '';
    try { text = await res.body.text(); } catch { /* keep what we have */ }
    throw apiErrorFrom(res.statusCode, text, h, requestId);
  }
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export function rateLimitInfo(h: Record<string, string>): RateLimitInfo {
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
  return info;
}

const STATUS_TYPES: Record<number, string> = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  409: 'conflict_error', 429: 'rate_limit_error', 500: 'api_error', 502: 'bad_gateway', 503: 'service_unavailable', 504: 'gateway_timeout', 529: 'overloaded_error',
};

export function apiErrorFrom(status: number, text: string, h: Record<string, string>, requestId: string | undefined): ApiError {
  let type = STATUS_TYPES[status] ?? `http_${status}`;
  let message = text.trim().slice(0, 500) || `HTTP ${status}`;
  try {
    const j = JSON.parse(text) as { error?: { type?: unknown; message?: unknown } };
    if (j && typeof j.error === 'object' && j.error) {
      if (typeof j.error.type === 'string') type = j.error.type;
      if (typeof j.error.message === 'string') message = j.error.message;
    }
  } catch { /* not JSON: keep the text */ }
  const ra = h['retry-after'] !== undefined && h['retry-after'].trim() !== '' && Number.isFinite(Number(h['retry-after'])) ? Number(h['retry-after']) : undefined;
  return new ApiError(status, type, message, requestId, h, ra);
}

function mapNetworkError(e: unknown, signal?: AbortSignal): Error {
  if (signal?.aborted) return new AbortedError();
  const err = e as { name?: string; code?: string; message?: string };
  if (err?.name === 'AbortError' || err?.code === 'UND_ERR_ABORTED') return new AbortedError();
  if (err?.code === 'UND_ERR_HEADERS_TIMEOUT' || err?.code === 'UND_ERR_BODY_TIMEOUT' || err?.code === 'UND_ERR_CONNECT_TIMEOUT') return new TimeoutError(`No answer in time (${err.code}).`);
  if (e instanceof ConfigError || e instanceof ApiError) return e;
  return new ConnectionError(`Cannot reach the service: ${err?.code ? `${err.code} ` : ''}${err?.message ?? String(e)}`, e);
}

/** A streamed reply: iterate its events; `message` is built as they arrive and kept when the stream fails. */
export class MessageStream implements AsyncIterable<StreamEvent> {
  readonly acc = new MessageAccumulator();
  readonly requestId: string | undefined;
  private consumed = false;

  constructor(private readonly raw: Raw, private readonly signal?: AbortSignal) {
    this.requestId = raw.requestId;
  }

  /** What has arrived so far (a copy). */
  get message(): Message | undefined { return this.acc.snapshot(); }

  /**
   * The events, in order. A hand-written iterator rather than an async generator: events that one
   * network chunk completes are handed out without a further await each (this is the hot path).
   */
  [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    if (this.consumed) throw new Error('a MessageStream can be iterated once');
    this.consumed = true;
    const decoder = new SseDecoder();
    const body = this.raw.body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
    const queue: StreamEvent[] = [];
    let qi = 0;
    let state: 'open' | 'ended' | 'finished' = 'open';
    const fail = (type: string, message: string) => new StreamError(type, message, this.acc.snapshot(), this.requestId);
    const close = () => { if (state !== 'finished') this.raw.body.destroy(); };
    const take = (events: { event: string; data: string }[]) => {
      for (const e of events) {
        const ev = parseEvent(e.event, e.data);
        if (ev) queue.push(ev);
      }
    };
    const deliver = (): IteratorResult<StreamEvent> | undefined => {
      while (qi < queue.length) {
        const ev = queue[qi++]!;
        if (ev.type === 'error') { close(); throw fail(ev.error.type, ev.error.message); }
        this.acc.apply(ev);
        if (ev.type === 'message_stop') { state = 'finished'; queue.length = 0; qi = 0; }
        return { done: false, value: ev };
      }
      queue.length = 0;
      qi = 0;
      return undefined;
    };
    const mapFailure = (e: unknown): StreamError => {
      if (e instanceof StreamError) return e;
      const mapped = mapNetworkError(e, this.signal);
      if (mapped instanceof AbortedError) return fail('aborted', 'Cancelled.');
      if (mapped instanceof TimeoutError) return fail('idle_timeout', 'The stream stopped sending data (idle timeout); the partial reply is kept.');
      if (e instanceof Error && /JSON|before message_start|content_block/.test(e.message)) return fail('invalid_stream', e.message);
      return fail('connection_error', `The connection closed before the reply finished (${mapped.message}).`);
    };
    const next = async (): Promise<IteratorResult<StreamEvent>> => {
      try {
        for (;;) {
          if (state === 'finished') return { done: true, value: undefined };
          const ready = deliver();
          if (ready) return ready;
          if (state === 'ended') { close(); throw fail('connection_error', 'The connection closed before message_stop; the partial reply is kept.'); }
          const r = await body.next();
          if (r.done) { state = 'ended'; take(decoder.end()); } else take(decoder.push(r.value));
        }
      } catch (e) {
        close();
        state = 'finished';
        throw mapFailure(e);
      }
    };
    return {
      next: () => {
        // events already decoded are handed out without entering the async path
        if (state === 'open' && qi < queue.length) {
          try { const ready = deliver(); if (ready) return Promise.resolve(ready); } catch (e) { state = 'finished'; return Promise.reject(mapFailure(e)); }
        }
        return next();
      },
      return: async () => { close(); state = 'finished'; return { done: true, value: undefined }; },
    };
  }

  /** Reads the whole stream and returns the final message. */
  async finalMessage(): Promise<Message> {
    for await (const _ of this) { /* accumulate */ }
    return this.acc.snapshot()!;
  }
}

const TEXT_DELTA_HEAD = '{"type":"content_block_delta","index":';
const TEXT_DELTA_MID = ',"delta":{"type":"text_delta","text":';

function parseEvent(name: string, data: string): StreamEvent | undefined {
  if (name === 'ping') return { type: 'ping' };
  // the hot path: text deltas in the service's compact key order parse as one string, not an object
  if (data.startsWith(TEXT_DELTA_HEAD) && data.endsWith('}}')) {
    const mid = data.indexOf(TEXT_DELTA_MID, TEXT_DELTA_HEAD.length);
    const index = mid > 0 ? Number(data.slice(TEXT_DELTA_HEAD.length, mid)) : NaN;
    if (Number.isInteger(index)) {
      const lit = data.slice(mid + TEXT_DELTA_MID.length, -2);
      // a string literal without escapes is its own text; otherwise JSON decodes the escapes
      if (lit.length >= 2 && lit.charCodeAt(0) === 34 && lit.charCodeAt(lit.length - 1) === 34 && lit.indexOf('\\') < 0 && lit.indexOf('"', 1) === lit.length - 1) {
        return { type: 'content_block_delta', index, delta: { type: 'text_delta', text: lit.slice(1, -1) } };
      }
      try {
        const text = JSON.parse(lit) as unknown;
        if (typeof text === 'string') return { type: 'content_block_delta', index, delta: { type: 'text_delta', text } };
      } catch { /* not that shape after all: parse it whole */ }
    }
  }
  let j: unknown;
  try { j = JSON.parse(data); } catch { throw new Error(`event ${name} carries data that is not JSON`); }
  if (!j || typeof j !== 'object' || typeof (j as { type?: unknown }).type !== 'string') return undefined;
  return j as StreamEvent;
}
