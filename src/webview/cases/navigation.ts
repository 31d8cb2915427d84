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

/**
 * The grid as the keyboard sees it: rows and columns, drawn or not (a large grid draws only the rows in view,
 * grid.ts), and a cell's element once its row is drawn and scrolled into view.
 */
export interface GridLayout {
  readonly rowCount: number;
  readonly columnCount: number;
  place(key: string): { row: number; column: number } | undefined;
  reveal(row: number, column: number): HTMLElement | undefined;
  /** the held cell, by key: its element has tabindex 0 whenever its row is drawn */
  hold(key: string | undefined): void;
}

export class GridNavigation {
  /** the key of the cell that holds the grid's one tab stop */
  private current: string | undefined;

  constructor(
    private readonly table: HTMLTableElement,
    private readonly layout: GridLayout,
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
    const keep = key ?? this.current;
    const held = keep && this.layout.place(keep) ? keep : undefined;
    const first = this.table.querySelector<HTMLElement>('td[data-key]')?.dataset.key;
    this.current = held ?? first;
    this.layout.hold(this.current);
  }

  /** Puts the tab stop (and, with `focus`, the keyboard) on a cell. */
  hold(cell: HTMLElement, focus = false): void {
    if (this.current !== cell.dataset.key) {
      this.current = cell.dataset.key;
      this.layout.hold(this.current);
    }
    cell.tabIndex = 0;
    if (focus) cell.focus();
  }

  private onKey(e: KeyboardEvent): void {
    const cell = cellOf(e.target);
    // keys typed on a button inside a cell are the button's
    if (!cell || (e.target as HTMLElement).closest('button')) return;
    const at = this.layout.place(cell.dataset.key ?? '');
    if (!at) return;
    const { row: r, column: c } = at;
    const go = (ri: number, ci: number) => {
      e.preventDefault();
      const row = Math.max(0, Math.min(this.layout.rowCount - 1, ri));
      const column = Math.max(0, Math.min(this.layout.columnCount - 1, ci));
      if (row === r && column === c) return;
      const next = this.layout.reveal(row, column);
      if (!next) return;
      this.hold(next, true);
      this.actions.moved(next);
    };
    const last = this.layout.rowCount - 1;
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
