// The grid: one row per case, one column per model. Each cell shows its status badge, what changed since the
// last saved run, the start of the reply as it streams (Markdown, drawn as DOM nodes, never as HTML), and then
// the latency and tokens or the first failed assertion. A click selects a cell for the detail pane; the small
// buttons (for the pointer: the detail pane has the same for the keyboard) re-run a cell or a row. The keyboard
// is navigation.ts's, the whole of a cut-off line tip.ts's.
import { cellKey, type CellView, type ComparedCell, type GridView, type RerunTarget } from '../../protocol/cases';
import { renderMarkdown } from '../common/markdown';
import { formatUsd } from '../../core/cost/format';
import { changeTag, flakyTag, gradeTag, samplesTag, statusBadge } from './badges';
import { compareHead, compareLabel, type Sides } from './compare';
import { button, duration, el } from './dom';

export interface GridActions {
  select(caseName: string, model: string): void;
  rerun(target: RerunTarget): void;
  openLink(url: string): void;
}

/** The start of a reply is what a cell shows: the rest is in the detail pane. */
const PREVIEW_CHARS = 400;

/** The first assertion that did not hold, in the first sample where one did not: what a failing cell shows. */
function firstFailure(c: CellView): string | undefined {
  for (const [i, s] of (c.samples ?? [c]).entries()) {
    const failed = s.assertions.find(a => !a.pass);
    // an assertion's message starts with the assertion itself (`regex /^Bonjour/: no match …`)
    if (failed) return c.samples && c.samples.length > 1 ? `sample ${i + 1}: ${failed.message}` : failed.message;
  }
  return undefined;
}

/** The line under a cell's text: why it failed, or how long it took and what it cost. */
function footLine(c: CellView): { text: string; failing: boolean } {
  if (c.error) return { text: `${c.error.type}: ${c.error.message}`, failing: true };
  if (c.problems?.length) return { text: `Not sent: ${c.problems[0]}`, failing: true };
  const failed = c.status === 'passed' ? undefined : firstFailure(c);
  if (failed) return { text: failed, failing: true };
  if (c.retry) return { text: `${c.retry.type}: retry ${c.retry.attempt} of ${c.retry.maxAttempts}…`, failing: false };
  const facts: string[] = [];
  for (const tool of c.toolCalls ?? []) facts.push(`${tool}()`);
  if (c.latencyMs !== undefined) facts.push(duration(c.latencyMs));
  if (c.outputTokens !== undefined) facts.push(`${c.outputTokens} tokens`);
  if (typeof c.costUsd === 'number' && c.costUsd > 0) facts.push(formatUsd(c.costUsd));
  return { text: facts.join(' · '), failing: false };
}

interface CellParts {
  td: HTMLTableCellElement;
  head: HTMLDivElement;
  text: HTMLDivElement;
  foot: HTMLDivElement;
  /** what the preview shows now, so a frame that changes nothing visible writes nothing */
  shown: string;
}

export class Grid {
  private readonly cells = new Map<string, CellParts>();
  private selected: string | undefined;
  /** compare mode: the revision, and each cell's pair (its side there, the change); set before render */
  compare: { sides: Sides; pairs: ReadonlyMap<string, ComparedCell> } | undefined;

  constructor(
    private readonly table: HTMLTableElement,
    private readonly actions: GridActions,
  ) {
    table.addEventListener('click', e => {
      const target = e.target as HTMLElement;
      if (target.closest('a')) return; // a link in a reply: the markdown renderer's
      const action = target.closest<HTMLButtonElement>('button[data-rerun]');
      if (action) {
        e.stopPropagation();
        this.rerunFrom(action);
        return;
      }
      const td = target.closest<HTMLTableCellElement>('td[data-case]');
      if (td) this.actions.select(td.dataset.case!, td.dataset.model!);
    });
  }

  /** Builds the table anew for a grid (a new run, a reload). */
  render(grid: GridView): void {
    this.cells.clear();
    const head = el('thead');
    const hr = el('tr');
    hr.appendChild(el('th', 'corner', 'Case'));
    for (const m of grid.models) {
      const th = el('th', 'model', m);
      th.scope = 'col';
      hr.appendChild(th);
    }
    head.appendChild(hr);
    const body = el('tbody');
    const byKey = new Map(grid.cells.map(c => [cellKey(c.caseName, c.model), c]));
    // compare mode: a cell only the revision has shows its side there
    for (const [key, pair] of this.compare?.pairs ?? []) if (!pair.inCurrent && pair.base) byKey.set(key, pair.base);
    for (const name of grid.cases) {
      const tr = el('tr');
      const th = el('th', 'case');
      th.scope = 'row';
      const label = el('span', 'case-name', name);
      label.title = name;
      const rerun = button(`Re-run "${name}" on every model`, 'refresh', 'icon-btn', true);
      // the grid is one tab stop: the detail pane has these actions for the keyboard
      rerun.tabIndex = -1;
      rerun.dataset.rerun = 'row';
      rerun.dataset.case = name;
      th.append(label, rerun);
      tr.appendChild(th);
      for (const model of grid.models) {
        const cell = byKey.get(cellKey(name, model));
        tr.appendChild(this.cell(name, model, cell));
      }
      body.appendChild(tr);
    }
    this.table.replaceChildren(head, body);
    if (this.selected) this.markSelected(this.selected);
  }

  private cell(caseName: string, model: string, c: CellView | undefined): HTMLTableCellElement {
    const td = el('td', 'cell');
    td.dataset.case = caseName;
    td.dataset.model = model;
    td.dataset.key = cellKey(caseName, model);
    td.setAttribute('role', 'gridcell');
    td.tabIndex = -1;
    const parts: CellParts = {
      td,
      head: el('div', 'cell-head'),
      text: el('div', 'cell-text'),
      foot: el('div', 'cell-foot'),
      shown: '',
    };
    td.append(parts.head, parts.text, parts.foot);
    this.cells.set(cellKey(caseName, model), parts);
    this.update(c ?? { caseName, model, status: 'queued', text: '', assertions: [] }, true);
    return td;
  }

  /** Redraws one cell; `full` redraws its badge and foot too (not only the streaming text). */
  update(c: CellView, full: boolean): void {
    const parts = this.cells.get(cellKey(c.caseName, c.model));
    if (!parts) return;
    const preview = c.text.length > PREVIEW_CHARS ? `${c.text.slice(0, PREVIEW_CHARS)}…` : c.text;
    if (preview !== parts.shown) {
      parts.text.replaceChildren(renderMarkdown(document, preview, url => this.actions.openLink(url)));
      // the grid is one tab stop: a link in a reply is reached in the detail pane
      parts.text.querySelectorAll('a').forEach(a => (a.tabIndex = -1));
      parts.shown = preview;
    }
    if (!full) return;
    parts.td.className = `cell status-${c.status}${this.selected === cellKey(c.caseName, c.model) ? ' selected' : ''}`;
    const rerun = button(`Re-run "${c.caseName}" on ${c.model}`, 'refresh', 'icon-btn', true);
    rerun.tabIndex = -1;
    rerun.dataset.rerun = 'cell';
    rerun.dataset.case = c.caseName;
    rerun.dataset.model = c.model;
    rerun.disabled = c.status === 'running' || c.status === 'queued';
    const foot = footLine(c);
    parts.foot.textContent = foot.text;
    parts.foot.classList.toggle('failing', foot.failing);
    const pair = this.compare?.pairs.get(cellKey(c.caseName, c.model));
    if (pair && this.compare) {
      // compare mode: the outcome at the revision → the working copy's, and what the change did
      const current = pair.inCurrent ? c : undefined;
      parts.head.replaceChildren(...compareHead(pair, current, this.compare.sides), el('span', 'spacer'), rerun);
      const label = compareLabel(pair, current, this.compare.sides);
      parts.td.setAttribute('aria-label', foot.failing ? `${label} ${foot.text}` : label);
    } else {
      const tags = [samplesTag(c), flakyTag(c), changeTag(c.change), gradeTag(c.samples?.[0]?.humanGrade)];
      const shown = tags.filter((t): t is HTMLSpanElement => !!t);
      parts.head.replaceChildren(statusBadge(c.status, c.batchId), ...shown, el('span', 'spacer'), rerun);
      const n = c.samples?.length ?? 1;
      const status = c.status === 'queued' && c.batchId ? 'queued in batch' : c.status;
      const said = [`${c.caseName} on ${c.model}: ${status}`];
      if (n > 1 && c.status !== 'running' && c.status !== 'queued')
        said.push(`${c.passedSamples ?? 0} of ${n} samples passed`);
      if (c.flaky) said.push('flaky');
      if (c.change && c.change !== 'same') said.push(c.change);
      if (foot.failing) said.push(foot.text);
      parts.td.setAttribute('aria-label', `${said.join(', ')}. Enter shows the cell.`);
    }
    this.onRedraw?.(parts.td);
  }

  /** A cell's badge or last line was drawn again (the tip of a focused cell follows). */
  onRedraw: ((td: HTMLElement) => void) | undefined;

  /** A cell's element, by its key. */
  cellElement(key: string): HTMLElement | undefined {
    return this.cells.get(key)?.td;
  }

  select(key: string | undefined): void {
    if (this.selected) this.cells.get(this.selected)?.td.classList.remove('selected');
    this.selected = key;
    if (key) this.markSelected(key);
  }

  private markSelected(key: string): void {
    this.cells.get(key)?.td.classList.add('selected');
  }

  private rerunFrom(b: HTMLButtonElement): void {
    const caseName = b.dataset.case!;
    if (b.dataset.rerun === 'row') this.actions.rerun({ scope: 'row', caseName });
    else this.actions.rerun({ scope: 'cell', caseName, model: b.dataset.model! });
  }
}
