// The one message protocol between the extension and the Cases webview: a grid of a case file's
// cases (rows) by models (columns). Neither side imports `vscode` or the DOM here. The webview posts `ready`
// first; the extension posts nothing before that, and answers every `ready` (a webview is rebuilt each time
// its tab comes back) with the whole grid as it is now. Cells stream: `patch` appends reply text, batched so
// that at most one message goes out per frame.
import type { CellView, GridView } from '../core/cases/grid';
import type { ComparedCell } from '../core/cases/grid';
import { boundedString, record, type Ready } from './common';

export const CASES_VIEW_TYPE = 'promptwright.cases';

// the grid's view of a case file (core/cases/grid.ts): what the webview draws
export { cellKey, progressSummary } from '../core/cases/grid';
export type { CellView, GridView, SampleView } from '../core/cases/grid';
export type { AssertionResult, HumanGrade } from '../core/cases/types';
// compare mode: each cell at a git revision beside the working copy's (core/cases/gridCompare.ts)
export { compareSummary } from '../core/cases/gridCompare';
export type { ComparedCell, GridCompare } from '../core/cases/grid';
export type { CellChange } from '../core/diff/cells';

/**
 * A change to one cell: reply text to append, or the whole cell (a new status, the verdict, an error); in
 * compare mode `side: 'base'` for its side at the revision, and `compared` for the pair (the side at the
 * revision, and once both have ended, the change and the diff of the replies).
 */
export type CellPatch =
  | { caseName: string; model: string; append: string; side?: 'base' }
  | { caseName: string; model: string; cell: CellView }
  | { caseName: string; model: string; compared: ComparedCell };

export type ToCasesWebview =
  /** everything: a new run, a reload, a restored panel */
  | { type: 'grid'; grid: GridView }
  /** the changes since the last message, in order; `running` is the grid's running state after them */
  | { type: 'patch'; patches: CellPatch[]; running: boolean; savedTo?: string; savedPath?: string };

/** What a re-run covers: one cell, one row (a case on every model), or everything. */
export type RerunTarget =
  { scope: 'cell'; caseName: string; model: string } | { scope: 'row'; caseName: string } | { scope: 'all' };

export type FromCasesWebview =
  | Ready
  | { type: 'rerun'; target: RerunTarget }
  | { type: 'cancel' }
  /** "Run All as Batch": every cell as a Message Batch, at half the price; the cells fill when it ends */
  | { type: 'run-batch' }
  /** "Run Sample…": the extension asks how many cases, then runs a seeded sample of them */
  | { type: 'run-sample' }
  | { type: 'open-case-file' }
  /** "Compare with…": the extension asks which git revision, then runs every cell on both versions */
  | { type: 'compare' }
  /** back to the grid of the working copy alone */
  | { type: 'leave-compare' }
  /** a link in a reply (rendered Markdown): http(s) only, opened in the browser */
  | { type: 'open-link'; url: string }
  /**
   * A person's grade of a sample's reply: 👍 (`up`), 👎 (`down`) or none; `note: true` asks for a note to keep
   * with it (the extension asks, with an input box).
   */
  | { type: 'grade'; caseName: string; model: string; sample: number; grade: 'up' | 'down' | 'none'; note?: true };

/** What the webview keeps with setState: which case file it shows (the serializer restores from it). */
export interface CasesWebviewState {
  /** the case file's URI, as a string */
  caseFile: string;
  selected?: { caseName: string; model: string };
  /** the detail pane's height, as the person left it (px) */
  detailHeight?: number;
}

// Bounds on what the webview may send: generous for people, small enough that a bad message costs nothing.
const MAX_NAME_LENGTH = 1000;
const MAX_URI_LENGTH = 4096;
/** more samples than a case file may ask for (core/cases/caseFile.ts: 100) is not a sample */
const MAX_SAMPLES = 100;

const name = (v: unknown) => boundedString(v, MAX_NAME_LENGTH);

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
    case 'run-batch':
    case 'run-sample':
    case 'open-case-file':
    case 'compare':
    case 'leave-compare':
      return { type: o.type };
    case 'rerun': {
      const target = parseTarget(o.target);
      return target ? { type: 'rerun', target } : undefined;
    }
    case 'open-link': {
      const url = boundedString(o.url, MAX_URI_LENGTH);
      return url && /^https?:\/\//i.test(url) ? { type: 'open-link', url } : undefined;
    }
    case 'grade': {
      const caseName = name(o.caseName);
      const model = name(o.model);
      const sample = o.sample;
      const grade = o.grade === 'up' || o.grade === 'down' || o.grade === 'none' ? o.grade : undefined;
      if (caseName === undefined || !model || !grade) return undefined;
      if (typeof sample !== 'number' || !Number.isInteger(sample) || sample < 0 || sample >= MAX_SAMPLES)
        return undefined;
      return { type: 'grade', caseName, model, sample, grade, ...(o.note === true ? { note: true as const } : {}) };
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
  const height = o?.detailHeight;
  const detailHeight = typeof height === 'number' && Number.isFinite(height) && height > 0 ? height : undefined;
  return {
    caseFile,
    ...(caseName !== undefined && model ? { selected: { caseName, model } } : {}),
    ...(detailHeight ? { detailHeight } : {}),
  };
}
