// The lenses above a request file: its input tokens at the top, each part's (system, tools, each message) and
// each cache breakpoint's prefix (core/language/lenses.ts). With a service address and an API key they are
// counted with count_tokens after a pause in typing, a few calls at a time, each body once (core/cache/counter.ts);
// otherwise, or until then, they are local estimates, marked ≈. A lens's command counts the file now.
import type { CodeLens, Connection } from 'vscode-languageserver/node';
import { CodeLensRefreshRequest } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { ApiClient } from '../core/api/client';
import { pickCountFields } from '../core/api/countFields';
import { estimatePrefix, type PrefixRequest } from '../core/cache/prefix';
import { describeForCli } from '../core/environment';
import {
  breakdownLenses,
  breakdownParts,
  cacheHover,
  cacheLenses,
  totalLens,
  type BreakdownPart,
  type LensData,
} from '../core/language/lenses';
import type { HoverData } from '../core/language/types';
import type { PrefixCount } from '../core/cache/counter';
import { cacheViewOf, type PrefixCounts } from '../core/language/diagnostics';
import { LensCounts, notCountedWords } from '../core/language/lensCounts';
import type { ServerConfig } from './config';
import { COUNT_TOKENS } from './convert';
import type { RequestState } from './checks';
import type { Log } from './log';

type Obj = Record<string, unknown>;

/**
 * Parts counted with the service at most: each part's count sends the conversation up to it, so a long one costs
 * many calls and hashes; past this, its parts are estimated and only the whole request is counted.
 */
const COUNTED_PARTS = 100;

/** What the lenses of one check of a file measure. */
interface Measured {
  body: Obj;
  total: PrefixRequest;
  /** the request's parts, made when the lenses are first asked for (a check that only publishes needs none) */
  parts?: BreakdownPart[];
  /** the counts known of its requests, as of `knownAt` (finding one hashes its body) */
  known: Map<PrefixRequest, number | undefined>;
  knownAt: number;
}

export class Lenses {
  /** what the service counted, and which files are being counted */
  private readonly counted: LensCounts;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** what each check measures (made once per check, shared by the lenses, the hover and the counts) */
  private readonly measured = new WeakMap<object, Measured | undefined>();
  private client: { key: string; api: ApiClient } | undefined;
  /** the client takes workspace/codeLens/refresh */
  refreshSupport = false;
  /** called when a file's counts came (its under-minimum warnings may change) */
  onCounted: (uri: string) => void = () => {};

  constructor(
    private readonly connection: Connection,
    private readonly config: ServerConfig,
    private readonly log: Log,
  ) {
    this.counted = new LensCounts(
      async (body, signal) => (await this.api().countTokens(body, signal ? { signal } : {})).input_tokens,
      4,
    );
  }

  /** The service's client for the settings in force (a new one when the address, version or key change). */
  private api(): ApiClient {
    // the address and its key, together (ServerConfig.service)
    const options = this.config.clientOptions;
    const key = JSON.stringify(options);
    if (this.client?.key !== key) this.client = { key, api: new ApiClient(options) };
    return this.client.api;
  }

  /** Counts forgotten: another service or key (old numbers may not apply). */
  settingsChanged(): void {
    this.counted.clear();
  }

  /** What the service counted for a request, if it did (nothing is looked up before anything was counted). */
  private known(m: Measured, r: PrefixRequest): number | undefined {
    if (!this.counted.counter.calls) return undefined;
    if (m.knownAt !== this.counted.generation) {
      m.known.clear();
      m.knownAt = this.counted.generation;
    }
    if (!m.known.has(r)) m.known.set(r, this.counted.counter.known(r));
    return m.known.get(r);
  }

  private measure(state: RequestState): Measured | undefined {
    if (this.measured.has(state)) return this.measured.get(state);
    const value = state.validation.parsed.value;
    let m: Measured | undefined;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const body = value as Obj;
      const total: PrefixRequest = { kind: 'whole', body: pickCountFields(body) };
      m = { body, total, known: new Map(), knownAt: this.counted.generation };
    }
    this.measured.set(state, m);
    return m;
  }

  private partsOf(m: Measured): BreakdownPart[] {
    return (m.parts ??= breakdownParts(m.body));
  }

  /**
   * What the service counted of a file's prefixes (nothing before anything was counted: the local estimate), for
   * its diagnostics, lenses and hover alike.
   */
  counts(state: RequestState, uri: string): PrefixCounts | undefined {
    const m = this.measure(state);
    return this.counted.prefixCounts(this.counted.isCounting(uri), this.counted.counter.calls > 0, r =>
      m && r ? this.known(m, r) : undefined,
    );
  }

  lenses(doc: TextDocument, state: RequestState): CodeLens[] {
    const m = this.measure(state);
    if (!m) return [];
    const counting = this.counted.isCounting(doc.uri);
    const parsed = state.validation.parsed;
    const total = totalLens(this.known(m, m.total), () => estimatePrefix(m.total), counting);
    const parts = this.partsOf(m);
    const counted = parts.length <= COUNTED_PARTS;
    const part = (p: BreakdownPart) => (counted ? this.known(m, p.request) : undefined);
    const out: LensData[] = [total, ...breakdownLenses(parts, part, parsed, counting && counted)];
    const view = cacheViewOf(state, this.counts(state, doc.uri));
    if (view) out.push(...cacheLenses(view, parsed));
    return out.map(l => {
      const at = doc.positionAt(l.start);
      return {
        range: { start: at, end: at },
        command: { title: l.title, command: COUNT_TOKENS, arguments: [doc.uri] },
      };
    });
  }

  hover(state: RequestState, uri: string, offset: number): HoverData | undefined {
    const view = cacheViewOf(state, this.counts(state, uri));
    return view && cacheHover(view, state.validation.parsed, offset);
  }

  /** After a check: with counting on, the file's figures are counted after a pause in typing. */
  checked(doc: TextDocument, state: RequestState): void {
    clearTimeout(this.timers.get(doc.uri));
    this.counted.forget(doc.uri);
    if (!this.config.live || !this.measure(state)) return;
    this.timers.set(
      doc.uri,
      setTimeout(() => {
        this.timers.delete(doc.uri);
        void this.count(doc, state);
      }, this.config.settings.tokenDebounceMs),
    );
  }

  /**
   * Counts what the file's lenses show (each body once: the unchanged ones are known already). `again`: the
   * failed ones too (a person asked). Ends with the client asked to show the lenses again.
   */
  async count(doc: TextDocument, state: RequestState, again = false): Promise<void> {
    const m = this.measure(state);
    if (!m) return;
    this.counted.forget(doc.uri);
    const all = this.partsOf(m);
    const parts = all.length <= COUNTED_PARTS ? all.map(p => p.request) : [];
    const requests = [m.total, ...parts, ...(state.cache?.breakpoints.map(b => b.request) ?? [])];
    // nothing when the count was stopped (an edit, a close): no refresh for it
    let results: PrefixCount[] | undefined = [];
    try {
      results = await this.counted.count(doc.uri, requests, again);
    } catch (e) {
      this.log.warn(`${doc.uri}: not counted: ${describeForCli(e)}`);
    }
    if (!results) return;
    const failed = results.find(r => 'error' in r);
    if (failed && 'error' in failed) this.log.warn(`${doc.uri}: not counted: ${notCountedWords(failed.error)}`);
    this.onCounted(doc.uri);
    this.refresh();
  }

  /** Asks the client for the lenses again, where it can be asked. */
  private refresh(): void {
    if (this.refreshSupport) void this.connection.sendRequest(CodeLensRefreshRequest.type).catch(() => {});
  }

  /** A closed file: its timer and its count in flight are dropped. */
  forget(uri: string): void {
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    this.counted.forget(uri);
  }

  dispose(): void {
    for (const uri of [...this.timers.keys()]) this.forget(uri);
    this.counted.dispose();
  }
}
