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
