import * as vscode from 'vscode';
import { AbortedError, ApiError, ConfigError, describeError, errorType, StreamError } from '../../core/api/errors';
import type { CursorPage } from '../../core/api/paging';
import type { ExportFormat } from '../../core/compliance/export';
import { filterProblems, type ActivityFilter } from '../../core/compliance/filters';
import type { Activity } from '../../core/compliance/types';
import { count } from '../../core/text';
import {
  ACTIVITY_VIEW_TYPE,
  activityRow,
  parseActivityWebviewState,
  parseFromActivityWebview,
  type FeedError,
  type FeedStatus,
  type FromActivityWebview,
  type Loading,
  type ToActivityWebview,
} from '../../protocol/activity';
import type { Config } from '../platform/config';
import type { JsonDocuments } from '../platform/jsonDocuments';
import type { Log } from '../platform/log';
import { vscodePrompts, type Prompts } from '../platform/prompts';
import { WebviewHost } from '../platform/webviewHost';
import type { ComplianceAccess } from './access';
import { ActivityExport, type ExportControl, type ExportOutcome } from './activityExport';

export type { ExportControl, ExportOutcome } from './activityExport';

/** The part of the panel's state a test reads (see `feed()`). */
export interface FeedSnapshot {
  filter: ActivityFilter;
  status: FeedStatus;
  error: FeedError | undefined;
}

/** The page's static skeleton: the script fills it (trusted markup written by us, never data). */
const PAGE = {
  title: 'Activity Feed',
  script: 'activity' as const,
  stylesheets: ['page.css', 'json.css', 'activity.css'],
  body: `<form id="filters" role="search" aria-label="Filter the Activity Feed"></form>
<div id="problems" aria-live="polite"></div>
<div id="banner" aria-live="assertive"></div>
<div id="main">
<div id="scroller">
<div id="progress" hidden></div>
<table id="feed" aria-label="Activity records, newest first">
<thead><tr><th scope="col">Time</th><th scope="col">Activity</th><th scope="col">Actor</th><th scope="col">Target</th>
<th scope="col">Organization</th><th scope="col">ID</th></tr></thead>
<tbody id="rows"></tbody>
</table>
<p id="empty" hidden></p>
<div id="sentinel" aria-hidden="true"></div>
</div>
<aside id="detail" hidden aria-labelledby="detail-title">
<header><h2 id="detail-title"></h2><span class="spacer"></span></header>
<pre id="detail-json" tabindex="0" aria-label="The record as the service sent it"></pre>
</aside>
</div>
<footer id="statusbar"><span id="status" role="status"></span><span id="notice" aria-live="polite"></span></footer>`,
};

/**
 * The Activity Feed panel (doc3 §4, §6): a filter bar, a table that asks for the next page only when the
 * person scrolls near its end (one request at a time, `after_id` = the previous page's `last_id`), "Check
 * for newer" (`before_id` = the first page's `first_id`), a record opened in a pane beside the table (or as
 * a JSON document of its own), and Export to JSON Lines or CSV in constant memory. One panel, reused;
 * restored with its filter after a reload.
 *
 * For extension-host tests (they cannot click in the webview) the same entry the webview's messages go
 * through is public, `handle`, with `loadedRecords`, `feed`, `idle` and `exportTo` to observe and drive it.
 */
export class ActivityPanel implements vscode.Disposable {
  /** the questions it asks (an extension-host test answers them with a script) */
  prompts: Prompts = vscodePrompts;

  private readonly host: WebviewHost<ToActivityWebview, FromActivityWebview>;
  private readonly exporter: ActivityExport;

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

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly access: ComplianceAccess,
    readonly json: JsonDocuments,
    readonly log: Log,
    readonly config: Config,
    /** asked when a record is an organization-membership activity (doc3 §6 rule 2) */
    readonly refreshOrganizations: () => void,
  ) {
    this.host = new WebviewHost(extensionUri, {
      viewType: ACTIVITY_VIEW_TYPE,
      title: 'Activity Feed',
      page: PAGE,
      // the main area, where the table has the width it needs (not a narrow side group)
      column: vscode.ViewColumn.One,
      parse: parseFromActivityWebview,
      snapshot: () => this.snapshot(),
      handle: m => this.handle(m),
      onClose: () => this.closed(),
      log,
    });
    this.exporter = new ActivityExport(
      access,
      log,
      () => this.prompts,
      state => this.post({ type: 'export', state }),
    );
  }

  /** Opens the panel, or reveals it where it is. */
  open(): void {
    if (this.host.isOpen) this.host.reveal();
    else {
      this.host.open();
      this.startOver(this.filter);
    }
  }

  /** Takes over a panel VS Code restores after a reload, with the state the webview saved. */
  adopt(panel: vscode.WebviewPanel, state: unknown): void {
    this.host.adopt(panel);
    // a saved filter is the webview's word: checked like any other before anything is sent
    const saved = parseActivityWebviewState(state)?.filter;
    this.startOver(saved && !filterProblems(saved).length ? saved : this.filter);
  }

  dispose(): void {
    this.host.dispose();
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
  async handle(m: Exclude<FromActivityWebview, { type: 'ready' }>): Promise<void> {
    switch (m.type) {
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
        if (found) this.post({ type: 'record', id: found.id, label: activityRow(found).label, record: found });
        return;
      }
      case 'open-json': {
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
        await this.exporter.interactive(this.filter);
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
            : { type: errorType(e), message: describeError(e) };
    const refusedKey = e instanceof ApiError && e.status === 401;
    const noKey = e instanceof ConfigError && e.action === 'set-compliance-key';
    return { ...base, ...(explanation ? { explanation } : {}), ...(refusedKey || noKey ? { offerSetKey: true } : {}) };
  }

  // ---- export -----------------------------------------------------------------------------------------

  /** Exports what the filter in force matches to `target` (the Export button ends here; tests call it). */
  exportTo(target: vscode.Uri, format: ExportFormat, control: ExportControl = {}): Promise<ExportOutcome> {
    return this.exporter.exportTo(target, format, this.filter, control);
  }

  // ---- the webview ------------------------------------------------------------------------------------

  private post(m: ToActivityWebview): void {
    this.host.post(m);
  }

  /** Everything the webview shows, for one that has just (re)loaded. */
  private snapshot(): ToActivityWebview[] {
    const exporting = this.exporter.state;
    return [
      { type: 'state', filter: this.filter },
      ...(this.records.length
        ? [{ type: 'rows' as const, where: 'append' as const, rows: this.records.map(activityRow), restore: true }]
        : []),
      { type: 'status', status: this.status() },
      { type: 'error', error: this.error },
      ...(exporting ? [{ type: 'export' as const, state: exporting }] : []),
    ];
  }

  private closed(): void {
    this.inFlight?.controller.abort();
    this.inFlight = undefined;
    // what was loaded goes with the panel; the filter stays for the next time it opens, and an export runs
    // on under its own notification (its Cancel is there)
    this.records = [];
    this.newestCursor = this.nextCursor = null;
    this.end = false;
    this.error = undefined;
    this.failed = undefined;
  }
}
