// The bar between the grid and the detail pane: dragged, or with the keyboard (it is a focusable separator:
// the up and down arrows move it by a step, Page Up and Page Down by more, Home and End to the largest and
// smallest pane). The pane's height is kept (setState) so a reload shows it as the person left it.

/** the pane's share of the page at first: the grid keeps room for a few rows and its header */
const DEFAULT_SHARE = 0.35;
const STEP_PX = 24;
const PAGE_PX = 120;
const MIN_PANE_PX = 80;
/** the grid keeps at least this much of the page */
const MIN_GRID_PX = 120;

export class Splitter {
  private height: number;

  constructor(
    private readonly bar: HTMLElement,
    private readonly pane: HTMLElement,
    initial: number | undefined,
    private readonly changed: (height: number) => void,
  ) {
    this.height = initial ?? Math.round(window.innerHeight * DEFAULT_SHARE);
    bar.addEventListener('pointerdown', e => this.drag(e));
    bar.addEventListener('keydown', e => this.onKey(e));
    window.addEventListener('resize', () => this.apply());
    this.apply();
  }

  /** The largest the pane may be now: the grid keeps some room. */
  private get max(): number {
    const top = this.pane.parentElement?.querySelector('#scroller')?.getBoundingClientRect().top ?? 0;
    return Math.max(MIN_PANE_PX, window.innerHeight - top - MIN_GRID_PX);
  }

  set(height: number): void {
    this.height = Math.round(height);
    this.apply();
    this.changed(this.height);
  }

  private apply(): void {
    const h = Math.max(MIN_PANE_PX, Math.min(this.max, this.height));
    this.pane.style.height = `${h}px`;
    this.bar.setAttribute('aria-valuemin', String(MIN_PANE_PX));
    this.bar.setAttribute('aria-valuemax', String(Math.round(this.max)));
    this.bar.setAttribute('aria-valuenow', String(h));
    this.bar.setAttribute('aria-valuetext', `detail pane ${h} pixels high`);
  }

  private drag(e: PointerEvent): void {
    if (e.button !== 0) return;
    e.preventDefault();
    const startY = e.clientY;
    const start = this.pane.getBoundingClientRect().height;
    this.bar.setPointerCapture(e.pointerId);
    this.bar.classList.add('dragging');
    const move = (m: PointerEvent) => this.set(start + (startY - m.clientY));
    const up = () => {
      this.bar.classList.remove('dragging');
      this.bar.removeEventListener('pointermove', move);
      this.bar.removeEventListener('pointerup', up);
      this.bar.removeEventListener('pointercancel', up);
    };
    this.bar.addEventListener('pointermove', move);
    this.bar.addEventListener('pointerup', up);
    this.bar.addEventListener('pointercancel', up);
  }

  private onKey(e: KeyboardEvent): void {
    const now = this.pane.getBoundingClientRect().height;
    const to: Record<string, number> = {
      ArrowUp: now + STEP_PX,
      ArrowDown: now - STEP_PX,
      PageUp: now + PAGE_PX,
      PageDown: now - PAGE_PX,
      Home: this.max,
      End: MIN_PANE_PX,
    };
    const next = to[e.key];
    if (next === undefined) return;
    e.preventDefault();
    this.set(Math.max(MIN_PANE_PX, Math.min(this.max, next)));
  }
}
