// The issues zod's safeParse would report for a value, without the copy of the value safeParse builds. The
// zod schema stays the one source of truth: this walks its definitions (objects, arrays, unions picked by
// `type`, optional and nullable wrappers) over the parsed value, and answers "valid" allocating nothing, with
// a function generated from each object, array and union schema on first use (as zod's own compiled objects
// are: a property read of a known name, and a call of a known function, is what the engine makes fast).
// Where something is wrong, the smallest schema around it is run by zod itself (a leaf such as an enum, or a
// union, a record, a tool's pipe) and its issues are put at their path: the same issues, with the same
// messages, in the same order as zod's own walk, which visits object keys in the order of the shape, array
// items in order, and an object's unknown keys last. A kind of schema this walk does not know is run by zod
// whole, so a new kind in schema.ts is still checked exactly, only more slowly.
//
// Values are what a JSON or YAML parser makes: plain objects whose keys are their own enumerable string
// properties (no getters, no symbols). On those the answer is zod's (test/unit/request/schemaCheck.test.ts).
import { config, type $ZodIssue, type $ZodType } from 'zod/v4/core';
import { keysOf, listedKeys } from './parse/keys';
import type { Path } from './types';

type Issue = $ZodIssue;
type Schema = $ZodType;

/** What zod's issues are before `finalizeIssue` gives them their message. */
interface RawIssue {
  path?: PropertyKey[];
  [key: string]: unknown;
}
interface Payload {
  value: unknown;
  issues: RawIssue[];
  aborted?: boolean;
}
interface CheckDef {
  when?: (p: Payload) => boolean;
}
interface Check {
  _zod: { def: CheckDef; check(p: Payload): unknown };
}
/** The parts of zod's definitions this walk reads (zod's own types keep them internal). */
interface Def {
  type: string;
  checks?: Check[];
  coerce?: boolean;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  element?: Schema;
  innerType?: Schema;
  options?: Schema[];
  discriminator?: string;
  unionFallback?: boolean;
  in?: Schema;
  out?: Schema;
  transform?: (value: unknown, payload: Payload) => unknown;
  keyType?: Schema;
  valueType?: Schema;
}
interface Internals {
  def: Def;
  traits: Set<string>;
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  propValues?: Record<string, Set<unknown>>;
  run(payload: Payload, ctx: object): Payload | Promise<Payload>;
}
const internals = (s: Schema) => (s as unknown as { _zod: Internals })._zod;

/** A schema ready to walk a value: `ok` allocates nothing; `issues` runs only where `ok` said no. */
interface Node {
  ok: (value: unknown) => boolean;
  issues: (value: unknown, path: Path, out: RawIssue[]) => void;
}

/** The context safeParse(value, { reportInput: true }) runs with, and finalizes issues with. */
const CTX = { reportInput: true, async: false };

/**
 * The issues of `schema.safeParse(value, { reportInput: true })`, in its order, with its messages; none when
 * the value is valid.
 */
export function schemaIssues(schema: Schema, value: unknown): Issue[] {
  const node = nodeOf(schema);
  if (node.ok(value)) return [];
  const raw: RawIssue[] = [];
  node.issues(value, [], raw);
  return raw.map(finalize);
}

/**
 * zod's `finalizeIssue` (zod/v4/core util.ts) as safeParse calls it: the issue's message from the schema's own
 * error map or zod's locale, without the internals. (Imported, zod's `util` brings all of itself into the
 * bundle; the schema walk's tests compare the result with safeParse's.)
 */
function finalize(iss: RawIssue): Issue {
  type Zod = { _zod: { traits?: Set<string>; def?: { error?: ErrorMap } } } | undefined;
  const inst = iss.inst as Zod;
  const traits = inst?._zod.traits;
  if (traits?.has('$ZodType')) {
    if (!traits.has('$ZodCheck')) iss.schema = inst;
    else iss.schema ??= inst;
  }
  const schema = iss.schema as Zod;
  const schemaError = schema !== inst ? schema?._zod.def?.error : undefined;
  const zod = config() as { customError?: ErrorMap; localeError?: ErrorMap };
  const message =
    (iss.message as string | undefined) ||
    (unwrap(inst?._zod.def?.error?.(iss)) ??
      unwrap(schemaError?.(iss)) ??
      unwrap(zod.customError?.(iss)) ??
      unwrap(zod.localeError?.(iss)) ??
      'Invalid input');
  const full: RawIssue = {};
  for (const k of Object.keys(iss)) {
    if (k === 'inst' || k === 'schema' || k === 'continue' || k === 'input' || k === '__proto__') continue;
    full[k] = iss[k];
  }
  full.path ??= [];
  full.message = message;
  full.input = iss.input;
  return full as unknown as Issue;
}

type ErrorMap = (iss: RawIssue) => unknown;
const unwrap = (m: unknown): string | undefined =>
  typeof m === 'string' ? m : (m as { message?: string } | undefined)?.message;

/** Whether code may be generated (zod's own probe): not under zod's `jitless`, nor where `new Function` throws. */
let evalAllowed: boolean | undefined;
function allowsEval(): boolean {
  if (evalAllowed === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the probe
      evalAllowed = !config().jitless && typeof new Function('') === 'function';
    } catch {
      evalAllowed = false;
    }
  }
  return evalAllowed;
}

const nodes = new WeakMap<Schema, Node>();

function nodeOf(schema: Schema): Node {
  let node = nodes.get(schema);
  if (!node) {
    // in the map before its children are built, so a schema that contains itself finds its own node
    node = { ok: () => false, issues: () => {} };
    nodes.set(schema, node);
    Object.assign(node, build(schema));
  }
  return node;
}

function build(schema: Schema): Node {
  const z = internals(schema);
  const def = z.def;
  const checks = def.checks ?? [];
  // a schema with its own checks (a refinement) is left to zod, except arrays and leaves, run below
  const plain = checks.length === 0;
  switch (def.type) {
    case 'object':
      return plain && !Object.getOwnPropertySymbols(def.shape ?? {}).length ? objectNode(schema, def) : run(schema);
    case 'array':
      return arrayNode(schema, def, checks);
    case 'optional':
      // an inner schema with a default puts a value in place of absence: zod's to run
      return plain && internals(def.innerType!).optin !== 'defaulted'
        ? wrapperNode(schema, def, undefined)
        : run(schema);
    case 'nullable':
      return plain ? wrapperNode(schema, def, null) : run(schema);
    case 'union':
      if (!plain) return run(schema);
      return def.discriminator !== undefined && !def.unionFallback
        ? discriminatedNode(schema, def)
        : unionNode(schema, def);
    case 'pipe': {
      const transforms = plain && def.in !== undefined && internals(def.in).def.type === 'transform';
      return transforms ? transformPipeNode(schema, def) : run(schema);
    }
    case 'record':
      return plain ? recordNode(schema, def) : run(schema);
    case 'unknown':
    case 'any':
      return { ok: () => true, issues: () => {} };
    case 'string':
      // a string format (email, uuid, …) is a check itself: zod's to run
      if (plain && !def.coerce && !z.traits.has('$ZodCheck')) return leaf(schema, v => typeof v === 'string');
      return leaf(schema);
    case 'literal':
    case 'enum': {
      // zod's own set of the allowed values
      const values = (z as { values?: Set<unknown> }).values;
      return leaf(schema, plain && values ? v => values.has(v) : undefined);
    }
    default:
      return leaf(schema);
  }
}

/** Runs `schema` with zod on a fresh payload: its raw issues, with `path` in front of theirs. */
function zodIssues(schema: Schema, value: unknown, path: Path, out: RawIssue[]): void {
  const result = internals(schema).run({ value, issues: [] }, CTX);
  if (result instanceof Promise) throw new Error('the request schema has an asynchronous part');
  for (const iss of result.issues) {
    iss.path = iss.path ? [...path, ...iss.path] : [...path];
    out.push(iss);
  }
}

/** A schema zod checks whole: a kind this walk does not know, or one with refinements of its own. */
function run(schema: Schema): Node {
  return {
    ok: value => {
      const result = internals(schema).run({ value, issues: [] }, CTX);
      if (result instanceof Promise) throw new Error('the request schema has an asynchronous part');
      return result.issues.length === 0;
    },
    issues: (value, path, out) => zodIssues(schema, value, path, out),
  };
}

/**
 * A schema without children (a string, a number and its bounds, a literal, an enum): zod runs it on one payload
 * kept for the purpose, which a valid value leaves as it was, so checking it allocates nothing. `fast`, when
 * given, answers for zod where its answer is plain (a string is `typeof "string"`).
 */
function leaf(schema: Schema, fast?: (value: unknown) => boolean): Node {
  const z = internals(schema);
  const scratch: Payload = { value: undefined, issues: [], aborted: false };
  return {
    ok:
      fast ??
      (value => {
        scratch.value = value;
        const result = z.run(scratch, CTX);
        if (result instanceof Promise) throw new Error('the request schema has an asynchronous part');
        scratch.value = undefined;
        if (result.issues.length === 0) return true;
        // reset only when used: setting an array's length is a call into the engine even when it is 0
        scratch.issues.length = 0;
        scratch.aborted = false;
        return false;
      }),
    issues: (value, path, out) => zodIssues(schema, value, path, out),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The constants a generated function closes over, by the names its code uses. */
class Generated {
  private readonly names: string[] = [];
  private readonly values: unknown[] = [];

  ref(value: unknown): string {
    const i = this.values.indexOf(value);
    if (i >= 0) return this.names[i]!;
    this.names.push(`c${this.values.length}`);
    this.values.push(value);
    return this.names[this.names.length - 1]!;
  }

  /** `function ok(v) { body }`, `body` written by `source` with this object's constants. */
  static compile(source: (gen: Generated) => string): (value: unknown) => boolean {
    const gen = new Generated();
    const body = source(gen);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the code is made from the schema alone
    const factory = new Function(...gen.names, `"use strict";\nreturn function ok(v) {\n${body}\n};`) as (
      ...values: unknown[]
    ) => (value: unknown) => boolean;
    return factory(...gen.values);
  }
}

/**
 * A node's `ok`, generated on its first call (its children's when they are first reached): from `source`, or
 * where the engine refuses generated code, zod's own run.
 */
function generatedOk(schema: Schema, source: (gen: Generated) => string): (value: unknown) => boolean {
  return value => {
    const ok = allowsEval() ? Generated.compile(source) : run(schema).ok;
    nodeOf(schema).ok = ok;
    return ok(value);
  };
}

/** JavaScript that tests `schema` on the variable `x`: inline for the simple kinds, else a call of its node. */
function test(schema: Schema, x: string, gen: Generated): string {
  return inline(schema, x, gen) ?? `${gen.ref(nodeOf(schema))}.ok(${x})`;
}

/** The inline test of a string, a literal, an enum, anything, and of those optional or nullable. */
function inline(schema: Schema, x: string, gen: Generated): string | undefined {
  const z = internals(schema);
  const def = z.def;
  if (def.checks?.length) return undefined;
  switch (def.type) {
    case 'unknown':
    case 'any':
      return 'true';
    case 'string':
      return !def.coerce && !z.traits.has('$ZodCheck') ? `typeof ${x} === "string"` : undefined;
    case 'literal':
    case 'enum': {
      const values = (z as { values?: Set<unknown> }).values;
      if (!values) return undefined;
      const [only] = values;
      // zod's Set says SameValueZero, which is === for everything but NaN
      if (values.size === 1 && (typeof only === 'string' || typeof only === 'boolean' || Number.isFinite(only)))
        return `${x} === ${JSON.stringify(only)}`;
      return `${gen.ref(values)}.has(${x})`;
    }
    case 'optional':
      return internals(def.innerType!).optin === 'defaulted'
        ? undefined
        : `(${x} === undefined || ${test(def.innerType!, x, gen)})`;
    case 'nullable':
      return `(${x} === null || ${test(def.innerType!, x, gen)})`;
    default:
      return undefined;
  }
}

/**
 * An object: each key of the shape in its order, then (strict objects) any key the shape does not have. The
 * valid path counts the keys present instead of looking each of the value's keys up: an object whose own keys
 * are all in the shape has as many keys as it has shape keys present.
 */
function objectNode(schema: Schema, def: Def): Node {
  const shape = def.shape ?? {};
  const keys = Object.keys(shape).filter(k => k !== '__proto__');
  const keySet = new Set(Object.keys(shape));
  const fields = keys.map(k => internals(shape[k]!));
  const children = keys.map(k => nodeOf(shape[k]!));
  const n = keys.length;
  const catchall = def.catchall ? internals(def.catchall).def.type : undefined;
  const strict = catchall === 'never';
  if (catchall !== undefined && !strict && catchall !== 'unknown' && catchall !== 'any') return run(schema);
  // a shape key that plain objects inherit ("constructor") would be counted present and never enumerated
  const countable = !keys.some(k => k in Object.prototype);

  const ok = generatedOk(schema, gen => {
    const lines = ['if (typeof v !== "object" || v === null || Array.isArray(v)) return false;', 'let p = 0, x;'];
    keys.forEach((key, i) => {
      const k = JSON.stringify(key);
      const f = fields[i]!;
      const t = test(shape[key]!, 'x', gen);
      lines.push(`x = v[${k}];`);
      // an optional field takes undefined, present or not (a key present with the value undefined, which no
      // parser makes, is not counted: the slow path's)
      if (f.optin === 'optional' && f.optout === 'optional')
        lines.push(`if (x !== undefined) { p++; if (!(${t})) return false; }`);
      // absent and required: zod reports it (its type, or "nonoptional")
      else if (f.optin === undefined)
        lines.push(`if (x === undefined && !(${k} in v)) return false;`, 'p++;', `if (!(${t})) return false;`);
      else lines.push(`if (x !== undefined || ${k} in v) p++;`, `if (!(${t})) return false;`);
    });
    if (!strict) lines.push('return true;');
    else {
      // an object of many keys has them listed by the parser (parse/keys.ts): not listed again
      lines.push(`const listed = ${gen.ref(listedKeys)}(v);`);
      const known = gen.ref(keySet);
      if (countable)
        lines.push(
          'if (listed) return listed.length === p;',
          'let n = 0;',
          'for (const k in v) n++;',
          'return n === p;',
        );
      else
        lines.push(
          `if (listed) return listed.every(k => ${known}.has(k));`,
          `for (const k in v) if (!${known}.has(k)) return false;`,
          'return true;',
        );
    }
    return lines.join('\n');
  });

  const issues = (v: unknown, path: Path, out: RawIssue[]): void => {
    if (!isObject(v)) return zodIssues(schema, v, path, out);
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      const f = fields[i]!;
      const present = key in v;
      if (!present && f.optin === 'optional' && f.optout === 'optional') continue;
      const x = v[key];
      const valid = children[i]!.ok(x);
      // zod drops the issues of an absent optional field
      if (!valid && !(f.optin !== undefined && f.optout === 'optional' && !present))
        children[i]!.issues(x, [...path, key], out);
      if (!present && f.optin === undefined && valid)
        out.push({ code: 'invalid_type', expected: 'nonoptional', input: undefined, path: [...path, key] });
    }
    if (!strict) return;
    const unrecognized: string[] = [];
    for (const k of keysOf(v)) if (!keySet.has(k)) unrecognized.push(k);
    if (unrecognized.length) {
      const iss: RawIssue = { code: 'unrecognized_keys', keys: unrecognized, input: v, inst: schema, continue: true };
      iss.path = [...path];
      out.push(iss);
    }
  };
  return { ok, issues };
}

/** An array: each item; its own checks (at least one message, at most 100,000) as zod runs them. */
function arrayNode(schema: Schema, def: Def, checks: Check[]): Node {
  const element = nodeOf(def.element!);
  const scratch: Payload = { value: undefined, issues: [] };
  const checksPass = (v: unknown[]): boolean => {
    if (!checks.length) return true;
    scratch.value = v;
    let valid = true;
    for (const ch of checks) {
      if (ch._zod.def.when && !ch._zod.def.when(scratch)) continue;
      ch._zod.check(scratch);
      if (scratch.issues.length) {
        valid = false;
        break;
      }
    }
    if (!valid) scratch.issues.length = 0;
    scratch.value = undefined;
    return valid;
  };
  return {
    ok: generatedOk(schema, gen =>
      [
        'if (!Array.isArray(v)) return false;',
        `for (let i = 0; i < v.length; i++) { const x = v[i]; if (!(${test(def.element!, 'x', gen)})) return false; }`,
        `return ${checks.length ? `${gen.ref(checksPass)}(v)` : 'true'};`,
      ].join('\n'),
    ),
    issues: (v, path, out) => {
      // not an array, or its length is wrong: zod's answer (it skips the length when an item is wrong)
      if (!Array.isArray(v) || !checksPass(v)) return zodIssues(schema, v, path, out);
      for (let i = 0; i < v.length; i++) if (!element.ok(v[i])) element.issues(v[i], [...path, i], out);
    },
  };
}

/** `optional` (its inner schema, or undefined) and `nullable` (or null). */
function wrapperNode(schema: Schema, def: Def, passes: undefined | null): Node {
  const inner = nodeOf(def.innerType!);
  return {
    ok: generatedOk(schema, gen => `return ${inline(schema, 'v', gen)!};`),
    issues: (v, path, out) => {
      if (v !== passes) inner.issues(v, path, out);
    },
  };
}

/** A value a generated `case` can name (=== is zod's SameValueZero for all but NaN). */
const caseLabel = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'boolean' || v === null || Number.isFinite(v)
    ? JSON.stringify(v)
    : v === undefined
      ? 'undefined'
      : undefined;

/** A union picked by a key (`type`): the branch that key names, as zod's discriminated union picks it. */
function discriminatedNode(schema: Schema, def: Def): Node {
  const key = def.discriminator!;
  const byValue = new Map<unknown, Node | null>();
  for (const option of def.options ?? []) {
    for (const value of internals(option).propValues?.[key] ?? []) {
      // a value two branches claim picks neither (zod: "ambiguous")
      byValue.set(value, byValue.has(value) ? null : nodeOf(option));
    }
  }
  const k = JSON.stringify(key);
  const ok = generatedOk(schema, gen => {
    const head = 'if (typeof v !== "object" || v === null || Array.isArray(v)) return false;';
    const labels = [...byValue.keys()].map(caseLabel);
    // one `case` per value: each calls one branch's function, which the engine can then inline
    if (labels.every(l => l !== undefined)) {
      const cases = [...byValue.values()].map(
        (branch, i) => `case ${labels[i]}: return ${branch ? `${gen.ref(branch)}.ok(v)` : 'false'};`,
      );
      return [head, `switch (v[${k}]) {`, ...cases, 'default: return false;', '}'].join('\n');
    }
    return [head, `const b = ${gen.ref(byValue)}.get(v[${k}]);`, 'return !!b && b.ok(v);'].join('\n');
  });
  return {
    ok,
    issues: (v, path, out) => {
      const branch = isObject(v) ? byValue.get(v[key]) : undefined;
      // no branch: zod's one issue, naming the known values
      if (branch) branch.issues(v, path, out);
      else zodIssues(schema, v, path, out);
    },
  };
}

/** A plain union (a string or a list of blocks): valid when one option is; zod reports every option's issues. */
function unionNode(schema: Schema, def: Def): Node {
  return {
    ok: generatedOk(
      schema,
      gen => `return ${(def.options ?? []).map(o => test(o, 'v', gen)).join(' || ') || 'false'};`,
    ),
    issues: (v, path, out) => zodIssues(schema, v, path, out),
  };
}
/** A transform, then a schema (a tool without `type` is a custom tool): the schema on what the transform gives. */
function transformPipeNode(schema: Schema, def: Def): Node {
  const transform = internals(def.in!).def.transform!;
  const after = nodeOf(def.out!);
  const scratch: Payload = { value: undefined, issues: [] };
  return {
    ok: v => {
      scratch.value = v;
      const out = transform(v, scratch);
      const valid = scratch.issues.length === 0 && !(out instanceof Promise) && after.ok(out);
      if (scratch.issues.length) scratch.issues.length = 0;
      scratch.value = undefined;
      return valid;
    },
    issues: (v, path, out) => zodIssues(schema, v, path, out),
  };
}

/** A record: a plain object whose every key and value fit (any string to anything: a plain object). */
function recordNode(schema: Schema, def: Def): Node {
  const key = nodeOf(def.keyType!);
  const value = nodeOf(def.valueType!);
  const keyDef = internals(def.keyType!);
  // keys from a fixed set are checked by zod (each is looked for, the others are unknown)
  if (keyDef.propValues || (keyDef as { values?: unknown }).values) return run(schema);
  const anyString = keyDef.def.type === 'string' && !keyDef.def.checks?.length && !keyDef.traits.has('$ZodCheck');
  const anything = ['unknown', 'any'].includes(internals(def.valueType!).def.type);
  return {
    ok: v => {
      // a plain object for certain (zod's own test, for any other prototype, runs on the slow path)
      if (!isObject(v)) return false;
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      if (anyString && anything) return true;
      // own enumerable string keys: all a parser makes (the parser's list, when it kept one: no listing again);
      // numeric keys get a second try as numbers in zod: its answer
      return keysOf(v).every(k => k === '__proto__' || (key.ok(k) && value.ok(v[k])));
    },
    issues: (v, path, out) => zodIssues(schema, v, path, out),
  };
}
