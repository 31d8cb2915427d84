// The feed's table: one row per record (time, what happened, actor, target, organization, id), newest first.
// Rows are one tab stop (a roving tabindex: the arrow keys, Home, End and the page keys move between them);
// Enter or a click shows the record in the pane beside the table, and while the pane is open it follows the
// row the arrow keys move to. Organization membership rows carry a "Refresh organizations" action.
import type { ActivityRow } from '../../protocol/activity';
import { el, icon, kindClass } from './dom';

export interface TableActions {
  open(id: string): void;
  /** the arrow keys moved to another row */
  moved(id: string): void;
  refreshOrganizations(id: string): void;
}

const PAGE_STEP = 10;

/** "2026-01-07T21:35:00Z" reads as "2026-01-07 21:35:00 UTC"; the exact value stays in the tooltip. */
function readableTime(t: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(t);
  if (!m) return t;
  return `${m[1]} ${m[2]} ${m[4] === 'Z' || m[4] === 'z' ? 'UTC' : m[4]}`;
}

export class FeedTable {
  /** the row that holds the table's one tab stop */
  private current: HTMLTableRowElement | undefined;

  constructor(
    private readonly body: HTMLTableSectionElement,
    private readonly actions: TableActions,
  ) {
    body.addEventListener('click', e => {
      const target = e.target as HTMLElement;
      const row = target.closest('tr');
      if (!row?.dataset.id) return;
      this.focus(row);
      if (target.closest('.row-action')) this.actions.refreshOrganizations(row.dataset.id);
      else this.actions.open(row.dataset.id);
    });
    body.addEventListener('keydown', e => this.onKey(e));
    // a row focused any way (a click, a screen reader, a find) becomes the tab stop
    body.addEventListener('focusin', e => {
      const row = (e.target as HTMLElement).closest('tr');
      if (row?.dataset.id) this.focus(row);
    });
  }

  get size(): number {
    return this.body.rows.length;
  }

  clear(): void {
    this.body.replaceChildren();
    this.current = undefined;
  }

  append(rows: ActivityRow[]): void {
    const frag = document.createDocumentFragment();
    for (const r of rows) frag.appendChild(this.row(r));
    this.body.appendChild(frag);
    this.ensureTabStop();
  }

  prepend(rows: ActivityRow[]): void {
    const frag = document.createDocumentFragment();
    for (const r of rows) frag.appendChild(this.row(r));
    this.body.insertBefore(frag, this.body.firstChild);
    this.ensureTabStop();
  }

  private row(r: ActivityRow): HTMLTableRowElement {
    const tr = el('tr');
    tr.dataset.id = r.id;
    tr.tabIndex = -1;
    tr.setAttribute('aria-label', `${r.label} by ${r.actor || 'unknown'} at ${r.time}. Enter shows the record.`);
    const time = el('td', 'time', readableTime(r.time));
    time.title = r.time;
    const type = el('td', 'type');
    // a flex box inside the cell: a long type name shortens with an ellipsis, its action stays in sight
    const cell = el('div', 'type-cell');
    // the type in words; the service's own name (what the filter and an export use) in the tooltip
    const name = el('span', `type-name ${kindClass(r.type)}`, r.label);
    name.title = r.type;
    cell.appendChild(name);
    type.appendChild(cell);
    if (r.membership) {
      const action = el('button', 'row-action');
      action.type = 'button';
      action.tabIndex = -1;
      // the label shows only while the button itself is pointed at or focused (so the type stays readable);
      // the accessible name must not depend on it
      action.setAttribute('aria-label', 'Refresh organizations');
      action.title = 'This activity can change the linked organizations: list them again in the Compliance view';
      action.append(icon('sync'), el('span', 'label', 'Refresh organizations'));
      cell.appendChild(action);
    }
    const actor = el('td', 'actor', r.actor);
    actor.title = r.actor;
    const target = el('td', 'target');
    if (r.targetKind) target.appendChild(el('span', 'muted', `${r.targetKind} `));
    target.appendChild(document.createTextNode(r.target));
    target.title = r.targetKind ? `${r.targetKind} ${r.target}` : r.target;
    const org = el('td', 'org', r.organization);
    org.title = r.organization;
    const id = el('td', 'id', r.id);
    tr.append(time, type, actor, target, org, id);
    return tr;
  }

  /** Marks the row whose record the pane shows (none: undefined). */
  select(id: string | undefined): void {
    this.body.querySelectorAll<HTMLTableRowElement>('tr[data-selected]').forEach(row => delete row.dataset.selected);
    const row = id ? this.find(id) : undefined;
    if (row) row.dataset.selected = '';
  }

  /** Puts the keyboard back on a row (the pane closed). */
  focusRow(id: string): void {
    const row = this.find(id);
    if (row) this.focus(row, true);
  }

  private find(id: string): HTMLTableRowElement | undefined {
    return Array.from(this.body.rows).find(row => row.dataset.id === id);
  }

  /** Exactly one row (and its action, if any) is reachable with Tab. */
  private focus(row: HTMLTableRowElement, moveFocus = false): void {
    if (this.current && this.current !== row) {
      this.current.tabIndex = -1;
      const old = this.current.querySelector<HTMLButtonElement>('.row-action');
      if (old) old.tabIndex = -1;
    }
    this.current = row;
    row.tabIndex = 0;
    const action = row.querySelector<HTMLButtonElement>('.row-action');
    if (action) action.tabIndex = 0;
    if (moveFocus) row.focus();
  }

  private ensureTabStop(): void {
    if (this.current?.isConnected) return;
    const first = this.body.rows[0];
    if (first) this.focus(first);
  }

  private onKey(e: KeyboardEvent): void {
    const row = (e.target as HTMLElement).closest('tr');
    if (!row?.dataset.id) return;
    const onAction = (e.target as HTMLElement).closest('.row-action');
    const rows = this.body.rows;
    const at = row.sectionRowIndex;
    const go = (i: number) => {
      const next = rows[Math.max(0, Math.min(rows.length - 1, i))];
      e.preventDefault();
      if (!next || next === row) return;
      this.focus(next, true);
      this.actions.moved(next.dataset.id!);
    };
    switch (e.key) {
      case 'ArrowDown':
        return go(at + 1);
      case 'ArrowUp':
        return go(at - 1);
      case 'PageDown':
        return go(at + PAGE_STEP);
      case 'PageUp':
        return go(at - PAGE_STEP);
      case 'Home':
        return go(0);
      case 'End':
        return go(rows.length - 1);
      case 'Enter':
      case ' ':
        if (onAction) return; // the button's own click
        e.preventDefault();
        this.actions.open(row.dataset.id);
        return;
    }
  }
}
