// The whole of a cell's last line (why it failed: `regex /^Bonjour/: no match in the reply …`) when the cell
// is too narrow for it: shown under the cell while the cell has the keyboard focus or the pointer, so no text
// is cut off without a way to read it. The cell's accessible name carries the same text.

const HOVER_DELAY_MS = 300;

export class CellTip {
  private owner: HTMLElement | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly tip: HTMLElement,
    table: HTMLElement,
  ) {
    table.addEventListener('focusin', e => {
      const cell = cellOf(e.target);
      if (cell) this.show(cell);
    });
    table.addEventListener('focusout', e => {
      if (!cellOf(e.relatedTarget)) this.hide();
    });
    table.addEventListener('mouseover', e => {
      const cell = cellOf(e.target);
      if (!cell || cell === this.owner) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.show(cell), HOVER_DELAY_MS);
    });
    table.addEventListener('mouseleave', () => {
      clearTimeout(this.timer);
      // the keyboard's cell keeps its tip
      const focused = cellOf(document.activeElement);
      if (focused) this.show(focused);
      else this.hide();
    });
    // the tip follows its cell when the grid scrolls, and leaves with the page's focus
    table.closest('#scroller')?.addEventListener('scroll', () => this.place(), { passive: true });
    window.addEventListener('resize', () => this.place());
    window.addEventListener('blur', () => this.hide());
  }

  /** The cell's text changed (a verdict came): its tip too. */
  refresh(cell: HTMLElement): void {
    if (cell === this.owner) this.show(cell);
  }

  private show(cell: HTMLElement): void {
    const foot = cell.querySelector<HTMLElement>('.cell-foot');
    const text = foot?.textContent ?? '';
    // only a line that is cut off: one that shows whole needs no second copy
    if (!foot || !text || foot.scrollWidth <= foot.clientWidth) {
      if (this.owner === cell || !this.owner) this.hide();
      return;
    }
    this.owner = cell;
    this.tip.textContent = text;
    this.tip.classList.toggle('failing', foot.classList.contains('failing'));
    this.tip.hidden = false;
    cell.setAttribute('aria-describedby', this.tip.id);
    this.place();
  }

  private hide(): void {
    clearTimeout(this.timer);
    this.owner?.removeAttribute('aria-describedby');
    this.owner = undefined;
    this.tip.hidden = true;
  }

  /** Under the cell's last line, inside the window. */
  private place(): void {
    if (!this.owner || this.tip.hidden) return;
    if (!this.owner.isConnected) return this.hide();
    const foot = this.owner.querySelector<HTMLElement>('.cell-foot') ?? this.owner;
    const at = foot.getBoundingClientRect();
    const width = Math.min(Math.max(at.width, 320), window.innerWidth - 16);
    this.tip.style.width = `${width}px`;
    this.tip.style.left = `${Math.max(8, Math.min(at.left, window.innerWidth - width - 8))}px`;
    const below = at.bottom + 4;
    const height = this.tip.offsetHeight;
    this.tip.style.top = `${below + height > window.innerHeight ? Math.max(8, at.top - height - 4) : below}px`;
  }
}

const cellOf = (target: EventTarget | null): HTMLElement | null =>
  target instanceof HTMLElement ? target.closest<HTMLElement>('td[data-key]') : null;
