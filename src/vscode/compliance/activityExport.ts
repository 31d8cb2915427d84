import { once } from 'node:events';
import * as fs from 'node:fs';
import { finished } from 'node:stream/promises';
import * as vscode from 'vscode';
import { exportActivities, type ExportFormat, type ExportProgress } from '../../core/compliance/export';
import type { ActivityFilter } from '../../core/compliance/filters';
import { count } from '../../core/text';
import type { ExportState } from '../../protocol/activity';
import type { Log } from '../platform/log';
import type { Prompts } from '../platform/prompts';
import type { ComplianceAccess } from './access';

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

const fileName = (uri: vscode.Uri) => uri.path.split('/').pop() || uri.fsPath;

/**
 * Export of the Activity Feed to JSON Lines or CSV, in constant memory: the Activity Feed panel's Export
 * button ends here. One export at a time; it runs on under its own notification (its Cancel is there) when
 * the panel closes.
 */
export class ActivityExport {
  private exporting: ExportState | undefined;

  constructor(
    private readonly access: ComplianceAccess,
    private readonly log: Log,
    /** the questions it asks (the panel's, which an extension-host test answers with a script) */
    private readonly prompts: () => Prompts,
    /** the export's progress, for the panel's status line */
    private readonly report: (state: ExportState) => void,
  ) {}

  /** The export under way, if any. */
  get state(): ExportState | undefined {
    return this.exporting && { ...this.exporting };
  }

  /** The Export button: asks the format and the file, then exports what the filter in force matches. */
  async interactive(filter: ActivityFilter): Promise<void> {
    if (this.exporting) {
      void vscode.window.showInformationMessage('An export of the Activity Feed is already running.');
      return;
    }
    const choice = await this.prompts().pick(FORMATS, {
      title: 'Export the Activity Feed',
      placeHolder: 'Format of the file (every record the current filters match, paged 1,000 at a time)',
    });
    if (!choice) return;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `activities.${choice.extension}`;
    const target = await this.prompts().saveAs({
      title: 'Export the Activity Feed',
      saveLabel: 'Export',
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      filters: { [choice.label]: [choice.extension] },
    });
    if (!target) return;
    await this.exportTo(target, choice.format, filter);
  }

  /**
   * Exports every record the filter in force matches to `target`, under a cancellable progress
   * notification, writing each page as it arrives through a file stream that is waited on when full
   * (constant memory however long the feed). A cancelled or failed export leaves no partial file.
   * The Export button ends here; tests call it directly.
   */
  async exportTo(
    target: vscode.Uri,
    format: ExportFormat,
    filter: ActivityFilter,
    control: ExportControl = {},
  ): Promise<ExportOutcome> {
    if (this.exporting) return { outcome: 'busy' };
    const name = fileName(target);
    const state: ExportState = { running: true, records: 0, pages: 0 };
    this.exporting = state;
    this.report({ ...state });
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
            this.report({ ...state });
            control.onProgress?.(p);
          });
        },
      );
    } finally {
      this.exporting = undefined;
      this.report({ ...state, running: false });
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
      void this.access.showError(error, 'Could not export the Activity Feed');
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
