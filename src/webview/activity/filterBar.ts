// The filter bar: activity types (the spec's list as checkboxes, in words, and free text for types it does
// not list), when (the last hour, day or week, or a custom range of dates and times, created or updated),
// and the feed's actions (Apply, Clear, Check for newer, Export). The dates are the browser's date-time
// inputs in local time, sent as RFC 3339 timestamps in UTC; the core's own check still runs on them, so the
// extension is never asked for a filter the service would refuse.
import {
  ACTIVITY_TYPES,
  ORG_MEMBERSHIP_TYPES,
  activityLabel,
  isRfc3339,
  type ActivityFilter,
  type ExportState,
} from '../../protocol/activity';
import { button, el, icon, kindClass, plural } from './dom';

type Field = 'created' | 'updated';
type Side = 'from' | 'to';

interface BoundInput {
  field: Field;
  side: Side;
  input: HTMLInputElement;
}

export interface FilterBarActions {
  apply(filter: ActivityFilter): void;
  newer(): void;
  export(): void;
}

const FIELD_LABEL: Record<Field, string> = { created: 'Created', updated: 'Updated' };
/** a lower bound is at-or-after (gte), an upper one at-or-before (lte) */
const BOUND = { from: 'gte', to: 'lte' } as const;
/** the presets, each a lower bound on created_at this long before Apply */
const PRESETS: [string, string, number][] = [
  ['hour', 'Last hour', 3_600_000],
  ['day', 'Last 24 hours', 86_400_000],
  ['week', 'Last 7 days', 7 * 86_400_000],
];
/** what the service accepts as a type name (the extension refuses anything else) */
const TYPE_NAME = /^[A-Za-z0-9_.:-]+$/;

/** A date-time input's local value ("2026-01-31T09:00" or with seconds) as RFC 3339 in UTC. */
function toRfc3339(local: string): string {
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? local : d.toISOString().replace(/\.000Z$/, 'Z');
}

/** An RFC 3339 timestamp as a date-time input's local value, to the second. */
function toLocal(rfc: string): string {
  const d = new Date(rfc);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
  return `${date}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

export class FilterBar {
  private readonly checks = new Map<string, HTMLInputElement>();
  private readonly otherTypes = el('input', 'text other-types');
  private readonly bounds: BoundInput[] = [];
  private readonly typesMenu = el('details', 'dropdown');
  private readonly typesSummary = el('span', 'label');
  private readonly when = el('select', 'op when');
  private readonly custom = el('div', 'custom-range');
  private readonly applyButton = el('button', 'btn primary');
  private readonly newerButton = button('Check for newer', 'arrow-up');
  private readonly exportButton = button('Export…', 'desktop-download');

  constructor(
    private readonly form: HTMLFormElement,
    private readonly problemsBox: HTMLElement,
    private readonly actions: FilterBarActions,
  ) {
    form.append(this.typesPicker(), this.whenPicker(), this.buttons());
    form.addEventListener('submit', e => {
      e.preventDefault();
      this.submit();
    });
    form.addEventListener('input', () => this.validate());
    form.addEventListener('change', () => this.validate());
    // a date-time input typed in part fires no input event (its value stays empty): its keys are looked at
    form.addEventListener('keyup', () => this.validate());
    form.addEventListener('focusout', () => this.validate());
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
    let any = false;
    for (const b of this.bounds) {
      const range = filter[b.field] ?? {};
      // a bound written as gt or lt (by hand, or by an older version) shows as the nearest date-time
      const value = b.side === 'from' ? (range.gte ?? range.gt) : (range.lte ?? range.lt);
      b.input.value = value ? toLocal(value) : '';
      any ||= !!value;
    }
    // a preset is relative to when it was applied: shown again, it is the range it then meant
    this.when.value = any ? 'custom' : 'any';
    this.custom.hidden = !any;
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
        const name = el('span', `type-name ${kindClass(type)}`, activityLabel(type));
        name.title = type;
        label.append(box, name);
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

  private whenPicker(): HTMLElement {
    const group = el('div', 'range');
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', 'When');
    group.appendChild(el('span', 'range-label', 'When'));
    this.when.setAttribute('aria-label', 'When: a preset or a custom range');
    for (const [value, label] of [['any', 'Any time'], ...PRESETS, ['custom', 'Custom range…']]) {
      const o = el('option', undefined, String(label));
      o.value = String(value);
      this.when.appendChild(o);
    }
    this.when.addEventListener('change', () => {
      this.custom.hidden = this.when.value !== 'custom';
      if (this.when.value === 'custom') this.bounds[0]?.input.focus();
    });
    group.appendChild(this.when);
    this.custom.hidden = true;
    for (const field of ['created', 'updated'] as const) {
      const pair = el('div', 'range');
      pair.setAttribute('role', 'group');
      pair.setAttribute('aria-label', `${FIELD_LABEL[field]} between`);
      pair.appendChild(el('span', 'range-label', FIELD_LABEL[field]));
      for (const side of ['from', 'to'] as const) {
        if (side === 'to') pair.appendChild(el('span', 'range-label', 'to'));
        const input = el('input', 'text ts');
        input.type = 'datetime-local';
        input.step = '1';
        input.setAttribute('aria-label', `${FIELD_LABEL[field]} ${side} (local time)`);
        this.bounds.push({ field, side, input });
        pair.appendChild(input);
      }
      this.custom.appendChild(pair);
    }
    group.appendChild(this.custom);
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
    const preset = PRESETS.find(([value]) => value === this.when.value);
    if (preset) filter.created = { gte: toRfc3339(new Date(Date.now() - preset[2]).toISOString()) };
    if (this.when.value !== 'custom') return { filter, problems };
    for (const b of this.bounds) {
      // a date typed in part has no value yet: said, rather than the bound silently left out
      if (b.input.validity.badInput) {
        problems.push({ text: `${FIELD_LABEL[b.field]} ${b.side}: finish the date and time.`, input: b.input });
        continue;
      }
      if (!b.input.value) continue;
      const value = toRfc3339(b.input.value);
      if (!isRfc3339(value)) {
        problems.push({ text: `${FIELD_LABEL[b.field]} ${b.side}: not a date and time.`, input: b.input });
        continue;
      }
      filter[b.field] = { ...filter[b.field], [BOUND[b.side]]: value };
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
    this.typesSummary.textContent = n === 0 ? 'All types' : n === 1 ? activityLabel(filter.types![0]!) : `${n} types`;
    return !problems.length;
  }

  private submit(): void {
    if (!this.validate()) return;
    this.typesMenu.open = false;
    this.actions.apply(this.read().filter);
  }
}
