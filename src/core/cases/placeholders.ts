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
  return placeholderFiller(value)(vars);
}

/** Fills a value compiled by placeholderFiller: a new copy each call. */
export type Filler = (vars: Record<string, VarValue>) => { value: unknown; missing: string[] };

/** A string's placeholders: the text between them (one piece more than them), their names and texts as written. */
interface Holes {
  pieces: string[];
  names: string[];
  written: string[];
}

/**
 * One step of building a copy: the value put at `key` of the copy's `parent`th container (-1: the copy itself). A
 * string with placeholders is filled from its `holes`; a container is copied whole (its strings without placeholders,
 * numbers… as they are), and the steps after it put its containers and filled strings in the copy.
 */
interface Step {
  parent: number;
  key: string | number;
  /** the container, or the string as written */
  value: unknown;
  holes: Holes | undefined;
  /** a container's place in the list of those made; -1 for a string */
  container: number;
  array: boolean;
}

/** A string's placeholders, or undefined when it has none. */
function holesOf(s: string): Holes | undefined {
  let holes: Holes | undefined;
  let copied = 0;
  scanPlaceholders(s, 0, s.length, (start, end, nameStart, nameEnd) => {
    holes ??= { pieces: [], names: [], written: [] };
    holes.pieces.push(s.slice(copied, start));
    holes.names.push(s.slice(nameStart, nameEnd));
    holes.written.push(s.slice(start, end));
    copied = end;
  });
  holes?.pieces.push(s.slice(copied));
  return holes;
}

/**
 * `value` compiled for filling many times, as `fillPlaceholders(value, vars)` fills it once: its placeholders found
 * once, each fill a copy built from the pieces (a million rows filled into one request: four times quicker than a
 * walk and a search of the request for each). The value must not change while the filler is in use.
 */
export function placeholderFiller(value: unknown): Filler {
  const steps: Step[] = [];
  // the containers still to walk, and their places among those made
  const sources: object[] = [];
  const places: number[] = [];
  let containers = 0;
  const step = (parent: number, key: string | number, v: unknown) => {
    const container = v !== null && typeof v === 'object' ? containers++ : -1;
    const holes = typeof v === 'string' ? holesOf(v) : undefined;
    // what the copy of its container holds already: a value that is neither a container nor filled
    if (container < 0 && !holes && parent >= 0) return;
    steps.push({ parent, key, value: v, holes, container, array: Array.isArray(v) });
    if (container >= 0) {
      sources.push(v as object);
      places.push(container);
    }
  };
  // in the order the copy's strings were always filled (each container's keys in order, the last container found
  // first), so that `missing` names its placeholders in the same order; without recursion, as requests nest deep
  step(-1, '', value);
  while (sources.length) {
    const source = sources.pop() as Record<string, unknown>;
    const place = places.pop()!;
    if (Array.isArray(source)) for (let i = 0; i < source.length; i++) step(place, i, source[i]);
    else for (const key of Object.keys(source)) step(place, key, source[key]);
  }
  return vars => {
    const made = new Array<Record<string | number, unknown>>(containers);
    let missing: Set<string> | undefined;
    let copy: unknown;
    for (const s of steps) {
      let v = s.value;
      if (s.holes) {
        const { pieces, names, written } = s.holes;
        let text = pieces[0]!;
        for (let i = 0; i < names.length; i++) {
          const name = names[i]!;
          // own properties only: `{{constructor}}` must not find Object.prototype.constructor
          if (Object.hasOwn(vars, name)) text += String(vars[name]) + pieces[i + 1]!;
          else {
            (missing ??= new Set()).add(name);
            text += written[i]! + pieces[i + 1]!;
          }
        }
        v = text;
      } else if (s.container >= 0) {
        // a shallow copy, its containers and filled strings put in by the steps after this one (a spread copies
        // an own "__proto__" key as a key)
        v = s.array ? [...(s.value as unknown[])] : { ...(s.value as object) };
        made[s.container] = v as Record<string, unknown>;
      }
      if (s.parent < 0) copy = v;
      // a key "__proto__" (JSON.parse makes it an own property) must stay a property, not set the prototype
      else if (s.key === '__proto__')
        Object.defineProperty(made[s.parent], s.key, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else made[s.parent]![s.key] = v;
    }
    return { value: copy, missing: missing ? [...missing] : [] };
  };
}
