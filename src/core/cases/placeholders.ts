// `{{name}}` placeholders in a request file's strings: found in raw text (for hover and the
// request file's diagnostics), collected from a parsed request, and filled with a case's values. Requests
// can nest deeper than the stack allows recursion (parse.ts reads JSON of any depth), so every walk here
// is iterative.
import type { Placeholder, VarValue } from './types';

/**
 * A placeholder: `{{name}}`, spaces allowed inside the braces. Names start with a letter or `_` and go on
 * with letters, digits, `_`, `.` and `-`; anything else between double braces is left as text.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

/** Every placeholder in a text, with offsets (UTF-16 code units) that include the braces. */
export function findPlaceholders(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) out.push({ name: m[1]!, start: m.index, end: m.index + m[0].length });
  return out;
}

/** The names of the placeholders in a text, each once. */
export function namesIn(text: string): Set<string> {
  const names = new Set<string>();
  if (text.includes('{{')) for (const m of text.matchAll(PLACEHOLDER)) names.add(m[1]!);
  return names;
}

/** The placeholder names used in the string values of a parsed request (object keys are not filled). */
export function placeholderNames(value: unknown): Set<string> {
  const names = new Set<string>();
  forEachString(value, s => {
    if (s.includes('{{')) for (const m of s.matchAll(PLACEHOLDER)) names.add(m[1]!);
  });
  return names;
}

/** A string's path inside the value, built only when asked for (a deep value's paths would cost O(depth²)). */
export type PathOf = () => (string | number)[];

interface Visit {
  v: unknown;
  parent?: Visit;
  key?: string | number;
}

/** Calls `visit` for every string value inside `value` (keys excluded), in document order, without recursion. */
export function forEachString(value: unknown, visit: (s: string, pathOf: PathOf) => void): void {
  const stack: Visit[] = [{ v: value }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { v } = item;
    if (typeof v === 'string') {
      const at = item;
      visit(v, () => {
        const path: (string | number)[] = [];
        for (let n: Visit | undefined = at; n?.parent; n = n.parent) path.push(n.key!);
        return path.reverse();
      });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], parent: item, key: i });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push({ v: (v as Record<string, unknown>)[keys[i]!], parent: item, key: keys[i]! });
    }
  }
}

/**
 * A copy of `value` with each placeholder in every string value replaced by its var's text. A placeholder
 * with no value stays as written and is named in `missing` (once, in the order first met).
 */
export function fillPlaceholders(
  value: unknown,
  vars: Record<string, VarValue>,
): { value: unknown; missing: string[] } {
  const missing = new Set<string>();
  const fill = (s: string): string =>
    s.includes('{{')
      ? s.replace(PLACEHOLDER, (whole, name: string) => {
          // own properties only: `{{constructor}}` must not find Object.prototype.constructor
          if (Object.hasOwn(vars, name)) return String(vars[name]);
          missing.add(name);
          return whole;
        })
      : s;
  return { value: mapStrings(value, fill), missing: [...missing] };
}

/** A deep copy of a JSON-like value with `f` applied to every string value, without recursion. */
function mapStrings(value: unknown, f: (s: string) => string): unknown {
  const copy = (v: unknown): unknown => {
    if (typeof v === 'string') return f(v);
    if (Array.isArray(v)) return new Array<unknown>(v.length);
    if (v !== null && typeof v === 'object') return {};
    return v;
  };
  const root = copy(value);
  const stack: { from: unknown; to: unknown }[] = [{ from: value, to: root }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { from, to } = item;
    if (Array.isArray(from)) {
      const target = to as unknown[];
      from.forEach((v, i) => {
        target[i] = copy(v);
        stack.push({ from: v, to: target[i] });
      });
    } else if (from !== null && typeof from === 'object') {
      const target = to as Record<string, unknown>;
      for (const [k, v] of Object.entries(from)) {
        const c = copy(v);
        // a key "__proto__" (JSON.parse makes it an own property) must stay a property, not set the prototype
        Object.defineProperty(target, k, { value: c, enumerable: true, writable: true, configurable: true });
        stack.push({ from: v, to: c });
      }
    }
  }
  return root;
}
