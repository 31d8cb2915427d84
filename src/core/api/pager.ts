// A list a view loads a page at a time ("Load more"): it keeps what arrived, resumes from the same cursor
// after an error (a failed page is retried, never skipped), and loads everything only when asked.

export interface Loaded<T> {
  items: T[];
  /** the cursor of the next page, or null when there is no more */
  next: string | null;
}

export class Pager<T> {
  readonly items: T[] = [];
  /** the cursor of the next page; undefined before the first load; null when there is no more */
  cursor: string | null | undefined;
  loading = false;
  error: unknown;

  constructor(private readonly fetch: (cursor: string | undefined) => Promise<Loaded<T>>) {}

  get done(): boolean {
    return this.cursor === null;
  }

  /** Loads the next page (the first page on the first call). After an error it retries the same page. */
  async loadMore(): Promise<void> {
    if (this.done || this.loading) return;
    this.loading = true;
    try {
      const page = await this.fetch(this.cursor ?? undefined);
      this.items.push(...page.items);
      this.cursor = page.next;
      this.error = undefined;
    } catch (e) {
      this.error = e;
    } finally {
      this.loading = false;
    }
  }

  /** Loads every remaining page (only when asked: "Load all"). Stops at the first error. */
  async loadAll(signal?: AbortSignal): Promise<void> {
    while (!this.done && !signal?.aborted) {
      await this.loadMore();
      if (this.error) return;
    }
  }

  reset(): void {
    this.items.length = 0;
    this.cursor = undefined;
    this.error = undefined;
  }
}

/**
 * The cursor of the page after `page`, in either family of lists (core/api/paging.ts): a cursor list's
 * `last_id` while `has_more`, a page-token list's `next_page`; null when there is no more.
 */
function nextCursor(page: { has_more?: boolean; last_id?: string | null; next_page?: string | null }): string | null {
  if (page.has_more === false) return null;
  return ('next_page' in page ? page.next_page : page.last_id) ?? null;
}

/**
 * A Pager's fetch from a client's pages: the first page the iterator gives, which is then closed (the Pager
 * asks again, from the next cursor, for the page after).
 */
export async function firstPage<T>(pages: AsyncGenerator<{ data: T[] }>): Promise<Loaded<T>> {
  const r = await pages.next();
  await pages.return(undefined);
  const page = r.done ? undefined : (r.value as Parameters<typeof nextCursor>[0] & { data: T[] });
  return { items: page?.data ?? [], next: page ? nextCursor(page) : null };
}
