import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MessageBatch } from '../../core/api/batches';
import { ApiError, describeError } from '../../core/api/errors';
import { POLL_PACE, waitUntilEnded, type PollPace } from '../../core/batches/poll';
import { BatchStore, type BatchRecord } from '../../core/batches/store';
import { age, countsText, expiry } from '../../core/batches/view';
import { count } from '../../core/text';
import type { Api } from '../platform/api';
import type { Log } from '../platform/log';
import type { Prompts } from '../platform/prompts';

/** Batches shown at first, and added by each "Load more". */
const PAGE = 25;

export type BatchNode = { kind: 'batch'; id: string } | { kind: 'more'; shown: number; of: number };

/** What the Batches view asks of the cases runner: a batch's cells in the grid and the Test Explorer. */
export interface BatchCollector {
  /** reads the batch's results (waiting for it to end) and shows its cells; never submits */
  collect(record: BatchRecord): Promise<void>;
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
  readonly store: BatchStore;
  /** the poll's pace (an extension-host test makes it quick) */
  pace: PollPace = POLL_PACE;
  collector: BatchCollector | undefined;
  private readonly changed = new vscode.EventEmitter<BatchNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly ended = new vscode.EventEmitter<BatchRecord>();
  /** a batch ended (after the notification, and the collect it started) */
  readonly onDidEnd = this.ended.event;
  private records: BatchRecord[] = [];
  /** why the service could not be asked about a batch, by id */
  private readonly problems = new Map<string, string>();
  private shown = PAGE;
  private loading: Promise<void> | undefined;
  private polling: { ctl: AbortController; ids: string; done: Promise<void> } | undefined;
  private disposed = false;

  constructor(
    storageDir: string,
    private readonly api: Api,
    private readonly log: Log,
    private readonly prompts: Prompts,
  ) {
    this.store = new BatchStore(storageDir);
  }

  /** Reads the kept batches again and polls those that have not ended. */
  reload(): Promise<void> {
    this.loading = (async () => {
      this.records = await this.store.batches();
      this.changed.fire(undefined);
      this.watch();
    })();
    return this.loading;
  }

  /** A batch a run of this window just submitted, or saw change: shown at once, polled until it ends. */
  async changedBatch(): Promise<void> {
    await this.reload();
  }

  private record(id: string): BatchRecord | undefined {
    return this.records.find(r => r.id === id);
  }

  /** Polls every batch that has not ended, in one loop; a new pending batch restarts it with the others. */
  private watch(): void {
    if (this.disposed) return;
    const pending = this.records.filter(r => r.processingStatus !== 'ended').map(r => r.id);
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
      const client = await this.api.client();
      const left = new Set(ids);
      // a batch the service no longer knows (404), or a key it refuses, is said once and not asked again
      while (left.size && !signal.aborted) {
        try {
          await waitUntilEnded([...left], (id, s) => client.batches.retrieve(id, s ? { signal: s } : {}), {
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
      if (pick === 'Show Results') void this.collect({ kind: 'batch', id: r.id });
    });
    // the run that submitted it fills the grid itself; one that is gone (a reload) is collected here
    if (!live && !r.collectedAt) await this.collectRecord(r);
    this.ended.fire(r);
  }

  /** Collect: the batch's cells in the grid and the Test Explorer (waiting for it to end first). */
  async collect(n?: BatchNode): Promise<void> {
    const r = n?.kind === 'batch' ? this.record(n.id) : undefined;
    if (r) await this.collectRecord(r);
  }

  private async collectRecord(r: BatchRecord): Promise<void> {
    if (!this.collector) return;
    try {
      await this.collector.collect(r);
    } catch (e) {
      await this.api.showError(e, `Collecting batch ${r.id} failed`);
    }
    await this.reload();
  }

  /** Cancel, after a modal confirmation: the requests not yet processed end as canceled. */
  async cancel(n?: BatchNode): Promise<boolean> {
    const r = n?.kind === 'batch' ? this.record(n.id) : undefined;
    if (!r || r.processingStatus === 'ended') return false;
    const ok = await this.prompts.confirm(
      `Cancel batch ${r.id} of ${filesText(r)}?`,
      `Its ${count(r.requests, 'request')} not yet processed end as canceled (the ones done are kept and billed). ` +
        'This cannot be undone.',
      'Cancel Batch',
    );
    if (!ok) return false;
    try {
      const { batch } = await (await this.api.client()).batches.cancel(r.id);
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
    return this.reload();
  }

  loadMore(): void {
    this.shown += PAGE;
    this.changed.fire(undefined);
  }

  getTreeItem(n: BatchNode): vscode.TreeItem {
    if (n.kind === 'more') {
      const it = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
      it.description = `${n.shown} of ${n.of} shown`;
      it.iconPath = new vscode.ThemeIcon('ellipsis');
      it.command = { command: 'promptwright.batches.loadMore', title: 'Load more' };
      return it;
    }
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
    md.appendMarkdown(`**${r.id}**\n\n`);
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
    const escape = (text: string) => text.replace(/[\\`*_[\]<>#|]/g, c => `\\${c}`);
    md.appendMarkdown(rows.map(([k, v]) => `- ${k}: ${escape(v)}`).join('\n'));
    it.tooltip = md;
    return it;
  }

  async getChildren(n?: BatchNode): Promise<BatchNode[]> {
    if (n) return [];
    await (this.loading ?? this.reload());
    if (!this.records.length) return [];
    const out: BatchNode[] = this.records.slice(0, this.shown).map(r => ({ kind: 'batch', id: r.id }));
    if (this.records.length > this.shown) out.push({ kind: 'more', shown: this.shown, of: this.records.length });
    return out;
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

/** The case files of a batch, by name: `support.cases.yaml`, or `a.cases.yaml + 2 more`. */
function filesText(r: BatchRecord): string {
  const names = r.files.map(f => path.basename(f));
  if (!names.length) return r.id;
  return names.length === 1 ? names[0]! : `${names[0]} + ${names.length - 1} more`;
}
