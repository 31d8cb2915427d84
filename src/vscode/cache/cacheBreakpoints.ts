// Cache breakpoints you can see: a CodeLens on each `cache_control` (the top-level one at the block it applies
// to) with the prefix it caches, its ttl and the model's minimum; a hover that says what will be cached and for
// how long; and what the service counted of each prefix, for the request file's diagnostics (the warning where
// the prefix is under the minimum: nothing is cached, and the service says nothing). Prefixes are counted with
// count_tokens where counting is on (the status bar's rules: an address, a key, a trusted workspace,
// `promptwright.tokenCount.live`), after the author pauses, a few calls at a time and cached by body; otherwise
// they are local estimates, and say so. The logic is core/cache's and core/language/diagnostics.ts's.
import * as vscode from 'vscode';
import { cacheHover, cacheLenses, type CacheView } from '../../core/language/lenses';
import type { PrefixCounts } from '../../core/language/diagnostics';
import { LensCounts, notCountedWords } from '../../core/language/lensCounts';
import type { Api } from '../platform/api';
import { Config } from '../platform/config';
import { hover } from '../platform/language';
import { coreBundle } from '../platform/lazy';
import type { Log } from '../platform/log';
import type { Keys } from '../platform/secrets';
import type { DocumentState, RequestDiagnostics } from '../request/requestDiagnostics';
import { Disposable } from '../platform/lifecycle';

type View = CacheView;

const SELECTOR: vscode.DocumentSelector = [{ language: 'json' }, { language: 'yaml' }, { language: 'jsonc' }];

export class CacheBreakpoints extends Disposable implements vscode.CodeLensProvider, vscode.HoverProvider {
  /** what the service counted, and which documents are being counted now */
  private readonly counted: LensCounts;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;
  private hasKey = false;
  /** with live counting off, the version of each document "Count Cache Breakpoints" counted (until an edit) */
  private readonly explicit = new Map<string, number>();
  /** each check's view, with the generation of the counts it was made at */
  private readonly views = new WeakMap<object, { known: number; view: View | undefined }>();

  constructor(
    private readonly config: Config,
    private readonly keys: Keys,
    private readonly api: Api,
    private readonly diagnostics: RequestDiagnostics,
    private readonly log: Log,
  ) {
    super();
    this.counted = new LensCounts(async (body, signal) => {
      const client = await this.api.client();
      return (await client.countTokens(body, signal ? { signal } : {})).input_tokens;
    }, 3);
    diagnostics.counts = doc => this.countsOf(doc);
    const refreshAll = () => {
      this.counted.generation++;
      for (const doc of vscode.workspace.textDocuments) this.diagnostics.republish(doc);
      for (const ed of vscode.window.visibleTextEditors) this.update(ed.document);
      this.changed.fire();
    };
    this.register(
      vscode.languages.registerCodeLensProvider(SELECTOR, this),
      vscode.languages.registerHoverProvider(SELECTOR, this),
      diagnostics.onDidValidate(doc => this.update(doc)),
      vscode.window.onDidChangeVisibleTextEditors(eds => eds.forEach(ed => this.update(ed.document))),
      vscode.workspace.onDidCloseTextDocument(doc => this.forget(doc.uri)),
      keys.onDidChange(() => {
        this.counted.clear();
        void this.readKey().then(refreshAll);
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(refreshAll),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (Config.affects(e, 'baseUrl', 'apiVersion', 'betas')) this.counted.clear();
        if (Config.affects(e, 'cache', 'tokenCount', 'baseUrl', 'apiVersion', 'betas')) refreshAll();
      }),
    );
    void this.readKey().then(refreshAll);
  }

  /** count_tokens calls made for breakpoints (tests read it) */
  get calls(): number {
    return this.counted.counter.calls;
  }

  /** Whether prefixes are counted as the author types, as the status bar counts. */
  private get live(): boolean {
    return !!this.config.baseUrl && this.hasKey && vscode.workspace.isTrusted && this.config.tokenCountLive;
  }

  private async readKey(): Promise<void> {
    this.hasKey = !!(await this.keys.get('api'));
  }

  /**
   * The document's breakpoints as they are now, each with what is known of its prefix. Made once per check of
   * the document and per change of what is known (the counts' generation): the lenses, the hover and the warnings
   * share it, and a large request is cut and estimated once, not on every call.
   */
  private view(
    doc: vscode.TextDocument,
    st: DocumentState | undefined = this.diagnostics.state(doc),
  ): View | undefined {
    if (!st) return undefined;
    const memo = this.views.get(st.validation);
    if (memo && memo.known === this.counted.generation) return memo.view;
    const view = this.make(doc, st);
    this.views.set(st.validation, { known: this.counted.generation, view });
    return view;
  }

  private make(doc: vscode.TextDocument, st: DocumentState): View | undefined {
    // the breakpoints and their minimums come with the check (the setting over the documented table)
    return st.cache && coreBundle().cacheViewOf(st, this.countsOf(doc));
  }

  /**
   * What the service counted of the document's prefixes: where counting is on (or was asked for this version); else
   * nothing, and the prefixes are local estimates, as `promptwright check` has them.
   */
  private countsOf(doc: vscode.TextDocument): PrefixCounts | undefined {
    const key = doc.uri.toString();
    const counting = this.live || this.counted.isCounting(key);
    return this.counted.prefixCounts(counting, this.live || this.explicit.get(key) === doc.version);
  }

  /** After a check of the document: its lenses now, and a count after the author pauses. */
  private update(doc: vscode.TextDocument): void {
    const v = this.view(doc);
    this.changed.fire();
    if (!v || !this.live || !vscode.window.visibleTextEditors.some(ed => ed.document === doc)) return;
    if (v.prefixes.every(p => p.source !== 'estimate' || p.error)) return; // all counted (or failed)
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (!doc.isClosed) void this.count(doc);
      }, this.config.tokenDebounceMs),
    );
  }

  /** "Count Cache Breakpoints" (the CodeLens): counts the document's prefixes now, even with live counting off. */
  async countNow(uri?: vscode.Uri): Promise<void> {
    const doc = uri
      ? vscode.workspace.textDocuments.find(d => d.uri.toString() === uri.toString())
      : vscode.window.activeTextEditor?.document;
    if (!doc || !this.view(doc, this.diagnostics.current(doc))) {
      void vscode.window.showInformationMessage('Promptwright: open a request file with cache_control to count it.');
      return;
    }
    if (!(await this.api.ready('Count Cache Breakpoints'))) return;
    await this.readKey();
    this.explicit.set(doc.uri.toString(), doc.version);
    this.counted.generation++;
    await this.count(doc, true);
  }

  private async count(doc: vscode.TextDocument, again = false): Promise<void> {
    const v = this.view(doc, this.diagnostics.current(doc));
    if (!v) return;
    const requests = v.breakpoints.map(b => b.request);
    const results = await this.counted.count(doc.uri.toString(), requests, again);
    results?.forEach((r, i) => {
      if (!requests[i] || !('error' in r)) return;
      this.log.warn(`cache breakpoint ${i + 1} of ${doc.uri.fsPath} not counted: ${notCountedWords(r.error)}`);
    });
    if (doc.isClosed) return;
    this.diagnostics.republish(doc);
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const st = this.diagnostics.state(doc);
    const v = this.view(doc, st);
    if (!v || !st) return [];
    return cacheLenses(v, st.validation.parsed).map(({ start, ...l }) => {
      const pos = doc.positionAt(start);
      return new vscode.CodeLens(new vscode.Range(pos, pos), {
        ...l,
        command: 'promptwright.countCacheBreakpoints',
        arguments: [doc.uri],
      });
    });
  }

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const st = this.diagnostics.state(doc);
    const v = this.view(doc, st);
    if (!v || !st) return undefined;
    const found = cacheHover(v, st.validation.parsed, doc.offsetAt(pos));
    return found && hover(doc, found);
  }

  private forget(uri: vscode.Uri): void {
    clearTimeout(this.timers.get(uri.toString()));
    this.timers.delete(uri.toString());
    this.explicit.delete(uri.toString());
  }

  override dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    super.dispose();
  }
}
