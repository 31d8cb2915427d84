// The client for messages, token counting, session resources and rate limits, on the shared transport
// (http.ts): exactly the endpoints, paged lists as async iterators, typed errors. Message Batches have a client of
// their own on the same transport (batches.ts: `new BatchesClient(client.http)`), so only the bundles that send
// batches carry it.
import { pickCountFields } from './countFields';
import { Http, type CallOptions, type HttpOptions } from './http';
import { collect, tokenPages, type TokenPage } from './paging';
import { MessageStream } from './stream';
import type { RateLimitEntry, SessionResource, TokenCount, Message } from './types';

export { type CallOptions } from './http';
export { MessageStream } from './stream';
const SESSIONS_BETA = 'managed-agents-2026-04-01';

export type ClientOptions = HttpOptions;

export class ApiClient {
  readonly http: Http;

  constructor(readonly o: ClientOptions) {
    this.http = new Http(o);
  }

  /** POST /v1/messages/count_tokens with only the fields it takes. */
  async countTokens(body: Record<string, unknown>, c: CallOptions = {}): Promise<TokenCount & { requestId?: string }> {
    const r = await this.http.json<TokenCount>(
      { method: 'POST', path: '/v1/messages/count_tokens', body: pickCountFields(body) },
      c,
    );
    return { ...r.data, ...(r.requestId ? { requestId: r.requestId } : {}) };
  }

  /** POST /v1/messages without streaming. */
  async createMessage(body: Record<string, unknown>, c: CallOptions = {}): Promise<Message & { requestId?: string }> {
    const { stream: _omit, ...rest } = body;
    const spec = { method: 'POST', path: '/v1/messages', body: rest, answer: 'message' } as const;
    const r = await this.http.json<Message>(spec, c);
    return { ...r.data, ...(r.requestId ? { requestId: r.requestId } : {}) };
  }

  /** POST /v1/messages with `stream: true`. Retries apply until the stream starts; then a failure keeps what came. */
  async streamMessage(body: Record<string, unknown>, c: CallOptions = {}): Promise<MessageStream> {
    const raw = await this.http.stream({ method: 'POST', path: '/v1/messages', body: { ...body, stream: true } }, c);
    return new MessageStream(raw, c.signal);
  }

  /** GET /v1/sessions/{id}/resources a page at a time, following next_page; stops (and aborts) with the consumer. */
  async *resourcePages(
    sessionId: string,
    opts: { limit?: number; signal?: AbortSignal; page?: string } = {},
  ): AsyncGenerator<TokenPage<SessionResource>> {
    if (opts.limit !== undefined && (!Number.isInteger(opts.limit) || opts.limit < 1 || opts.limit > 1000)) {
      throw new RangeError(`limit must be a whole number from 1 to 1000, got ${opts.limit}`);
    }
    const path = `/v1/sessions/${encodeURIComponent(sessionId)}/resources`;
    const query: Record<string, string> = opts.limit ? { limit: String(opts.limit) } : {};
    const o = { ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.page ? { page: opts.page } : {}) };
    yield* tokenPages<SessionResource>(this.http, { method: 'GET', path, query, betas: [SESSIONS_BETA] }, o);
  }

  async getResource(sessionId: string, resourceId: string, c: CallOptions = {}): Promise<SessionResource> {
    const path = `/v1/sessions/${encodeURIComponent(sessionId)}/resources/${encodeURIComponent(resourceId)}`;
    return (await this.http.json<SessionResource>({ method: 'GET', path, betas: [SESSIONS_BETA] }, c)).data;
  }

  /** POST /v1/sessions/{id}/resources with type `file`. */
  async attachFile(
    sessionId: string,
    fileId: string,
    mountPath?: string,
    c: CallOptions = {},
  ): Promise<SessionResource> {
    if (!fileId.trim()) throw new RangeError('file_id is required');
    const body = {
      type: 'file',
      file_id: fileId.trim(),
      ...(mountPath?.trim() ? { mount_path: mountPath.trim() } : {}),
    };
    const path = `/v1/sessions/${encodeURIComponent(sessionId)}/resources`;
    return (await this.http.json<SessionResource>({ method: 'POST', path, body, betas: [SESSIONS_BETA] }, c)).data;
  }

  /** GET /v1/organizations/rate_limits (Admin key), all pages. */
  async rateLimits(q: { model?: string; groupType?: string } = {}, c: CallOptions = {}): Promise<RateLimitEntry[]> {
    const query: Record<string, string> = {};
    if (q.model) query.model = q.model;
    if (q.groupType) query.group_type = q.groupType;
    return this.all<RateLimitEntry>('/v1/organizations/rate_limits', query, c);
  }

  /** GET /v1/organizations/workspaces/{id}/rate_limits (Admin key), all pages. */
  async workspaceRateLimits(
    workspaceId: string,
    q: { groupType?: string } = {},
    c: CallOptions = {},
  ): Promise<RateLimitEntry[]> {
    const path = `/v1/organizations/workspaces/${encodeURIComponent(workspaceId)}/rate_limits`;
    return this.all<RateLimitEntry>(path, q.groupType ? { group_type: q.groupType } : {}, c);
  }

  /** Every record of a `next_page` list read with the Admin key. */
  private all<T>(path: string, query: Record<string, string>, c: CallOptions): Promise<T[]> {
    return collect(tokenPages<T>(this.http, { method: 'GET', path, query, key: 'admin' }, c));
  }
}
