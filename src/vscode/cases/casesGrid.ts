// The Cases grid's state on the extension's side: the grid shown (one case file's cells and their views), made
// for a run or restored, and each change of a run (a cell started, streamed, retried, ended; a comparison's side
// settled) applied to it and sent to the panel as a patch. The runner (casesRunner.ts) runs; this keeps what shows.
import * as vscode from 'vscode';
import { errorType } from '../../core/api/errors';
import type { CellUpdate } from '../../core/cases/engine';
import { cellKey, cellViewOf, problemsOf, queuedCell, type CellView, type GridView } from '../../core/cases/grid';
import { onBaseUpdate, onCurrentEnded, type CompareUpdate } from '../../core/cases/gridCompare';
import type { SavedGrade, SavedResults } from '../../core/cases/results';
import type { CaseFile, CellKey, CellResult, HumanGrade } from '../../core/cases/types';
import { coreBundle } from '../platform/lazy';
import type { CellPatch } from '../../protocol/cases';
import type { ReadyCell } from './casesCompare';
import type { CasesResults } from './casesResults';
import type { CasesStatus } from './casesStatus';

const fileName = (uri: vscode.Uri) => uri.path.split('/').pop() ?? uri.path;

/** The grid shown: one case file's cells and their views. */
export interface Grid {
  caseUri: vscode.Uri;
  view: GridView;
  /** the same objects as view.cells, by cellKey */
  cells: Map<string, CellView>;
  /** the grades people gave this case file's replies (👍 / 👎), kept with its results */
  grades: SavedGrade[];
  /** the improved request its cells ran on (compare mode with an improved prompt) */
  improved?: Record<string, unknown>;
}

/** Where a run shows itself: the Cases panel (it batches the patches, at most one message a frame). */
export interface GridDisplay {
  /** opens the panel, or reveals it where it is */
  open(): void;
  /** the whole grid, at once (a new run, a notice, a restored panel) */
  showGrid(): void;
  /** a change of one cell, or news of where the results were saved */
  patch(patch: CellPatch | undefined, saved?: { savedTo: string; savedPath: string }): void;
  /** what is batched, now (a run ended) */
  flush(): void;
}

/** The grid shown and what changes it: one for the runner, which reads and replaces `current`. */
export class GridState {
  /** the grid shown (or last run, while its cells run on with the panel closed) */
  current: Grid | undefined;

  constructor(
    private readonly view: GridDisplay,
    private readonly status: CasesStatus,
    private readonly results: CasesResults,
  ) {}

  /** The grid to run in: the one shown when it is this file's with the same rows and columns, else a new one. */
  gridFor(
    caseUri: vscode.Uri,
    p: { file: CaseFile; cells: readonly CellKey[] },
    saved: SavedResults | undefined,
  ): Grid {
    const cases = [...new Set(p.cells.map(c => c.caseName))];
    const models = [...new Set(p.cells.map(c => c.model))];
    const shown = this.current;
    // the working copy's own rows and columns (in compare mode the grid shows the revision's too)
    const shownCells = shown?.view.cells ?? [];
    if (
      shown &&
      shown.caseUri.toString() === caseUri.toString() &&
      sameList([...new Set(shownCells.map(c => c.caseName))], cases) &&
      sameList([...new Set(shownCells.map(c => c.model))], models)
    ) {
      shown.view.request = p.file.request;
      shown.view.caseVars = varsTextOf(p.file);
      return shown;
    }
    const grid = this.newGrid(caseUri, p.file.request, p.cells, saved);
    grid.view.caseVars = varsTextOf(p.file);
    return grid;
  }

  /** A grid of these cells, each showing its saved result when there is one. */
  newGrid(caseUri: vscode.Uri, request: string, keys: readonly CellKey[], saved: SavedResults | undefined): Grid {
    const byKey = new Map((saved?.results ?? []).map(r => [cellKey(r.caseName, r.model), r]));
    const cells = new Map<string, CellView>();
    for (const c of keys) {
      const r = byKey.get(cellKey(c.caseName, c.model));
      cells.set(cellKey(c.caseName, c.model), r ? cellViewOf(r, undefined, problemsOf(r)) : queuedCell(c));
    }
    const view: GridView = {
      caseFile: fileName(caseUri),
      caseFilePath: vscode.workspace.asRelativePath(caseUri),
      caseFileUri: caseUri.toString(),
      request,
      cases: [...new Set(keys.map(c => c.caseName))],
      models: [...new Set(keys.map(c => c.model))],
      cells: keys.map(c => cells.get(cellKey(c.caseName, c.model))!),
      running: false,
    };
    return { caseUri, view, cells, grades: saved?.grades ?? [] };
  }

  /** A cell started, one of its samples streamed an event or settled, or it ended. */
  onUpdate(grid: Grid, r: CellResult, u: CellUpdate, repeat: number): void {
    const k = cellKey(r.caseName, r.model);
    let view = grid.cells.get(k);
    if (!view) return;
    if (u.kind === 'event') {
      // the reply goes on: the retry it waited for is over
      if (view.retry) this.update(grid, (view = { ...view, retry: undefined }));
      // the cell shows its first sample as it streams; the others show in its detail once they end
      if (u.sample !== 0) return;
      const ev = u.ev;
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') {
        view.text += ev.delta.text;
        this.view.patch({ caseName: r.caseName, model: r.model, append: ev.delta.text });
      } else if (ev.type === 'content_block_start' && /tool_use$/.test(ev.content_block.type)) {
        const tool = typeof ev.content_block.name === 'string' ? ev.content_block.name : ev.content_block.type;
        this.update(grid, { ...view, toolCalls: [...(view.toolCalls ?? []), tool] });
      }
      return;
    }
    if (u.kind === 'started') this.update(grid, { ...view, status: 'running', repeat, samplesDone: 0 });
    else if (u.kind === 'sample') this.update(grid, { ...view, samplesDone: (view.samplesDone ?? 0) + 1 });
    else {
      this.update(grid, cellViewOf(r));
      this.status.show(grid.view.caseFile, grid.view.cells, true);
    }
  }

  /** The client waits to retry a cell's request (429, 529, …: the spec's rules): the cell says so. */
  retrying(grid: Grid, cell: ReadyCell, attempt: number, maxAttempts: number, inMs: number, e: Error): void {
    const retry = { attempt, maxAttempts, inMs, type: errorType(e) };
    if (cell.base) {
      const pair = grid.view.compare?.cells.find(p => p.caseName === cell.caseName && p.model === cell.model);
      if (!pair?.base) return;
      pair.base = { ...pair.base, retry };
      this.patchPair(grid, cell, { pair });
      return;
    }
    const view = grid.cells.get(cellKey(cell.caseName, cell.model));
    if (view) this.update(grid, { ...view, retry });
  }

  /** A cell's side at the revision started, streamed its first sample or ended (compare mode). */
  baseUpdated(grid: Grid, r: CellResult, u: CellUpdate): void {
    const compare = grid.view.compare;
    if (!compare || u.kind === 'sample' || (u.kind === 'event' && u.sample !== 0)) return;
    const current = grid.cells.get(cellKey(r.caseName, r.model));
    const ev = u.kind === 'event' ? u.ev : undefined;
    for (const c of onBaseUpdate(compare, r, ev, current)) this.patchPair(grid, r, c);
  }

  private patchPair(grid: Grid, c: CellKey, u: CompareUpdate): void {
    if (grid !== this.current) return;
    const at = { caseName: c.caseName, model: c.model };
    this.view.patch(
      'append' in u ? { ...at, append: u.append, side: 'base' } : { ...at, compared: structuredClone(u.pair) },
    );
  }

  /** Replaces a cell's view (in the grid and for the webview). */
  update(grid: Grid, view: CellView): void {
    const k = cellKey(view.caseName, view.model);
    if (view.retry === undefined) delete view.retry;
    grid.cells.set(k, view);
    const at = grid.view.cells.findIndex(c => cellKey(c.caseName, c.model) === k);
    if (at >= 0) grid.view.cells[at] = view;
    // a copy: the text of the view in the grid grows by appends, which follow this patch as patches of their own
    if (grid === this.current)
      this.view.patch({ caseName: view.caseName, model: view.model, cell: structuredClone(view) });
    // compare mode: a side that ended settles its pair when the other has ended too
    const compare = grid.view.compare;
    const pair = compare && view.status !== 'queued' && view.status !== 'running' && onCurrentEnded(compare, view);
    if (pair) this.patchPair(grid, view, { pair });
  }

  /**
   * A person's grade of one sample's reply (the detail's 👍 / 👎, with a note), or none: kept with the results by
   * the case and the reply's text, so the same reply keeps it on a re-run; every sample of the case that has
   * the same text shows it at once.
   */
  async grade(caseName: string, model: string, sample: number, grade: HumanGrade | undefined): Promise<void> {
    const grid = this.current;
    const text = grid?.cells.get(cellKey(caseName, model))?.samples?.[sample]?.text;
    if (!grid || text === undefined) return;
    const core = coreBundle();
    grid.grades = core.withGrade(grid.grades, caseName, text, grade);
    for (const view of [...grid.cells.values()]) {
      if (view.caseName !== caseName || !view.samples?.some(s => s.text === text)) continue;
      const samples = view.samples.map(s => {
        if (s.text !== text) return s;
        const { humanGrade: _old, ...rest } = s;
        return grade ? { ...rest, humanGrade: grade } : rest;
      });
      this.update(grid, { ...view, samples });
    }
    const saved = await this.results.read(grid.caseUri);
    await this.results.write(grid.caseUri, saved?.results ?? [], grid.grades);
    this.view.flush();
  }

  /** Saves this run's results over the saved ones (a partial run keeps the others'); the grid says where. */
  async save(grid: Grid, cells: readonly CellKey[], saved: SavedResults | undefined, ran: CellResult[]): Promise<void> {
    // only the cells the case file has now: a renamed case's old results would otherwise stay for ever
    const now = new Set(cells.map(c => cellKey(c.caseName, c.model)));
    const merged = coreBundle()
      .mergeResults(saved?.results, ran)
      .filter(r => now.has(cellKey(r.caseName, r.model)));
    const where = await this.results.write(grid.caseUri, merged, grid.grades);
    if (!where) return;
    grid.view.savedTo = where.shown;
    grid.view.savedPath = where.full;
    if (grid === this.current) this.view.patch(undefined, { savedTo: where.shown, savedPath: where.full });
  }

  /** A notice in the grid (nothing ran: why), this file's grid or a new one. */
  showNotice(caseUri: vscode.Uri, notice: string, reveal: boolean): void {
    const grid =
      this.current?.caseUri.toString() === caseUri.toString() ? this.current : this.newGrid(caseUri, '', [], undefined);
    grid.view.notice = notice;
    this.current = grid;
    if (reveal) this.view.open();
    this.view.showGrid();
  }
}

/** Each case's vars as one line of text (`name=value …`), for the grid's filter box. */
export function varsTextOf(file: CaseFile): Record<string, string> {
  const text = Object.create(null) as Record<string, string>;
  for (const c of file.cases) text[c.name] = varsLine(c.vars);
  return text;
}

/** A case's vars as one line of text: `word=hello tone=warm` (the grid's filter, a dataset row's test). */
export function varsLine(vars: Record<string, unknown> | undefined): string {
  return Object.entries(vars ?? {})
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
