// zod issues -> problems with a path, an anchor and a message that names the real problem.
import type { z } from 'zod';
import { describe } from './schema';
import type { FixData, Path, PathProblem } from './types';

type Issue = z.core.$ZodIssue;

/** Default values inserted by the "add missing field" quick fix. */
const DEFAULTS: Record<string, unknown> = {
  model: 'model-opus-4-7', max_tokens: 1024, messages: [{ role: 'user', content: '' }], role: 'user', content: '',
  text: '', name: 'tool_name', input_schema: { type: 'object', properties: {} }, tool_use_id: '', id: '', input: {},
  type: 'ephemeral', budget_tokens: 1024, source: { type: 'text', media_type: 'text/plain', data: '' },
};

export function getAt(value: unknown, path: Path): unknown {
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
    case 'object': return 'an object';
    case 'array': return 'an array';
    case 'int': return 'an integer';
    case 'number': return 'a number';
    case 'string': return 'a string';
    case 'boolean': return 'true or false';
    case 'null': return 'null';
    default: return expected;
  }
}

function defaultFor(key: string, expected: string): unknown {
  if (key in DEFAULTS) return DEFAULTS[key];
  return expected === 'number' || expected === 'int' ? 0 : expected === 'array' ? [] : expected === 'object' ? {} : expected === 'boolean' ? false : '';
}

/** Converts the issues of one safeParse into problems; `root` is the value that was parsed. */
export function issuesToProblems(issues: readonly Issue[], root: unknown, section: (path: Path) => string): PathProblem[] {
  const out: PathProblem[] = [];
  for (const iss of issues) convert(iss, iss.path as Path, root, section, out);
  return out;
}

function convert(iss: Issue, path: Path, root: unknown, section: (path: Path) => string, out: PathProblem[]): void {
  const code = section(path);
  const input = getAt(root, path);
  switch (iss.code) {
    case 'invalid_type': {
      const parentPath = path.slice(0, -1);
      const parent = getAt(root, parentPath);
      const key = path[path.length - 1];
      if (input === undefined && typeof key === 'string' && parent !== null && typeof parent === 'object' && !Array.isArray(parent) && !(key in parent)) {
        const fix: FixData = { kind: 'insert-property', title: `Add "${key}"`, path: parentPath, key, value: defaultFor(key, iss.expected) };
        out.push({ path: parentPath, anchor: 'container', severity: 'error', code, message: `Missing required field "${key}" (${expectedText(iss.expected)}).`, fixes: [fix] });
        return;
      }
      if (iss.message && !iss.message.startsWith('Invalid input')) {
        out.push({ path, anchor: 'value', severity: 'error', code, message: iss.message });
        return;
      }
      out.push({ path, anchor: 'value', severity: 'error', code, message: `${cap(fieldName(path))} must be ${expectedText(iss.expected)}, not ${describe(input)}.` });
      return;
    }
    case 'unrecognized_keys':
      for (const k of iss.keys) {
        out.push({ path: [...path, k], anchor: 'key', severity: 'error', code, message: `Unknown field "${k}" here: the API rejects fields it does not know.`, fixes: [{ kind: 'remove-property', title: `Remove "${k}"`, path: [...path, k] }] });
      }
      return;
    case 'invalid_value': {
      const values = iss.values.map(v => JSON.stringify(v));
      const msg = values.length === 1 ? `${cap(fieldName(path))} must be ${values[0]}, not ${describe(input)}.` : `${cap(fieldName(path))} must be one of ${values.join(', ')}; got ${describe(input)}.`;
      out.push({ path, anchor: 'value', severity: 'error', code, message: msg });
      return;
    }
    case 'too_small':
    case 'too_big': {
      const small = iss.code === 'too_small';
      const bound = small ? (iss as { minimum: number | bigint }).minimum : (iss as { maximum: number | bigint }).maximum;
      const what = iss.origin === 'array' ? `at ${small ? 'least' : 'most'} ${Number(bound).toLocaleString('en-US')} items` : iss.origin === 'string' ? `at ${small ? 'least' : 'most'} ${bound} characters` : `${small ? '≥' : '≤'} ${bound}`;
      out.push({ path, anchor: 'value', severity: 'error', code, message: `${cap(fieldName(path))} must be ${what}${Array.isArray(input) ? ` (it has ${input.length.toLocaleString('en-US')})` : ''}.` });
      return;
    }
    case 'invalid_union': {
      // a `type`-picked union with no matching branch already carries our message
      if (!iss.errors.length) {
        out.push({ path, anchor: 'value', severity: 'error', code, message: iss.message });
        return;
      }
      // a plain union (e.g. string | array): follow the branch that got furthest, else name the choices
      const deeper = iss.errors.filter(branch => !branch.every(e => e.code === 'invalid_type' && e.path.length === 0));
      if (deeper.length >= 1) {
        const best = deeper.reduce((a, b) => (b.length < a.length ? b : a));
        for (const e of best) convert(e, [...path, ...(e.path as Path)], root, section, out);
        return;
      }
      const kinds = iss.errors.map(b => (b[0]?.code === 'invalid_type' ? expectedText(b[0].expected) : 'another shape'));
      out.push({ path, anchor: 'value', severity: 'error', code, message: `${cap(fieldName(path))} must be ${kinds.join(' or ')}, not ${describe(input)}.` });
      return;
    }
    default:
      out.push({ path, anchor: 'value', severity: 'error', code, message: iss.message });
  }
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
