// Where a path is in valid JSON text, found by walking only the containers on the way (no parse tree): one
// path (locateJson), or many in one forward walk (locateJsonMany), as placing every problem of a check needs.
import type { Path } from '../types';
import { keysOf, listedKeys } from './keys';
import { MAX_DEPTH, type Locate, type Span } from './types';

const isWs = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** Index of the closing quote of the string that opens at i. */
export function skipString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return text.length;
    if (text.charCodeAt(q - 1) !== 92) return q;
    let b = q - 1;
    let backslashes = 0;
    while (text.charCodeAt(b) === 92) {
      backslashes++;
      b--;
    }
    if (backslashes % 2 === 0) return q;
    j = q + 1;
  }
}

/** End (exclusive) of the JSON value starting at i (valid JSON is assumed: this runs after JSON.parse). */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return skipString(text, i) + 1;
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const ch = text.charCodeAt(j);
      if (ch === 34) j = skipString(text, j);
      else if (ch === 123 || ch === 91) depth++;
      else if (ch === 125 || ch === 93) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return text.length;
  }
  let j = i;
  while (j < text.length) {
    const ch = text.charCodeAt(j);
    if (ch === 44 || ch === 125 || ch === 93 || isWs(ch)) break;
    j++;
  }
  return j;
}

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** Finds the range of path in valid JSON text by walking only the containers on the way. */
export function locateJson(text: string, path: Path, key = false): Span | undefined {
  let i = skipWs(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  let keySpan: Span | undefined;
  for (const seg of path) {
    const c = text.charCodeAt(i);
    if (c === 123 && typeof seg === 'string') {
      i = skipWs(text, i + 1);
      let found = false;
      while (text.charCodeAt(i) === 34) {
        const kEnd = skipString(text, i) + 1;
        const name = JSON.parse(text.slice(i, kEnd)) as string;
        const vStart = skipWs(text, skipWs(text, kEnd) + 1);
        if (name === seg) {
          // the last duplicate wins in JSON.parse; keep scanning for a later one
          keySpan = { start: i, end: kEnd };
          found = true;
          let after = skipWs(text, skipValue(text, vStart));
          let laterI = vStart;
          while (text.charCodeAt(after) === 44) {
            const nk = skipWs(text, after + 1);
            const nkEnd = skipString(text, nk) + 1;
            const nv = skipWs(text, skipWs(text, nkEnd) + 1);
            if (JSON.parse(text.slice(nk, nkEnd)) === seg) {
              keySpan = { start: nk, end: nkEnd };
              laterI = nv;
            }
            after = skipWs(text, skipValue(text, nv));
          }
          i = laterI;
          break;
        }
        i = skipWs(text, skipValue(text, vStart));
        if (text.charCodeAt(i) === 44) i = skipWs(text, i + 1);
      }
      if (!found) return undefined;
    } else if (c === 91 && typeof seg === 'number') {
      i = skipWs(text, i + 1);
      for (let k = 0; k < seg; k++) {
        if (text.charCodeAt(i) === 93) return undefined;
        i = skipWs(text, skipValue(text, i));
        if (text.charCodeAt(i) === 44) i = skipWs(text, i + 1);
      }
      if (text.charCodeAt(i) === 93) return undefined;
      keySpan = undefined;
    } else {
      return undefined;
    }
  }
  if (key && keySpan) return keySpan;
  return { start: i, end: skipValue(text, i) };
}

/** A path wanted by `locateJsonMany`, in a tree of the wanted paths: what the walk found for it. */
interface Wanted {
  children?: Map<string | number, Wanted>;
  value?: Span;
  /** the key that holds the value, when it is in an object */
  key?: Span;
  /** found in the parsed value (by `anchorWanted`): where it is in the text is worked out when asked */
  present?: boolean;
  /** where its value starts (its end is found only for a path asked for) */
  start?: number;
  /** the index, in the text's order, of the key that holds it */
  keyIndex?: number;
  /** an object with keys: the index of its first key */
  firstKey?: number;
}

/** The value JSON.parse made of a text without duplicate keys, and where each key starts, in the text's order. */
export interface KeyOffsets {
  value: unknown;
  /** the offsets (asked for once, when the first path is placed) */
  keys: () => Int32Array;
}

/**
 * `locateJson` for many paths: a tree of the paths (prefixes shared) is filled in at once, so placing every
 * problem of a check costs about one pass, not one per problem. With the offsets of the keys (a text without
 * duplicate keys), the pass is over the parsed value, which lists its keys in the order of the text: the
 * n-th key met is the n-th key of the text, so a path's place is its key's, and nothing but the few values
 * asked for is read from the text. Otherwise, one walk over the text enters only the containers on a wanted
 * path and skips the rest. Answers are those of `locateJson`.
 */
export function locateJsonMany(text: string, paths: readonly Path[], offsets?: KeyOffsets): Locate {
  const root: Wanted = {};
  let wanted = 0;
  for (const path of paths) {
    // an index that is not a count (-1, 1.5) is left to locateJson, which has its own idea of it
    if (!path.every(seg => typeof seg === 'string' || (Number.isSafeInteger(seg) && seg >= 0))) continue;
    let node = root;
    for (const seg of path) {
      node.children ??= new Map();
      let child = node.children.get(seg);
      if (!child) {
        node.children.set(seg, (child = {}));
        wanted++;
      }
      node = child;
    }
  }
  // not before the first question: a check with no problems asks none
  let anchored: boolean | undefined;
  let keys: Int32Array | undefined;
  // one skipper for every path asked for: a lens a message asks for 2,500 paths of a 50 MB file, and a skipper of
  // its own each searched the rest of the text for a bracket no message holds (30 s)
  let skip: ((i: number) => number) | undefined;
  return (path, key = false) => {
    if (anchored === undefined) {
      anchored = !!offsets && anchorWanted(root, offsets.value, wanted);
      if (anchored) keys = offsets!.keys();
      else findWanted(text, root);
    }
    const nodes: Wanted[] = [root];
    for (let n = 0; n < path.length; n++) {
      const next = nodes[n]!.children?.get(path[n]!);
      if (!next) return locateJson(text, path, key);
      nodes.push(next);
    }
    if (keys) place(text, keys, nodes, path, (skip ??= forwardSkipper(text)));
    const node = nodes[nodes.length - 1]!;
    return key && node.key ? node.key : node.value;
  };
}

/**
 * Marks the wanted paths the value has, each with the index of its key (or of an object's first key), walking
 * the value in the order of its text and counting keys; stops once every wanted path is met. A part of the
 * value on no wanted path is only counted (the order of its keys does not matter, their number does). False
 * when the order of the value may not be the text's: an object on a wanted path with an integer-like key
 * (the engine lists those first), or nesting deeper than MAX_DEPTH (not walked here, to keep the stack small).
 */
function anchorWanted(root: Wanted, value: unknown, wanted: number): boolean {
  let keys = 0;
  let left = wanted;
  root.present = true;
  // false: give up; true: go on (`left` says when everything is met)
  const walk = (v: unknown, w: Wanted, depth: number): boolean => {
    if (v === null || typeof v !== 'object') return true;
    if (depth > MAX_DEPTH) return false;
    const children = w.children;
    if (Array.isArray(v)) {
      // the wanted items in order; those between them are only counted
      const indices = children ? [...children.keys()].filter(k => typeof k === 'number').sort((a, b) => a - b) : [];
      let from = 0;
      for (const i of indices) {
        if (left <= 0 || i >= v.length) break;
        for (; from < i; from++) {
          const x: unknown = v[from];
          if (holds(x) && !count(x, depth + 1)) return false;
        }
        const child = children!.get(i)!;
        child.present = true;
        left--;
        if (!walk(v[i], child, depth + 1)) return false;
        from = i + 1;
      }
      // the items after the last one wanted (all of them, in an array wanted whole) hold keys that come before the
      // next wanted path's
      for (; left > 0 && from < v.length; from++) {
        const x: unknown = v[from];
        if (holds(x) && !count(x, depth + 1)) return false;
      }
      return true;
    }
    w.firstKey = keys;
    for (const k of keysOf(v)) {
      if (left <= 0) return true;
      const c = k.charCodeAt(0);
      if (c >= 48 && c <= 57 && INTEGER_KEY.test(k)) return false;
      const child = children?.get(k);
      const x = (v as Record<string, unknown>)[k];
      if (child) {
        child.present = true;
        child.keyIndex = keys++;
        left--;
        if (!walk(x, child, depth + 1)) return false;
      } else {
        keys++;
        if (holds(x) && !count(x, depth + 1)) return false;
      }
    }
    if (w.firstKey === keys) w.firstKey = undefined; // no keys
    return true;
  };
  /**
   * Adds the keys of an object or array on no wanted path; false when it nests too deep. Called only for what
   * `holds`: most values are strings and numbers, tested where they are met rather than in a recursive call each.
   * Only how many keys count, not their order, so for-in reads them without a list for each object (a list each
   * was 3.4 MB of garbage for 1,000 problems in a 1.6 MB file, and most of the time they added to its check); an
   * object of thousands of keys has the list the parser kept (keys.ts), not a second listing.
   */
  const count = (v: object, depth: number): boolean => {
    if (depth > MAX_DEPTH) return false;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (holds(x) && !count(x, depth + 1)) return false;
      }
      return true;
    }
    const o = v as Record<string, unknown>;
    // a loop in each branch, not a callback: a closure over `o` would cost every call a context, garbage again
    const listed = listedKeys(o);
    if (listed) {
      keys += listed.length;
      for (const k of listed) if (holds(o[k]) && !count(o[k], depth + 1)) return false;
      return true;
    }
    for (const k in o) {
      keys++;
      const x = o[k];
      if (holds(x) && !count(x, depth + 1)) return false;
    }
    return true;
  };
  return walk(value, root, 1);
}

/** Whether a part of a value is an object or an array: one that has keys or items to count. */
const holds = (x: unknown): x is object => x !== null && typeof x === 'object';

/** Keys the engine lists before all others, whatever their place in the text (array indices). */
const INTEGER_KEY = /^(0|[1-9]\d{0,9})$/;

/**
 * Works out where the last of `nodes` (the path's nodes, from the root) is in the text: where each of them
 * starts, then where the last one ends (only that one: a container's end costs a skip over all of it).
 */
function place(text: string, keys: Int32Array, nodes: Wanted[], path: Path, skip: (i: number) => number): void {
  for (let n = 0; n < nodes.length; n++) {
    const w = nodes[n]!;
    if (w.start !== undefined || !w.present) continue;
    if (w.keyIndex !== undefined) {
      const k = keys[w.keyIndex]!;
      const kEnd = skipString(text, k) + 1;
      w.key = { start: k, end: kEnd };
      w.start = skipWs(text, skipWs(text, kEnd) + 1);
    } else if (w.firstKey !== undefined) {
      // the brace before an object's first key
      let at = keys[w.firstKey]! - 1;
      while (isWs(text.charCodeAt(at))) at--;
      w.start = at;
    } else if (n === 0) {
      w.start = skipWs(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
    } else {
      // an item without keys of its own (a string, a list, an empty object): counted from its array's start
      let at = skipWs(text, nodes[n - 1]!.start! + 1);
      for (let k = 0; k < (path[n - 1] as number); k++) {
        at = skipWs(text, skipValue(text, at));
        if (text.charCodeAt(at) === 44) at = skipWs(text, at + 1);
      }
      w.start = at;
    }
  }
  const last = nodes[nodes.length - 1]!;
  if (last.start === undefined || last.value) return;
  const c = text.charCodeAt(last.start);
  const end = c === 123 || c === 91 ? skip(last.start) : skipValue(text, last.start);
  last.value = { start: last.start, end };
}

/** Fills in the spans of the wanted paths in one forward walk over valid JSON text (iterative: it may nest deep). */
function findWanted(text: string, root: Wanted): void {
  interface Open {
    wanted: Wanted;
    children: Map<string | number, Wanted>;
    start: number;
    inObject: boolean;
    /** in an array, the index of the next item */
    index: number;
  }
  const open: Open[] = [];
  const skip = forwardSkipper(text);
  let i = skipWs(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  // the value at i, and what is wanted of it
  let wanted: Wanted | undefined = root;
  for (;;) {
    const c = text.charCodeAt(i);
    if (wanted?.children && (c === 123 || c === 91)) {
      open.push({ wanted, children: wanted.children, start: i, inObject: c === 123, index: 0 });
      i = skipWs(text, i + 1);
    } else {
      const end = skip(i);
      if (wanted) wanted.value = { start: i, end };
      i = skipWs(text, end);
    }
    // find the next value: the next entry of the innermost open container, closing those that end here
    for (;;) {
      const top = open[open.length - 1];
      if (!top || i >= text.length) return;
      let ch = text.charCodeAt(i);
      if (ch === 44) {
        i = skipWs(text, i + 1);
        ch = text.charCodeAt(i);
      }
      if (ch === 125 || ch === 93) {
        top.wanted.value = { start: top.start, end: i + 1 };
        open.pop();
        i = skipWs(text, i + 1);
        continue;
      }
      if (!top.inObject) {
        wanted = top.children.get(top.index++);
        break;
      }
      if (ch !== 34) return; // not valid JSON after all: stop rather than guess
      const keyEnd = skipString(text, i) + 1;
      const raw = text.slice(i + 1, keyEnd - 1);
      wanted = top.children.get(raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw);
      if (wanted) {
        // a duplicate key: JSON.parse keeps the last one, so what was found under an earlier one goes
        if (wanted.key) forget(wanted);
        wanted.key = { start: i, end: keyEnd };
      }
      i = skipWs(text, skipWs(text, keyEnd) + 1); // past the colon
      break;
    }
  }
}

/** Clears what was found for a wanted path and everything under it (iteratively). */
function forget(wanted: Wanted): void {
  const stack = [wanted];
  for (let w = stack.pop(); w; w = stack.pop()) {
    delete w.value;
    delete w.key;
    for (const child of w.children?.values() ?? []) stack.push(child); // not push(...): 100,000 may not fit
  }
}

/**
 * `skipValue` for a walk that mostly moves forward. The next quote and bracket of each kind are found with indexOf
 * and searched for again only once passed, or when a skip starts before where that search started (a walk that goes
 * back: what lies between is unknown), so skipping a container costs a few native scans and a step per string and
 * bracket in it, rather than a step per character. A mark kept across a step back stays right: none lies between
 * where its search started and where it was found.
 */
function forwardSkipper(text: string): (i: number) => number {
  const end = text.length;
  const MARKS = ['{', '[', '}', ']', '"'];
  // for each mark: where it is next (end: nowhere), and where the search that found it started
  const next = [-1, -1, -1, -1, -1];
  const from = [0, 0, 0, 0, 0];
  const at = (k: number, j: number): number => {
    if (next[k]! < j || from[k]! > j) {
      from[k] = j;
      const found = text.indexOf(MARKS[k]!, j);
      next[k] = found < 0 ? end : found;
    }
    return next[k]!;
  };
  return i => {
    const c = text.charCodeAt(i);
    if (c !== 123 && c !== 91) return skipValue(text, i); // a string (indexOf already) or a short literal
    let depth = 0;
    for (let j = i; ;) {
      const braceOpen = at(0, j);
      const bracketOpen = at(1, j);
      const open = Math.min(braceOpen, bracketOpen);
      const bracket = Math.min(open, at(2, j), at(3, j));
      const quote = at(4, j);
      if (quote < bracket) {
        j = skipString(text, quote) + 1;
        continue;
      }
      if (bracket === end) return end; // not closed: not valid JSON, as with skipValue
      j = bracket + 1;
      if (bracket === open) depth++;
      else if (--depth === 0) return j;
    }
  };
}
