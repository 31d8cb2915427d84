// Message Batches: many messages requests sent as one, answered within 24 hours at half the price. The spec
// names the beta (`message-batches-2024-09-24`, doc3 §9) and says the endpoints are not shown (doc1 §4.2), so
// they follow the public Messages Batches API (docs/spec.md, "Message Batches"):
//   POST /v1/messages/batches                  {requests: [{custom_id, params}]} → the batch
//   GET  /v1/messages/batches/{id}             the batch (poll it until processing_status is `ended`)
//   GET  /v1/messages/batches                  a cursor list, newest first: before_id, after_id, limit
//   POST /v1/messages/batches/{id}/cancel      → the batch, `canceling`
//   GET  /v1/messages/batches/{id}/results     JSON Lines {custom_id, result}, in no particular order
// Every call sends `vendor-beta: message-batches-2024-09-24` with the configured betas, as the official SDKs'
// beta batches resource does (it adds the batches beta to the caller's on every one of these calls): the betas
// a batch's requests need go on the create call, since a request in a batch has no headers of its own. The
// results are read as a stream, a line at a time (jsonl.ts).
import { ApiError } from './errors';
import type { CallOptions, Http } from './http';
import { mapNetworkError } from './http';
import { readJsonLines, type MalformedLine } from './jsonl';
import { LineTooLong, READ_LIMITS } from './limits';
import { cursorPages, type CursorOptions, type CursorPage } from './paging';
import type { Message } from './types';

export const BATCHES_BETA = 'message-batches-2024-09-24';
/** The public API's caps on one batch: requests, and the create body's size in bytes. */
export const BATCH_MAX_REQUESTS = 100_000;
export const BATCH_MAX_BYTES = 256 * 1024 * 1024;
/** What a `custom_id` may be (the public API's pattern). */
export const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

export interface BatchRequestCounts {
  processing: number;
  succeeded: number;
  errored: number;
  canceled: number;
  expired: number;
}

type BatchStatus = 'in_progress' | 'canceling' | 'ended';

export interface MessageBatch {
  id: string;
  type: 'message_batch';
  processing_status: BatchStatus | (string & {});
  request_counts: BatchRequestCounts;
  created_at: string;
  /** 24 hours after creation: what is still processing then expires */
  expires_at: string;
  ended_at: string | null;
  archived_at: string | null;
  cancel_initiated_at: string | null;
  /** set once processing ends */
  results_url: string | null;
}

/** One request of a batch: its id (unique in the batch) and a non-streaming messages body. */
export interface BatchRequest {
  custom_id: string;
  params: Record<string, unknown>;
}

/** An error as a result carries it: the service's error body (`{type: 'error', error: {type, message}}`). */
export interface BatchErrorBody {
  type?: string;
  error?: { type?: string; message?: string };
  message?: string;
  request_id?: string;
}

export type BatchResult =
  | { type: 'succeeded'; message: Message }
  | { type: 'errored'; error: BatchErrorBody }
  | { type: 'canceled' }
  | { type: 'expired' };

export interface BatchResultLine {
  custom_id: string;
  result: BatchResult;
}

/** A batch as the service sent it, with the answer's request-id and the wait it asked for (`retry-after`). */
export interface BatchAnswer {
  batch: MessageBatch;
  requestId?: string;
  retryAfterMs?: number;
}

/** The error of an `errored` result: its type and message, whichever of the two shapes it came in. */
export function batchError(e: BatchErrorBody | undefined): { type: string; message: string; requestId?: string } {
  const inner = e?.error && typeof e.error === 'object' ? e.error : undefined;
  const type = inner?.type ?? (e?.type && e.type !== 'error' ? e.type : undefined) ?? 'api_error';
  const message = inner?.message ?? e?.message ?? 'the request failed in the batch (no message)';
  return { type, message, ...(typeof e?.request_id === 'string' ? { requestId: e.request_id } : {}) };
}

const RESULT_TYPES = new Set(['succeeded', 'errored', 'canceled', 'expired']);

/** Whether a results line has the public shape (anything else is reported as malformed, never guessed at). */
function isResultLine(v: unknown): v is BatchResultLine {
  if (!v || typeof v !== 'object') return false;
  const { custom_id, result } = v as { custom_id?: unknown; result?: { type?: unknown; message?: unknown } };
  if (typeof custom_id !== 'string' || !result || typeof result !== 'object') return false;
  if (typeof result.type !== 'string' || !RESULT_TYPES.has(result.type)) return false;
  return result.type !== 'succeeded' || (!!result.message && typeof result.message === 'object');
}

export class BatchesClient {
  constructor(private readonly http: Http) {}

  private path(id?: string, tail = ''): string {
    return `/v1/messages/batches${id !== undefined ? `/${encodeURIComponent(id)}` : ''}${tail}`;
  }

  /** POST /v1/messages/batches. Checked first: 1 to 100,000 requests, each custom_id of the pattern, unique. */
  async create(requests: readonly BatchRequest[], c: CallOptions = {}): Promise<BatchAnswer> {
    if (!requests.length || requests.length > BATCH_MAX_REQUESTS)
      throw new RangeError(`a batch holds 1 to ${BATCH_MAX_REQUESTS} requests, got ${requests.length}`);
    const seen = new Set<string>();
    for (const r of requests) {
      if (!CUSTOM_ID.test(r.custom_id)) throw new RangeError(`custom_id ${JSON.stringify(r.custom_id)} is not allowed`);
      if (seen.has(r.custom_id)) throw new RangeError(`custom_id ${r.custom_id} is given twice`);
      seen.add(r.custom_id);
    }
    const body = { requests: requests.map(r => ({ custom_id: r.custom_id, params: nonStreaming(r.params) })) };
    return this.answer(await this.http.json<MessageBatch>({ method: 'POST', path: this.path(), body, betas }, c));
  }

  /** POST /v1/messages/batches with a body written as JSON elsewhere, streamed (cli/testBatchSpool.ts). */
  async createStreamed(json: () => ReadableStream<Uint8Array>, c: CallOptions = {}): Promise<BatchAnswer> {
    return this.answer(await this.http.json<MessageBatch>({ method: 'POST', path: this.path(), json, betas }, c));
  }

  /** GET /v1/messages/batches/{id}. */
  async retrieve(id: string, c: CallOptions = {}): Promise<BatchAnswer> {
    return this.answer(await this.http.json<MessageBatch>({ method: 'GET', path: this.path(id), betas }, c));
  }

  /** POST /v1/messages/batches/{id}/cancel: the batch goes `canceling`, then `ended`. */
  async cancel(id: string, c: CallOptions = {}): Promise<BatchAnswer> {
    const spec = { method: 'POST', path: this.path(id, '/cancel'), betas };
    return this.answer(await this.http.json<MessageBatch>(spec, c));
  }

  /**
   * GET /v1/messages/batches, newest first, a page at a time (`pageSize`: 1 to 1000, the service's default 20).
   * A page that fails is retried as a whole: the cursor never advances past a page that did not arrive.
   */
  pages(o: CursorOptions = {}): AsyncGenerator<CursorPage<MessageBatch>> {
    if (o.pageSize !== undefined && (!Number.isInteger(o.pageSize) || o.pageSize < 1 || o.pageSize > 1000))
      throw new RangeError(`limit must be a whole number from 1 to 1000, got ${o.pageSize}`);
    return cursorPages<MessageBatch>(this.http, { method: 'GET', path: this.path(), betas }, o);
  }

  /**
   * GET /v1/messages/batches/{id}/results: each line as it arrives, never the whole body at once. A line that
   * is not a result (not JSON, or not of the public shape) goes to `onMalformed` and the others are read.
   * Stopping early, or a cancel, closes the connection.
   */
  async *results(
    id: string,
    o: CallOptions & { onMalformed?: (m: MalformedLine) => void } = {},
  ): AsyncGenerator<BatchResultLine> {
    const spec = { method: 'GET', path: this.path(id, '/results'), betas, accept: 'application/x-jsonl, */*' };
    const raw = await this.http.stream(spec, o);
    if (!raw.body) {
      raw.close();
      return;
    }
    // what the service wrote in a line goes out without the keys (an error that echoes one)
    const redact = this.http.redact;
    const onMalformed = (m: MalformedLine) => o.onMalformed?.({ ...m, problem: redact(m.problem) });
    const maxLine = (raw.limits ?? READ_LIMITS).message;
    try {
      for await (const v of readJsonLines(raw.body, { onBytes: () => raw.touch(), onMalformed, maxLine })) {
        if (!isResultLine(v))
          onMalformed({ n: -1, problem: `a line is not a batch result: ${JSON.stringify(v).slice(0, 120)}` });
        else if (v.result.type !== 'errored') yield v;
        else
          yield {
            ...v,
            result: { type: 'errored', error: JSON.parse(redact(JSON.stringify(v.result.error))) as BatchErrorBody },
          };
      }
    } catch (e) {
      // a line without end: the results cannot be read on (the connection is closed); a clear error with the id
      if (e instanceof LineTooLong)
        throw new ApiError(
          raw.status,
          'response_too_large',
          `The batch's results: ${e.message}`,
          raw.requestId,
          raw.headers,
        );
      throw mapNetworkError(e, o.signal);
    } finally {
      raw.close();
    }
  }

  private answer(r: { data: MessageBatch; requestId?: string; headers: Record<string, string> }): BatchAnswer {
    const ra = Number(r.headers['retry-after']);
    return {
      batch: r.data,
      ...(r.requestId ? { requestId: r.requestId } : {}),
      ...(r.headers['retry-after'] !== undefined && Number.isFinite(ra) && ra >= 0 ? { retryAfterMs: ra * 1000 } : {}),
    };
  }
}

const betas = [BATCHES_BETA];

/** A request in a batch is answered whole, never streamed: `stream` is left out. */
export function nonStreaming(params: Record<string, unknown>): Record<string, unknown> {
  if (!('stream' in params)) return params;
  const { stream: _omit, ...rest } = params;
  return rest;
}
