// Simulated Message Batches (the public API's endpoints, docs/spec.md "Message Batches"), which the offline
// demo and the tests' fake of the service share. A batch stays `in_progress` for `processingMs`, then `ended`;
// its requests are "processed" one after another over that time, so a cancel ends those not yet reached as
// `canceled`, and a batch whose `expires_at` comes first ends those as `expired`. As the public API does,
// `request_counts` holds every request as `processing` until the batch ends. Results come as JSON Lines in a
// shuffled order (seeded by the batch, so a test sees the same order each run).
//
// Per request, a scenario word in the last user message decides its result (the direct interface ignores it):
//   #errored   an `errored` result (an invalid_request_error)
//   #expired   an `expired` result (the request was not reached before the batch expired)
import { badRequest, iso, notFound, ok, wrongMethod, type Reply } from './admin';

type Json = Record<string, unknown>;

/** The answer to one request of a batch: the message the interface would have sent, or its error. */
type Answer = { message: Json } | { error: { type: string; message: string } };

export interface BatchesOptions {
  /** how long a batch stays in_progress (default 2,000 ms) */
  processingMs?: number;
  /** how long after creation a batch expires (default 24 hours) */
  expiresAfterMs?: number;
  /** how long a cancel takes to end the batch (default 50 ms) */
  cancelMs?: number;
  /** the most requests a batch may hold (default 100,000) */
  maxRequests?: number;
  /** the answer to one request's params, as a non-streaming POST /v1/messages would give it */
  answer(params: Json): Answer;
  now?: () => number;
}

interface Batch {
  id: string;
  seq: number;
  createdAt: number;
  expiresAt: number;
  /** when processing ends (it moves when the batch is cancelled) */
  endsAt: number;
  processingMs: number;
  cancelAt?: number;
  requests: { custom_id: string; params: Json }[];
  /** the results, made once the batch has ended */
  results?: { custom_id: string; result: Json }[];
}

const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const HOUR = 3_600_000;

export class SimulatedBatches {
  private readonly batches: Batch[] = [];
  private seq = 0;
  private readonly now: () => number;
  /** how long a batch made from now on stays in_progress (a test may change it) */
  processingMs: number;

  constructor(private readonly o: BatchesOptions) {
    this.now = o.now ?? Date.now;
    this.processingMs = o.processingMs ?? 2000;
  }

  /** The batches made so far, oldest first (for tests). */
  get all(): readonly { id: string; requests: number }[] {
    return this.batches.map(b => ({ id: b.id, requests: b.requests.length }));
  }

  /** Ends a batch's processing now, every request of it reached (a test's stand-in for waiting). */
  finish(id: string): void {
    const b = this.batches.find(x => x.id === id);
    if (!b || this.now() >= this.endedAt(b)) return;
    b.endsAt = this.now();
    b.processingMs = b.endsAt - b.createdAt;
  }

  /** Forgets every batch. */
  clear(): void {
    this.batches.length = 0;
  }

  /**
   * The answer of a `/v1/messages/batches…` route, or undefined for any other path. `origin` is the server's
   * own address, for `results_url`.
   */
  handle(method: string, url: URL, body: unknown, origin: string): Reply | undefined {
    const path = url.pathname;
    if (path === '/v1/messages/batches') {
      if (method === 'POST') return this.create(body, origin);
      if (method === 'GET') return this.list(url.searchParams, origin);
      return wrongMethod(method, path, ['GET', 'POST']);
    }
    const m = /^\/v1\/messages\/batches\/([^/]+)(\/cancel|\/results)?$/.exec(path);
    if (!m) return undefined;
    const batch = this.batches.find(b => b.id === decodeURIComponent(m[1]!));
    if (!batch) return notFound(`message batch ${m[1]} not found`);
    if (m[2] === '/cancel') return method === 'POST' ? this.cancel(batch, origin) : wrongMethod(method, path, ['POST']);
    if (method !== 'GET') return wrongMethod(method, path, ['GET']);
    if (m[2] === '/results') return this.results(batch);
    return ok(this.render(batch, origin));
  }

  private create(body: unknown, origin: string): Reply {
    const requests = (body as { requests?: unknown } | undefined)?.requests;
    const max = this.o.maxRequests ?? 100_000;
    if (!Array.isArray(requests) || !requests.length || requests.length > max)
      return badRequest(`requests: must be a list of 1 to ${max} requests`);
    const seen = new Set<string>();
    for (const [i, r] of requests.entries()) {
      const { custom_id, params } = (r ?? {}) as { custom_id?: unknown; params?: Json };
      if (typeof custom_id !== 'string' || !CUSTOM_ID.test(custom_id))
        return badRequest(`requests.${i}.custom_id: must match ^[a-zA-Z0-9_-]{1,64}$`);
      if (seen.has(custom_id)) return badRequest(`requests.${i}.custom_id: ${custom_id} is not unique in the batch`);
      seen.add(custom_id);
      if (!params || typeof params !== 'object' || Array.isArray(params))
        return badRequest(`requests.${i}.params: Field required`);
      if (!Array.isArray(params.messages) || typeof params.model !== 'string' || typeof params.max_tokens !== 'number')
        return badRequest(`requests.${i}.params: max_tokens, messages and model are required`);
      if (params.stream === true) return badRequest(`requests.${i}.params.stream: a batch request cannot stream`);
    }
    const now = this.now();
    const seq = ++this.seq;
    const batch: Batch = {
      id: `msgbatch_${String(seq).padStart(4, '0')}${randomTail(seq)}`,
      seq,
      createdAt: now,
      expiresAt: now + (this.o.expiresAfterMs ?? 24 * HOUR),
      endsAt: now + this.processingMs,
      processingMs: this.processingMs,
      requests: requests as Batch['requests'],
    };
    this.batches.push(batch);
    return ok(this.render(batch, origin));
  }

  private cancel(batch: Batch, origin: string): Reply {
    const now = this.now();
    if (now < this.endedAt(batch) && batch.cancelAt === undefined) {
      batch.cancelAt = now;
      batch.endsAt = Math.min(batch.endsAt, now + (this.o.cancelMs ?? 50));
    }
    return ok(this.render(batch, origin));
  }

  /** Newest first; a cursor is a batch's id (the public API's first_id and last_id are ids). */
  private list(q: URLSearchParams, origin: string): Reply {
    const raw = q.get('limit');
    const limit = raw === null ? 20 : /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(limit >= 1 && limit <= 1000)) return badRequest(`limit: must be between 1 and 1000, got ${raw}`);
    const after = q.get('after_id');
    const before = q.get('before_id');
    if (after !== null && before !== null) return badRequest('after_id and before_id: give one of them, not both');
    const newestFirst = [...this.batches].reverse();
    const at = (id: string) => newestFirst.findIndex(b => b.id === id);
    let page: Batch[];
    let hasMore: boolean;
    if (before !== null) {
      const i = at(before);
      if (i < 0) return badRequest(`before_id: no batch ${before}`);
      page = newestFirst.slice(Math.max(0, i - limit), i);
      hasMore = i - limit > 0;
    } else {
      const i = after !== null ? at(after) : -1;
      if (after !== null && i < 0) return badRequest(`after_id: no batch ${after}`);
      page = newestFirst.slice(i + 1, i + 1 + limit);
      hasMore = i + 1 + limit < newestFirst.length;
    }
    return ok({
      data: page.map(b => this.render(b, origin)),
      has_more: hasMore,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
    });
  }

  private results(batch: Batch): Reply {
    if (this.now() < this.endedAt(batch))
      return badRequest(`message batch ${batch.id} has not ended: its results are ready once processing ends`);
    return { status: 200, body: undefined, lines: this.resultsOf(batch).map(r => JSON.stringify(r)) };
  }

  /** When processing ends: at endsAt, or at expiry when that comes first. */
  private endedAt(b: Batch): number {
    return Math.min(b.endsAt, b.expiresAt);
  }

  /** When request i is reached: the requests are processed one after another over the processing time. */
  private reachedAt(b: Batch, i: number): number {
    const span = b.processingMs * ((i + 1) / b.requests.length);
    return b.createdAt + span;
  }

  private resultsOf(b: Batch): { custom_id: string; result: Json }[] {
    if (b.results) return b.results;
    const ended = this.endedAt(b);
    const out = b.requests.map((r, i) => ({ custom_id: r.custom_id, result: this.resultOf(b, r.params, i, ended) }));
    b.results = shuffled(out, b.seq);
    return b.results;
  }

  private resultOf(b: Batch, params: Json, i: number, ended: number): Json {
    const words = lastUserText(params);
    if (/#expired\b/.test(words)) return { type: 'expired' };
    if (this.reachedAt(b, i) > ended) return { type: b.cancelAt !== undefined ? 'canceled' : 'expired' };
    if (/#errored\b/.test(words))
      return {
        type: 'errored',
        error: {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'the request was refused in the batch (#errored)' },
        },
      };
    const a = this.o.answer(params);
    if ('error' in a) return { type: 'errored', error: { type: 'error', error: a.error } };
    return {
      type: 'succeeded',
      message: { ...a.message, usage: { ...(a.message.usage as Json), service_tier: 'batch' } },
    };
  }

  private render(b: Batch, origin: string): Json {
    const now = this.now();
    const ended = now >= this.endedAt(b);
    const counts = { processing: b.requests.length, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
    if (ended) {
      counts.processing = 0;
      for (const r of this.resultsOf(b)) counts[r.result.type as 'succeeded']++;
    }
    return {
      id: b.id,
      type: 'message_batch',
      processing_status: ended ? 'ended' : b.cancelAt !== undefined ? 'canceling' : 'in_progress',
      request_counts: counts,
      ended_at: ended ? iso(this.endedAt(b)) : null,
      created_at: iso(b.createdAt),
      expires_at: iso(b.expiresAt),
      archived_at: null,
      cancel_initiated_at: b.cancelAt !== undefined ? iso(b.cancelAt) : null,
      results_url: ended ? `${origin}/v1/messages/batches/${b.id}/results` : null,
    };
  }
}

/** The text of a params' last user message (where scenario words are). */
function lastUserText(params: Json): string {
  const msgs = Array.isArray(params.messages) ? (params.messages as Json[]) : [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i]!;
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content))
      return (m.content as Json[]).map(c => (typeof c.text === 'string' ? c.text : '')).join(' ');
  }
  return '';
}

/** A deterministic shuffle (Fisher–Yates with a small seeded generator). */
function shuffled<T>(items: T[], seed: number): T[] {
  let s = (seed * 2654435761) >>> 0 || 1;
  const rand = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function randomTail(seq: number): string {
  return Math.abs(Math.imul(seq, 0x9e3779b1)).toString(36).padStart(8, '0').slice(0, 8);
}
