// Completion and hover for YAML request, count and case files, from the zod schema itself, for editors with
// no YAML language service (the JSON Schema in dist/ reaches YAML only through the YAML extension), and what
// the JSON files' (jsonAssist.ts) share with it: a field's description, whether it is required. What
// the cursor is on is found as templates.ts finds a slot: the line is rewritten with a marker and parsed,
// and where the marker lands (a key of which mapping, or the value of which field) is left to the yaml
// library, with all of YAML's indentation rules. The schema at that path (schemaPath.ts) says the rest.
import * as YAML from 'yaml';
import { MODELS } from '../models/table';
import { fieldOf, fieldsOf, shapeOf, slotAt, typeOf, valuesOf, type Schema, type Slot } from '../request/schemaPath';
import type { Path } from '../request/types';

const MARK = '__promptwright_cursor__';
/** Named values shown in a hover, at most. */
const MAX_VALUES_SHOWN = 12;

export interface AssistItem {
  label: string;
  kind: 'field' | 'value';
  /** the text inserted, indented for its place (the editor must keep its whitespace as it is) */
  insertText: string;
  /** `insertText` is a snippet (`$1` where the cursor goes) */
  snippet?: boolean;
  /** Markdown */
  documentation?: string;
  /** a field the schema requires (listed first) */
  required?: boolean;
  /** what was inserted leads on to more choices (a field's values, an object's fields): ask again */
  retrigger?: boolean;
}

export interface AssistCompletions {
  /** the text the chosen item replaces */
  start: number;
  end: number;
  items: AssistItem[];
}

export interface AssistHover {
  markdown: string;
  start: number;
  end: number;
}

/** Values a field takes beyond what its schema names (model ids for `model`), by path. */
export type ValueHints = (path: Path) => readonly string[];

/** The request's own hints: the model ids the spec lists, newest first, retired ones left out. */
export const requestValueHints: ValueHints = path =>
  path.length === 1 && path[0] === 'model' ? MODELS.filter(m => m.status !== 'retired' && !m.base).map(m => m.id) : [];

interface Line {
  start: number;
  end: number;
  /** the text of the line before and after the cursor */
  before: string;
  after: string;
}

function lineAt(text: string, offset: number): Line {
  // lastIndexOf reads a negative start as 0, where a newline would be found: the first line starts at 0
  const start = offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0;
  let end = text.indexOf('\n', offset);
  if (end < 0) end = text.length;
  if (text[end - 1] === '\r') end--;
  return { start, end, before: text.slice(start, offset), after: text.slice(offset, end) };
}

const KEY_BEFORE = /^( *)((?:- +)*)([\w$.-]*)$/;
const WORD_AFTER = /^[\w$.-]*/;
const VALUE_BEFORE = /^( *)((?:- +)*)([^\s#:'"][^:#]*|"[^"]*"|'[^']*'):( +)([^\s#]*)$/;
const ITEM_BEFORE = /^( *)((?:- +)+)([^\s#:]*)$/;

/** Completions at `offset` of a YAML file checked against `root`; undefined where there are none. */
export function yamlCompletions(
  text: string,
  offset: number,
  root: Schema,
  hints: ValueHints = () => [],
): AssistCompletions | undefined {
  const line = lineAt(text, offset);
  const rest = line.after.slice(WORD_AFTER.exec(line.after)![0].length);
  const typedEnd = offset + (line.after.length - rest.length);
  // `key: val|`: the field's values
  const value = VALUE_BEFORE.exec(line.before);
  if (value && /^\s*(#.*)?$/.test(rest)) {
    const start = offset - value[5]!.length;
    const probe = `${text.slice(0, start)}${MARK}${text.slice(typedEnd)}`;
    const at = findMark(probe);
    if (!at || at.asKey) return undefined;
    const items = valueItems(root, at, hints);
    return items.length ? { start, end: typedEnd, items } : undefined;
  }
  // `- val|` in a list of values (a case's `models`, a tool's `allowed_callers`)
  const item = ITEM_BEFORE.exec(line.before);
  if (item && rest.trim() === '') {
    const start = offset - item[3]!.length;
    const at = findMark(`${text.slice(0, start)}${MARK}${text.slice(typedEnd)}`);
    if (at && !at.asKey) {
      const slot = slotAt(root, at.value, at.path);
      if (slot && shapeOf(slot.schema) !== 'object' && !slot.branches.length) {
        const items = valueItems(root, at, hints);
        return items.length ? { start, end: typedEnd, items } : undefined;
      }
    }
  }
  // `key|` at the start of a line (or after `- `): the fields of the mapping it belongs to
  const key = KEY_BEFORE.exec(line.before);
  if (!key) return undefined;
  const renaming = rest.startsWith(':');
  if (!renaming && rest.trim() !== '') return undefined;
  const start = offset - key[3]!.length;
  const probe = `${text.slice(0, start)}${MARK}${renaming ? '' : ':'}${text.slice(typedEnd)}`;
  const at = findMark(probe);
  if (!at?.asKey) return undefined;
  const column = start - line.start;
  const items = fieldItems(root, at, column, renaming);
  return items.length ? { start, end: typedEnd, items } : undefined;
}

interface Mark {
  /** the mapping's path (a key), or the value's (a value) */
  path: Path;
  asKey: boolean;
  /** the document's value, marker included (it picks unions by their `type`) */
  value: unknown;
  /** the keys the mapping already has, the marker's left out */
  siblings: string[];
}

function findMark(probe: string): Mark | undefined {
  const doc = YAML.parseDocument(probe, { uniqueKeys: false, strict: false, logLevel: 'error' });
  const found = markIn(doc.contents, []);
  if (!found) return undefined;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch {
    value = undefined;
  }
  return { ...found, value };
}

function markIn(node: unknown, path: Path): Omit<Mark, 'value'> | undefined {
  if (YAML.isScalar(node)) return node.value === MARK ? { path, asKey: false, siblings: [] } : undefined;
  if (YAML.isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const found = markIn(node.items[i], [...path, i]);
      if (found) return found;
    }
  } else if (YAML.isMap(node)) {
    const keys = node.items.map(p => (YAML.isScalar(p.key) ? p.key.value : undefined));
    if (keys.includes(MARK))
      return { path, asKey: true, siblings: keys.filter((k): k is string => typeof k === 'string' && k !== MARK) };
    for (const [i, pair] of node.items.entries()) {
      const key = keys[i];
      if (typeof key !== 'string' && typeof key !== 'number') continue;
      const found = markIn(pair.value, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

function fieldItems(root: Schema, at: Mark, column: number, renaming: boolean): AssistItem[] {
  const slot = slotAt(root, at.value, at.path);
  if (!slot) return [];
  // an object whose kind its `type` picks, with no type yet: the type comes first
  const fields = slot.schema ? fieldsOf(slot.schema) : slot.branches.length ? ['type'] : [];
  const indent = ' '.repeat(column + 2);
  return fields
    .filter(f => !at.siblings.includes(f))
    .map(f => {
      const field = slotAt(root, at.value, [...at.path, f]);
      const shape = shapeOf(slot.schema ? fieldOf(slot.schema, f) : undefined);
      const values = field ? valuesOf(field) : [];
      const insertText = renaming
        ? f
        : shape === 'object'
          ? `${f}:\n${indent}`
          : shape === 'array'
            ? `${f}:\n${indent}- `
            : `${f}: `;
      return {
        label: f,
        kind: 'field' as const,
        insertText,
        ...(field ? { documentation: fieldDoc(f, field) } : {}),
        ...(isRequired(slot.schema, f) ? { required: true } : {}),
        ...(!renaming && (shape !== 'scalar' || values.length) ? { retrigger: true } : {}),
      };
    });
}

export function isRequired(s: Schema | undefined, field: string): boolean {
  const f = fieldOf(s, field);
  return !!f && (f as unknown as { _zod: { optin?: string } })._zod.optin !== 'optional';
}

function valueItems(root: Schema, at: Mark, hints: ValueHints): AssistItem[] {
  const slot = slotAt(root, at.value, at.path);
  if (!slot) return [];
  const values = [...new Set([...valuesOf(slot), ...hints(at.path)])].filter(
    (v): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
  );
  const branches = at.path[at.path.length - 1] === 'type' ? branchesAbove(root, at) : [];
  return values.map(v => {
    const doc = typeof v === 'string' ? branches.find(b => typeOf(b.schema) === v)?.description : undefined;
    return {
      label: String(v),
      kind: 'value' as const,
      insertText: scalar(v),
      ...(doc ? { documentation: doc } : {}),
    };
  });
}

/** The branches of the union a `type` picks, with their descriptions (for the values offered or hovered). */
export function branchesAbove(
  root: Schema,
  at: { path: Path; value: unknown },
): { schema: Schema; description?: string }[] {
  const parent = at.path.slice(0, -1);
  // the same document with that object's `type` left out: its union stays open, and lists its branches
  const value = structuredClone(at.value);
  const holder = parent.reduce<unknown>(
    (v, seg) => (v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[seg] : undefined),
    value,
  );
  if (holder === null || typeof holder !== 'object') return [];
  delete (holder as Record<string, unknown>).type;
  const open = slotAt(root, value, parent);
  return (open?.branches ?? []).map(b => {
    const description = slotAt(b, { type: typeOf(b) }, [])?.description;
    return { schema: b, ...(description ? { description } : {}) };
  });
}

/** A value as YAML writes it on its own (quoted where plain text would read as something else). */
function scalar(v: string | number | boolean): string {
  return YAML.stringify(v, { lineWidth: 0 }).trimEnd();
}

export function fieldDoc(name: string, slot: Slot): string {
  const values = valuesOf(slot).filter(v => typeof v === 'string' || typeof v === 'boolean');
  const parts = [`**${name}**`];
  if (slot.description) parts.push(slot.description);
  if (values.length && values.length <= MAX_VALUES_SHOWN)
    parts.push(`Values: ${values.map(v => `\`${String(v)}\``).join(', ')}`);
  return parts.join('\n\n');
}

/** The hover at `offset`: the description of the field whose key or value is there. */
export function yamlHover(text: string, offset: number, root: Schema): AssistHover | undefined {
  const doc = YAML.parseDocument(text, { uniqueKeys: false, strict: false, logLevel: 'error' });
  const at = nodeAt(doc.contents, offset, []);
  if (!at) return undefined;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch {
    return undefined;
  }
  const slot = slotAt(root, value, at.path);
  const name = at.path[at.path.length - 1];
  if (!slot || typeof name !== 'string') return undefined;
  let markdown = fieldDoc(name, slot);
  // on a `type` value: what that kind of object is
  if (!at.onKey && name === 'type' && typeof at.value === 'string') {
    const branch = branchesAbove(root, { path: at.path, value }).find(b => typeOf(b.schema) === at.value);
    if (branch?.description) markdown += `\n\n\`${at.value}\`: ${branch.description}`;
  }
  if (!slot.description && markdown === `**${name}**`) return undefined;
  return { markdown, start: at.start, end: at.end };
}

interface Found {
  path: Path;
  onKey: boolean;
  value?: unknown;
  start: number;
  end: number;
}

function nodeAt(node: unknown, offset: number, path: Path): Found | undefined {
  if (YAML.isMap(node)) {
    for (const pair of node.items) {
      const k = YAML.isScalar(pair.key) ? pair.key : undefined;
      const name = k?.value;
      if (typeof name !== 'string' && typeof name !== 'number') continue;
      const here = [...path, name];
      if (k?.range && k.range[0] <= offset && offset <= k.range[1])
        return { path: here, onKey: true, start: k.range[0], end: k.range[1] };
      const found = nodeAt(pair.value, offset, here);
      if (found) return found;
    }
  } else if (YAML.isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const found = nodeAt(node.items[i], offset, [...path, i]);
      if (found) return found;
    }
  } else if (YAML.isScalar(node) && node.range && node.range[0] <= offset && offset <= node.range[1]) {
    // an item of a list is described by its list's field
    const field = typeof path[path.length - 1] === 'number' ? path.slice(0, -1) : path;
    return { path: field, onKey: false, value: node.value, start: node.range[0], end: node.range[1] };
  }
  return undefined;
}
