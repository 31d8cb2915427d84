// "Compare…": a request file's versions side by side in one panel, each column a model and a version,
// all streaming at once (within promptwright.cases.concurrency) through the compare runner
// (core/compare/runner.ts). Stream events are batched, at most one message per frame for all columns.
// "Run Again" samples every column once more and says per column whether the new reply differs; "Diff"
// shows a word diff of two columns' reply text; Cancel stops every column and keeps what arrived.
//
// For extension-host tests (they cannot click in the webview) the entry every webview message goes through
// is public, `handle`, with `view()` to observe; `prompts` answers the column picks.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MessageAccumulator } from '../../core/api/accumulator';
import type { StreamEvent } from '../../core/api/types';
import type { Outcome } from '../../core/cases/types';
import type { ColumnResult } from '../../core/compare/runner';
import { diffWords } from '../../core/diff/wordDiff';
import { formatOf } from '../../core/fileNames';
import { EventBatcher } from '../../core/run/batcher';
import {
  COMPARE_VIEW_TYPE,
  parseFromCompareWebview,
  type ColumnView,
  type CompareView,
  type DiffView,
  type FromCompareWebview,
  type ToCompareWebview,
} from '../../protocol/compare';
import type { Api } from '../platform/api';
import { isRequestFile, type Config } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import type { Log } from '../platform/log';
import { vscodePrompts, type Prompts } from '../platform/prompts';
import { WebviewHost } from '../platform/webviewHost';
import { chooseColumns, resolveColumns, type ColumnSpec, type ResolvedColumn } from './compareColumns';
import type { GitBase } from '../git/gitBase';

/** The page's skeleton (static markup of ours; everything from the service is set as text by the script). */
const BODY = `<header id="toolbar">
<div class="heading"><h1 id="title">Compare</h1><span id="summary" role="status"></span></div>
<div id="actions" role="toolbar" aria-label="Compare actions"></div>
</header>
<p id="empty">Run "Promptwright: Compare…" on a request file to see its versions side by side.</p>
<main id="columns" aria-label="The columns: Left and Right move between them"></main>
<section id="diff" hidden aria-labelledby="diff-title">
<header><h2 id="diff-title">Diff</h2><button id="diff-close" class="btn" type="button">Close</button></header>
<div id="diff-body" aria-live="polite"></div>
</section>`;

const FILE_SCHEMES = new Set(['file', 'untitled', 'vscode-remote']);

interface Comparison {
  uri: vscode.Uri;
  columns: ResolvedColumn[];
  view: CompareView;
  /** what each column has streamed so far (a reloaded page starts from it) */
  posted: MessageAccumulator[];
  /** each column's last reply, for the next sample's "differs" and for the diff */
  outcomes: (Outcome | undefined)[];
  ctl?: AbortController;
  done: Promise<void>;
}

export class ComparePanel implements vscode.Disposable {
  /** the questions Compare asks (an extension-host test answers them with a script) */
  prompts: Prompts = vscodePrompts;
  private readonly host: WebviewHost<ToCompareWebview, FromCompareWebview>;
  private comparison: Comparison | undefined;
  private nextRun = 1;

  constructor(
    extensionUri: vscode.Uri,
    private readonly config: Config,
    private readonly api: Api,
    private readonly git: GitBase,
    private readonly log: Log,
  ) {
    this.host = new WebviewHost(extensionUri, {
      viewType: COMPARE_VIEW_TYPE,
      title: 'Compare',
      page: { script: 'compare', stylesheets: ['page.css', 'compare.css'], body: BODY },
      column: vscode.ViewColumn.Beside,
      parse: parseFromCompareWebview,
      snapshot: () => this.snapshot(),
      handle: m => this.handle(m),
      onClose: () => this.cancel(),
      log,
    });
  }

  // ---- commands ------------------------------------------------------------------------------------------

  /**
   * "Compare…" on a request file (`uri`, else the active editor's, else the response panel's last run's):
   * asks for the columns unless `columns` are given, then runs them. Resolves when the run ends.
   */
  async compare(uri?: vscode.Uri, columns?: ColumnSpec[], fallback?: vscode.Uri): Promise<void> {
    // from a panel's title bar the argument is the panel's own (webview) URI: not a file to compare
    const file = uri && FILE_SCHEMES.has(uri.scheme) ? uri : undefined;
    const target = file ?? this.activeRequest() ?? fallback;
    if (!target) {
      void vscode.window.showInformationMessage('Promptwright: open a request file to compare its versions.');
      return;
    }
    try {
      await this.start(target, columns);
    } catch (e) {
      await this.api.showError(e, 'Compare failed');
    }
  }

  private async start(target: vscode.Uri, columns: ColumnSpec[] | undefined): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(target);
    const specs =
      columns ??
      (await chooseColumns(this.prompts, {
        fileModel: modelOf(doc),
        base: this.config.compareBase || 'HEAD',
        current: target,
        requestFiles: () =>
          vscode.workspace
            .findFiles(`{${this.config.requestFilePatterns.join(',')}}`, '**/node_modules/**', 500)
            .then(found => found.sort((a, b) => a.fsPath.localeCompare(b.fsPath))),
      }));
    if (!specs?.length) return;
    if (!(await this.api.ready('Compare'))) return;
    this.cancel();
    const resolved = await resolveColumns(target, specs, { git: this.git, config: this.config });
    const c: Comparison = {
      uri: target,
      columns: resolved,
      view: { runId: 0, file: path.basename(target.fsPath), columns: [], running: false },
      posted: [],
      outcomes: resolved.map(() => undefined),
      done: Promise.resolve(),
    };
    this.comparison = c;
    this.host.open();
    this.host.setTitle(`Compare · ${c.view.file}`);
    await this.sample(c);
  }

  /** "Run Again": every column once more, with the same bodies; resolves when the run ends. */
  async runAgain(): Promise<void> {
    const c = this.comparison;
    if (!c || c.view.running) return;
    await this.sample(c);
  }

  /** Stops every column; what arrived is kept. */
  cancel(): void {
    this.comparison?.ctl?.abort();
  }

  /** A word diff of two columns' reply text (also posted to the page). */
  diff(a: number, b: number): DiffView | undefined {
    const c = this.comparison;
    if (!c || !c.columns[a] || !c.columns[b] || a === b) return undefined;
    const diff: DiffView = { a, b, parts: diffWords(this.textOf(c, a), this.textOf(c, b)) };
    this.host.post({ type: 'diff', diff });
    return diff;
  }

  // ---- what tests observe --------------------------------------------------------------------------------

  /** The comparison as the page has it (a copy), or undefined before any. */
  view(): CompareView | undefined {
    const c = this.comparison;
    return c && structuredClone({ ...c.view, columns: c.view.columns.map((col, i) => this.withMessage(c, col, i)) });
  }

  /** Resolves when no column is running. */
  idle(): Promise<void> {
    return this.comparison?.done ?? Promise.resolve();
  }

  get panel(): vscode.WebviewPanel | undefined {
    return this.host.current;
  }

  // ---- messages from the webview ------------------------------------------------------------------------

  async handle(m: Exclude<FromCompareWebview, { type: 'ready' }>): Promise<void> {
    switch (m.type) {
      case 'run-again':
        return this.runAgain();
      case 'cancel':
        this.cancel();
        return;
      case 'diff':
        this.diff(m.a, m.b);
        return;
      case 'open-link':
        await vscode.env.openExternal(vscode.Uri.parse(m.url));
        return;
    }
  }

  /** Takes over a panel VS Code restores after a reload (the page shows what it saved). */
  adopt(panel: vscode.WebviewPanel): void {
    this.host.adopt(panel);
    if (this.comparison) this.host.setTitle(`Compare · ${this.comparison.view.file}`);
  }

  // ---- running ---------------------------------------------------------------------------------------------

  /** One sample of every column. */
  private async sample(c: Comparison): Promise<void> {
    const runId = this.nextRun++;
    const previous = c.outcomes;
    const first = !c.view.columns.length;
    c.view = {
      runId,
      file: c.view.file,
      running: true,
      columns: c.columns.map((col, index) => ({
        index,
        model: col.spec.model,
        version: col.version,
        status: col.body ? 'queued' : 'not-sent',
        ...(col.problems ? { problems: col.problems } : {}),
        sample: first ? 1 : (c.view.columns[index]?.sample ?? 0) + 1,
      })),
    };
    c.posted = c.columns.map(() => new MessageAccumulator());
    c.outcomes = c.columns.map(() => undefined);
    const ctl = new AbortController();
    c.ctl = ctl;
    let finished!: () => void;
    c.done = new Promise<void>(resolve => (finished = resolve));
    this.host.post({ type: 'show', view: structuredClone(c.view) });
    const batcher = new EventBatcher<{ column: number; ev: StreamEvent }>(items => {
      const grouped: { column: number; events: StreamEvent[] }[] = [];
      for (const { column, ev } of items) {
        c.posted[column]!.apply(ev);
        const last = grouped[grouped.length - 1];
        if (last?.column === column) last.events.push(ev);
        else grouped.push({ column, events: [ev] });
      }
      this.host.post({ type: 'events', runId, items: grouped });
    });
    try {
      const client = await this.api.client();
      const { runColumns, sendWith } = coreBundle();
      await runColumns({
        columns: c.columns,
        concurrency: this.config.casesConcurrency,
        signal: ctl.signal,
        send: sendWith(client),
        onEvent: (column, ev) => batcher.push({ column, ev }),
        onStatus: (index, r) => {
          // the events before a column's end reach the page before its end does
          batcher.flush();
          this.columnChanged(c, index, r, previous[index]);
        },
      });
    } catch (e) {
      this.log.error(`compare: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      batcher.flush();
      c.view.running = false;
      this.host.post({ type: 'running', runId, running: false });
      finished();
    }
  }

  private columnChanged(c: Comparison, index: number, r: ColumnResult, previous: Outcome | undefined): void {
    const col = c.view.columns[index];
    if (!col) return;
    col.status = r.status;
    const ended = r.status !== 'queued' && r.status !== 'running';
    if (ended && r.status !== 'not-sent') {
      const o = r.outcome;
      c.outcomes[index] = o;
      const message = o.message ?? c.posted[index]!.snapshot();
      if (message) col.message = message;
      if (o.latencyMs !== undefined) col.latencyMs = Math.round(o.latencyMs);
      if (o.requestId) col.requestId = o.requestId;
      if (o.error) col.error = { ...o.error };
      // a new sample against the last complete one: what differs
      if (previous && !o.error) col.differs = coreBundle().sampleDifferences(previous, o);
    }
    this.host.post({ type: 'column', runId: c.view.runId, column: structuredClone(col) });
  }

  private withMessage(c: Comparison, col: ColumnView, i: number): ColumnView {
    if (col.message) return col;
    const message = c.posted[i]?.snapshot();
    return message ? { ...col, message } : col;
  }

  /** A column's reply text: the whole reply once it ended, what came so far while it streams. */
  private textOf(c: Comparison, i: number): string {
    const outcome = c.outcomes[i];
    if (outcome) return outcome.text;
    const m = c.posted[i]?.snapshot();
    return (m?.content ?? []).map(b => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
  }

  /** Everything the page shows, for one that has just (re)loaded. */
  private snapshot(): ToCompareWebview[] {
    const v = this.view();
    return v ? [{ type: 'show', view: v }] : [];
  }

  private activeRequest(): vscode.Uri | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    return doc && isRequestFile(doc, this.config) ? doc.uri : undefined;
  }

  dispose(): void {
    this.cancel();
    this.host.dispose();
  }
}

/** The model a request file names (the default columns run on it), or a current model when it names none. */
function modelOf(doc: vscode.TextDocument): string {
  const value = coreBundle().validateText(doc.getText(), formatOf(doc.fileName)).parsed.value;
  const model = value && typeof value === 'object' ? (value as { model?: unknown }).model : undefined;
  return typeof model === 'string' && model ? model : 'model-opus-4-7';
}
