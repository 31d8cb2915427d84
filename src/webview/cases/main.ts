// The Cases webview: a case file's cases by models, each cell streaming its reply, then its verdict. It talks
// to the extension only through the typed protocol. Messages change the model at once; the page is drawn at
// most once per animation frame, only the cells that changed. setState keeps the case file, the selected
// cell and the detail pane's height, so a reload (or VS Code restarting) shows the same grid. Its parts are
// small components: the table (grid.ts), its keyboard (navigation.ts), the whole of a cut-off line (tip.ts),
// the detail pane (detail.ts) and the bar that resizes it (splitter.ts).
import {
  cellKey,
  progressSummary,
  type CasesWebviewState,
  type CellPatch,
  type CellView,
  type FromCasesWebview,
  type GridView,
  type RerunTarget,
  type ToCasesWebview,
} from '../../protocol/cases';
import { vscodeApi } from '../common/vscodeApi';
import { $, button } from './dom';
import { Detail } from './detail';
import { Grid } from './grid';
import { GridNavigation } from './navigation';
import { Splitter } from './splitter';
import { CellTip } from './tip';

const vscode = vscodeApi<FromCasesWebview, CasesWebviewState>();
const post = (m: FromCasesWebview) => vscode.postMessage(m);
const saved = vscode.getState() as Partial<CasesWebviewState> | undefined;

let grid: GridView | undefined;
const cells = new Map<string, CellView>();
let selected: string | undefined = saved?.selected ? cellKey(saved.selected.caseName, saved.selected.model) : undefined;

const rerun = (target: RerunTarget) => post({ type: 'rerun', target });
const openLink = (url: string) => post({ type: 'open-link', url });
const table = new Grid($<HTMLTableElement>('grid'), {
  select: (caseName, model) => select(cellKey(caseName, model)),
  rerun,
  openLink,
});
const navigation = new GridNavigation($<HTMLTableElement>('grid'), {
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
const cancelAll = button('Cancel All', 'debug-stop');
cancelAll.id = 'cancel-all';
cancelAll.addEventListener('click', () => post({ type: 'cancel' }));
const openFile = button('Open Case File', 'go-to-file');
openFile.addEventListener('click', () => post({ type: 'open-case-file' }));
$('actions').append(runAll, cancelAll, openFile);

function save(): void {
  if (!grid) return;
  const cell = selected ? cells.get(selected) : undefined;
  vscode.setState({
    caseFile: grid.caseFileUri,
    ...(cell ? { selected: { caseName: cell.caseName, model: cell.model } } : {}),
    ...(detailHeight ? { detailHeight } : {}),
  });
}

function select(key: string | undefined): void {
  selected = key && cells.has(key) ? key : undefined;
  table.select(selected);
  detail.show(selected ? cells.get(selected) : undefined);
  $('splitter').hidden = !selected;
  if (selected) splitter.set(detailHeight ?? $('detail').getBoundingClientRect().height);
  save();
}

// ---- drawing, once per frame ---------------------------------------------------------------------------

/** cells whose text grew, and cells that changed otherwise (badge, verdict), since the last frame */
const grown = new Set<string>();
const changed = new Set<string>();
let frame = 0;

function schedule(): void {
  if (!frame) frame = requestAnimationFrame(draw);
}

function draw(): void {
  frame = 0;
  for (const key of changed) {
    const c = cells.get(key);
    if (c) table.update(c, true);
  }
  for (const key of grown) {
    const c = cells.get(key);
    if (c && !changed.has(key)) table.update(c, false);
  }
  if (selected && (changed.has(selected) || grown.has(selected))) detail.show(cells.get(selected));
  changed.clear();
  grown.clear();
  drawSummary();
}

function drawSummary(): void {
  if (!grid) return;
  const all = [...cells.values()];
  const passed = all.filter(c => c.status === 'passed').length;
  const summary = progressSummary(all);
  $('summary').textContent = grid.running ? `Running · ${summary}` : `${summary} · ${passed} passed`;
  $('saved').textContent = grid.savedTo && !grid.running ? `Results saved to ${grid.savedTo}` : '';
  $('saved').title = grid.savedPath ?? '';
  runAll.disabled = grid.running;
  cancelAll.disabled = !grid.running;
  document.body.classList.toggle('running', grid.running);
}

function showGrid(g: GridView): void {
  grid = g;
  cells.clear();
  for (const c of g.cells) cells.set(cellKey(c.caseName, c.model), c);
  $('title').textContent = g.caseFile;
  $('title').title = g.caseFilePath;
  $('request').textContent = g.request ? `→ ${g.request}` : '';
  const notice = $('notice');
  notice.hidden = !g.notice;
  notice.textContent = g.notice ?? '';
  $('empty').hidden = !!g.cases.length || !!g.notice;
  table.render(g);
  if (!selected || !cells.has(selected)) selected = firstFailing();
  navigation.reset(selected);
  select(selected);
  drawSummary();
}

/** the first cell that did not pass (what a person looks at first), if any */
function firstFailing(): string | undefined {
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
    } else if ('append' in p && !p.side) {
      const c = cells.get(key);
      if (!c) continue;
      c.text += p.append;
      grown.add(key);
    }
  }
  grid.running = running;
  if (savedTo !== undefined) grid.savedTo = savedTo;
  if (savedPath !== undefined) grid.savedPath = savedPath;
  schedule();
}

// ---- messages ------------------------------------------------------------------------------------------

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as ToCasesWebview;
  switch (m.type) {
    case 'grid':
      showGrid(m.grid);
      break;
    case 'patch':
      applyPatches(m.patches, m.running, m.savedTo, m.savedPath);
      break;
  }
});

post({ type: 'ready' });
