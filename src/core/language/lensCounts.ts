// What the service counted of the prefixes a request file's lenses show, kept once for both editors (the language
// server's lenses, the extension's cache breakpoints); the lenses' titles and places are lenses.ts's. Part of the
// workspace both editors keep (workspace.ts).
import { PrefixCounter, type CountFn, type PrefixCount } from '../cache/counter';
import type { PrefixRequest } from '../cache/prefix';
import type { PrefixCounts } from './diagnostics';

/** Why a count failed, for the log: the error's type, its message and the request-id. */
export function notCountedWords(error: { type?: string; message: string; requestId?: string }): string {
  return `${error.type ?? ''} ${error.message}` + (error.requestId ? ` request-id=${error.requestId}` : '');
}

/**
 * What the service counted of the prefixes the lenses show (each part, each cache breakpoint), for the lenses, the
 * hover and the under-minimum warnings alike: counted with count_tokens a few calls at a time, each body once
 * (core/cache/counter.ts), and which files are being counted now. `generation` changes whenever what is known
 * does, so what a front end made of the counts before it is stale.
 */
export class LensCounts {
  readonly counter: PrefixCounter;
  generation = 0;
  /** the files being counted, each with what stops its count */
  private readonly counting = new Map<string, AbortController>();

  constructor(count: CountFn, concurrency: number) {
    this.counter = new PrefixCounter(count, { concurrency });
  }

  /** A count of the file is on its way. */
  isCounting(file: string): boolean {
    return this.counting.has(file);
  }

  /**
   * The counts as a file's checks read them: `counted`, the service's counts apply (else every prefix is its
   * estimate); `counting`, the lenses say "counting…". `known`: the front end's lookup (a memo of its own).
   */
  prefixCounts(
    counting: boolean,
    counted: boolean,
    known: (r: PrefixRequest | undefined) => number | undefined = r => this.counter.known(r),
  ): PrefixCounts | undefined {
    if (!counting && !counted) return undefined;
    return {
      counting,
      of: r => {
        if (!counted) return undefined;
        const tokens = known(r);
        if (tokens !== undefined) return tokens;
        const failed = this.counter.failure(r);
        return failed ? { error: { message: failed } } : undefined;
      },
    };
  }

  /**
   * Counts a file's prefixes (undefined where there is none), each body once: the unchanged ones are known already.
   * `again`: the failed ones too (a person asked). Answers each prefix's count, or undefined when the count was
   * stopped (`forget`).
   */
  async count(
    file: string,
    requests: readonly (PrefixRequest | undefined)[],
    again = false,
  ): Promise<PrefixCount[] | undefined> {
    const abort = new AbortController();
    this.counting.set(file, abort);
    this.generation++;
    if (again) this.counter.retry(requests);
    try {
      return await this.counter.countAll(requests, abort.signal);
    } catch (e) {
      if (abort.signal.aborted) return undefined;
      throw e;
    } finally {
      if (this.counting.get(file) === abort) this.counting.delete(file);
      this.generation++;
    }
  }

  /** The file's count in flight, stopped (the file changed or closed). */
  forget(file: string): void {
    this.counting.get(file)?.abort();
    this.counting.delete(file);
  }

  /** Every count forgotten: another service or key (old numbers may not apply). */
  clear(): void {
    this.counter.clear();
    this.generation++;
  }

  dispose(): void {
    for (const file of [...this.counting.keys()]) this.forget(file);
  }
}
