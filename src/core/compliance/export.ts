// Export of the Activity Feed to JSON Lines or CSV, of any size in constant memory: each page is written
// out as it arrives and then dropped. The cursor only moves past a page that was written, and a page
// refused with a 429 is asked for again after the wait the service gave, so no record is lost or doubled.
import { ApiError } from '../api/errors';
import { backoffMs, sleep } from '../api/retry';
import type { ComplianceClient } from './client';
import type { ActivityFilter } from './filters';
import { activityType, type Activity } from './types';

export type ExportFormat = 'jsonl' | 'csv';

export interface ExportProgress {
  records: number;
  pages: number;
}

export interface ExportOptions {
  format: ExportFormat;
  pageSize?: number;
  signal?: AbortSignal;
  onProgress?: (p: ExportProgress) => void;
  /** how many more times a page refused with a 429 (after the client's own retries) is asked for */
  rateLimitRetries?: number;
  /** told the wait a 429 asked for, before waiting it (a shared limiter pauses every other caller too) */
  onRateLimited?: (waitMs: number) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const CSV_COLUMNS = ['id', 'activity_type', 'created_at', 'updated_at', 'record'] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. A field a spreadsheet would
 * take for a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return: a record's text is the
 * service's, and `=HYPERLINK(…)` or `=cmd|…` would run when the file is opened) gets a `'` first, which
 * spreadsheets read as "text" (OWASP's advice on CSV injection).
 */
export function csvField(v: unknown): string {
  const raw = v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  const s = /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvRow(a: Activity): string {
  return `${[a.id, activityType(a), a.created_at, a.updated_at, a].map(csvField).join(',')}\r\n`;
}

export async function exportActivities(
  client: ComplianceClient,
  filter: ActivityFilter,
  write: (chunk: string) => Promise<void> | void,
  o: ExportOptions,
): Promise<ExportProgress> {
  const progress: ExportProgress = { records: 0, pages: 0 };
  const wait = o.sleep ?? sleep;
  if (o.format === 'csv') await write(`${CSV_COLUMNS.join(',')}\r\n`);
  let after: string | undefined;
  for (;;) {
    let refused = 0;
    let page;
    for (;;) {
      try {
        page = await client.activityPage(filter, {
          ...(o.pageSize ? { pageSize: o.pageSize } : {}),
          ...(after ? { after } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
        });
        break;
      } catch (e) {
        // the same cursor again after the service's wait (without retry-after, backoff from 1 s doubling
        // up to 60 s: doc3 §7 rule 2): nothing skipped, nothing twice
        if (!(e instanceof ApiError && e.status === 429) || refused++ >= (o.rateLimitRetries ?? 20)) throw e;
        const ms = e.retryAfter !== undefined ? e.retryAfter * 1000 : backoffMs(refused);
        o.onRateLimited?.(ms);
        await wait(ms, o.signal);
      }
    }
    await write(page.data.map(a => (o.format === 'csv' ? csvRow(a) : `${JSON.stringify(a)}\n`)).join(''));
    progress.records += page.data.length;
    progress.pages++;
    o.onProgress?.({ ...progress });
    if (!page.has_more || !page.last_id || !page.data.length) return progress;
    after = page.last_id;
  }
}
