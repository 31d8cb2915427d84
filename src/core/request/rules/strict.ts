// Strict schemas: the schema of a structured output (`output_config.format`, or the beta `output_format`) and the
// input_schema of every tool with `strict: true`. The service compiles them into one grammar per request, and its
// compiler has limits the documentation states and public reports of its 400 messages quote (RULES.md, Evidence):
// at most 20 strict tools; at most 24 optional parameters and 16 union-typed parameters across all strict schemas of
// the request; no recursive $ref; no numeric or length bounds, and minItems only 0 or 1; in a strict tool, no `true`
// as a property's schema (a recording shows that refusal). A `true` anywhere else is not in the record: a warning.
import type { FixData, Path, PathProblem } from '../types';
import { given, isObj, type Obj } from './common';
import { keywordKind, type SchemaTree, type SchemaTrees } from './schemas';

const MAX_STRICT_TOOLS = 20;
const MAX_OPTIONAL = 24;
const MAX_UNIONS = 16;

/**
 * Parameters counted across all strict schemas of a request, in the order they are written, and the place of the
 * first one past the limit: the problem's place, the only path made.
 */
interface Tally {
  count: number;
  over: Path | undefined;
}

/**
 * A strict schema of the request: where it is, and whether it is a tool's (output schemas have maxItems apart, and a
 * `true` property refused only in a tool is recorded).
 */
interface StrictSchema {
  schema: Obj;
  at: Path;
  tool: boolean;
}

/**
 * Keywords the compiler refuses, by the type they bound ("For 'integer' type, property 'minimum' is not …"). A map,
 * not an object: a type is the file's text, and "constructor" must find nothing.
 */
const BOUNDS = new Map<string, readonly string[]>([
  ['integer', ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']],
  ['number', ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']],
  ['string', ['minLength', 'maxLength']],
]);

export function strictSchemaRules(body: Obj, trees: SchemaTrees, out: PathProblem[]): void {
  const schemas: StrictSchema[] = [];
  if (Array.isArray(body.tools)) {
    let strict = 0;
    body.tools.forEach((t, i) => {
      if (!isObj(t) || t.strict !== true) return;
      if (++strict === MAX_STRICT_TOOLS + 1) tooManyTools(body.tools as unknown[], i, out);
      if (isObj(t.input_schema)) schemas.push({ schema: t.input_schema, at: ['tools', i, 'input_schema'], tool: true });
    });
  }
  const oc = body.output_config;
  const formats: [unknown, Path][] = [
    [isObj(oc) ? oc.format : undefined, ['output_config', 'format', 'schema']],
    [body.output_format, ['output_format', 'schema']],
  ];
  for (const [format, at] of formats)
    if (isObj(format) && isObj(format.schema)) schemas.push({ schema: format.schema, at, tool: false });
  if (!schemas.length) return;
  const optional: Tally = { count: 0, over: undefined };
  const unions: Tally = { count: 0, over: undefined };
  for (const s of schemas) {
    const tree = trees.of(s.schema, s.at);
    for (const i of tree.order('document')) {
      bounds(tree, i, s.tool, out);
      booleanSubschemas(tree, i, s, out);
      optionalProperties(tree, i, optional);
      unionType(tree, i, unions);
    }
    recursiveRef(tree, out);
  }
  if (optional.over) {
    out.push({
      path: optional.over,
      anchor: 'key',
      severity: 'error',
      code: 'strict-schema-too-many-optional',
      message:
        `The strict schemas of this request have ${optional.count} optional parameters (properties left out of ` +
        `"required"); the service compiles at most ${MAX_OPTIONAL} across all of them, and this one is the ` +
        `${MAX_OPTIONAL + 1}th. Make some required (with a nullable type where absence matters), or take "strict" ` +
        'off a tool.',
    });
  }
  if (unions.over) {
    out.push({
      path: unions.over,
      anchor: 'key',
      severity: 'error',
      code: 'strict-schema-too-many-unions',
      message:
        `The strict schemas of this request have ${unions.count} parameters with union types (anyOf, or a list ` +
        `of types); the service compiles at most ${MAX_UNIONS} across all of them, and this one is the ` +
        `${MAX_UNIONS + 1}th. Express an optional value by leaving it out of "required" instead of adding null, ` +
        'or take "strict" off a tool.',
    });
  }
}

function tooManyTools(tools: unknown[], i: number, out: PathProblem[]): void {
  const n = tools.filter(t => isObj(t) && t.strict === true).length;
  out.push({
    path: ['tools', i, 'strict'],
    anchor: 'key',
    severity: 'error',
    code: 'strict-tools-too-many',
    message:
      `This request has ${n} strict tools; the service takes at most ${MAX_STRICT_TOOLS}, and this one is the ` +
      `${MAX_STRICT_TOOLS + 1}th. Keep "strict" on the tools whose input matters most.`,
    fixes: [{ kind: 'remove-property', title: 'Remove "strict" from this tool', path: ['tools', i, 'strict'] }],
  });
}

/** Bounds on numbers and strings, minItems other than 0 or 1, and (in a tool's schema) maxItems. */
function bounds(tree: SchemaTree, i: number, tool: boolean, out: PathProblem[]): void {
  const t = tree.schemas[i]!.type;
  if (typeof t === 'string') typeBounds(tree, i, t, tool, out);
  else if (Array.isArray(t)) for (const x of t) if (typeof x === 'string') typeBounds(tree, i, x, tool, out);
}

function typeBounds(tree: SchemaTree, i: number, type: string, tool: boolean, out: PathProblem[]): void {
  const s = tree.schemas[i]!;
  for (const key of BOUNDS.get(type) ?? []) if (given(s[key])) refuse(tree, i, key, type, '', out);
  if (type !== 'array') return;
  if (typeof s.minItems === 'number' && s.minItems !== 0 && s.minItems !== 1)
    refuse(tree, i, 'minItems', type, ' other than 0 or 1', out);
  if (tool && given(s.maxItems)) refuse(tree, i, 'maxItems', type, '', out);
}

function refuse(tree: SchemaTree, i: number, key: string, type: string, why: string, out: PathProblem[]): void {
  const on: Path = [...tree.path(i), key];
  const fixes: FixData[] = [{ kind: 'remove-property', title: `Remove "${key}"`, path: on }];
  out.push({
    path: on,
    anchor: 'key',
    severity: 'error',
    code: 'strict-schema-keyword',
    message:
      `Strict schemas (structured outputs and strict tools) do not support "${key}" on ` +
      `${type === 'integer' ? 'an' : 'a'} ${type}${why}: remove it, and say the bound in the description.`,
    fixes,
  });
}

/**
 * `true` where a subschema goes (`additionalProperties: true` is the not-closed rules'). As a property's schema in a
 * strict tool the service refuses it ("For 'object' type, property 'properties' is not supported"); anywhere else the
 * record says nothing, and it stays a warning.
 */
function booleanSubschemas(tree: SchemaTree, i: number, s: StrictSchema, out: PathProblem[]): void {
  if (!tree.hasOddSubschema(i)) return;
  const schema = tree.schemas[i]!;
  for (const k of tree.keywordsOf(i)) {
    const v = schema[k];
    const holds = keywordKind(k);
    if (holds === 'map') {
      const refused = s.tool && k === 'properties';
      if (isObj(v))
        for (const name in v) if (v[name] === true) booleanTrue([...tree.path(i), k, name], refused, s, out);
    } else if (holds === 'list') {
      if (Array.isArray(v)) v.forEach((x, j) => x === true && booleanTrue([...tree.path(i), k, j], false, s, out));
    } else if (k !== 'additionalProperties' && v === true) booleanTrue([...tree.path(i), k], false, s, out);
  }
}

function booleanTrue(on: Path, refused: boolean, s: StrictSchema, out: PathProblem[]): void {
  if (refused) {
    // the tool's own `strict`: ['tools', i, 'input_schema'] → ['tools', i, 'strict']
    const strict: Path = [...s.at.slice(0, -1), 'strict'];
    out.push({
      path: on,
      anchor: 'value',
      severity: 'error',
      code: 'strict-schema-boolean',
      message:
        "A strict tool cannot take true as the schema of a property: the service refuses the tool (\"For 'object' " +
        "type, property 'properties' is not supported\", naming the object that holds it). Give the property a " +
        'schema with a type, or take "strict" off the tool.',
      fixes: [{ kind: 'remove-property', title: 'Remove "strict" from this tool', path: strict }],
    });
    return;
  }
  out.push({
    path: on,
    anchor: 'value',
    severity: 'warning',
    code: 'strict-schema-boolean',
    message:
      'A boolean true schema accepts any value, which a strict schema cannot compile into its grammar: the service ' +
      "refuses it as a strict tool's property, and nothing shows it taking one here. Give a schema with a type.",
  });
}

/**
 * Counts the properties an object schema leaves out of `required`, and keeps the place of the one past the limit.
 * A long `required` is looked up through a set; a short one is searched.
 */
function optionalProperties(tree: SchemaTree, i: number, tally: Tally): void {
  const s = tree.schemas[i]!;
  const props = s.properties;
  if (!isObj(props)) return;
  const listed: readonly unknown[] = Array.isArray(s.required) ? s.required : NONE;
  const set = listed.length > 8 ? new Set(listed) : undefined;
  for (const k in props)
    if (!(set ? set.has(k) : listed.includes(k)) && tally.count++ === MAX_OPTIONAL)
      tally.over = [...tree.path(i), 'properties', k];
}

const NONE: readonly unknown[] = [];

/** A parameter with a union type: anyOf, or a list of more than one type. The root is not a parameter. */
function unionType(tree: SchemaTree, i: number, tally: Tally): void {
  if (i === 0) return;
  const s = tree.schemas[i]!;
  const key = Array.isArray(s.anyOf) ? 'anyOf' : Array.isArray(s.type) && s.type.length > 1 ? 'type' : undefined;
  if (key && tally.count++ === MAX_UNIONS) tally.over = [...tree.path(i), key];
}

/**
 * A $ref that leads back to the schema it is in: `#` (the root) from inside it, or a chain of `#/$defs/…` (or
 * `#/definitions/…`) that comes back ("Circular reference detected in schema definitions"). The first $ref that
 * closes a cycle is marked.
 */
function recursiveRef(tree: SchemaTree, out: PathProblem[]): void {
  const { root, at } = tree;
  const defsOf = (k: string) => (isObj(root[k]) ? Object.keys(root[k]) : []);
  const containers = ['#', ...['$defs', 'definitions'].flatMap(k => defsOf(k).map(n => `#/${k}/${n}`))];
  // the container of a node: the definition its path is under, or the root
  const containerOf = (p: Path): string => {
    const rel = p.slice(at.length);
    return (rel[0] === '$defs' || rel[0] === 'definitions') && typeof rel[1] === 'string'
      ? `#/${rel[0]}/${rel[1]}`
      : '#';
  };
  const edges = new Map<string, { to: string; at: Path }[]>(containers.map(c => [c, []]));
  for (const i of tree.order('document')) {
    const ref = tree.schemas[i]!.$ref;
    if (typeof ref !== 'string' || !edges.has(ref)) continue;
    const p = tree.path(i);
    edges.get(containerOf(p))!.push({ to: ref, at: [...p, '$ref'] });
  }
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    for (let c = stack.pop(); c !== undefined; c = stack.pop()) {
      if (c === to) return true;
      if (seen.has(c)) continue;
      seen.add(c);
      for (const e of edges.get(c) ?? []) stack.push(e.to);
    }
    return false;
  };
  for (const [from, list] of edges) {
    for (const e of list) {
      if (!reaches(e.to, from)) continue;
      out.push({
        path: e.at,
        anchor: 'value',
        severity: 'error',
        code: 'strict-schema-recursive',
        message:
          `This $ref (${e.to}) leads back to the schema it is in: strict schemas do not support recursive ` +
          'definitions ("Self-referencing or mutually-referencing definitions are not supported"). Unroll it to a ' +
          'fixed depth, or take the recursive part out of the schema.',
      });
      return;
    }
  }
}
