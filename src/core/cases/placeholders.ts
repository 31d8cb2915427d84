// `{{name}}` placeholders in a request file's strings: found in raw text (for hover and the
// request file's diagnostics), collected from a parsed request, and filled with a case's values. Requests
// can nest deeper than the stack allows recursion (parse.ts reads JSON of any depth), so every walk here
// is iterative.
import type { Placeholder, VarValue } from './types';

/**
 * A placeholder: `{{name}}`, spaces allowed inside the braces. Names start with a letter or `_` and go on
 * with letters, digits, `_`, `.` and `-`; anything else between double braces is left as text. What the regular
 * expression `/\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g` finds, found without a match object each: a request
 * file can hold a hundred thousand of them, and this runs on every check of a case file. `visit` returning false
 * ends the scan.
 */
export function scanPlaceholders(
  text: string,
  from: number,
  to: number,
  visit: (start: number, end: number, nameStart: number, nameEnd: number) => unknown,
): void {
  // the shortest placeholder, `{{a}}`, has five characters
  for (let i = text.indexOf('{{', from); i >= 0 && i + 5 <= to;) {
    let j = i + 2;
    while (j < to && isSpace(text.charCodeAt(j))) j++;
    if (j < to && isNameStart(text.charCodeAt(j))) {
      const nameStart = j++;
      while (j < to && isNameChar(text.charCodeAt(j))) j++;
      const nameEnd = j;
      while (j < to && isSpace(text.charCodeAt(j))) j++;
      if (j + 2 <= to && text.charCodeAt(j) === 125 && text.charCodeAt(j + 1) === 125) {
        if (visit(i, j + 2, nameStart, nameEnd) === false) return;
        i = text.indexOf('{{', j + 2);
        continue;
      }
    }
    // as the expression does: the next try is one character on (`{{{x}}}` holds `{{x}}`)
    i = text.indexOf('{{', i + 1);
  }
}

/** The regular expression's `\s`: what JavaScript counts as white space and line ends. */
function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    (c >= 0x80 &&
      (c === 0xa0 ||
        c === 0x1680 ||
        (c >= 0x2000 && c <= 0x200a) ||
        c === 0x2028 ||
        c === 0x2029 ||
        c === 0x202f ||
        c === 0x205f ||
        c === 0x3000 ||
        c === 0xfeff))
  );
}

const isNameStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;

/** Every placeholder in a text, with offsets (UTF-16 code units) that include the braces. */
export function findPlaceholders(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  scanPlaceholders(text, 0, text.length, (start, end, nameStart, nameEnd) =>
    out.push({ name: text.slice(nameStart, nameEnd), start, end }),
  );
  return out;
}

/** The placeholder names used in the string values of a parsed request (object keys are not filled). */
export function placeholderNames(value: unknown): Set<string> {
  const names = new Set<string>();
  forEachString(value, s =>
    scanPlaceholders(s, 0, s.length, (_start, _end, nameStart, nameEnd) => names.add(s.slice(nameStart, nameEnd))),
  );
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
  const fill = (s: string): string => {
    let filled = '';
    let copied = 0;
    scanPlaceholders(s, 0, s.length, (start, end, nameStart, nameEnd) => {
      const name = s.slice(nameStart, nameEnd);
      // own properties only: `{{constructor}}` must not find Object.prototype.constructor
      if (Object.hasOwn(vars, name)) {
        filled += s.slice(copied, start) + String(vars[name]);
        copied = end;
      } else missing.add(name);
    });
    return copied ? filled + s.slice(copied) : s;
  };
  return { value: mapStrings(value, fill), missing: [...missing] };
}

/** A deep copy of a JSON-like value with `f` applied to every string value, without recursion. */
function mapStrings(value: unknown, f: (s: string) => string): unknown {
  const copy = (v: unknown): unknown =>
    typeof v === 'string'
      ? f(v)
      : Array.isArray(v)
        ? new Array<unknown>(v.length)
        : v !== null && typeof v === 'object'
          ? {}
          : v;
  // the containers still to fill, each beside its copy (strings and numbers are done when copied)
  const sources: object[] = [];
  const targets: object[] = [];
  const put = (target: Record<string, unknown>, key: string, v: unknown) => {
    const c = copy(v);
    // a key "__proto__" (JSON.parse makes it an own property) must stay a property, not set the prototype
    if (key === '__proto__')
      Object.defineProperty(target, key, { value: c, enumerable: true, writable: true, configurable: true });
    else target[key] = c;
    if (c !== null && typeof c === 'object') {
      sources.push(v as object);
      targets.push(c);
    }
  };
  const root = copy(value);
  if (root !== null && typeof root === 'object') {
    sources.push(value as object);
    targets.push(root);
  }
  while (sources.length) {
    const source = sources.pop() as Record<string, unknown>;
    const target = targets.pop() as Record<string, unknown>;
    if (Array.isArray(source)) for (let i = 0; i < source.length; i++) put(target, String(i), source[i]);
    else for (const k of Object.keys(source)) put(target, k, source[k]);
  }
  return root;
}
