// The grid's keyboard: the cells are one tab stop (a roving tabindex, as in the Activity Feed's table). The
// arrow keys move between cells, Home and End to the first and last cell of a row (with Ctrl: of the grid),
// Page Up and Page Down by a few rows; Enter or Space opens the cell in the detail pane, Escape closes it. A
// cell focused any other way (a click, a screen reader) becomes the tab stop.

export interface NavigationActions {
  /** Enter, Space, a click */
  open(cell: HTMLElement): void;
  /** the arrow keys moved to another cell */
  moved(cell: HTMLElement): void;
  /** Escape */
  close(): void;
}

const PAGE_ROWS = 5;

export class GridNavigation {
  /** the cell that holds the grid's one tab stop */
  private current: HTMLElement | undefined;

  constructor(
    private readonly table: HTMLTableElement,
    private readonly actions: NavigationActions,
  ) {
    table.addEventListener('keydown', e => this.onKey(e));
    table.addEventListener('focusin', e => {
      const cell = cellOf(e.target);
      if (cell) this.hold(cell);
    });
  }

  /** The grid was drawn anew: the tab stop stays on the same cell (by key), else the first. */
  reset(key?: string): void {
    const cells = this.cells();
    for (const c of cells) c.tabIndex = -1;
    const keep = key ?? this.current?.dataset.key;
    const cell = cells.find(c => c.dataset.key === keep) ?? cells[0];
    this.current = undefined;
    if (cell) this.hold(cell);
  }

  /** Puts the tab stop (and, with `focus`, the keyboard) on a cell. */
  hold(cell: HTMLElement, focus = false): void {
    if (this.current && this.current !== cell) this.current.tabIndex = -1;
    this.current = cell;
    cell.tabIndex = 0;
    if (focus) cell.focus();
  }

  private cells(): HTMLElement[] {
    return Array.from(this.table.querySelectorAll<HTMLElement>('td[data-key]'));
  }

  private onKey(e: KeyboardEvent): void {
    const cell = cellOf(e.target);
    // keys typed on a button inside a cell are the button's
    if (!cell || (e.target as HTMLElement).closest('button')) return;
    const row = cell.parentElement as HTMLTableRowElement;
    const rows = Array.from(this.table.tBodies[0]?.rows ?? []);
    const r = rows.indexOf(row);
    const cellsOfRow = (i: number): HTMLElement[] =>
      Array.from(rows[i]?.querySelectorAll<HTMLElement>('td[data-key]') ?? []);
    const c = cellsOfRow(r).indexOf(cell);
    const go = (ri: number, ci: number) => {
      e.preventDefault();
      const rowAt = Math.max(0, Math.min(rows.length - 1, ri));
      const inRow = cellsOfRow(rowAt);
      const next = inRow[Math.max(0, Math.min(inRow.length - 1, ci))];
      if (!next || next === cell) return;
      this.hold(next, true);
      this.actions.moved(next);
    };
    const last = rows.length - 1;
    switch (e.key) {
      case 'ArrowDown':
        return go(r + 1, c);
      case 'ArrowUp':
        return go(r - 1, c);
      case 'ArrowRight':
        return go(r, c + 1);
      case 'ArrowLeft':
        return go(r, c - 1);
      case 'PageDown':
        return go(r + PAGE_ROWS, c);
      case 'PageUp':
        return go(r - PAGE_ROWS, c);
      case 'Home':
        return e.ctrlKey ? go(0, 0) : go(r, 0);
      case 'End':
        return e.ctrlKey ? go(last, Number.MAX_SAFE_INTEGER) : go(r, Number.MAX_SAFE_INTEGER);
      case 'Enter':
      case ' ':
        e.preventDefault();
        this.actions.open(cell);
        return;
      case 'Escape':
        this.actions.close();
        return;
    }
  }
}

const cellOf = (target: EventTarget | null): HTMLElement | null =>
  target instanceof HTMLElement ? target.closest<HTMLElement>('td[data-key]') : null;
