import { once } from 'node:events';
import * as fs from 'node:fs';
import { finished } from 'node:stream/promises';
import * as vscode from 'vscode';
import {
  activityRow,
  parseFromActivityWebview,
  parseWebviewState,
  type ExportState,
  type FeedError,
  type FeedStatus,
  type FromActivityWebview,
  type Loading,
  type ToActivityWebview,
} from '../../activityProtocol';
import { AbortedError, ApiError, ConfigError, describeError, StreamError } from '../../core/api/errors';
import type { CursorPage } from '../../core/api/paging';
import { exportActivities, type ExportFormat, type ExportProgress } from '../../core/compliance/export';
import { filterProblems, type ActivityFilter } from '../../core/compliance/filters';
import type { Activity } from '../../core/compliance/types';
import { count } from '../../core/text';
import type { Config } from '../config';
import type { JsonDocuments } from '../jsonDocuments';
import type { Log } from '../log';
import { vscodePrompts, type Prompts } from '../prompts';
import { hostPage, webviewOptions } from '../webviewPage';
import type { ComplianceAccess } from './access';

export const ACTIVITY_VIEW_TYPE = 'promptwright.activity';

/** Records per page of an export: the largest `limit` the feed takes, so 2,000 records are two requests. */
const EXPORT_PAGE_SIZE = 1000;

const FORMATS: readonly (vscode.QuickPickItem & { format: ExportFormat; extension: string })[] = [
  {
    label: 'JSON Lines',
    description: 'activities.jsonl',
    detail: 'One record per line, as the service sent it',
    format: 'jsonl',
    extension: 'jsonl',
  },
  {
    label: 'CSV',
    description: 'activities.csv',
    detail: 'id, activity_type, created_at, updated_at and the record as JSON',
    format: 'csv',
    extension: 'csv',
  },
];

export type ExportOutcome =
  | { outcome: 'done'; file: vscode.Uri; progress: ExportProgress }
  | { outcome: 'cancelled'; progress: ExportProgress }
  | { outcome: 'failed'; error: unknown; progress: ExportProgress }
  | { outcome: 'busy' };

export interface ExportControl {
  /** aborts the export as the notification's Cancel does (for tests, which cannot press it) */
  signal?: AbortSignal;
  onProgress?: (p: ExportProgress) => void;
}

/** The part of the panel's state a test reads (see `feed()`). */
export interface FeedSnapshot {
  filter: ActivityFilter;
  status: FeedStatus;
  error: FeedError | undefined;
}

const fileName = (uri: vscode.Uri) => uri.path.split('/').pop() || uri.fsPath;

/** The page's static skeleton: the script fills it (trusted markup written by us, never data). */
const PAGE = {
  title: 'Activity Feed',
  script: 'activity',
  stylesheets: ['page.css', 'activity.css'],
  body: `<form id="filters" role="search" aria-label="Filter the Activity Feed"></form>
<div id="problems" aria-live="polite"></div>
<div id="banner" aria-live="assertive"></div>
<div id="scroller">
<div id="progress" hidden></div>
<table id="feed" aria-label="Activity records, newest first">
<thead><tr><th scope="col">Time</th><th scope="col">Type</th><th scope="col">Actor</th><th scope="col">Target</th>
<th scope="col">Organization</th><th scope="col">ID</th></tr></thead>
<tbody id="rows"></tbody>
</table>
<p id="empty" hidden></p>
<div id="sentinel" aria-hidden="true"></div>
</div>
<footer id="statusbar"><span id="status" role="status"></span><span id="notice" aria-live="polite"></span></footer>`,
};

/**
 * The Activity Feed panel (doc3 §4, §6): a filter bar, a table that asks for the next page only when the
 * person scrolls near its end (one request at a time, `after_id` = the previous page's `last_id`), "Check
 * for newer" (`before_id` = the first page's `first_id`), records opened as JSON, and Export to JSON Lines
 * or CSV in constant memory. One panel, reused; restored with its filter after a reload.
 *
 * For extension-host tests (they cannot click in the webview) the same entry the webview's messages go
 * through is public, `handle`, with `loadedRecords`, `feed`, `idle` and `exportTo` to observe and drive it.
 */
export class ActivityPanel implements vscode.Disposable {
  /** the questions it asks (an extension-host test answers them with a script) */
  prompts: Prompts = vscodePrompts;

  private panel: vscode.WebviewPanel | undefined;
  private panelSubscriptions: vscode.Disposable[] = [];
  /** the webview has said `ready` since it was last (re)built: until then nothing is posted */
  private ready = false;

  private filter: ActivityFilter = {};
  private records: Activity[] = [];
  /** `first_id` of the newest page loaded: where "Check for newer" starts (cursors are opaque, doc3 §2.2) */
  private newestCursor: string | null = null;
  /** `last_id` of the last page loaded: where scrolling continues */
  private nextCursor: string | null = null;
  private end = false;
  private keyKind: 'compliance' | 'admin' | undefined;
  private error: FeedError | undefined;
  /** what to ask again when the person presses Retry */
  private failed: Loading | undefined;
  private inFlight: { what: Loading; controller: AbortController; done: Promise<void> } | undefined;
  private exporting: ExportState | undefined;

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly access: ComplianceAccess,
    readonly json: JsonDocuments,
    readonly log: Log,
    readonly config: Config,
    /** asked when a record is an organization-membership activity (doc3 §6 rule 2) */
    readonly refreshOrganizations: () => void,
  ) {}

  /** Opens the panel, or reveals it where it is. */
  open(): void {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      ACTIVITY_VIEW_TYPE,
      'Activity Feed',
      vscode.ViewColumn.Active,
      webviewOptions(this.extensionUri),
    );
    this.adopt(panel, undefined);
  }

  /** Takes over a panel: a new one, or one VS Code restores after a reload with the state the webview saved. */
  adopt(panel: vscode.WebviewPanel, state: unknown): void {
    const previous = this.panel;
    if (previous && previous !== panel) {
      previous.dispose();
      this.closed(previous);
    }
    this.panel = panel;
    this.ready = false;
    this.panelSubscriptions = hostPage(panel, this.extensionUri, {
      page: PAGE,
      parse: parseFromActivityWebview,
      handle: m => void this.handle(m),
      onDispose: () => this.closed(panel),
      name: 'Activity Feed',
      warn: line => this.log.warn(line),
    });
    // a saved filter is the webview's word: checked like any other before anything is sent
    const saved = parseWebviewState(state)?.filter;
    this.startOver(saved && !filterProblems(saved).length ? saved : this.filter);
  }

  dispose(): void {
    const panel = this.panel;
    panel?.dispose();
    // at once, whenever VS Code gets to onDidDispose: nothing in flight outlives the panel
    if (panel) this.closed(panel);
  }

  // ---- what tests observe ----------------------------------------------------------------------------

  /** The records loaded so far, newest first (for tests; the table shows the same, summarized). */
  loadedRecords(): readonly Activity[] {
    return this.records;
  }

  /** The filter in force, the status line's facts and the banner's error (for tests). */
  feed(): FeedSnapshot {
    return { filter: this.filter, status: this.status(), error: this.error };
  }

  /** Resolves when no page is being fetched. */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight.done;
  }

  // ---- messages from the webview --------------------------------------------------------------------

  /** What the webview asks for. Resolves when it is done: the page arrived, the record opened, the export ended. */
  async handle(m: FromActivityWebview): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.postSnapshot();
        return;
      case 'apply': {
        // the webview checks the same way, but it is not trusted to: nothing malformed is ever sent
        const problems = filterProblems(m.filter);
        if (problems.length) {
          this.showError({ type: 'invalid_filter', message: problems.join(' ') });
          return;
        }
        this.startOver(m.filter);
        return this.idle();
      }
      case 'more':
        // after a failed page only Retry asks again (a scroll must not hammer a refusing service); a status
        // answers an ask that is dropped, so the webview knows it may ask again
        if (!this.end && !this.failed) await this.load('more');
        else this.postStatus();
        return;
      case 'newer':
        await this.load(this.records.length ? 'newer' : 'first');
        return;
      case 'retry': {
        const what = this.failed ?? 'first';
        this.showError(undefined);
        await this.load(what);
        return;
      }
      case 'set-key':
        await vscode.commands.executeCommand('promptwright.setComplianceKey');
        if (await this.access.kind()) await this.handle({ type: 'retry' });
        return;
      case 'open': {
        const found = this.records.find(r => r.id === m.id);
        if (found) await this.json.open(`activity-${found.id}`, found);
        return;
      }
      case 'refresh-organizations':
        this.refreshOrganizations();
        this.log.info(`Activity Feed: ${m.id} is an organization membership activity; organizations listed again`);
        this.post({ type: 'notice', text: 'Listing the linked organizations again in the Compliance view.' });
        return;
      case 'export':
        await this.exportInteractively();
        return;
    }
  }

  // ---- paging -----------------------------------------------------------------------------------------

  /** A new filter (or a new panel): anything in flight is cancelled and the table starts from the top. */
  private startOver(filter: ActivityFilter): void {
    this.inFlight?.controller.abort();
    this.inFlight = undefined;
    this.filter = filter;
    this.records = [];
    this.newestCursor = this.nextCursor = null;
    this.end = false;
    this.failed = undefined;
    this.error = undefined;
    this.post({ type: 'state', filter });
    this.post({ type: 'error', error: undefined });
    void this.load('first');
  }

  /** Fetches one page; one at a time (a second ask while one is in flight is dropped, not queued). */
  private load(what: Loading): Promise<void> {
    if (this.inFlight) return this.inFlight.done;
    const controller = new AbortController();
    const done = this.fetchPage(what, controller).finally(() => {
      // a newer filter may have started its own fetch meanwhile: that one is not ours to clear
      if (this.inFlight?.controller === controller) this.inFlight = undefined;
      if (!controller.signal.aborted) this.postStatus();
    });
    this.inFlight = { what, controller, done };
    this.postStatus();
    return done;
  }

  private async fetchPage(what: Loading, controller: AbortController): Promise<void> {
    const { signal } = controller;
    const filter = this.filter;
    const cursor =
      what === 'more' && this.nextCursor
        ? { after: this.nextCursor }
        : what === 'newer' && this.newestCursor
          ? { before: this.newestCursor }
          : {};
    let page: CursorPage<Activity>;
    try {
      const { client, kind } = await this.access.client();
      this.keyKind = kind;
      page = await client.activityPage(filter, { pageSize: this.config.compliancePageSize, ...cursor, signal });
    } catch (e) {
      if (signal.aborted || e instanceof AbortedError) return;
      const error = await this.feedError(e);
      if (signal.aborted) return; // a new filter started meanwhile: this failure is no longer news
      this.failed = what;
      this.showError(error);
      this.log.error(`Activity Feed: ${describeError(e)}`);
      return;
    }
    if (signal.aborted) return;
    this.failed = undefined;
    // the feed lists newest first (the fake does, and the spec's cursors page that way): a page going back
    // with before_id holds records newer than the first row, so it goes on top
    if (what === 'newer') {
      const known = new Set(this.records.map(r => r.id));
      const fresh = page.data.filter(r => !known.has(r.id));
      if (page.first_id && page.data.length) this.newestCursor = page.first_id;
      this.records.unshift(...fresh);
      this.post({ type: 'rows', where: 'prepend', rows: fresh.map(activityRow) });
      const more = page.has_more ? ' · more are newer: check again' : '';
      const text = fresh.length
        ? `${count(fresh.length, 'newer record')} added at the top${more}.`
        : 'No newer records.';
      this.post({ type: 'notice', text });
      return;
    }
    if (what === 'first') this.newestCursor = page.first_id;
    this.records.push(...page.data);
    this.nextCursor = page.last_id;
    this.end = !page.has_more || !page.last_id || !page.data.length;
    this.post({ type: 'rows', where: 'append', rows: page.data.map(activityRow) });
  }

  private status(): FeedStatus {
    return {
      loaded: this.records.length,
      ...(this.inFlight ? { loading: this.inFlight.what } : {}),
      end: this.end,
      ...(this.keyKind ? { keyKind: this.keyKind } : {}),
    };
  }

  private postStatus(): void {
    this.post({ type: 'status', status: this.status() });
  }

  private showError(error: FeedError | undefined): void {
    this.error = error;
    this.post({ type: 'error', error });
  }

  /** The banner's view of a failure: type, message, request-id, and what it means for this key. */
  private async feedError(e: unknown): Promise<FeedError> {
    const explanation = await this.access.explain(e);
    const base: FeedError =
      e instanceof ApiError
        ? { type: e.type, message: e.message, status: e.status, ...(e.requestId ? { requestId: e.requestId } : {}) }
        : e instanceof StreamError
          ? { type: e.type, message: e.message, ...(e.requestId ? { requestId: e.requestId } : {}) }
          : e instanceof ConfigError
            ? { type: 'configuration', message: e.message }
            : { type: e instanceof Error ? e.name : 'error', message: describeError(e) };
    const refusedKey = e instanceof ApiError && e.status === 401;
    const noKey = e instanceof ConfigError && e.action === 'set-compliance-key';
    return { ...base, ...(explanation ? { explanation } : {}), ...(refusedKey || noKey ? { offerSetKey: true } : {}) };
  }

  // ---- export -----------------------------------------------------------------------------------------

  /** The Export button: asks the format and the file, then exports what the filter in force matches. */
  private async exportInteractively(): Promise<void> {
    if (this.exporting) {
      void vscode.window.showInformationMessage('An export of the Activity Feed is already running.');
      return;
    }
    const choice = await this.prompts.pick(FORMATS, {
      title: 'Export the Activity Feed',
      placeHolder: 'Format of the file (every record the current filters match, paged 1,000 at a time)',
    });
    if (!choice) return;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `activities.${choice.extension}`;
    const target = await this.prompts.saveAs({
      title: 'Export the Activity Feed',
      saveLabel: 'Export',
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      filters: { [choice.label]: [choice.extension] },
    });
    if (!target) return;
    await this.exportTo(target, choice.format);
  }

  /**
   * Exports every record the filter in force matches to `target`, under a cancellable progress
   * notification, writing each page as it arrives through a file stream that is waited on when full
   * (constant memory however long the feed). A cancelled or failed export leaves no partial file.
   * The Export button ends here; tests call it directly.
   */
  async exportTo(target: vscode.Uri, format: ExportFormat, control: ExportControl = {}): Promise<ExportOutcome> {
    if (this.exporting) return { outcome: 'busy' };
    const filter = this.filter;
    const name = fileName(target);
    const state: ExportState = { running: true, records: 0, pages: 0 };
    this.exporting = state;
    this.post({ type: 'export', state: { ...state } });
    try {
      return await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Exporting the Activity Feed to ${name}`,
          cancellable: true,
        },
        (progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          if (control.signal?.aborted) controller.abort();
          control.signal?.addEventListener('abort', () => controller.abort(), { once: true });
          return this.writeExport(target, format, filter, controller.signal, p => {
            Object.assign(state, p);
            progress.report({ message: `${count(p.records, 'record')} · ${count(p.pages, 'page')}` });
            this.post({ type: 'export', state: { ...state } });
            control.onProgress?.(p);
          });
        },
      );
    } finally {
      this.exporting = undefined;
      this.post({ type: 'export', state: { ...state, running: false } });
    }
  }

  private async writeExport(
    target: vscode.Uri,
    format: ExportFormat,
    filter: ActivityFilter,
    signal: AbortSignal,
    onProgress: (p: ExportProgress) => void,
  ): Promise<ExportOutcome> {
    let progress: ExportProgress = { records: 0, pages: 0 };
    const name = fileName(target);
    if (target.scheme !== 'file') {
      const error = new Error(`Exports are written to local files; ${target.toString()} is not one.`);
      void vscode.window.showErrorMessage(error.message);
      return { outcome: 'failed', error, progress };
    }
    let out: fs.WriteStream | undefined;
    try {
      const { client } = await this.access.client();
      out = fs.createWriteStream(target.fsPath, { encoding: 'utf8' });
      const write = streamWriter(out);
      progress = await exportActivities(client, filter, write, {
        format,
        pageSize: EXPORT_PAGE_SIZE,
        signal,
        // a 429's wait holds every other compliance call of the window too (one budget, doc3 §8)
        onRateLimited: ms => this.access.limiter.pause(ms),
        onProgress: p => {
          progress = p;
          onProgress(p);
        },
      });
      out.end();
      await finished(out);
    } catch (e) {
      out?.destroy();
      await fs.promises.rm(target.fsPath, { force: true }).catch(() => undefined);
      if (signal.aborted) {
        this.log.info(`Activity Feed export cancelled after ${progress.records} records; ${name} removed`);
        void vscode.window.showInformationMessage(`Export cancelled; the partial file ${name} was removed.`);
        return { outcome: 'cancelled', progress };
      }
      void this.access.showError(e, 'Could not export the Activity Feed');
      return { outcome: 'failed', error: e, progress };
    }
    this.log.info(`Activity Feed: exported ${progress.records} records in ${progress.pages} pages to ${target.fsPath}`);
    void vscode.window
      .showInformationMessage(`Exported ${count(progress.records, 'activity record')} to ${name}.`, 'Open')
      .then(pick => (pick === 'Open' ? vscode.commands.executeCommand('vscode.open', target) : undefined));
    return { outcome: 'done', file: target, progress };
  }

  // ---- the webview ------------------------------------------------------------------------------------

  private post(m: ToActivityWebview): void {
    // until `ready` nothing is posted: the snapshot sent then covers everything that happened before
    if (this.panel && this.ready) void this.panel.webview.postMessage(m);
  }

  /** Everything the webview shows, for one that has just (re)loaded. */
  private postSnapshot(): void {
    this.post({ type: 'state', filter: this.filter });
    if (this.records.length)
      this.post({ type: 'rows', where: 'append', rows: this.records.map(activityRow), restore: true });
    this.postStatus();
    this.post({ type: 'error', error: this.error });
    if (this.exporting) this.post({ type: 'export', state: { ...this.exporting } });
  }

  private closed(panel: vscode.WebviewPanel): void {
    if (this.panel !== panel) return;
    this.inFlight?.controller.abort();
    this.inFlight = undefined;
    for (const s of this.panelSubscriptions) s.dispose();
    this.panelSubscriptions = [];
    this.panel = undefined;
    this.ready = false;
    // what was loaded goes with the panel; the filter stays for the next time it opens, and an export runs
    // on under its own notification (its Cancel is there)
    this.records = [];
    this.newestCursor = this.nextCursor = null;
    this.end = false;
    this.error = undefined;
    this.failed = undefined;
  }
}

/**
 * A write function over a file stream that honours backpressure: when the stream's buffer is full it waits
 * for `drain`, so a fast service never piles pages up in memory. A stream error fails the next write.
 */
function streamWriter(out: fs.WriteStream): (chunk: string) => Promise<void> {
  let failure: Error | undefined;
  out.on('error', (e: Error) => (failure ??= e));
  return async chunk => {
    if (failure) throw failure;
    // `once` rejects if the stream errors while waiting
    if (!out.write(chunk)) await once(out, 'drain');
  };
}
