// The one message protocol between the extension and the Compare webview: a request's versions side by
// side (columns: a model and a version each), streaming at once. Neither side imports `vscode` or the DOM
// here. The webview posts `ready` first; the extension posts nothing before that, and answers every `ready`
// with the whole comparison as it is now. Stream events come batched, at most one message per frame.
import { boundedString, finite, keptError, keptMessage, record, type ErrorInfo, type Ready } from './common';
import type { Message, StreamEvent } from '../core/api/types';
import type { ColumnStatus } from '../core/compare/runner';
import type { DiffPart } from '../core/diff/wordDiff';

export const COMPARE_VIEW_TYPE = 'promptwright.compare';

// each column's reply and its events, as the response panel's (webview/common/reply.ts draws both)
export type { Message, StreamEvent } from '../core/api/types';

// every status a kept column may have (the restored state is checked against it)
const COLUMN_STATUSES: readonly ColumnStatus[] = ['queued', 'running', 'done', 'error', 'cancelled', 'not-sent'];

/** One column as the page shows it. */
export interface ColumnView {
  /** its place, from 0 */
  index: number;
  model: string;
  /** "working copy", "HEAD", "origin/main", "other.prompt.yaml" */
  version: string;
  status: ColumnStatus;
  /** why it was not sent (the version has errors, or is not there) */
  problems?: string[];
  /** the reply so far (a snapshot: later events build on it), or the whole reply once it ended */
  message?: Message;
  error?: ErrorInfo;
  latencyMs?: number;
  requestId?: string;
  /** 1 for the first run, then one more for each "Run again" */
  sample: number;
  /** after "Run again": what differs from the previous sample (empty: nothing); undefined for a first sample */
  differs?: string[];
}

export interface CompareView {
  runId: number;
  /** the request file compared, as shown */
  file: string;
  columns: ColumnView[];
  running: boolean;
}

/** A word diff of two columns' reply text. */
export interface DiffView {
  a: number;
  b: number;
  parts: DiffPart[];
}

export type ToCompareWebview =
  /** everything: a new comparison, a new sample, a reload */
  | { type: 'show'; view: CompareView }
  /** stream events since the last message, in order, each with its column */
  | { type: 'events'; runId: number; items: { column: number; events: StreamEvent[] }[] }
  /** a column started, or ended (its whole reply, error, latency, request-id) */
  | { type: 'column'; runId: number; column: ColumnView }
  | { type: 'running'; runId: number; running: boolean }
  | { type: 'diff'; diff: DiffView };

export type FromCompareWebview =
  | Ready
  | { type: 'run-again' }
  | { type: 'cancel' }
  | { type: 'diff'; a: number; b: number }
  | { type: 'open-link'; url: string };

/** What the webview keeps with setState, to show the comparison again after a reload. */
export type CompareWebviewState = CompareView;

/** More columns than this is not a comparison a page can show. */
export const MAX_COLUMNS = 6;

const columnIndex = (v: unknown) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < MAX_COLUMNS ? v : undefined;

/** Checks a message from the webview (it is untrusted input); undefined for anything malformed. */
export function parseFromCompareWebview(raw: unknown): FromCompareWebview | undefined {
  const o = record(raw);
  switch (o?.type) {
    case 'ready':
    case 'run-again':
    case 'cancel':
      return { type: o.type };
    case 'diff': {
      const a = columnIndex(o.a);
      const b = columnIndex(o.b);
      return a !== undefined && b !== undefined && a !== b ? { type: 'diff', a, b } : undefined;
    }
    case 'open-link': {
      const url = boundedString(o.url, 4096);
      return url && /^https?:\/\//i.test(url) ? { type: 'open-link', url } : undefined;
    }
    default:
      return undefined;
  }
}

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x): x is string => typeof x === 'string') ? v : undefined;

function keptColumn(raw: unknown, index: number): ColumnView | undefined {
  const o = record(raw);
  const status = COLUMN_STATUSES.find(x => x === o?.status);
  if (!o || !status || typeof o.model !== 'string' || typeof o.version !== 'string') return undefined;
  const sample = finite(o.sample);
  const message = keptMessage<Message>(o.message);
  const error = keptError<ErrorInfo>(o.error);
  const problems = strings(o.problems);
  const differs = strings(o.differs);
  const latencyMs = finite(o.latencyMs);
  return {
    index,
    model: o.model,
    version: o.version,
    status,
    sample: sample !== undefined && sample >= 1 ? sample : 1,
    ...(problems ? { problems } : {}),
    ...(message ? { message } : {}),
    ...(error ? { error } : {}),
    ...(latencyMs !== undefined ? { latencyMs } : {}),
    ...(typeof o.requestId === 'string' ? { requestId: o.requestId } : {}),
    ...(differs ? { differs } : {}),
  };
}

/**
 * The state a reloaded page hands back (what it saved with setState), or undefined when it is not a
 * comparison: from one to MAX_COLUMNS columns, each with its model, version and status.
 */
export function parseCompareWebviewState(raw: unknown): CompareWebviewState | undefined {
  const o = record(raw);
  const runId = finite(o?.runId);
  if (!o || runId === undefined || typeof o.file !== 'string') return undefined;
  if (!Array.isArray(o.columns) || !o.columns.length || o.columns.length > MAX_COLUMNS) return undefined;
  const columns = o.columns.map(keptColumn);
  if (!columns.every(c => c !== undefined)) return undefined;
  return { runId, file: o.file, columns, running: o.running === true };
}
