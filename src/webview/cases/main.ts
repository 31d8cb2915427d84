// The Cases webview: a case file's cases by models, each cell streaming its reply, then its verdict. It talks
// to the extension only through the typed protocol, as a port of the page runtime (common/page.ts): a frame's
// messages change the model, then the page draws once, only the cells that changed. setState keeps the case
// file, the selected cell and the detail pane's height, so a reload (or VS Code restarting) shows the same
// grid. Its parts are
// small components: the table (grid.ts), its keyboard (navigation.ts), the whole of a cut-off line (tip.ts),
// the detail pane (detail.ts) and the bar that resizes it (splitter.ts); compare mode's cells, bar and
// detail (compare.ts) when the grid is compared with a git revision.
import {
  cellKey,
  parseCasesWebviewState,
  progressSummary,
  type CasesWebviewState,
  type CellPatch,
  type CellView,
  type ComparedCell,
  type FromCasesWebview,
  type GridView,
  type RerunTarget,
  type ToCasesWebview,
} from '../../protocol/cases';
import { formatUsd } from '../../core/cost/format';
import { Page } from '../common/page';
import { CompareBar, sidesOf } from './compare';
import { $, button } from './dom';
import { Detail, type ComparedDetail } from './detail';
import { Grid } from './grid';
import { GridNavigation } from './navigation';
import { Splitter } from './splitter';
import { CellTip } from './tip';
import { thousands } from '../../core/text';

const page = new Page<ToCasesWebview, FromCasesWebview, CasesWebviewState>(parseCasesWebviewState);
const post = (m: FromCasesWebview) => page.post(m);
const saved = page.restored;

let grid: GridView | undefined;
const cells = new Map<string, CellView>();
/** compare mode: each cell's pair (its side at the revision, the change, the diff of the replies) */
const pairs = new Map<string, ComparedCell>();
let selected: string | undefined = saved?.selected ? cellKey(saved.selected.caseName, saved.selected.model) : undefined;

const rerun = (target: RerunTarget) => post({ type: 'rerun', target });
/** A cell's view: the working copy's, or in compare mode its side at the revision when only that has it. */
const viewOf = (key: string | undefined) => (key ? (cells.get(key) ?? pairs.get(key)?.base) : undefined);
const comparedOf = (key: string | undefined): ComparedDetail | undefined => {
  const pair = key ? pairs.get(key) : undefined;
  return pair && grid?.compare ? { ...grid.compare, pair } : undefined;
};
const openLink = (url: string) => post({ type: 'open-link', url });
const table = new Grid($<HTMLTableElement>('grid'), {
  select: (caseName, model) => select(cellKey(caseName, model)),
  rerun,
  openLink,
  view: viewOf,
});
const navigation = new GridNavigation($<HTMLTableElement>('grid'), table, {
  open: cell => select(cell.dataset.key),
  // with the pane open, it follows the keyboard: the arrow keys read cell after cell
  moved: cell => detail.isOpen && select(cell.dataset.key),
  close: () => select(undefined),
});
const tip = new CellTip($('tip'), $('grid'));
table.onRedraw = td => tip.refresh(td);
const detail = new Detail($('detail'), {
  rerun,
  openLink,
  grade: (caseName, model, sample, grade, note) =>
    post({ type: 'grade', caseName, model, sample, grade, ...(note ? { note: true as const } : {}) }),
  close: () => {
    const was = selected;
    select(undefined);
    // the keyboard back on the cell it was reading
    const cell = was ? table.cellElement(was) : undefined;
    if (cell) navigation.hold(cell, true);
  },
});
let detailHeight = saved?.detailHeight;
const splitter = new Splitter($('splitter'), $('detail'), detailHeight, h => {
  detailHeight = h;
  save();
});

// ---- the toolbar ---------------------------------------------------------------------------------------

const runAll = button('Run All', 'run-all', 'btn primary');
runAll.id = 'run-all';
runAll.addEventListener('click', () => rerun({ scope: 'all' }));
const runBatch = button('Run All as Batch', 'layers', 'btn');
runBatch.id = 'run-batch';
runBatch.title = 'Every cell as a Message Batch: half the price, within 24 hours; the cells fill when it ends';
runBatch.addEventListener('click', () => post({ type: 'run-batch' }));
const runSample = button('Run Sample…', undefined, 'btn');
runSample.id = 'run-sample';
runSample.title = 'Run N cases chosen at random, as `promptwright test --sample N --seed S` chooses them';
runSample.addEventListener('click', () => post({ type: 'run-sample' }));
const cancelAll = button('Cancel All', 'debug-stop');
cancelAll.id = 'cancel-all';
cancelAll.addEventListener('click', () => post({ type: 'cancel' }));
const compareWith = button('Compare with…', 'git-compare');
compareWith.id = 'compare';
compareWith.title = 'Run every cell on the case file at a git revision too, and show both outcomes';
compareWith.addEventListener('click', () => post({ type: 'compare' }));
const openFile = button('Open Case File', 'go-to-file');
openFile.addEventListener('click', () => post({ type: 'open-case-file' }));
$('actions').append(runAll, runBatch, runSample, cancelAll, compareWith, openFile);
// ---- the filter box: rows whose case name or vars hold what is typed -----------------------------------

const filterBox = $<HTMLInputElement>('filter');
function applyFilter(): void {
  const shown = table.filter(filterBox.value);
  const total = table.totalRows;
  $('filter-count').textContent = filterBox.value.trim()
    ? `${thousands(shown)} of ${thousands(total)} rows`
    : `${thousands(total)} rows`;
  navigation.reset();
}
filterBox.addEventListener('input', applyFilter);
filterBox.addEventListener('keydown', e => {
  if (e.key !== 'Escape' || !filterBox.value) return;
  e.preventDefault();
  e.stopPropagation();
  filterBox.value = '';
  applyFilter();
});

const compareBar = new CompareBar($('compare-bar'), () => post({ type: 'leave-compare' }));

function save(): void {
  if (!grid) return;
  const cell = viewOf(selected);
  page.save({
    caseFile: grid.caseFileUri,
    ...(cell ? { selected: { caseName: cell.caseName, model: cell.model } } : {}),
    ...(detailHeight ? { detailHeight } : {}),
  });
}

function select(key: string | undefined): void {
  selected = key && viewOf(key) ? key : undefined;
  table.select(selected);
  detail.show(viewOf(selected), comparedOf(selected));
  $('splitter').hidden = !selected;
  if (selected) splitter.set(detailHeight ?? $('detail').getBoundingClientRect().height);
  save();
}

// ---- drawing, once per frame ---------------------------------------------------------------------------

/** cells whose text grew, and cells that changed otherwise (badge, verdict), since the last frame */
const grown = new Set<string>();
const changed = new Set<string>();

function draw(): void {
  for (const key of changed) {
    const c = viewOf(key);
    if (c) table.update(c, true);
  }
  for (const key of grown) {
    const c = viewOf(key);
    if (c && !changed.has(key)) table.update(c, false);
  }
  if (selected && (changed.has(selected) || grown.has(selected))) detail.show(viewOf(selected), comparedOf(selected));
  changed.clear();
  grown.clear();
  drawSummary();
}

function drawSummary(): void {
  if (!grid) return;
  const all = [...cells.values()];
  const passed = all.filter(c => c.status === 'passed').length;
  const summary = progressSummary(all);
  const cost = costSummary(all);
  $('summary').textContent =
    (grid.running ? `Running · ${summary}` : `${summary} · ${passed} passed`) + (cost ? ` · ${cost.text}` : '');
  $('summary').title = cost?.title ?? '';
  $('saved').textContent = grid.savedTo && !grid.running ? `Results saved to ${grid.savedTo}` : '';
  $('saved').title = grid.savedPath ?? '';
  runAll.disabled = grid.running;
  runBatch.disabled = grid.running || !!grid.compare;
  runSample.disabled = grid.running;
  cancelAll.disabled = !grid.running;
  compareWith.disabled = grid.running;
  compareBar.show(grid.compare, [...pairs.values()], grid.running);
  document.body.classList.toggle('running', grid.running);
}

/**
 * What the cells shown cost: "$0.0132 · judge $0.0021"; "cost unknown" (why in the tooltip) when a model has
 * no price. Nothing before any cell has a cost.
 */
function costSummary(all: readonly CellView[]): { text: string; title: string } | undefined {
  const priced = all.filter(c => c.costUsd !== undefined);
  if (!priced.length) return undefined;
  const sum = (xs: readonly (number | null | undefined)[]) =>
    xs.some(x => x === null) ? null : xs.reduce<number>((n, x) => n + (x ?? 0), 0);
  const total = sum(priced.map(c => c.costUsd));
  const judged = priced.filter(c => c.judgeCostUsd !== undefined);
  const judge = judged.length ? sum(judged.map(c => c.judgeCostUsd)) : undefined;
  const notes = [...new Set(priced.flatMap(c => (c.samples ?? []).flatMap(s => (s.costNote ? [s.costNote] : []))))];
  const money = (n: number | null) => (n === null ? 'cost unknown' : formatUsd(n));
  const text = judge === undefined ? money(total) : `${money(total)} · judge ${money(judge)}`;
  return {
    text,
    title: notes.length ? notes.join('\n') : 'What the replies of these cells cost, and their judges apart',
  };
}

function showGrid(g: GridView): void {
  grid = g;
  cells.clear();
  for (const c of g.cells) cells.set(cellKey(c.caseName, c.model), c);
  pairs.clear();
  for (const p of g.compare?.cells ?? []) pairs.set(cellKey(p.caseName, p.model), p);
  table.compare = g.compare ? { sides: sidesOf(g.compare), pairs } : undefined;
  $('title').textContent = g.caseFile;
  $('title').title = g.caseFilePath;
  $('request').textContent = g.request ? `→ ${g.request}` : '';
  const notice = $('notice');
  notice.hidden = !g.notice;
  notice.textContent = g.notice ?? '';
  $('empty').hidden = !!g.cases.length || !!g.notice;
  // how long drawing the grid takes, to its first frame (the DOM suite prints it for a 10,000-row dataset)
  performance.mark('cases-grid-start');
  table.render(g);
  $('filter-bar').hidden = !g.cases.length;
  if (filterBox.value) applyFilter();
  else $('filter-count').textContent = `${thousands(g.cases.length)} rows`;
  requestAnimationFrame(() => performance.measure('cases-grid-drawn', 'cases-grid-start'));
  if (!selected || !viewOf(selected)) selected = firstFailing();
  navigation.reset(selected);
  select(selected);
  drawSummary();
}

/** the first cell that did not pass (what a person looks at first), if any */
function firstFailing(): string | undefined {
  // compare mode: what the change broke first
  const broke = [...pairs.values()].find(p => p.change === 'broke');
  if (broke) return cellKey(broke.caseName, broke.model);
  const c = [...cells.values()].find(x => x.status === 'failed' || x.status === 'error');
  return c ? cellKey(c.caseName, c.model) : undefined;
}

function applyPatches(patches: CellPatch[], running: boolean, savedTo?: string, savedPath?: string): void {
  if (!grid) return;
  for (const p of patches) {
    const key = cellKey(p.caseName, p.model);
    if ('cell' in p) {
      cells.set(key, p.cell);
      changed.add(key);
    } else if ('compared' in p) {
      pairs.set(key, p.compared);
      changed.add(key);
    } else {
      // the working copy's reply, or in compare mode (`side: 'base'`) the one at the revision
      const c = p.side === 'base' ? pairs.get(key)?.base : cells.get(key);
      if (!c) continue;
      c.text += p.append;
      grown.add(key);
    }
  }
  grid.running = running;
  if (savedTo !== undefined) grid.savedTo = savedTo;
  if (savedPath !== undefined) grid.savedPath = savedPath;
}

// ---- messages ------------------------------------------------------------------------------------------

function handle(m: ToCasesWebview): void {
  switch (m.type) {
    case 'grid':
      showGrid(m.grid);
      break;
    case 'patch':
      applyPatches(m.patches, m.running, m.savedTo, m.savedPath);
      break;
  }
}

page.start({ handle, draw });
