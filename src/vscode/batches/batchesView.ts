import * as path from 'node:path';
import * as vscode from 'vscode';
import type { BatchesClient, MessageBatch } from '../../core/api/batches';
import { ApiError, describeError, type PromptwrightError } from '../../core/api/errors';
import { firstPage } from '../../core/api/pager';
import type { PollPace } from '../../core/batches/poll';
import type { BatchRecord, BatchStore } from '../../core/batches/store';
import { age, countsText, expiry } from '../../core/batches/view';
import { count, markdownCode, markdownText } from '../../core/text';
import type { Api } from '../platform/api';
import { coreBundle } from '../platform/lazy';
import type { Log } from '../platform/log';
import { PagedTree, type ErrorRow, type ErrorView, type MoreRow, type PagedList } from '../platform/pagedTree';
import { PENDING_BATCHES_KEY } from './pending';

/** Batches of this window shown at first, and added by each "Load more…"; the service's list pages by 20. */
const PAGE = 25;
const SERVICE_PAGE = 20;

export type BatchNode =
  /** a batch this window submitted */
  | { kind: 'batch'; id: string }
  /** "On the service": every batch of the key's workspace, a page at a time */
  | { kind: 'service' }
  /** a batch of the service's list (one of ours shows its case files) */
  | { kind: 'remote'; batch: MessageBatch }
  | MoreRow<BatchNode>
  | ErrorRow<BatchNode>;

/** What the Batches view asks of the cases runner: a batch's cells in the grid and the Test Explorer. */
export interface BatchCollector {
  /** reads the batch's results (waiting for it to end) and shows its cells (`reveal`: the grid opens); never submits */
  collect(record: BatchRecord, reveal?: boolean): Promise<void>;
  /** whether a run of this window waits for this batch itself (it fills the grid when the batch ends) */
  isLive(id: string): boolean;
}

/**
 * The "Batches" view: the Message Batches this window's case runs submitted (kept in the extension's global
 * storage, so they outlive a reload), each with its case file, status, counts, age and expiry; Cancel (after a
 * modal confirmation) and Collect. It polls the batches that have not ended (5 s growing to 60 s, the core's
 * poller) from the moment it loads, a reload included, and says when one ends: a batch whose run is gone (the
 * window was reloaded) is then collected into the grid and the Test Explorer.
 */
export class BatchesView implements vscode.TreeDataProvider<BatchNode>, vscode.Disposable {
  private kept: BatchStore | undefined;
  /** the poll's pace (an extension-host test makes it quick) */
  pace: PollPace = { firstMs: 5000, maxMs: 60_000, factor: 1.5 };
  collector: BatchCollector | undefined;
  private readonly changed = new vscode.EventEmitter<BatchNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly ended = new vscode.EventEmitter<BatchRecord>();
  /** a batch ended (after the notification, and the collect it started) */
  readonly onDidEnd = this.ended.event;
  private records: BatchRecord[] = [];
  /** why the service could not be asked about a batch, by id */
  private readonly problems = new Map<string, string>();
  private readonly pages = new PagedTree<BatchNode>({ viewId: 'promptwright.batches', changed: this.changed, explain });
  private readonly serviceNode: BatchNode = { kind: 'service' };
  /** this window's batches, a page at a time (they are on disk: a page is a slice) */
  private local: PagedList<BatchRecord, BatchNode> = this.localList();
  private remote: PagedList<MessageBatch, BatchNode> | undefined;
  private loading: Promise<void> | undefined;
  private polling: { ctl: AbortController; ids: string; done: Promise<void> } | undefined;
  private disposed = false;
  private readonly collecting = new Set<Promise<void>>();

  constructor(
    private readonly api: Api,
    private readonly log: Log,
    private readonly state: vscode.Memento,
    private readonly storageDir: string,
  ) {}

  /**
   * Where the batches are kept. The batch code (store, poller, client) is the core bundle's, where the runs'
   * sessions are: one copy of it, loaded with the view.
   */
  get store(): BatchStore {
    this.kept ??= new (coreBundle().BatchStore)(this.storageDir);
    return this.kept;
  }

  private async batchesClient(): Promise<BatchesClient> {
    return new (coreBundle().BatchesClient)((await this.api.client()).http);
  }

  /** Reads the kept batches again and polls those that have not ended. */
  reload(): Promise<void> {
    this.loading = (async () => {
      this.records = await this.store.batches();
      this.local = this.localList();
      this.changed.fire(undefined);
      this.watch();
    })();
    return this.loading;
  }

  /** A batch a run of this window just submitted, or saw change: shown at once, polled until it ends. */
  async changedBatch(): Promise<void> {
    await this.reload();
  }

  private localList(): PagedList<BatchRecord, BatchNode> {
    return this.pages.list(
      () => undefined,
      cursor => {
        const from = Number(cursor ?? 0);
        const next = from + PAGE < this.records.length ? String(from + PAGE) : null;
        return Promise.resolve({ items: this.records.slice(from, from + PAGE), next });
      },
    );
  }

  private remoteList(): PagedList<MessageBatch, BatchNode> {
    return this.pages.list(
      () => this.serviceNode,
      async cursor =>
        firstPage(
          (await this.batchesClient()).pages({
            pageSize: SERVICE_PAGE,
            ...(cursor ? { after: cursor } : {}),
          }),
        ),
    );
  }

  private record(id: string): BatchRecord | undefined {
    return this.records.find(r => r.id === id);
  }

  /** Polls every batch that has not ended, in one loop; a new pending batch restarts it with the others. */
  private watch(): void {
    if (this.disposed) return;
    const pending = this.records.filter(r => r.processingStatus !== 'ended').map(r => r.id);
    // activation reads it after a reload (pending.ts)
    void this.state.update(PENDING_BATCHES_KEY, pending.length);
    const ids = pending.join(',');
    if (this.polling?.ids === ids) return;
    this.polling?.ctl.abort();
    this.polling = undefined;
    if (!pending.length) return;
    const ctl = new AbortController();
    const done = this.poll(pending, ctl.signal).finally(() => {
      if (this.polling?.ctl === ctl) this.polling = undefined;
    });
    this.polling = { ctl, ids, done };
  }

  private async poll(ids: string[], signal: AbortSignal): Promise<void> {
    try {
      const client = await this.batchesClient();
      const left = new Set(ids);
      // a batch the service no longer knows (404), or a key it refuses, is said once and not asked again
      while (left.size && !signal.aborted) {
        try {
          await coreBundle().waitUntilEnded([...left], (id, s) => client.retrieve(id, s ? { signal: s } : {}), {
            pace: this.pace,
            signal,
            onBatch: b => this.seen(b),
            onPollError: (e, ms) => this.log.info(`Batches: a poll failed (${describeError(e)}); again in ${ms} ms`),
          });
          return;
        } catch (e) {
          if (signal.aborted) return;
          const id = e instanceof ApiError && e.status === 404 ? [...left].find(x => e.message.includes(x)) : undefined;
          const gone = id ?? [...left][0]!;
          this.problems.set(gone, describeError(e));
          left.delete(gone);
          this.log.warn(`Batches: ${gone}: ${describeError(e)}; its last known status is shown`);
          this.changed.fire(undefined);
          if (!(e instanceof ApiError && e.status === 404)) return;
        }
      }
    } catch (e) {
      if (!signal.aborted) this.log.warn(`Batches: polling stopped: ${describeError(e)}`);
    }
  }

  /** What the service said of a batch: kept, shown, and when it has just ended, said and collected. */
  private async seen(b: MessageBatch): Promise<void> {
    const before = this.record(b.id);
    const after = await this.store.updateBatch(b);
    if (!after) return;
    this.problems.delete(b.id);
    this.records = this.records.map(r => (r.id === b.id ? after : r));
    this.changed.fire(undefined);
    if (b.processing_status === 'ended' && before?.processingStatus !== 'ended') await this.endedBatch(after);
  }

  private async endedBatch(r: BatchRecord): Promise<void> {
    const what = `Batch of ${filesText(r)} ended: ${countsText(r.requestCounts, r.requests)}.`;
    this.log.info(`Batches: ${r.id}: ${what}`);
    const live = this.collector?.isLive(r.id) ?? false;
    void vscode.window.showInformationMessage(what, 'Show Results').then(pick => {
      const file = r.files[0];
      if (pick === 'Show Results' && file)
        void vscode.commands.executeCommand('promptwright.showCases', vscode.Uri.file(path.resolve(r.cwd, file)));
    });
    // the run that submitted it fills the grid itself; one that is gone (a reload) is collected here
    if (!live && !r.collectedAt) await this.collectRecord(r, false);
    this.ended.fire(r);
  }

  /** Collect: the batch's cells in the grid and the Test Explorer (waiting for it to end first). */
  async collect(n?: BatchNode): Promise<void> {
    const r = n?.kind === 'batch' ? this.record(n.id) : undefined;
    if (r) await this.collectRecord(r, true);
  }

  private async collectRecord(r: BatchRecord, reveal: boolean): Promise<void> {
    if (!this.collector) return;
    const collecting = (async () => {
      try {
        await this.collector?.collect(r, reveal);
      } catch (e) {
        await this.api.showError(e, `Collecting batch ${r.id} failed`);
      }
    })();
    this.collecting.add(collecting);
    try {
      await collecting;
    } finally {
      this.collecting.delete(collecting);
    }
    await this.reload();
  }

  /** Resolves when no batch is polled or collected (every batch kept has ended and been read). */
  async idle(): Promise<void> {
    while (this.polling || this.collecting.size) {
      const busy = [...this.collecting, ...(this.polling ? [this.polling.done] : [])];
      await Promise.all(busy.map(p => p.catch(() => undefined)));
    }
  }

  /** Cancel, after a modal confirmation: the requests not yet processed end as canceled. */
  async cancel(n?: BatchNode): Promise<boolean> {
    const r = n?.kind === 'batch' ? this.record(n.id) : undefined;
    if (!r || r.processingStatus === 'ended') return false;
    const ok = await this.api.prompts.confirm(
      `Cancel batch ${r.id} of ${filesText(r)}?`,
      `Its ${count(r.requests, 'request')} not yet processed end as canceled (the ones done are kept and billed). ` +
        'This cannot be undone.',
      'Cancel Batch',
    );
    if (!ok) return false;
    try {
      const { batch } = await (await this.batchesClient()).cancel(r.id);
      await this.seen(batch);
      this.watch();
      return true;
    } catch (e) {
      await this.api.showError(e, `Cancelling batch ${r.id} failed`);
      return false;
    }
  }

  refresh(): Promise<void> {
    this.polling?.ctl.abort();
    this.polling = undefined;
    this.problems.clear();
    this.remote = undefined;
    return this.reload();
  }

  getTreeItem(n: BatchNode): vscode.TreeItem {
    if (n.kind === 'more' || n.kind === 'error') return this.pages.item(n);
    if (n.kind === 'service') {
      const it = new vscode.TreeItem('On the service', vscode.TreeItemCollapsibleState.Collapsed);
      it.description = 'every batch of the key’s workspace';
      it.iconPath = new vscode.ThemeIcon('cloud');
      it.tooltip = 'The Message Batches of the API key’s workspace, newest first, a page at a time (any tool’s).';
      return it;
    }
    if (n.kind === 'remote') return this.remoteItem(n.batch);
    const r = this.record(n.id);
    if (!r) return new vscode.TreeItem(n.id);
    const it = new vscode.TreeItem(filesText(r), vscode.TreeItemCollapsibleState.None);
    it.id = r.id;
    const problem = this.problems.get(r.id);
    const now = Date.now();
    const expires = expiry(r.expiresAt, r.processingStatus, now);
    it.description = [
      r.processingStatus,
      countsText(r.requestCounts, r.requests),
      age(r.createdAt, now),
      expires && `expires ${expires}`,
    ]
      .filter(Boolean)
      .join(' · ');
    const state = r.processingStatus !== 'ended' ? 'pending' : r.collectedAt ? 'collected' : 'ended';
    it.contextValue = `batch.${state}`;
    it.iconPath = new vscode.ThemeIcon(
      problem
        ? 'warning'
        : state === 'pending'
          ? r.processingStatus === 'canceling'
            ? 'circle-slash'
            : 'loading~spin'
          : state === 'collected'
            ? 'pass'
            : 'bell-dot',
    );
    const md = new vscode.MarkdownString();
    // the batch's id, status and dates are the service's, its files the case files': set in as text
    md.appendMarkdown(`**${markdownCode(r.id)}**\n\n`);
    const rows: [string, string][] = [
      ['Case files', r.files.join(', ')],
      ['Status', r.processingStatus],
      ['Requests', countsText(r.requestCounts, r.requests)],
      ['Created', `${r.createdAt} (${age(r.createdAt, now)})`],
      ...(r.processingStatus !== 'ended'
        ? [['Expires', `${r.expiresAt} (${expiry(r.expiresAt, r.processingStatus, now)})`] as [string, string]]
        : []),
      ...(r.endedAt ? [['Ended', r.endedAt] as [string, string]] : []),
      ['Collected', r.collectedAt ?? 'not yet'],
      ...(problem ? [['Last poll', problem] as [string, string]] : []),
    ];
    md.appendMarkdown(rows.map(([k, v]) => `- ${k}: ${markdownText(v)}`).join('\n'));
    it.tooltip = md;
    return it;
  }

  /** A batch of the service's list: ours say their case files; another tool's, its id. */
  private remoteItem(b: MessageBatch): vscode.TreeItem {
    const ours = this.record(b.id);
    const it = new vscode.TreeItem(ours ? `${filesText(ours)}` : b.id, vscode.TreeItemCollapsibleState.None);
    const now = Date.now();
    const expires = expiry(b.expires_at, b.processing_status, now);
    it.description = [
      b.processing_status,
      countsText(b.request_counts),
      age(b.created_at, now),
      expires && `expires ${expires}`,
    ]
      .filter(Boolean)
      .join(' · ');
    it.tooltip = `${b.id}${ours ? ` (submitted from this window: ${ours.files.join(', ')})` : ''}`;
    it.iconPath = new vscode.ThemeIcon(b.processing_status === 'ended' ? 'archive' : 'loading~spin');
    it.contextValue = ours ? 'batch.remote.ours' : 'batch.remote';
    return it;
  }

  async getChildren(n?: BatchNode): Promise<BatchNode[]> {
    if (n?.kind === 'service') {
      this.remote ??= this.remoteList();
      return this.remote.rows(batch => ({ kind: 'remote', batch }));
    }
    if (n) return [];
    await (this.loading ?? this.reload());
    const rows = await this.local.rows<BatchNode>(r => ({ kind: 'batch', id: r.id }));
    return [...rows, this.serviceNode];
  }

  /** The batches as shown (for tests). */
  get batches(): readonly BatchRecord[] {
    return this.records;
  }

  dispose(): void {
    this.disposed = true;
    this.polling?.ctl.abort();
    this.changed.dispose();
    this.ended.dispose();
  }
}

/** A failed poll or page: what failed, and the key to set when that is what it needs. */
function explain(e: unknown): ErrorView {
  const apiKey = (e as PromptwrightError)?.action === 'set-api-key' || (e instanceof ApiError && e.status === 401);
  const fix = apiKey ? { command: 'promptwright.setApiKey', title: 'Set API Key' } : undefined;
  const todo = apiKey ? 'Run "Promptwright: Set API Key".' : 'Click to retry.';
  return { label: describeError(e), tooltip: `${describeError(e)}\n\n${todo}`, ...(fix ? { fix } : {}) };
}

/** The case files of a batch, by name: `support.cases.yaml`, or `a.cases.yaml + 2 more`. */
function filesText(r: BatchRecord): string {
  const names = r.files.map(f => path.basename(f));
  if (!names.length) return r.id;
  return names.length === 1 ? names[0]! : `${names[0]} + ${names.length - 1} more`;
}
