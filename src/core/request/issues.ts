// zod issues -> problems with a path, an anchor, a rule name and a message that names the real problem.
import type { z } from 'zod';
import { changeToFixes } from './enumFixes';
import { closest } from '../models/table';
import type { RuleContext } from './rules';
import { RuleTally } from './perRule';
import { refusedKey, type KeyVerdict } from './rules/keys';
import { describe } from './schema';
import { defOf, schemaAt, type Def, type Schema } from './schemaPath';
import type { FixData, Path, PathProblem, RuleId } from './types';
import { thousands } from '../text';

type Issue = z.core.$ZodIssue;

/** Default values inserted by the "add missing field" quick fix. */
const DEFAULTS: Record<string, unknown> = {
  model: 'model-opus-4-7',
  max_tokens: 1024,
  messages: [{ role: 'user', content: '' }],
  role: 'user',
  content: '',
  text: '',
  name: 'tool_name',
  input_schema: { type: 'object', properties: {} },
  tool_use_id: '',
  id: '',
  input: {},
  type: 'ephemeral',
  budget_tokens: 1024,
  source: { type: 'text', media_type: 'text/plain', data: '' },
};

function getAt(value: unknown, path: Path): unknown {
  let v = value;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

const fieldName = (path: Path) => {
  const last = path[path.length - 1];
  return typeof last === 'number' ? `item ${last}` : last === undefined ? 'the request' : `"${last}"`;
};

function expectedText(expected: string): string {
  switch (expected) {
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'int':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    default:
      return expected;
  }
}

function defaultFor(key: string, expected: string): unknown {
  if (key in DEFAULTS) return DEFAULTS[key];
  if (expected === 'number' || expected === 'int') return 0;
  if (expected === 'array') return [];
  if (expected === 'object') return {};
  return expected === 'boolean' ? false : '';
}

interface Context {
  root: unknown;
  schema: Schema;
  ctx: RuleContext;
  out: PathProblem[];
  /** past the bound of its rule, a problem is only counted (perRule.ts): no message, no "did you mean" */
  tally: RuleTally;
}

/** Converts the issues of one safeParse of `schema` into problems; `root` is the value that was parsed. */
export function issuesToProblems(
  issues: readonly Issue[],
  root: unknown,
  ctx: RuleContext,
  schema: Schema,
): PathProblem[] {
  const c: Context = { root, schema, ctx, out: [], tally: new RuleTally() };
  for (const iss of issues) convert(iss, iss.path as Path, c);
  return c.out;
}

function convert(iss: Issue, path: Path, c: Context): void {
  const input = getAt(c.root, path);
  const push = (code: RuleId, message: string, extra: Partial<PathProblem> = {}) =>
    c.out.push({ path, anchor: 'value', severity: 'error', code, message, ...extra });
  switch (iss.code) {
    case 'invalid_type': {
      const parentPath = path.slice(0, -1);
      const parent = getAt(c.root, parentPath);
      const key = path[path.length - 1];
      const isObj = parent !== null && typeof parent === 'object' && !Array.isArray(parent);
      if (input === undefined && typeof key === 'string' && isObj && !(key in parent)) {
        const value = defaultFor(key, iss.expected);
        const fix: FixData = { kind: 'insert-property', title: `Add "${key}"`, path: parentPath, key, value };
        const message = `Missing required field "${key}" (${expectedText(iss.expected)}).`;
        push('missing-field', message, { path: parentPath, anchor: 'container', fixes: [fix] });
        return;
      }
      if (input === null && typeof key === 'string') {
        push(
          'missing-field',
          `${cap(fieldName(path))} is required: it must be ${expectedText(iss.expected)}, not null.`,
        );
        return;
      }
      if (typeof input === 'number' && !Number.isFinite(input)) {
        push(
          'out-of-range',
          `${cap(fieldName(path))} must be ${numberRange(schemaAt(c.schema, c.root, path))}; ` +
            `this one is ${describe(input)}.`,
        );
        return;
      }
      // a `type`-picked union given something that is not an object: byType's own message
      if (iss.message && !iss.message.startsWith('Invalid input')) {
        push('wrong-type', iss.message);
        return;
      }
      push('wrong-type', `${cap(fieldName(path))} must be ${expectedText(iss.expected)}, not ${describe(input)}.`);
      return;
    }
    case 'unrecognized_keys':
      unknownFields(path, iss.keys, c);
      return;
    case 'invalid_value': {
      if (absentKey(path, input, c)) {
        // a field with fixed values, missing: add it with the first (often only) value
        const key = path[path.length - 1] as string;
        const value = iss.values[0];
        const fixed = iss.values.length === 1 ? ` (always ${JSON.stringify(value)} here)` : '';
        const fix: FixData = {
          kind: 'insert-property',
          title: `Add "${key}": ${JSON.stringify(value)}`,
          path: path.slice(0, -1),
          key,
          value,
        };
        push('missing-field', `Missing required field "${key}"${fixed}.`, {
          path: path.slice(0, -1),
          anchor: 'container',
          fixes: [fix],
        });
        return;
      }
      // a value's "change to" fixes weigh it against each allowed one: only for problems that are said
      if (!c.tally.said('invalid-value')) {
        c.tally.leftOut<PathProblem>('invalid-value', c.out, () => ({
          path,
          anchor: 'value',
          severity: 'error',
          code: 'invalid-value',
          message: '',
        }));
        return;
      }
      const fixes = changeToFixes(path, input, iss.values);
      const extra = fixes.length ? { fixes } : {};
      // a schema that words its own message (e.g. role)
      if (iss.message && !iss.message.startsWith('Invalid ')) {
        push('invalid-value', iss.message, extra);
        return;
      }
      const values = iss.values.map(v => JSON.stringify(v));
      const msg =
        values.length === 1
          ? `${cap(fieldName(path))} must be ${values[0]}, not ${describe(input)}.`
          : `${cap(fieldName(path))} must be one of ${values.join(', ')}; got ${describe(input)}.`;
      push('invalid-value', msg, extra);
      return;
    }
    case 'too_small':
    case 'too_big': {
      sizeProblem(iss, path, input, push);
      return;
    }
    case 'invalid_union': {
      // a `type`-picked union with no matching branch already carries our message
      if (!iss.errors.length) {
        // zod names the known discriminator values of a `type`-picked union
        const known = (iss as { options?: unknown[] }).options ?? [];
        unknownType(iss.message, path, input, known, c);
        return;
      }
      // a plain union (e.g. string | array): follow the branch that got furthest, else name the choices
      const deeper = iss.errors.filter(branch => !branch.every(e => e.code === 'invalid_type' && e.path.length === 0));
      if (deeper.length >= 1) {
        const best = deeper.reduce((a, b) => (b.length < a.length ? b : a));
        for (const e of best) convert(e, [...path, ...(e.path as Path)], c);
        return;
      }
      const kinds = iss.errors.map(b =>
        b[0]?.code === 'invalid_type' ? expectedText(b[0].expected) : 'another shape',
      );
      push('wrong-type', `${cap(fieldName(path))} must be ${kinds.join(' or ')}, not ${describe(input)}.`);
      return;
    }
    default:
      push('invalid-value', iss.message);
  }
}

/** The issue is about a key its object does not have at all. */
function absentKey(path: Path, input: unknown, c: Context): boolean {
  const key = path[path.length - 1];
  const parent = getAt(c.root, path.slice(0, -1));
  return (
    input === undefined &&
    typeof key === 'string' &&
    parent !== null &&
    typeof parent === 'object' &&
    !Array.isArray(parent) &&
    !(key in parent)
  );
}

function sizeProblem(
  iss: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig,
  path: Path,
  input: unknown,
  push: (code: RuleId, message: string) => void,
): void {
  const small = iss.code === 'too_small';
  const bound = Number(
    small ? (iss as { minimum: number | bigint }).minimum : (iss as { maximum: number | bigint }).maximum,
  );
  const isMessages = path.length === 1 && path[0] === 'messages' && Array.isArray(input);
  if (isMessages && small) {
    push('empty-messages', 'The service requires at least one message: add a user turn to "messages".');
    return;
  }
  if (isMessages) {
    push(
      'too-many-messages',
      `At most ${thousands(bound)} messages per request (this one has ` + `${thousands((input as unknown[]).length)}).`,
    );
    return;
  }
  const most = small ? 'least' : 'most';
  const what =
    iss.origin === 'array'
      ? `at ${most} ${thousands(bound)} items`
      : iss.origin === 'string'
        ? `at ${most} ${bound} characters`
        : `${small ? '≥' : '≤'} ${bound}`;
  const has = Array.isArray(input) ? ` (it has ${thousands(input.length)})` : '';
  push('out-of-range', `${cap(fieldName(path))} must be ${what}${has}.`);
}

/**
 * The unknown keys of one object. Each a warning (the service documents more than the spec), with "did you mean"
 * when near; an error where the service is known to refuse it (rules/keys.ts). Past a rule's bound, counted.
 */
function unknownFields(path: Path, keys: readonly string[], c: Context): void {
  const container = getAt(c.root, path);
  const leftOut = (key: string, verdict: KeyVerdict | undefined, n = 1) =>
    c.tally.leftOut<PathProblem>(
      verdict?.code ?? 'unknown-field',
      c.out,
      () => ({
        path: [...path, key],
        anchor: 'key',
        severity: verdict?.severity ?? 'warning',
        code: verdict?.code ?? 'unknown-field',
        message: '',
      }),
      n,
    );
  // once the plain unknown keys are past their bound, the others are counted here and left out together
  let plainLeftOut = 0;
  let firstLeftOut = '';
  for (const key of keys) {
    const refused = refusedKey(c.root, container, path, key);
    if (!refused && plainLeftOut) plainLeftOut++;
    else if (c.tally.said(refused?.code ?? 'unknown-field')) unknownField(path, container, key, refused, c);
    else if (refused) leftOut(key, refused);
    else {
      plainLeftOut = 1;
      firstLeftOut = key;
    }
  }
  if (plainLeftOut) leftOut(firstLeftOut, undefined, plainLeftOut);
}

/** An unknown key said in full: "did you mean", its fixes. */
function unknownField(path: Path, container: unknown, key: string, refused: KeyVerdict | undefined, c: Context) {
  const severity = refused?.severity ?? 'warning';
  const code = refused?.code ?? 'unknown-field';
  const at = [...path, key];
  const known = knownKeys(schemaAt(c.schema, c.root, path));
  const near = known
    ? closest(
        key,
        known.filter(k => !(k in (container as object))),
        2,
      )
    : undefined;
  const fixes: FixData[] = [];
  if (near) fixes.push({ kind: 'rename-property', title: `Rename to "${near}"`, path: at, key: near });
  fixes.push({ kind: 'remove-property', title: `Remove "${key}"`, path: at });
  if (refused) {
    const message = near ? `${refused.message} Did you mean "${near}"?` : refused.message;
    c.out.push({ path: at, anchor: 'key', ...refused, message, fixes: refused.fixes ?? fixes });
    return;
  }
  const where = path.length ? `in ${fieldName(path)}` : 'in the request';
  const message = near
    ? `Unknown field "${key}" ${where}: did you mean "${near}"?`
    : `Unknown field "${key}" ${where}: the spec does not describe it. If the service documents it, ignore this; ` +
      'otherwise the service may reject the request.';
  c.out.push({ path: at, anchor: 'key', severity, code, message, fixes });
}

/**
 * A `type` no branch of its union knows. Beta types are branches where they may appear (schema.ts), so
 * one here is in the wrong place, or unknown: an error, marked on the `type` value when there is one.
 */
function unknownType(message: string, path: Path, input: unknown, known: readonly unknown[], c: Context): void {
  const onType = path[path.length - 1] === 'type';
  const type = onType
    ? input
    : input !== null && typeof input === 'object'
      ? (input as { type?: unknown }).type
      : undefined;
  const at = typeof type === 'string' && !onType ? [...path, 'type'] : path;
  const fixes = typeof type === 'string' ? changeToFixes(at, type, known) : [];
  c.out.push({
    path: at,
    anchor: 'value',
    severity: 'error',
    code: 'unknown-type',
    message,
    ...(fixes.length ? { fixes } : {}),
  });
}

function knownKeys(s: Schema | undefined): string[] | undefined {
  if (!s) return undefined;
  const d = defOf(s);
  return d.type === 'object' && d.shape ? Object.keys(d.shape) : undefined;
}

/** "an integer between 0 and 9,007,199,254,740,991" from a number schema's checks. */
function numberRange(s: Schema | undefined): string {
  type Check = { _zod: { def: { check: string; format?: string; value?: number } } };
  const def = s ? (defOf(s) as Def & { checks?: Check[]; format?: string }) : undefined;
  const checks = (def?.checks ?? []).map(c => c._zod.def);
  const isInt = (format?: string) => format === 'safeint' || format === 'int32';
  const int = isInt(def?.format) || checks.some(c => c.check === 'number_format' && isInt(c.format));
  const min = checks.find(c => c.check === 'greater_than')?.value ?? (int ? Number.MIN_SAFE_INTEGER : undefined);
  const max = checks.find(c => c.check === 'less_than')?.value ?? (int ? Number.MAX_SAFE_INTEGER : undefined);
  const what = int ? 'an integer' : 'a finite number';
  if (min === undefined || max === undefined) return what;
  return `${what} between ${thousands(min)} and ${thousands(max)}`;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
