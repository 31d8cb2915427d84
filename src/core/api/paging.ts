// The two pagination families of the spec (doc2 §4.2, doc3 §2.2), as async iterators over pages:
//  - cursor lists: `after_id` / `before_id` / `limit` in, `{data, first_id, has_more, last_id}` out;
//  - page-token lists: `page` in, `{data, next_page, has_more}` out.
// Cursors are opaque and taken unchanged from the previous page; a page that fails (a 429 after its
// retries, say) is retried as a whole, so the cursor never advances past a page that did not arrive.
import type { CallOptions, Http, RequestSpec } from './http';

export interface CursorPage<T> {
  data: T[];
  first_id: string | null;
  has_more: boolean;
  last_id: string | null;
}

export interface TokenPage<T> {
  data: T[];
  next_page: string | null;
  has_more?: boolean;
}

export interface CursorOptions extends CallOptions {
  /** page size sent as `limit` */
  pageSize?: number;
  /** stop after this many records in all (the last page is cut) */
  max?: number;
  /** start after this cursor (the previous page's `last_id`) */
  after?: string;
  /** page backwards from this cursor (a page's `first_id`) */
  before?: string;
}

/** Pages of a cursor list, oldest cursor first; stops when `has_more` is false or `max` records came. */
export async function* cursorPages<T>(
  http: Http,
  spec: RequestSpec,
  o: CursorOptions = {},
): AsyncGenerator<CursorPage<T>> {
  let after = o.after;
  let before = o.before;
  let seen = 0;
  for (;;) {
    const want = o.max !== undefined ? Math.min(o.pageSize ?? o.max, o.max - seen) : o.pageSize;
    const query = {
      ...spec.query,
      ...(want !== undefined ? { limit: String(want) } : {}),
      ...(after ? { after_id: after } : {}),
      ...(before ? { before_id: before } : {}),
    };
    const page = (await http.json<CursorPage<T>>({ ...spec, query }, o)).data;
    seen += page.data.length;
    yield page;
    if (!page.has_more || (o.max !== undefined && seen >= o.max) || !page.data.length) return;
    // going forward continues after the last record; going backward, before the first
    if (before !== undefined) before = page.first_id ?? undefined;
    else after = page.last_id ?? undefined;
    if (!after && !before) return;
  }
}

/** Pages of a page-token list; stops when `next_page` is null (or `has_more` false). */
export async function* tokenPages<T>(
  http: Http,
  spec: RequestSpec,
  o: CallOptions & { page?: string } = {},
): AsyncGenerator<TokenPage<T>> {
  let page = o.page;
  for (;;) {
    const r = (await http.json<TokenPage<T>>({ ...spec, query: { ...spec.query, ...(page ? { page } : {}) } }, o)).data;
    yield r;
    if (!r.next_page || r.has_more === false) return;
    page = r.next_page;
  }
}

/**
 * Every record of a list, in order (for the CLI's `--format json` and tests); `max` caps the total. The
 * records go into `out`, so a caller still has those that came when a later page fails or is cancelled.
 */
export async function collect<T>(pages: AsyncIterable<{ data: T[] }>, max?: number, out: T[] = []): Promise<T[]> {
  for await (const p of pages) {
    for (const r of p.data) {
      if (max !== undefined && out.length >= max) return out;
      out.push(r);
    }
  }
  return out;
}
