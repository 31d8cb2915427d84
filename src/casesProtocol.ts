// The one message protocol between the extension and the Cases webview (issue 15): a grid of a case file's
// cases (rows) by models (columns). Neither side imports `vscode` or the DOM here. The webview posts `ready`
// first; the extension posts nothing before that, and answers every `ready` (a webview is rebuilt each time
// its tab comes back) with the whole grid as it is now. Cells stream: `patch` appends reply text, batched so
// that at most one message goes out per frame.
import type { AssertionResult, CellStatus } from './core/cases/types';

export type { AssertionResult, AssertionType, CellStatus } from './core/cases/types';

/** How a cell's verdict compares with the last saved run of the same case file (core/cases/results.ts). */
export type Change = 'new' | 'fixed' | 'broke' | 'same';

/** Why a request failed, as a person can act on it: `error.type`, the message and the request-id. */
export interface CellError {
  type: string;
  message: string;
  requestId?: string;
}

/** The retry the API client is waiting on (the spec's retry rules), shown while the cell waits. */
export interface CellRetry {
  attempt: number;
  maxAttempts: number;
  inMs: number;
  type: string;
}

/** One cell: a case on a model, everything the grid and its detail pane show. */
export interface CellView {
  caseName: string;
  model: string;
  status: CellStatus;
  /** the reply's text so far (all of it once the cell is done) */
  text: string;
  assertions: AssertionResult[];
  /** the filled request's errors: the reason nothing was sent */
  problems?: string[];
  error?: CellError;
  retry?: CellRetry;
  /** the tools the reply called, by name */
  toolCalls?: string[];
  inputTokens?: number;
  outputTokens?: number;
  stopReason?: string | null;
  latencyMs?: number;
  requestId?: string;
  change?: Change;
}

export interface GridView {
  /** the case file's name, and its path relative to the workspace (titles and tooltips) */
  caseFile: string;
  caseFilePath: string;
  /** the case file's URI, as a string: what the webview keeps so that a reload restores the same grid */
  caseFileUri: string;
  /** the request file the case file names, as written there */
  request: string;
  cases: string[];
  models: string[];
  cells: CellView[];
  running: boolean;
  /** the grid holds results read back from the results file (a reload), not a run of this window */
  restored?: boolean;
  /** where the results were saved, relative to the workspace */
  savedTo?: string;
  /** a problem with the whole run (the case file does not parse, the request file is missing, …) */
  notice?: string;
}

/** A change to one cell: reply text to append, or the whole cell (a new status, the verdict, an error). */
export type CellPatch =
  { caseName: string; model: string; append: string } | { caseName: string; model: string; cell: CellView };

export type ToCasesWebview =
  /** everything: a new run, a reload, a restored panel */
  | { type: 'grid'; grid: GridView }
  /** the changes since the last message, in order; `running` is the grid's running state after them */
  | { type: 'patch'; patches: CellPatch[]; running: boolean; savedTo?: string };

/** What a re-run covers: one cell, one row (a case on every model), or everything. */
export type RerunTarget =
  { scope: 'cell'; caseName: string; model: string } | { scope: 'row'; caseName: string } | { scope: 'all' };

export type FromCasesWebview =
  { type: 'ready' } | { type: 'rerun'; target: RerunTarget } | { type: 'cancel' } | { type: 'open-case-file' };

/** What the webview keeps with setState: which case file it shows (the serializer restores from it). */
export interface CasesWebviewState {
  /** the case file's URI, as a string */
  caseFile: string;
  selected?: { caseName: string; model: string };
}

/** The key of a cell in maps (and of core/cases/results.ts's comparison). */
export const cellKey = (caseName: string, model: string): string => `${caseName}\u0000${model}`;

// Bounds on what the webview may send: generous for people, small enough that a bad message costs nothing.
const MAX_NAME_LENGTH = 1000;
const MAX_URI_LENGTH = 4096;

const record = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const name = (v: unknown) => (typeof v === 'string' && v.length <= MAX_NAME_LENGTH ? v : undefined);

function parseTarget(raw: unknown): RerunTarget | undefined {
  const o = record(raw);
  if (o?.scope === 'all') return { scope: 'all' };
  const caseName = name(o?.caseName);
  if (caseName === undefined) return undefined;
  if (o?.scope === 'row') return { scope: 'row', caseName };
  const model = name(o?.model);
  return o?.scope === 'cell' && model ? { scope: 'cell', caseName, model } : undefined;
}

/** Checks a message from the webview (it is untrusted input); undefined for anything malformed. */
export function parseFromCasesWebview(raw: unknown): FromCasesWebview | undefined {
  const o = record(raw);
  switch (o?.type) {
    case 'ready':
    case 'cancel':
    case 'open-case-file':
      return { type: o.type };
    case 'rerun': {
      const target = parseTarget(o.target);
      return target ? { type: 'rerun', target } : undefined;
    }
    default:
      return undefined;
  }
}

/** The state a restored panel hands back (what the webview saved), or undefined when it is not one. */
export function parseCasesWebviewState(raw: unknown): CasesWebviewState | undefined {
  const o = record(raw);
  const caseFile = o?.caseFile;
  if (typeof caseFile !== 'string' || !caseFile || caseFile.length > MAX_URI_LENGTH) return undefined;
  const selected = record(o?.selected);
  const caseName = name(selected?.caseName);
  const model = name(selected?.model);
  return { caseFile, ...(caseName !== undefined && model ? { selected: { caseName, model } } : {}) };
}

/** "4/6 · 1 failed": how far a run is, for the status bar and the grid's toolbar. */
export function progressSummary(cells: readonly Pick<CellView, 'status'>[]): string {
  const done = cells.filter(c => c.status !== 'queued' && c.status !== 'running').length;
  const failed = cells.filter(c => c.status === 'failed').length;
  const errors = cells.filter(c => c.status === 'error').length;
  const cancelled = cells.filter(c => c.status === 'cancelled').length;
  const parts = [`${done}/${cells.length}`];
  if (failed) parts.push(`${failed} failed`);
  if (errors) parts.push(`${errors} ${errors === 1 ? 'error' : 'errors'}`);
  if (cancelled) parts.push(`${cancelled} cancelled`);
  return parts.join(' · ');
}
