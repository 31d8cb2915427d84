// The Cases grid's "Compare with…": every cell run on the case file as it was at a git revision and as it is
// now, shown as one grid. Each cell pairs its two sides by case and model (core/diff/cells.ts, as
// `test --base` pairs them), says what the change did to its verdict once both have ended (same, fixed,
// broke, new, removed) and how the replies' words differ. Pure code over the grid's plain values; the
// extension and the webview share it through the protocol.
import type { StreamEvent } from '../api/types';
import { CHANGE_ORDER, cellChange, pairCells, type CellChange } from '../diff/cells';
import { diffWords } from '../diff/wordDiff';
import {
  cellKey,
  cellViewOf,
  notSentResult,
  queuedCell,
  type CellView,
  type ComparedCell,
  type GridCompare,
  type GridView,
} from './grid';
import type { CellKey, CellResult } from './types';

/** A cell's side has ended with a verdict: a cancelled or unfinished one says nothing about the prompt. */
const finished = (c: CellView | undefined) => c?.status === 'passed' || c?.status === 'failed' || c?.status === 'error';

/**
 * The cells of a comparison: every cell of the working copy in its order, each with its side at the
 * revision (queued) when the revision has it, then the cells only the revision has.
 */
export function comparedCells(base: readonly CellKey[], current: readonly CellKey[]): ComparedCell[] {
  const address = (c: CellKey) => ({ file: '', caseName: c.caseName, model: c.model });
  return pairCells(base.map(address), current.map(address)).map(({ base: b, current: c }) => {
    const key = (c ?? b)!;
    return {
      caseName: key.caseName,
      model: key.model,
      ...(b ? { base: queuedCell(b) } : {}),
      inCurrent: !!c,
    };
  });
}

/** The cases (rows) and models (columns) of a comparison: the working copy's first, then the revision's. */
export function comparedAxes(cells: readonly ComparedCell[]): { cases: string[]; models: string[] } {
  return { cases: [...new Set(cells.map(c => c.caseName))], models: [...new Set(cells.map(c => c.model))] };
}

/**
 * What the change did to a cell, once every side it has has ended: `current` is the working copy's side
 * (undefined: removed). A side at the revision that could not be sent counts as a failure, as the service
 * would have refused it; with the same verdict, fewer samples passing broke it. Undefined while a side runs, or
 * when one was cancelled.
 */
export function pairChange(base: CellView | undefined, current: CellView | undefined): CellChange | undefined {
  if (base && !finished(base)) return undefined;
  if (current && !finished(current)) return undefined;
  if (!base && !current) return undefined;
  // by pass state, then by how many samples passed (`4/5 → 2/5` broke it), as `test --base` says it
  const verdict = (c: CellView) => ({
    pass: c.status === 'passed',
    passedSamples: c.passedSamples,
    samples: c.samples,
  });
  const before = base ? (base.problems?.length ? null : verdict(base)) : undefined;
  return cellChange(before, current ? verdict(current) : undefined);
}

/**
 * The pair settled: its change, and the diff of the replies when both sides have one. Returns a new
 * value (the views are sent to the webview as they are).
 */
export function settle(pair: ComparedCell, current: CellView | undefined): ComparedCell {
  const change = pairChange(pair.base, pair.inCurrent ? current : undefined);
  const { change: _c, diff: _d, ...rest } = pair;
  if (!change) return rest;
  const both = pair.base && current && pair.inCurrent && !pair.base.problems?.length && !current.problems?.length;
  return { ...rest, change, ...(both ? { diff: diffWords(pair.base!.text, current.text) } : {}) };
}

/** "2 broke · 1 fixed · 3 same": the settled cells by change, the most urgent first. */
export function compareSummary(cells: readonly Pick<ComparedCell, 'change'>[]): string {
  const counts = new Map<CellChange, number>();
  for (const c of cells) if (c.change) counts.set(c.change, (counts.get(c.change) ?? 0) + 1);
  return CHANGE_ORDER.filter(c => counts.has(c))
    .map(c => `${counts.get(c)} ${c}`)
    .join(' · ');
}

/** What the page is told of a change at the revision's side: text to append, or the whole pair. */
export type CompareUpdate = { append: string } | { pair: ComparedCell };

const pairOf = (compare: GridCompare, c: CellKey) =>
  compare.cells.findIndex(p => p.caseName === c.caseName && p.model === c.model);

/**
 * A cell's side at the revision started, streamed an event or ended (as the matrix runner reports it): its
 * pair updated in `compare`, settled once the working copy's side (`current`) has ended too.
 */
export function onBaseUpdate(
  compare: GridCompare,
  r: CellResult,
  ev: StreamEvent | undefined,
  current: CellView | undefined,
): CompareUpdate[] {
  const at = pairOf(compare, r);
  const pair = compare.cells[at];
  if (!pair?.base) return [];
  const out: CompareUpdate[] = [];
  if (ev) {
    const base = pair.base;
    // the reply goes on: the retry it waited for is over
    if (base.retry) {
      delete base.retry;
      out.push({ pair: structuredClone(pair) });
    }
    if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') {
      base.text += ev.delta.text;
      out.push({ append: ev.delta.text });
    } else if (ev.type === 'content_block_start' && /tool_use$/.test(ev.content_block.type)) {
      const tool = typeof ev.content_block.name === 'string' ? ev.content_block.name : ev.content_block.type;
      base.toolCalls = [...(base.toolCalls ?? []), tool];
      out.push({ pair: structuredClone(pair) });
    }
    return out;
  }
  const base = r.status === 'running' ? { ...pair.base, status: r.status } : cellViewOf(r);
  const next = settle({ ...pair, base }, current);
  compare.cells[at] = next;
  return [{ pair: structuredClone(next) }];
}

/** The working copy's side of a cell ended: its pair settled when the revision's side has ended too. */
export function onCurrentEnded(compare: GridCompare, current: CellView): ComparedCell | undefined {
  const at = pairOf(compare, current);
  const pair = compare.cells[at];
  if (!pair) return undefined;
  compare.cells[at] = settle(pair, current);
  return structuredClone(compare.cells[at]);
}

/** The version at the revision as a comparison starts from it: its cells, and why any cannot be sent. */
export interface BaseVersionCells {
  ref: string;
  sha: string;
  notice?: string;
  /** the whole version cannot be used (errors, no request): every cell of the working copy is set against it */
  problems?: string[];
  cells: readonly (CellKey & { problems?: string[] })[];
}

/**
 * Puts a grid in compare mode for a run of the cells `inTarget` takes: their sides at the revision queued
 * (or not sent, with their problems), their pairs unsettled. The other cells keep what the comparison shown
 * has when it is of the same commit and the same cells (`kept`); otherwise every cell starts over, and the
 * run must cover them all.
 */
export function beginComparison(
  view: GridView,
  base: BaseVersionCells,
  current: readonly CellKey[],
  inTarget: (c: CellKey) => boolean,
): { kept: boolean } {
  const baseKeys = base.problems ? current : base.cells;
  const fresh = comparedCells(baseKeys, current);
  const old = view.compare;
  const same = (a: ComparedCell, b: ComparedCell | undefined) =>
    !!b && a.caseName === b.caseName && a.model === b.model && a.inCurrent === b.inCurrent && !a.base === !b.base;
  const kept =
    !!old &&
    old.ref === base.ref &&
    old.sha === base.sha &&
    old.cells.length === fresh.length &&
    fresh.every((p, i) => same(p, old.cells[i]));
  const problemsOf = new Map(base.cells.map(c => [cellKey(c.caseName, c.model), c.problems]));
  const cells = fresh.map((p, i): ComparedCell => {
    if (kept && !inTarget(p)) return old.cells[i]!;
    if (!p.base) return p;
    const problems = base.problems ?? problemsOf.get(cellKey(p.caseName, p.model));
    return problems?.length ? { ...p, base: cellViewOf(notSentResult(p, problems), undefined, problems) } : p;
  });
  view.compare = { ref: base.ref, sha: base.sha, ...(base.notice ? { notice: base.notice } : {}), cells };
  Object.assign(view, comparedAxes(cells));
  return { kept };
}

/** Back to the grid of the working copy alone: its own rows and columns. */
export function endComparison(view: GridView): void {
  delete view.compare;
  view.cases = [...new Set(view.cells.map(c => c.caseName))];
  view.models = [...new Set(view.cells.map(c => c.model))];
}
