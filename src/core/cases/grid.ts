// The Cases grid's model: a case file's cases (rows) by models (columns), each cell's view of the core's result
// (live or read back from the results file). Pure code over plain values; the extension and the webview share
// it through the protocol.
import type { Usage } from '../api/types';
import type { CellChange } from '../diff/cells';
import type { DiffPart } from '../diff/wordDiff';
import { trajectoryLines } from '../tools/loop';
import type { AssertionResult, CellKey, CellResult, CellStatus, HumanGrade, SampleResult } from './types';

/** How a cell's verdict compares with the last saved run of the same case file (core/cases/results.ts). */
export type Change = 'new' | 'fixed' | 'broke' | 'same';

/** Why a request failed, as a person can act on it: `error.type`, the message and the request-id. */
interface CellError {
  type: string;
  message: string;
  requestId?: string;
}

/** The retry the API client is waiting on (the spec's retry rules), shown while the cell waits. */
interface CellRetry {
  attempt: number;
  maxAttempts: number;
  inMs: number;
  type: string;
}

/** One sample of a cell, as the detail pane lists it. */
export interface SampleView {
  status: SampleResult['status'];
  text: string;
  assertions: AssertionResult[];
  error?: CellError;
  usage?: Usage;
  stopReason?: string | null;
  latencyMs?: number;
  requestId?: string;
  /** what the reply cost (null: unknown, `costNote` says why), and its judge's calls */
  costUsd: number | null;
  costNote?: string;
  judgeCostUsd?: number | null;
  judgeCalls?: number;
  humanGrade?: HumanGrade;
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
  /** the tools the reply called, by name (a tool-use loop's: every turn's) */
  toolCalls?: string[];
  /** a tool-use loop's model requests, then each call with its answer and where that came from, in words */
  trajectory?: string[];
  inputTokens?: number;
  outputTokens?: number;
  /** the usage as the service sent it (the detail says it in words, the cache's part with it) */
  usage?: Usage;
  stopReason?: string | null;
  latencyMs?: number;
  requestId?: string;
  change?: Change;
  /** the Message Batch the cell waits in (`queued in batch`), or whose results it holds */
  batchId?: string;
  /** every sample (one for a cell that runs one), how many passed, and how many had to */
  samples?: SampleView[];
  passedSamples?: number;
  minPass?: number;
  /** samples to run, and how many have settled (while it runs) */
  repeat?: number;
  samplesDone?: number;
  flaky?: boolean;
  /** every sample's cost summed (null: unknown), and its judges' */
  costUsd?: number | null;
  judgeCostUsd?: number | null;
}

/** One cell of a comparison: a case on a model, at the revision and in the working copy. */
export interface ComparedCell {
  caseName: string;
  model: string;
  /** the cell at the revision; absent when the revision has no such cell (it is new) */
  base?: CellView;
  /** whether the working copy has the cell (its view is the grid's own cell); false: removed since */
  inCurrent: boolean;
  /** what the change did to the verdict, once every side there is has ended */
  change?: CellChange;
  /** the word diff of the two replies' text, once both sides have ended */
  diff?: DiffPart[];
}

/** A grid in compare mode (core/cases/gridCompare.ts): the revision, and each cell's other side. */
export interface GridCompare {
  /**
   * the revision as the person named it (`HEAD`, `main`, a tag), and the commit it named then; or the working
   * copy (sha empty) when the other side is an improved prompt
   */
  ref: string;
  sha: string;
  /** what the cells ran on when it is not the working copy: `the improved prompt` */
  current?: string;
  /** why the revision's version runs nothing as it is (the case file is not there, or cannot be used) */
  notice?: string;
  cells: ComparedCell[];
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
  /** each case's vars as text (`name=value …`), by case name: what the grid's filter box searches besides names */
  caseVars?: Record<string, string>;
  models: string[];
  cells: CellView[];
  running: boolean;
  /** the grid holds results read back from the results file (a reload), not a run of this window */
  restored?: boolean;
  /** where the results were saved: relative to the workspace, or "the workspace storage" */
  savedTo?: string;
  /** the results file's full path (a tooltip) */
  savedPath?: string;
  /** a problem with the whole run (the case file does not parse, the request file is missing, …) */
  notice?: string;
  /**
   * Compare mode ("Compare with…"): each cell's side at a git revision. `cells` stay the working copy's;
   * `cases` and `models` then also hold the rows and columns only the revision has.
   */
  compare?: GridCompare;
}

/** The key of a cell in maps (and of core/cases/results.ts's comparison). */
export const cellKey = (caseName: string, model: string): string => `${caseName}\u0000${model}`;

/** The error type of a cell whose filled request had errors, so nothing was sent (saved like any failure). */
const NOT_SENT = 'not_sent';

/** The names of the tools a reply called (tool_use and server_tool_use blocks), or every call of a loop. */
function toolCallsOf(r: CellResult): string[] {
  if (r.outcome.toolCalls) return r.outcome.toolCalls.map(c => c.name);
  const names: string[] = [];
  for (const b of r.outcome.message?.content ?? [])
    if ((b.type === 'tool_use' || b.type === 'server_tool_use') && typeof b.name === 'string') names.push(b.name);
  return names;
}

/** A sample's view: what came, its verdict and cost, a person's grade. */
function sampleViewOf(s: SampleResult): SampleView {
  const o = s.outcome;
  const requestId = o.requestId ?? o.error?.requestId;
  return {
    status: s.status,
    text: o.text,
    assertions: s.assertions,
    ...(o.error && s.status !== 'cancelled' ? { error: { ...o.error } } : {}),
    ...(o.usage ? { usage: o.usage } : {}),
    ...(o.stopReason !== undefined ? { stopReason: o.stopReason } : {}),
    ...(o.latencyMs !== undefined ? { latencyMs: Math.round(o.latencyMs) } : {}),
    ...(requestId ? { requestId } : {}),
    costUsd: s.costUsd,
    ...(s.costNote ? { costNote: s.costNote } : {}),
    ...(s.judge ? { judgeCostUsd: s.judge.costUsd, judgeCalls: s.judge.calls } : {}),
    ...(s.humanGrade ? { humanGrade: s.humanGrade } : {}),
  };
}

/** A cell's view of a result; `problems` are the filled request's errors when nothing was sent. */
export function cellViewOf(r: CellResult, change?: Change, problems?: string[]): CellView {
  const o = r.outcome;
  const tools = toolCallsOf(r);
  const requestId = o.requestId ?? o.error?.requestId;
  return {
    caseName: r.caseName,
    model: r.model,
    status: r.status,
    text: o.text,
    assertions: r.assertions,
    // a cancelled cell's "error" is the cancel itself: its badge says so
    ...(problems?.length
      ? { problems }
      : o.error && o.error.type !== NOT_SENT && r.status !== 'cancelled'
        ? { error: { ...o.error } }
        : {}),
    ...(tools.length ? { toolCalls: tools } : {}),
    ...(o.turns !== undefined ? { trajectory: trajectoryLines(o) } : {}),
    ...(o.usage?.input_tokens !== undefined ? { inputTokens: o.usage.input_tokens } : {}),
    ...(o.usage?.output_tokens !== undefined ? { outputTokens: o.usage.output_tokens } : {}),
    ...(o.usage ? { usage: o.usage } : {}),
    ...(o.stopReason !== undefined ? { stopReason: o.stopReason } : {}),
    ...(o.latencyMs !== undefined ? { latencyMs: Math.round(o.latencyMs) } : {}),
    ...(requestId ? { requestId } : {}),
    ...(o.batchId ? { batchId: o.batchId } : {}),
    ...(change ? { change } : {}),
    ...(r.samples
      ? {
          samples: r.samples.map(sampleViewOf),
          passedSamples: r.passedSamples ?? 0,
          minPass: r.minPass ?? r.samples.length,
          repeat: r.samples.length,
          flaky: r.flaky ?? false,
        }
      : {}),
    ...(r.costUsd !== undefined ? { costUsd: r.costUsd } : {}),
    ...(r.judgeCostUsd !== undefined ? { judgeCostUsd: r.judgeCostUsd } : {}),
  };
}

/** A cell that has not run (yet). */
export function queuedCell(cell: CellKey): CellView {
  return { caseName: cell.caseName, model: cell.model, status: 'queued', text: '', assertions: [] };
}

/** The result kept for a cell whose filled request had errors: a failure, saved and compared like one. */
export function notSentResult(cell: CellKey, problems: string[]): CellResult {
  return {
    caseName: cell.caseName,
    model: cell.model,
    status: 'error',
    pass: false,
    assertions: [],
    outcome: { text: '', error: { type: NOT_SENT, message: `The filled request has errors: ${problems.join('; ')}` } },
  };
}

/** The problems of a not-sent result read back from the results file. */
export function problemsOf(r: CellResult): string[] | undefined {
  const e = r.outcome.error;
  if (e?.type !== NOT_SENT) return undefined;
  return [e.message.replace(/^The filled request has errors: /, '')];
}

/** "4/6 · 1 failed": how far a run is, for the status bar and the grid's toolbar. */
export function progressSummary(cells: readonly Pick<CellView, 'status' | 'flaky'>[]): string {
  const done = cells.filter(c => c.status !== 'queued' && c.status !== 'running').length;
  const failed = cells.filter(c => c.status === 'failed').length;
  const errors = cells.filter(c => c.status === 'error').length;
  const cancelled = cells.filter(c => c.status === 'cancelled').length;
  const expired = cells.filter(c => c.status === 'expired').length;
  const flaky = cells.filter(c => c.flaky).length;
  const parts = [`${done}/${cells.length}`];
  if (failed) parts.push(`${failed} failed`);
  if (errors) parts.push(`${errors} ${errors === 1 ? 'error' : 'errors'}`);
  if (cancelled) parts.push(`${cancelled} cancelled`);
  if (expired) parts.push(`${expired} expired`);
  if (flaky) parts.push(`${flaky} flaky`);
  return parts.join(' · ');
}
