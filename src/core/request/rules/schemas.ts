// JSON Schemas inside a request: a tool's input_schema and a structured output's schema. The service checks
// them (its messages are quoted in RULES.md): a tool's schema must be a JSON Schema, without a combinator at its
// top; with `strict: true`, and always for structured outputs, every object closes its properties with
// `additionalProperties: false`; structured outputs take neither `oneOf` nor `maxItems`.
import { changeToFixes } from '../enumFixes';
import type { FixData, Path, PathProblem } from '../types';
import { isObj, type Obj } from './common';

/** Keywords whose value is a map of subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is one subschema. */
const SCHEMA_ONE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
];
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
/** Every keyword that holds subschemas, maps first, then single ones, then lists: its kind and its place. */
const KEYWORDS = [...SCHEMA_MAPS, ...SCHEMA_ONE, ...SCHEMA_LISTS];
const KEYWORD_ORDER = new Map(KEYWORDS.map((k, i) => [k, i]));
const KEYWORD_KIND = new Map<string, 'map' | 'one' | 'list'>([
  ...SCHEMA_MAPS.map(k => [k, 'map'] as const),
  ...SCHEMA_ONE.map(k => [k, 'one'] as const),
  ...SCHEMA_LISTS.map(k => [k, 'list'] as const),
]);

/**
 * A schema or subschema, with its path. The path is made when it is asked for (a problem's place), not for each
 * node walked: a schema of 10 MB has a hundred thousand nodes and few problems.
 */
export class Node {
  private path: Path | undefined;
  constructor(
    readonly schema: Obj,
    private readonly parent: Node | undefined,
    /** the path's last segments: the keyword and the name or index under the parent (the whole path at the root) */
    private readonly tail: Path,
    /** 0 at the root */
    readonly depth: number,
  ) {}

  get at(): Path {
    return (this.path ??= this.parent ? [...this.parent.at, ...this.tail] : this.tail);
  }

  /** a subschema of this one, under `tail` */
  child(schema: Obj, ...tail: Path): Node {
    return new Node(schema, this, tail, this.depth + 1);
  }
}

/**
 * Every object (sub)schema of a schema, depth first, without recursion: last child first (`stack`), or in the
 * order they are written (`document`). A subschema that is not an object (a boolean schema, or a mistake, which
 * `schemaShape` reports) is skipped. `null` counts as absent.
 */
export function subschemas(root: Obj, at: Path, order: 'stack' | 'document' = 'stack'): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [new Node(root, undefined, at, 0)];
  for (let n = stack.pop(); n; n = stack.pop()) {
    out.push(n);
    const kids = children(n);
    if (order === 'document') kids.reverse();
    stack.push(...kids);
  }
  return out;
}

/** The object subschemas right under a schema, in the order they are written (keyword by keyword). */
function children(n: Node): Node[] {
  const out: Node[] = [];
  const s = n.schema;
  for (const k of schemaKeywords(s)) {
    const v = s[k];
    const holds = KEYWORD_KIND.get(k);
    if (holds === 'map') {
      if (isObj(v)) for (const name in v) if (isObj(v[name])) out.push(n.child(v[name], k, name));
    } else if (holds === 'one') {
      if (isObj(v)) out.push(n.child(v, k));
      // `items` as a list is the older tuple form
      else if (k === 'items' && Array.isArray(v)) v.forEach((x, i) => isObj(x) && out.push(n.child(x, k, i)));
    } else if (Array.isArray(v)) v.forEach((x, i) => isObj(x) && out.push(n.child(x, k, i)));
  }
  return out;
}

/** What a keyword that holds subschemas holds: a map of them, one, or a list (undefined for any other key). */
export function keywordKind(k: string): 'map' | 'one' | 'list' | undefined {
  return KEYWORD_KIND.get(k);
}

/**
 * The keywords holding subschemas that a schema has, maps first, then single ones, then lists (each list's
 * order): found from its own keys, which are few, rather than by looking up every keyword.
 */
export function schemaKeywords(s: Obj): string[] {
  const present: string[] = [];
  for (const k in s) if (KEYWORD_KIND.has(k)) present.push(k);
  if (present.length > 1) present.sort((a, b) => KEYWORD_ORDER.get(a)! - KEYWORD_ORDER.get(b)!);
  return present;
}

/**
 * The first place where a schema is not a JSON Schema: a subschema that is neither an object nor a boolean
 * (such as `"properties": {"x": "number"}`), a keyword that takes a map or list of subschemas given another
 * value, an unknown `type`, or `required` that is not a list of names. The root's `type`, `required` and
 * `properties` are left to the request's own schema, which already reports them (wrong-type, invalid-value).
 */
export function schemaShape(nodes: Node[]): { at: Path; what: string; fixes?: FixData[] } | undefined {
  const isSchema = (v: unknown) => v === null || typeof v === 'boolean' || isObj(v);
  for (const n of nodes) {
    const s = n.schema;
    const root = n.depth === 0;
    for (const k of schemaKeywords(s)) {
      const v = s[k];
      const holds = KEYWORD_KIND.get(k);
      if (holds === 'map') {
        if (v === null || (root && k === 'properties' && !isObj(v))) continue;
        if (!isObj(v)) return { at: [...n.at, k], what: `"${k}" must be an object of schemas` };
        for (const name in v)
          if (!isSchema(v[name]))
            return { at: [...n.at, k, name], what: `"${name}" must be a schema (an object), not a ${kind(v[name])}` };
      } else if (holds === 'one') {
        if (v !== undefined && !isSchema(v) && !(k === 'items' && Array.isArray(v)))
          return { at: [...n.at, k], what: `"${k}" must be a schema (an object), not a ${kind(v)}` };
      } else {
        if (v === undefined || v === null) continue;
        if (!Array.isArray(v)) return { at: [...n.at, k], what: `"${k}" must be a list of schemas` };
        const i = v.findIndex(x => !isSchema(x));
        if (i >= 0) return { at: [...n.at, k, i], what: `each item of "${k}" must be a schema (an object)` };
      }
    }
    if (root) continue;
    const t = s.type;
    const types = Array.isArray(t) ? t : [t];
    if (t !== undefined && t !== null && !types.every(x => typeof x === 'string' && TYPES.includes(x)))
      return {
        at: [...n.at, 'type'],
        what: `"type" must be one of ${TYPES.join(', ')} (or a list of them)`,
        // a misspelt type name; in a list of them the list is left to the author
        ...(typeof t === 'string' ? { fixes: changeToFixes([...n.at, 'type'], t, TYPES) } : {}),
      };
    const req = s.required;
    if (req !== undefined && req !== null && !(Array.isArray(req) && req.every(x => typeof x === 'string')))
      return { at: [...n.at, 'required'], what: '"required" must be a list of property names' };
  }
  return undefined;
}

const kind = (v: unknown) => (Array.isArray(v) ? 'list' : typeof v);

const isObjectSchema = (s: Obj) => s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));

type Code = PathProblem['code'];

/**
 * Object schemas that do not close with `additionalProperties: false`. Absent: marked on the schema (its key),
 * with a fix that adds it; another value: marked on that value.
 */
export function closedObjects(nodes: Node[], code: Code, what: string, out: PathProblem[]): void {
  for (const n of nodes) {
    const s = n.schema;
    if (!isObjectSchema(s) || s.additionalProperties === false) continue;
    const at = n.at;
    const ap = s.additionalProperties;
    if (ap === undefined || ap === null) {
      const fix: FixData = {
        kind: 'insert-property',
        title: 'Add "additionalProperties": false',
        path: at,
        key: 'additionalProperties',
        value: false,
      };
      out.push({
        path: at,
        anchor: 'key',
        severity: 'error',
        code,
        message: `${what}, every object schema must set "additionalProperties": false; this one does not set it.`,
        fixes: [fix],
      });
      continue;
    }
    const onAp: Path = [...at, 'additionalProperties'];
    out.push({
      path: onAp,
      anchor: 'value',
      severity: 'error',
      code,
      message: `${what}, "additionalProperties" must be false${ap === true ? ': true is not supported' : ''}.`,
      fixes: [{ kind: 'replace-value', title: 'Set "additionalProperties" to false', path: onAp, value: false }],
    });
  }
}

/** A structured output's schema: closed objects, no `oneOf` (use `anyOf`), no `maxItems`. */
export function outputSchemaRules(schema: Obj, at: Path, out: PathProblem[]): void {
  const nodes = subschemas(schema, at);
  closedObjects(nodes, 'output-schema-not-closed', 'In a structured output schema', out);
  for (const n of nodes) {
    const s = n.schema;
    if (s.oneOf !== undefined && s.oneOf !== null) {
      const p = n.at;
      const fixes: FixData[] =
        s.anyOf === undefined
          ? [{ kind: 'rename-property', title: 'Use "anyOf"', path: [...p, 'oneOf'], key: 'anyOf' }]
          : [];
      out.push({
        path: [...p, 'oneOf'],
        anchor: 'key',
        severity: 'error',
        code: 'output-schema-oneof',
        message: 'Structured outputs do not support "oneOf"; "anyOf" is supported.',
        ...(fixes.length ? { fixes } : {}),
      });
    }
    if (s.maxItems !== undefined && s.maxItems !== null) {
      const p = n.at;
      out.push({
        path: [...p, 'maxItems'],
        anchor: 'key',
        severity: 'error',
        code: 'output-schema-max-items',
        message: 'Structured outputs do not support "maxItems" on arrays: remove it, and say the limit in the prompt.',
        fixes: [{ kind: 'remove-property', title: 'Remove "maxItems"', path: [...p, 'maxItems'] }],
      });
    }
  }
}
