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
  /** a cell's view as it is now (a row drawn when it scrolls into view shows what its cells hold by then) */
  view(key: string): CellView | undefined;
}

/** Grids of more rows draw only the rows in view (and a margin); smaller ones are drawn whole. */
const VIRTUAL_ROWS = 200;
/** Rows drawn above and below the view, so that a small scroll or an arrow key finds its row drawn. */
const MARGIN_ROWS = 12;
/** A row's height until one is measured (a cell's three lines of reply, its badge and its last line). */
const ROW_GUESS_PX = 110;

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
  /** the drawn cells, by key */
  private readonly cells = new Map<string, CellParts>();
  private selected: string | undefined;
  /** the held cell's key: the grid's one tab stop (navigation.ts) */
  private tabStop: string | undefined;
  /** compare mode: the revision, and each cell's pair (its side there, the change); set before render */
  compare: { sides: Sides; pairs: ReadonlyMap<string, ComparedCell> } | undefined;
  private models: readonly string[] = [];
  /** every row, by case name, and each case's vars as text (what the filter searches) */
  private allRows: readonly string[] = [];
  private caseVars: Readonly<Record<string, string>> = {};
  /** the filter box's text, in lower case: the rows shown hold it in their name or vars */
  private query = '';
  /** the rows shown, by case name, in order; and each one's index */
  private rows: readonly string[] = [];
  private rowIndex = new Map<string, number>();
  /** many rows: only those in [first, last) are in the DOM, between two gaps of the others' height */
  private virtual = false;
  private readonly drawn = new Map<number, HTMLTableRowElement>();
  private first = 0;
  private last = 0;
  private pitch = ROW_GUESS_PX;
  private measured = false;
  private body: HTMLTableSectionElement = el('tbody');
  private readonly gaps = [el('tr', 'gap'), el('tr', 'gap')] as const;
  private frame: number | undefined;
  private readonly scroller: HTMLElement;

  constructor(
    private readonly table: HTMLTableElement,
    private readonly actions: GridActions,
  ) {
    this.scroller = table.parentElement ?? table;
    for (const gap of this.gaps) {
      gap.setAttribute('aria-hidden', 'true');
      gap.appendChild(el('td'));
    }
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
    // the rows in view are drawn once per frame however fast the scroll
    const later = () => {
      if (this.virtual) this.frame ??= requestAnimationFrame(() => this.drawInView());
    };
    this.scroller.addEventListener('scroll', later, { passive: true });
    window.addEventListener('resize', later);
  }

  /** Builds the table anew for a grid (a new run, a reload). */
  render(grid: GridView): void {
    this.models = grid.models;
    this.allRows = grid.cases;
    this.caseVars = grid.caseVars ?? {};
    this.drawBody();
  }

  /**
   * Shows only the rows whose case name or vars hold `text` (any case; empty: every row). Returns how many rows
   * are shown.
   */
  filter(text: string): number {
    const query = text.trim().toLowerCase();
    if (query === this.query) return this.rows.length;
    this.query = query;
    this.drawBody();
    return this.rows.length;
  }

  get totalRows(): number {
    return this.allRows.length;
  }

  private drawBody(): void {
    this.cells.clear();
    this.drawn.clear();
    const q = this.query;
    const matches = (name: string) =>
      name.toLowerCase().includes(q) || (this.caseVars[name] ?? '').toLowerCase().includes(q);
    this.rows = q ? this.allRows.filter(matches) : this.allRows;
    this.rowIndex = new Map(this.rows.map((name, i) => [name, i]));
    const head = el('thead');
    const hr = el('tr');
    hr.appendChild(el('th', 'corner', 'Case'));
    for (const m of this.models) {
      const th = el('th', 'model', m);
      th.scope = 'col';
      hr.appendChild(th);
    }
    head.appendChild(hr);
    this.body = el('tbody');
    this.virtual = this.rows.length > VIRTUAL_ROWS;
    this.table.classList.toggle('virtual', this.virtual);
    if (this.virtual) this.table.setAttribute('aria-rowcount', String(this.rows.length + 1));
    else this.table.removeAttribute('aria-rowcount');
    if (!this.virtual) {
      this.rows.forEach((_, i) => this.body.appendChild(this.row(i)));
      this.first = 0;
      this.last = this.rows.length;
      this.table.replaceChildren(head, this.body);
    } else {
      for (const gap of this.gaps) (gap.firstChild as HTMLTableCellElement).colSpan = this.models.length + 1;
      this.body.append(...this.gaps);
      this.first = this.last = 0;
      this.table.replaceChildren(head, this.body);
      this.drawInView();
    }
    if (this.selected) this.markSelected(this.selected);
  }

  // ---- the rows in view -----------------------------------------------------------------------------------

  /** How far (px) the top of the view is below the first row's place. */
  private viewTop(): number {
    const top = this.scroller.getBoundingClientRect().top;
    const head = this.table.tHead?.getBoundingClientRect().height ?? 0;
    return top + head - this.body.getBoundingClientRect().top;
  }

  /** Draws the rows in view (and a margin), and no others. */
  private drawInView(): void {
    this.frame = undefined;
    if (!this.virtual) return;
    const y = Math.max(0, this.viewTop());
    const h = this.scroller.clientHeight || 600;
    const n = this.rows.length;
    const first = Math.max(0, Math.min(n, Math.floor(y / this.pitch) - MARGIN_ROWS));
    const last = Math.max(first, Math.min(n, Math.ceil((y + h) / this.pitch) + MARGIN_ROWS));
    this.drawRange(first, last);
    // the first rows drawn tell how tall a row is (CSS gives every row of a large grid the same height)
    if (!this.measured && this.drawn.size >= 2) {
      const a = this.drawn.get(first)!;
      const b = this.drawn.get(first + 1)!;
      const pitch = b.getBoundingClientRect().top - a.getBoundingClientRect().top;
      if (pitch > 0) {
        this.measured = true;
        if (Math.abs(pitch - this.pitch) > 0.5) {
          this.pitch = pitch;
          this.drawInView();
        }
      }
    }
  }

  private drawRange(first: number, last: number): void {
    if (first === this.first && last === this.last) return;
    // rows that leave are removed, rows that come are added beside those that stay (a focused cell that stays
    // keeps the keyboard)
    for (const [i, tr] of this.drawn)
      if (i < first || i >= last) {
        tr.remove();
        this.drawn.delete(i);
        for (const m of this.models) this.cells.delete(cellKey(this.rows[i]!, m));
      }
    const keptFirst = Math.max(first, this.first);
    const keptLast = Math.min(last, this.last);
    const before = keptFirst < keptLast ? this.drawn.get(keptFirst)! : this.gaps[1];
    for (let i = first; i < last; i++) {
      if (this.drawn.has(i)) continue;
      const tr = this.row(i);
      this.body.insertBefore(tr, i < keptFirst ? before : this.gaps[1]);
    }
    this.first = first;
    this.last = last;
    const [top, bottom] = this.gaps;
    this.sizeGap(top, first);
    this.sizeGap(bottom, this.rows.length - last);
    this.placeTabStop();
  }

  /** A gap stands for `rows` rows not drawn (the table's spacing between rows counted once). */
  private sizeGap(gap: HTMLTableRowElement, rows: number): void {
    gap.hidden = rows === 0;
    (gap.firstChild as HTMLElement).style.height = `${Math.max(0, rows * this.pitch - 6)}px`;
  }

  /**
   * The grid keeps one tab stop in the DOM: the held cell, or while its row is not drawn a cell of its column in
   * view (focused, it becomes the held cell).
   */
  private placeTabStop(): void {
    let stop = this.tabStop ? this.cells.get(this.tabStop)?.td : undefined;
    if (!stop && this.last > this.first) {
      const row = Math.min(this.last - 1, this.first + (this.first > 0 ? MARGIN_ROWS : 0));
      const column = Math.max(0, this.models.indexOf(this.tabStop?.split('\u0000')[1] ?? ''));
      stop = this.cells.get(cellKey(this.rows[row]!, this.models[column] ?? ''))?.td;
    }
    for (const parts of this.cells.values()) parts.td.tabIndex = parts.td === stop ? 0 : -1;
  }

  // ---- what navigation.ts asks --------------------------------------------------------------------------

  get rowCount(): number {
    return this.rows.length;
  }

  get columnCount(): number {
    return this.models.length;
  }

  /** A cell's row and column, by its key. */
  place(key: string): { row: number; column: number } | undefined {
    const [caseName, model] = key.split('\u0000');
    const row = this.rowIndex.get(caseName ?? '');
    const column = this.models.indexOf(model ?? '');
    return row === undefined || column < 0 ? undefined : { row, column };
  }

  /** The cell at a row and column, its row drawn and scrolled into view first when it is not. */
  reveal(row: number, column: number): HTMLElement | undefined {
    const name = this.rows[row];
    const model = this.models[column];
    if (name === undefined || model === undefined) return undefined;
    const key = cellKey(name, model);
    if (this.virtual && !this.cells.has(key)) {
      // put the row in the middle of the view, and draw what is there now
      const y = this.viewTop();
      this.scroller.scrollTop += row * this.pitch - y - this.scroller.clientHeight / 2;
      this.drawInView();
    }
    return this.cells.get(key)?.td;
  }

  /** The held cell (the tab stop) by key: drawn with tabindex 0 whenever its row is. */
  hold(key: string | undefined): void {
    this.tabStop = key;
    this.placeTabStop();
  }

  private row(i: number): HTMLTableRowElement {
    const name = this.rows[i]!;
    const tr = el('tr');
    if (this.virtual) tr.setAttribute('aria-rowindex', String(i + 2));
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
    for (const model of this.models) tr.appendChild(this.cell(name, model, this.actions.view(cellKey(name, model))));
    this.drawn.set(i, tr);
    return tr;
  }

  private cell(caseName: string, model: string, c: CellView | undefined): HTMLTableCellElement {
    const td = el('td', 'cell');
    td.dataset.case = caseName;
    td.dataset.model = model;
    td.dataset.key = cellKey(caseName, model);
    td.setAttribute('role', 'gridcell');
    td.tabIndex = this.tabStop === cellKey(caseName, model) ? 0 : -1;
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
