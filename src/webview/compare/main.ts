// The Compare page: a request's versions side by side, each column streaming its reply. It talks to the
// extension only through the typed protocol, as a port of the page runtime (common/page.ts): stream events
// arrive batched, and the page draws at most once per animation frame. The toolbar runs every column again,
// cancels, and asks for the word diff of two columns.
// Keyboard: Tab reaches every control and each column; Left and Right move between columns, Home and End to
// the first and the last; Escape closes the diff.
import {
  parseCompareWebviewState,
  type ColumnView,
  type CompareView,
  type CompareWebviewState,
  type DiffView,
  type FromCompareWebview,
  type ToCompareWebview,
} from '../../protocol/compare';
import { $, button, el } from '../common/dom';
import { Page } from '../common/page';
import { Column } from './column';

const page = new Page<ToCompareWebview, FromCompareWebview, CompareWebviewState>(parseCompareWebviewState);
const post = (m: FromCompareWebview) => page.post(m);
const openLink = (url: string) => post({ type: 'open-link', url });

let view: CompareView | undefined;
let columns: Column[] = [];

// ---- the toolbar -----------------------------------------------------------------------------------------

const runAgain = button('Run Again', 'refresh', 'btn primary');
runAgain.id = 'run-again';
runAgain.title = 'Sample every column once more, and say per column whether the new reply differs';
runAgain.addEventListener('click', () => post({ type: 'run-again' }));
const cancel = button('Cancel', 'debug-stop');
cancel.id = 'cancel';
cancel.addEventListener('click', () => post({ type: 'cancel' }));
const pickA = el('select', 'diff-pick');
pickA.id = 'diff-a';
pickA.setAttribute('aria-label', 'Diff: the first column');
const pickB = el('select', 'diff-pick');
pickB.id = 'diff-b';
pickB.setAttribute('aria-label', 'Diff: the second column');
const diffButton = button('Diff', 'diff');
diffButton.id = 'diff-run';
diffButton.title = 'A word-level diff of the two columns’ reply text';
diffButton.addEventListener('click', () => {
  const a = Number(pickA.value);
  const b = Number(pickB.value);
  if (a !== b) post({ type: 'diff', a, b });
});
const diffGroup = el('div', 'diff-group');
diffGroup.setAttribute('role', 'group');
diffGroup.setAttribute('aria-label', 'Word diff of two columns');
diffGroup.append(pickA, el('span', 'muted', '→'), pickB, diffButton);
$('actions').append(runAgain, cancel, diffGroup);

$('diff-close').addEventListener('click', closeDiff);
document.addEventListener('keydown', e => {
  if (e.key === 'Escape' && !$('diff').hidden) {
    closeDiff();
    e.preventDefault();
  }
});

// ---- columns ---------------------------------------------------------------------------------------------

const list = $('columns');
const MOVES: Record<string, (at: number) => number> = {
  ArrowRight: at => at + 1,
  ArrowLeft: at => at - 1,
  Home: () => 0,
  End: () => columns.length - 1,
};
list.addEventListener('keydown', e => {
  const at = columns.findIndex(c => c.root === document.activeElement);
  const move = MOVES[e.key];
  if (at < 0 || !move) return;
  e.preventDefault();
  const target = columns[Math.max(0, Math.min(columns.length - 1, move(at)))];
  target?.root.focus();
  target?.root.scrollIntoView({ block: 'nearest', inline: 'nearest' });
});

function show(v: CompareView): void {
  view = v;
  columns = v.columns.map(c => new Column(c, openLink));
  list.replaceChildren(...columns.map(c => c.root));
  $('empty').hidden = true;
  $('title').textContent = `Compare · ${v.file}`;
  const options = (select: HTMLSelectElement, chosen: number) => {
    select.replaceChildren(
      ...v.columns.map(c => {
        const o = el('option', undefined, `${c.index + 1}: ${c.version} · ${c.model}`);
        o.value = String(c.index);
        return o;
      }),
    );
    select.value = String(Math.min(chosen, v.columns.length - 1));
  };
  options(pickA, 0);
  options(pickB, 1);
  closeDiff();
  changed = true;
}

function updateColumn(c: ColumnView): void {
  if (!view) return;
  view.columns[c.index] = c;
  columns[c.index]?.update(c);
  changed = true;
}

// ---- drawing, once per frame -----------------------------------------------------------------------------

/** something the header, the footers or the summary show has changed since the last frame */
let changed = false;

function draw(): void {
  if (!changed || !view) return;
  changed = false;
  const first = columns[0]?.message;
  for (const c of columns) c.refresh(first);
  const running = view.running;
  document.body.classList.toggle('running', running);
  runAgain.disabled = running;
  cancel.disabled = !running;
  const done = view.columns.filter(c => c.status !== 'queued' && c.status !== 'running').length;
  $('summary').textContent = running
    ? `Streaming · ${done} of ${view.columns.length} done`
    : `${view.columns.length} columns · sample ${view.columns[0]?.sample ?? 1}`;
  save();
}

function save(): void {
  page.saveSoon(
    () =>
      view && {
        ...view,
        columns: view.columns.map((c, i) => {
          const message = columns[i]?.message;
          return message ? { ...c, message } : c;
        }),
      },
  );
}

// ---- the diff --------------------------------------------------------------------------------------------

function showDiff(d: DiffView): void {
  if (!view) return;
  const name = (i: number) => `${i + 1} (${view!.columns[i]?.version ?? '?'} · ${view!.columns[i]?.model ?? '?'})`;
  $('diff-title').textContent = `Diff of the reply text: column ${name(d.a)} → column ${name(d.b)}`;
  const body = $('diff-body');
  body.replaceChildren();
  if (!d.parts.some(p => p.kind !== 'same')) body.appendChild(el('p', 'muted', 'The two replies have the same text.'));
  for (const p of d.parts) {
    if (p.kind === 'same') body.appendChild(document.createTextNode(p.text));
    else {
      const mark = el(p.kind === 'added' ? 'ins' : 'del', `diff-${p.kind}`, p.text);
      mark.title = p.kind === 'added' ? `only in column ${d.b + 1}` : `only in column ${d.a + 1}`;
      body.appendChild(mark);
    }
  }
  $('diff').hidden = false;
  $('diff-close').focus();
}

function closeDiff(): void {
  const wasOpen = !$('diff').hidden;
  $('diff').hidden = true;
  if (wasOpen) diffButton.focus();
}

// ---- messages --------------------------------------------------------------------------------------------

function handle(m: ToCompareWebview): void {
  switch (m.type) {
    case 'show':
      show(m.view);
      break;
    case 'events':
      if (!view || m.runId !== view.runId) return;
      for (const item of m.items) for (const ev of item.events) columns[item.column]?.apply(ev);
      changed = true;
      break;
    case 'column':
      if (view && m.runId === view.runId) updateColumn(m.column);
      break;
    case 'running':
      if (!view || m.runId !== view.runId) return;
      view.running = m.running;
      changed = true;
      break;
    case 'diff':
      showDiff(m.diff);
      break;
  }
}

const restored = page.restored;
if (restored) {
  // after a reload: what was there; columns that were streaming cannot go on
  show({
    ...restored,
    running: false,
    columns: restored.columns.map(c =>
      c.status === 'running' || c.status === 'queued' ? { ...c, status: 'cancelled' as const } : c,
    ),
  });
  page.schedule();
}
page.start({ handle, draw });
