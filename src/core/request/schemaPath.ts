// Finding the zod schema that applies at a path of a value: for known keys and number bounds in messages
// (issues.ts), and for completion and hover in JSON and YAML files (core/language/schemaAssist.ts). Unions picked
// by `type` are resolved by the value found there.
import * as z from 'zod/mini';
import type { Path } from './types';

export type Schema = z.core.$ZodType;

export interface Def {
  type: string;
  shape?: Record<string, Schema>;
  element?: Schema;
  valueType?: Schema;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  options?: Schema[];
  transform?: (v: unknown, ctx: unknown) => unknown;
  /** a literal's values */
  values?: unknown[];
  /** an enum's values, by name */
  entries?: Record<string, unknown>;
  /** a discriminated union's key (`type`) */
  discriminator?: string;
}
export const defOf = (s: Schema): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema that applies to the value at `path`, with unions resolved by the value found there. */
export function schemaAt(root: Schema, value: unknown, path: Path): Schema | undefined {
  let [s, v] = unwrap(root, value);
  for (const seg of path) {
    if (!s) return undefined;
    const next = child(s, seg);
    if (!next) return undefined;
    [s, v] = unwrap(next, childValue(v, seg));
  }
  return s;
}

function child(s: Schema, seg: string | number): Schema | undefined {
  const d = defOf(s);
  if (d.type === 'object') return d.shape?.[seg];
  if (d.type === 'array') return d.element;
  return d.type === 'record' ? d.valueType : undefined;
}

const childValue = (v: unknown, seg: string | number): unknown =>
  v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[seg] : undefined;

function unwrap(schema: Schema, value: unknown): [Schema | undefined, unknown] {
  let s: Schema | undefined = schema;
  let v = value;
  for (let guard = 0; s && guard < 32; guard++) {
    const d = defOf(s);
    if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'readonly')
      s = d.innerType;
    else if (d.type === 'pipe') {
      [s, v] = throughPipe(d, v);
    } else if (d.type === 'union') s = pickOption(d.options ?? [], v);
    else return [s, v];
  }
  return [s, v];
}

/** A pipe's output schema, and the value as its transform (if it starts with one) leaves it. */
function throughPipe(d: Def, v: unknown): [Schema | undefined, unknown] {
  const pre = d.in ? defOf(d.in) : undefined;
  return [d.out, pre?.type === 'transform' && pre.transform ? pre.transform(v, { value: v, issues: [] }) : v];
}

/** The union member that fits a value: by its `type` literal, else by JSON kind. */
function pickOption(options: Schema[], v: unknown): Schema | undefined {
  const kind = Array.isArray(v) ? 'array' : v !== null && typeof v === 'object' ? 'object' : typeof v;
  const type = kind === 'object' ? (v as { type?: unknown }).type : undefined;
  let byKind: Schema | undefined;
  for (const o of options) {
    const [u] = unwrap(o, v);
    if (!u) continue;
    const d = defOf(u);
    if (d.type === kind && kind === 'object' && typeof type === 'string') {
      const t = d.shape?.type ? defOf(d.shape.type) : undefined;
      if (t?.values?.includes(type)) return u;
    }
    if (d.type === kind) byKind ??= u;
  }
  return byKind;
}

// ---- what an editor offers at a path: the fields, the values, the description ----------------------------

/** What is known at a path for completion and hover. */
export interface Slot {
  /** the schema there, wrappers and unions resolved; undefined for a union picked by a `type` not yet written */
  schema: Schema | undefined;
  /** the first description met on the way in (a field's own before its type's) */
  description: string | undefined;
  /** examples the schema gives (model ids, stop reasons) */
  examples: readonly unknown[];
  /** a `type`-picked union left open (its object has no known `type` yet): its branches */
  branches: Schema[];
}

const meta = (s: Schema) => z.globalRegistry.get(s) as { description?: string; examples?: unknown[] } | undefined;

/** Like schemaAt, but keeps what completion and hover need: descriptions, examples, an undecided union. */
export function slotAt(root: Schema, value: unknown, path: Path): Slot | undefined {
  let slot = open(root, value);
  let v = value;
  for (const seg of path) {
    // the `type` of an object whose union is still open: its values are the branches' types
    if (!slot.schema && seg === 'type' && slot.branches.length) return typeSlot(slot.branches);
    const next = slot.schema && child(slot.schema, seg);
    if (!next) return undefined;
    v = childValue(v, seg);
    slot = open(next, v);
  }
  return slot;
}

function open(schema: Schema, value: unknown): Slot {
  let s: Schema | undefined = schema;
  let v = value;
  let description: string | undefined;
  const examples: unknown[] = [];
  for (let guard = 0; s && guard < 32; guard++) {
    const m = meta(s);
    description ??= m?.description;
    if (m?.examples) examples.push(...m.examples);
    const d = defOf(s);
    if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'readonly')
      s = d.innerType;
    else if (d.type === 'pipe') [s, v] = throughPipe(d, v);
    else if (d.type === 'union') {
      const options = d.options ?? [];
      const picked = d.discriminator ? pickByType(options, v) : pickOption(options, v);
      if (!picked) return { schema: undefined, description, examples, branches: d.discriminator ? options : [] };
      s = picked;
    } else break;
  }
  if (s) description ??= meta(s)?.description;
  return { schema: s, description, examples, branches: [] };
}

/** A branch of a `type`-picked union by the object's `type`; none while it has no known one. */
function pickByType(options: Schema[], v: unknown): Schema | undefined {
  const type = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as { type?: unknown }).type : undefined;
  if (typeof type !== 'string') return undefined;
  return options.find(o => typeOf(o) === type);
}

/** The `type` literal of a union branch. */
export function typeOf(branch: Schema): string | undefined {
  const t = defOf(branch).shape?.type;
  const [lit] = t ? unwrap(t, undefined) : [];
  const value = lit ? defOf(lit).values?.[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function typeSlot(branches: Schema[]): Slot {
  const types = branches.map(typeOf).filter((t): t is string => !!t);
  return { schema: z.enum(types as [string, ...string[]]), description: 'Picks the kind.', examples: [], branches: [] };
}

/** The fields an object schema takes (none for anything else). */
export function fieldsOf(s: Schema | undefined): string[] {
  const d = s && defOf(s);
  return d?.type === 'object' && d.shape ? Object.keys(d.shape) : [];
}

/** The field's schema inside an object schema. */
export function fieldOf(s: Schema | undefined, key: string): Schema | undefined {
  const d = s && defOf(s);
  return d?.type === 'object' ? d.shape?.[key] : undefined;
}

/** The values a schema allows, when it names them: an enum's, literals, true and false, and its examples. */
export function valuesOf(slot: Slot): unknown[] {
  const out: unknown[] = [];
  const add = (s: Schema | undefined, depth = 0) => {
    if (!s || depth > 8) return;
    const d = defOf(s);
    if (d.type === 'enum') out.push(...Object.values(d.entries ?? {}));
    else if (d.type === 'literal') out.push(...(d.values ?? []));
    else if (d.type === 'boolean') out.push(true, false);
    else if (d.type === 'union') for (const o of d.options ?? []) add(o, depth + 1);
    else if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'readonly')
      add(d.innerType, depth + 1);
  };
  add(slot.schema);
  out.push(...slot.examples);
  return [...new Set(out)].filter(v => v !== null && v !== undefined);
}

/** What a field holds, in a word: 'object', 'array' or 'scalar' (for what to insert after its key). */
export function shapeOf(s: Schema | undefined, depth = 0): 'object' | 'array' | 'scalar' {
  if (!s || depth > 8) return 'scalar';
  const d = defOf(s);
  if (d.type === 'object' || d.type === 'record') return 'object';
  if (d.type === 'array') return 'array';
  if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'readonly')
    return shapeOf(d.innerType, depth + 1);
  if (d.type === 'pipe') return shapeOf(d.out, depth + 1);
  if (d.type === 'union') {
    // one shape for every member (a `type`-picked union of objects); a string-or-list field stays open
    const shapes = new Set((d.options ?? []).map(o => shapeOf(o, depth + 1)));
    return shapes.size === 1 ? [...shapes][0]! : 'scalar';
  }
  return 'scalar';
}
