// The filter bar: activity types (the spec's list as checkboxes, and free text for types it does not list),
// created and updated ranges whose bounds are checked as they are typed with the core's own RFC 3339 check,
// and the feed's actions (Apply, Clear, Check for newer, Export). Apply stays disabled while a bound is not
// a full timestamp, so the extension is never asked for a filter the service would refuse.
import {
  ACTIVITY_TYPES,
  ORG_MEMBERSHIP_TYPES,
  isRfc3339,
  type ActivityFilter,
  type Bound,
  type ExportState,
} from '../../protocol/activity';
import { button, el, icon, kindClass, plural } from './dom';

type Field = 'created' | 'updated';

interface BoundInput {
  field: Field;
  side: 'from' | 'to';
  select: HTMLSelectElement;
  input: HTMLInputElement;
}

export interface FilterBarActions {
  apply(filter: ActivityFilter): void;
  newer(): void;
  export(): void;
}

const FIELD_LABEL: Record<Field, string> = { created: 'Created', updated: 'Updated' };
// A lower bound is ≥ or >, an upper one ≤ or <: two bounds of one range can never collide on one key.
const SIDES: Record<'from' | 'to', [Bound, string, string][]> = {
  from: [
    ['gte', '≥', 'at or after'],
    ['gt', '>', 'after'],
  ],
  to: [
    ['lte', '≤', 'at or before'],
    ['lt', '<', 'before'],
  ],
};
/** the shape, not an example: a grey example timestamp reads too easily as a value already entered */
const TIMESTAMP_PLACEHOLDER = 'YYYY-MM-DDThh:mm:ssZ';
/** what the service accepts as a type name (the extension refuses anything else) */
const TYPE_NAME = /^[A-Za-z0-9_.:-]+$/;

export class FilterBar {
  private readonly checks = new Map<string, HTMLInputElement>();
  private readonly otherTypes = el('input', 'text other-types');
  private readonly bounds: BoundInput[] = [];
  private readonly typesMenu = el('details', 'dropdown');
  private readonly typesSummary = el('span', 'label');
  private readonly applyButton = el('button', 'btn primary');
  private readonly newerButton = button('Check for newer', 'arrow-up');
  private readonly exportButton = button('Export…', 'desktop-download');

  constructor(
    private readonly form: HTMLFormElement,
    private readonly problemsBox: HTMLElement,
    private readonly actions: FilterBarActions,
  ) {
    form.append(this.typesPicker(), this.range('created'), this.range('updated'), this.buttons());
    form.addEventListener('submit', e => {
      e.preventDefault();
      this.submit();
    });
    form.addEventListener('input', () => this.validate());
    form.addEventListener('change', () => this.validate());
    // the types menu closes like a native one: a click elsewhere, or Escape
    document.addEventListener('click', e => {
      if (this.typesMenu.open && !this.typesMenu.contains(e.target as Node)) this.typesMenu.open = false;
    });
    this.typesMenu.addEventListener('keydown', e => {
      if (e.key === 'Escape' && this.typesMenu.open) {
        this.typesMenu.open = false;
        this.typesMenu.querySelector('summary')?.focus();
      }
    });
    this.validate();
  }

  /** Puts a filter into the form (the one in force, after a reload or an Apply). */
  show(filter: ActivityFilter): void {
    const types = filter.types ?? [];
    for (const [type, box] of this.checks) box.checked = types.includes(type);
    this.otherTypes.value = types.filter(t => !this.checks.has(t)).join(', ');
    for (const b of this.bounds) {
      const range = filter[b.field] ?? {};
      const op = SIDES[b.side].find(([bound]) => range[bound] !== undefined);
      b.input.value = op ? (range[op[0]] ?? '') : '';
      if (op) b.select.value = op[0];
    }
    this.validate();
  }

  /** While a page is being fetched there is nothing to check for newer against yet. */
  setLoading(loading: boolean): void {
    this.newerButton.disabled = loading;
  }

  setExport(state: ExportState): void {
    this.exportButton.disabled = state.running;
    const label = this.exportButton.querySelector('.label');
    if (label) label.textContent = state.running ? `Exporting… ${plural(state.records, 'record')}` : 'Export…';
  }

  // ---- building ---------------------------------------------------------------------------------------

  private typesPicker(): HTMLElement {
    const summary = el('summary', 'btn');
    summary.append(icon('filter'), this.typesSummary, icon('chevron-down'));
    summary.title = 'Activity types to show';
    const panel = el('div', 'dropdown-panel');
    panel.setAttribute('role', 'group');
    panel.setAttribute('aria-label', 'Activity types');
    const groups: [string, readonly string[]][] = [
      ['Content', ACTIVITY_TYPES.filter(t => !ORG_MEMBERSHIP_TYPES.includes(t))],
      ['Organization membership', ORG_MEMBERSHIP_TYPES],
    ];
    for (const [legendText, types] of groups) {
      const set = el('fieldset');
      set.appendChild(el('legend', undefined, legendText));
      for (const type of types) {
        const label = el('label', 'check');
        const box = el('input');
        box.type = 'checkbox';
        box.value = type;
        this.checks.set(type, box);
        label.append(box, el('span', `type-name ${kindClass(type)}`, type));
        set.appendChild(label);
      }
      panel.appendChild(set);
    }
    const other = el('label', 'other');
    other.appendChild(el('span', undefined, 'Other types (the spec’s list is not complete)'));
    this.otherTypes.type = 'text';
    this.otherTypes.placeholder = 'comma-separated, e.g. model_chat_deleted';
    this.otherTypes.spellcheck = false;
    other.appendChild(this.otherTypes);
    panel.appendChild(other);
    const clear = button('All types', 'clear-all', 'btn link');
    clear.addEventListener('click', () => {
      for (const box of this.checks.values()) box.checked = false;
      this.otherTypes.value = '';
      this.validate();
    });
    panel.appendChild(clear);
    this.typesMenu.append(summary, panel);
    return this.typesMenu;
  }

  private range(field: Field): HTMLElement {
    const group = el('div', 'range');
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', `${FIELD_LABEL[field]} between`);
    group.appendChild(el('span', 'range-label', FIELD_LABEL[field]));
    for (const side of ['from', 'to'] as const) {
      const select = el('select', 'op');
      select.setAttribute('aria-label', `${FIELD_LABEL[field]} ${side}: bound`);
      for (const [bound, symbol, words] of SIDES[side]) {
        const o = el('option', undefined, symbol);
        o.value = bound;
        o.title = `${words} (${field}_at.${bound})`;
        select.appendChild(o);
      }
      const input = el('input', 'text ts');
      input.type = 'text';
      input.spellcheck = false;
      input.autocomplete = 'off';
      input.placeholder = TIMESTAMP_PLACEHOLDER;
      input.setAttribute('aria-label', `${FIELD_LABEL[field]} ${side} (RFC 3339 timestamp with a zone)`);
      this.bounds.push({ field, side, select, input });
      group.append(select, input);
    }
    return group;
  }

  private buttons(): HTMLElement {
    const box = el('div', 'actions');
    this.applyButton.type = 'submit';
    this.applyButton.appendChild(el('span', 'label', 'Apply'));
    const clear = button('Clear', 'clear-all');
    clear.title = 'Clear every filter and show the whole feed';
    clear.addEventListener('click', () => {
      this.show({});
      this.submit();
    });
    this.newerButton.title = 'Ask for records newer than the first row (before_id), and put them on top';
    this.newerButton.addEventListener('click', () => this.actions.newer());
    this.exportButton.title = 'Export every record the filters match to JSON Lines or CSV';
    this.exportButton.addEventListener('click', () => this.actions.export());
    const spacer = el('span', 'spacer');
    box.append(this.applyButton, clear, spacer, this.newerButton, this.exportButton);
    return box;
  }

  // ---- reading and checking ---------------------------------------------------------------------------

  /** The filter the form describes, and what is wrong with it (nothing is sent while anything is). */
  private read(): { filter: ActivityFilter; problems: { text: string; input: HTMLInputElement }[] } {
    const problems: { text: string; input: HTMLInputElement }[] = [];
    const types = [...this.checks].filter(([, box]) => box.checked).map(([type]) => type);
    for (const t of this.otherTypes.value.split(/[\s,]+/).filter(Boolean)) {
      if (!TYPE_NAME.test(t))
        problems.push({
          text: `“${t}” is not an activity type name (letters, digits and _ . : -).`,
          input: this.otherTypes,
        });
      else if (!types.includes(t)) types.push(t);
    }
    const filter: ActivityFilter = types.length ? { types } : {};
    for (const b of this.bounds) {
      const value = b.input.value.trim();
      if (!value) continue;
      const bound = b.select.value as Bound;
      if (!isRfc3339(value)) {
        const where = `${FIELD_LABEL[b.field]} ${b.side}`;
        const fix = 'give a date, a time and a zone, e.g. 2026-01-31T09:00:00Z';
        problems.push({ text: `${where}: “${value}” is not a full RFC 3339 timestamp — ${fix}.`, input: b.input });
      }
      filter[b.field] = { ...filter[b.field], [bound]: value };
    }
    return { filter, problems };
  }

  private validate(): boolean {
    const { filter, problems } = this.read();
    for (const input of [this.otherTypes, ...this.bounds.map(b => b.input)]) {
      const bad = problems.some(p => p.input === input);
      input.classList.toggle('invalid', bad);
      input.setAttribute('aria-invalid', String(bad));
    }
    this.problemsBox.replaceChildren(...problems.map(p => el('div', 'problem', p.text)));
    this.problemsBox.hidden = !problems.length;
    this.applyButton.disabled = problems.length > 0;
    const n = filter.types?.length ?? 0;
    this.typesSummary.textContent = n === 0 ? 'All types' : n === 1 ? filter.types![0]! : `${n} types`;
    return !problems.length;
  }

  private submit(): void {
    if (!this.validate()) return;
    this.typesMenu.open = false;
    this.actions.apply(this.read().filter);
  }
}
