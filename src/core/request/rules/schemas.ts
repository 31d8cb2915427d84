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
// keywordSet() keeps a schema's keywords as the bits of one number
if (KEYWORDS.length > 31) throw new Error('more schema keywords than keywordSet() has bits');
const KEYWORD_KIND = new Map<string, 'map' | 'one' | 'list'>([
  ...SCHEMA_MAPS.map(k => [k, 'map'] as const),
  ...SCHEMA_ONE.map(k => [k, 'one'] as const),
  ...SCHEMA_LISTS.map(k => [k, 'list'] as const),
]);

/**
 * The keywords holding subschemas that a schema has, as a set of bits (one for each keyword's place in KEYWORDS),
 * which reads them back in the keywords' order without a list or a sort: found from the schema's own keys, which
 * are few, rather than by looking up every keyword.
 */
function keywordSet(s: Obj): number {
  let set = 0;
  for (const k in s) {
    const place = KEYWORD_ORDER.get(k);
    if (place !== undefined) set |= 1 << place;
  }
  return set;
}

/** The first keyword of a set: its lowest bit. */
const firstKeyword = (set: number): string => KEYWORDS[31 - Math.clz32(set & -set)]!;

/** The two orders the rules read a schema's nodes in (see SchemaTree.order). */
export type Order = 'stack' | 'document';

/**
 * Every object (sub)schema of a schema, found in one walk that the rules share: a tool's shape and closed objects
 * (tools.ts), a structured output's rules (below) and the strict-schema limits (strict.ts). A schema of 10 MB has a
 * hundred thousand nodes and few problems, so the tree is flat, with no object per node (what a check allocates,
 * the collector moves along with the request it is checking): node `i` is `schemas[i]` (0 is the root), with its
 * parent and the keyword and name (or index) it sits under, and its path is made only for a problem's place. Nodes
 * are numbered as they are found, breadth first, so the children of a node are found together, in the order they
 * are written. A subschema that is not an object (a boolean schema, or a mistake, which `schemaShape` reports) is
 * not a node. `null` counts as absent.
 */
export class SchemaTree {
  readonly schemas: Obj[];
  private readonly parents: number[] = [-1];
  /** the keyword node `i` sits under */
  private readonly via: string[] = [''];
  /** the property name or list index under the keyword; undefined under a keyword that holds one subschema */
  private readonly names: (string | number | undefined)[] = [undefined];
  /** the nodes that hold, where a subschema goes, a value other than an object or `false` (few, or none) */
  private readonly odd = new Set<number>();
  private readonly orders: Partial<Record<Order, Int32Array>> = {};

  constructor(
    readonly root: Obj,
    /** the root's path in the request */
    readonly at: Path,
  ) {
    const schemas = (this.schemas = [root]);
    // the nodes found so far are the queue: no stack, no recursion, however deep the schema
    for (let i = 0; i < schemas.length; i++) {
      const s = schemas[i]!;
      let odd = false;
      for (let rest = keywordSet(s); rest !== 0; rest &= rest - 1) {
        const k = firstKeyword(rest);
        const v = s[k];
        const holds = KEYWORD_KIND.get(k);
        if (holds === 'map') {
          if (!isObj(v)) odd = true;
          else for (const name in v) if (!this.add(v[name], i, k, name)) odd = true;
        } else if (holds === 'one') {
          if (!this.add(v, i, k, undefined)) odd = true;
          // `items` as a list is the older tuple form (odd above: the rules look at such a list themselves)
          if (k === 'items' && Array.isArray(v)) for (let j = 0; j < v.length; j++) this.add(v[j], i, k, j);
        } else if (Array.isArray(v)) {
          for (let j = 0; j < v.length; j++) if (!this.add(v[j], i, k, j)) odd = true;
        } else odd = true;
      }
      if (odd) this.odd.add(i);
    }
  }

  /** Adds `v` as a node if it is an object; whether it is an object or `false` (what a valid schema mostly holds). */
  private add(v: unknown, parent: number, keyword: string, name: string | number | undefined): boolean {
    if (!isObj(v)) return v === false;
    this.schemas.push(v);
    this.parents.push(parent);
    this.via.push(keyword);
    this.names.push(name);
    return true;
  }

  /**
   * Whether node `i` holds, where a subschema goes, something other than an object or `false`: `true`, `null`, a
   * value of the wrong kind. Only such a node can have a subschema of the wrong shape or a boolean `true` one, so
   * the rules that look for those skip the others.
   */
  hasOddSubschema(i: number): boolean {
    return this.odd.has(i);
  }

  /** The keywords holding subschemas that node `i` has, maps first, then single ones, then lists. */
  keywordsOf(i: number): string[] {
    const out: string[] = [];
    for (let rest = keywordSet(this.schemas[i]!); rest !== 0; rest &= rest - 1) out.push(firstKeyword(rest));
    return out;
  }

  /** Node `i`'s path in the request. */
  path(i: number): Path {
    if (i === 0) return this.at;
    const tail: Path = [];
    for (let n = i; n > 0; n = this.parents[n]!) {
      const name = this.names[n];
      if (name !== undefined) tail.push(name);
      tail.push(this.via[n]!);
    }
    return [...this.at, ...tail.reverse()];
  }

  /**
   * The nodes depth first, each before its children: last child first (`stack`, the order the tool and output
   * rules report in), or in the order they are written (`document`, the strict-schema limits' order: "the 25th
   * optional parameter"). Made once per order, in typed arrays of the known length: nothing grows, and nothing
   * the collector moves.
   */
  order(o: Order): Int32Array {
    const known = this.orders[o];
    if (known) return known;
    const n = this.schemas.length;
    const first = childrenStart(this.parents);
    const out = new Int32Array(n);
    // every node goes on the stack once
    const stack = new Int32Array(n);
    let top = 0;
    let k = 0;
    stack[top++] = 0;
    while (top > 0) {
      const i = stack[--top]!;
      out[k++] = i;
      const from = first[i]!;
      const to = first[i + 1]!;
      if (o === 'stack') for (let c = from; c < to; c++) stack[top++] = c;
      else for (let c = to - 1; c >= from; c--) stack[top++] = c;
    }
    return (this.orders[o] = out);
  }
}

/**
 * Where the children of each node start (and, at the next node, end): nodes numbered breadth first have their
 * children together, after those of every node before them, so the parents' numbers never decrease.
 */
function childrenStart(parents: number[]): Int32Array {
  const n = parents.length;
  const first = new Int32Array(n + 1);
  let j = 1;
  for (let i = 0; i <= n; i++) {
    while (j < n && parents[j]! < i) j++;
    first[i] = j;
  }
  return first;
}

/**
 * The trees of one request's schemas, so that each is walked once however many rules read it. Kept by object and
 * path: one object may sit at two places of a YAML document (an alias), and each place has its own paths.
 */
export class SchemaTrees {
  private readonly trees = new Map<Obj, SchemaTree[]>();

  of(schema: Obj, at: Path): SchemaTree {
    const known = this.trees.get(schema);
    const found = known?.find(t => samePath(t.at, at));
    if (found) return found;
    const tree = new SchemaTree(schema, at);
    if (known) known.push(tree);
    else this.trees.set(schema, [tree]);
    return tree;
  }
}

const samePath = (a: Path, b: Path) => a.length === b.length && a.every((x, i) => x === b[i]);

/** What a keyword that holds subschemas holds: a map of them, one, or a list (undefined for any other key). */
export function keywordKind(k: string): 'map' | 'one' | 'list' | undefined {
  return KEYWORD_KIND.get(k);
}

/**
 * The first place where a schema is not a JSON Schema: a subschema that is neither an object nor a boolean
 * (such as `"properties": {"x": "number"}`), a keyword that takes a map or list of subschemas given another
 * value, an unknown `type`, or `required` that is not a list of names. The root's `type`, `required` and
 * `properties` are left to the request's own schema, which already reports them (wrong-type, invalid-value).
 */
export function schemaShape(tree: SchemaTree): Shape | undefined {
  for (const i of tree.order('stack')) {
    // a node that holds only objects and `false` where subschemas go has none of the wrong shape
    const bad = tree.hasOddSubschema(i) ? subschemasShape(tree, i) : undefined;
    if (bad) return bad;
    if (i === 0) continue;
    const s = tree.schemas[i]!;
    const t = s.type;
    if (t !== undefined && t !== null && !(Array.isArray(t) ? t.every(isTypeName) : isTypeName(t)))
      return {
        at: [...tree.path(i), 'type'],
        what: `"type" must be one of ${TYPES.join(', ')} (or a list of them)`,
        // a misspelt type name; in a list of them the list is left to the author
        ...(typeof t === 'string' ? { fixes: changeToFixes([...tree.path(i), 'type'], t, TYPES) } : {}),
      };
    const req = s.required;
    if (req !== undefined && req !== null && !(Array.isArray(req) && req.every(isString)))
      return { at: [...tree.path(i), 'required'], what: '"required" must be a list of property names' };
  }
  return undefined;
}

type Shape = { at: Path; what: string; fixes?: FixData[] };

/** The first value of node `i`'s keywords that is not a subschema where one goes, or not the map or list of them. */
function subschemasShape(tree: SchemaTree, i: number): Shape | undefined {
  const s = tree.schemas[i]!;
  const root = i === 0;
  for (const k of tree.keywordsOf(i)) {
    const v = s[k];
    const holds = KEYWORD_KIND.get(k);
    if (holds === 'map') {
      if (v === null || (root && k === 'properties' && !isObj(v))) continue;
      if (!isObj(v)) return { at: [...tree.path(i), k], what: `"${k}" must be an object of schemas` };
      for (const name in v)
        if (!isSchema(v[name]))
          return {
            at: [...tree.path(i), k, name],
            what: `"${name}" must be a schema (an object), not a ${kind(v[name])}`,
          };
    } else if (holds === 'one') {
      if (v !== undefined && !isSchema(v) && !(k === 'items' && Array.isArray(v)))
        return { at: [...tree.path(i), k], what: `"${k}" must be a schema (an object), not a ${kind(v)}` };
    } else {
      if (v === undefined || v === null) continue;
      if (!Array.isArray(v)) return { at: [...tree.path(i), k], what: `"${k}" must be a list of schemas` };
      const j = v.findIndex(x => !isSchema(x));
      if (j >= 0) return { at: [...tree.path(i), k, j], what: `each item of "${k}" must be a schema (an object)` };
    }
  }
  return undefined;
}

const isSchema = (v: unknown) => v === null || typeof v === 'boolean' || isObj(v);
const isString = (x: unknown) => typeof x === 'string';
const isTypeName = (t: unknown) => typeof t === 'string' && TYPES.includes(t);
const kind = (v: unknown) => (Array.isArray(v) ? 'list' : typeof v);

const isObjectSchema = (s: Obj) => s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));

type Code = PathProblem['code'];

/**
 * Object schemas that do not close with `additionalProperties: false`. Absent: marked on the schema (its key),
 * with a fix that adds it; another value: marked on that value.
 */
export function closedObjects(tree: SchemaTree, code: Code, what: string, out: PathProblem[]): void {
  for (const i of tree.order('stack')) {
    const s = tree.schemas[i]!;
    if (!isObjectSchema(s) || s.additionalProperties === false) continue;
    const at = tree.path(i);
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
export function outputSchemaRules(tree: SchemaTree, out: PathProblem[]): void {
  closedObjects(tree, 'output-schema-not-closed', 'In a structured output schema', out);
  for (const i of tree.order('stack')) {
    const s = tree.schemas[i]!;
    if (s.oneOf !== undefined && s.oneOf !== null) {
      const p = tree.path(i);
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
      const p = tree.path(i);
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
