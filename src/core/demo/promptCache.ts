// A simulation of the service's prompt cache, for the offline demo and the tests' fake of the service: it is
// not the service's, and says so where it shows. Each breakpoint (core/request/breakpoints.ts) whose prefix
// reaches the model's documented minimum is written on a first call (cache_creation_input_tokens, 5-minute and
// 1-hour writes apart) and read on a later call with the same prefix within its ttl (cache_read_input_tokens);
// a prefix under the minimum is neither, with no error, as the service does. The three counts add up to the
// request's input (doc1 §2.7).
import { createHash } from 'node:crypto';
import { cacheMarkers } from '../request/breakpoints';
import { cacheMinimum } from '../cache/minimums';
import { prefixRequest } from '../cache/prefix';

type Obj = Record<string, unknown>;

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;

export class SimulatedPromptCache {
  /** prefix key → when the entry expires */
  private readonly entries = new Map<string, number>();

  constructor(
    /** the token count of a count_tokens body, as this backend answers count_tokens */
    private readonly count: (body: Obj) => number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The usage of a create-message request, with what the cache did; entries are written and refreshed. */
  usage(body: Obj): CacheUsage {
    const total = this.count(body);
    const minimum = cacheMinimum(body.model)?.tokens;
    const now = this.now();
    const points: { tokens: number; ttl: '5m' | '1h'; key: string }[] = [];
    if (minimum !== undefined)
      for (const m of cacheMarkers(body)) {
        const r = prefixRequest(body, m.block);
        if (!r) continue;
        const tokens = r.kind === 'whole' ? this.count(r.body) : Math.max(0, this.count(r.body) - this.count(r.base));
        if (tokens < minimum) continue; // under the minimum: nothing cached, and nothing said
        const key = createHash('sha256')
          .update(JSON.stringify([body.model, r.kind === 'whole' ? r.body : r.extra]))
          .digest('base64url');
        points.push({ tokens: Math.min(tokens, total), ttl: m.ttl, key });
      }
    points.sort((a, b) => a.tokens - b.tokens);
    let read = 0;
    for (const p of points) if ((this.entries.get(p.key) ?? 0) > now) read = Math.max(read, p.tokens);
    const written = { '5m': 0, '1h': 0 };
    let upTo = read;
    for (const p of points) {
      this.entries.set(p.key, now + TTL_MS[p.ttl]); // written, or refreshed by this use
      if (p.tokens <= upTo) continue;
      written[p.ttl] += p.tokens - upTo;
      upTo = p.tokens;
    }
    const creation = written['5m'] + written['1h'];
    return {
      input_tokens: Math.max(0, total - read - creation),
      cache_creation_input_tokens: creation,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: written['5m'], ephemeral_1h_input_tokens: written['1h'] },
    };
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
  }
}
