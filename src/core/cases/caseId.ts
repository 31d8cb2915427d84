// A case's stable id, and a compact set of ids. The id is a hash of what the case is (its vars and assertions)
// and of its name where the file gives one (a listed case's `name`, a row's `__description` or `name`), never of
// its place: a case keeps its id when rows are added, removed or reordered around it, and two rows with the same
// content and name have the same one (a duplicate). The set keeps 12 bytes a case (64 bits of the id and a
// line), so a million rows are checked for duplicates in about 24 MB.
import { hash } from 'node:crypto';
import type { TestCase } from './types';

/** 16 hex digits: 64 bits of a SHA-256 (a false duplicate among a million rows: about 1 in 30 million). */
const ID_DIGITS = 16;

const sha256 = (s: string) => hash('sha256', s, 'hex');

/**
 * The id of a case: of its vars (in any order of keys), its assertions and, when `named`, its name. What is hashed
 * is `JSON.stringify([name or null, sorted keys, their values, assertions])`, written here a part at a time (json).
 */
export function caseIdOf(testCase: TestCase, named: boolean): string {
  return caseIdsOf([{ testCase, named }])[0]!;
}

/**
 * The ids of a dataset's batch of rows (undefined where a row is no case): their texts first, then their hashes in a
 * loop of their own: a million rows read in about 8 % less time than with a hash amid each row's other work.
 */
export function caseIdsOf(rows: readonly ({ testCase?: TestCase; named: boolean } | undefined)[]) {
  // a text is never empty: it starts with "["
  return rows
    .map(r => r?.testCase && caseText(r.testCase, r.named))
    .map(text => text && sha256(text).slice(0, ID_DIGITS));
}

/**
 * The text a case's id is the hash of, made of few strings: each `+` of long strings is one more object. With the
 * start cached and no lists of keys, a row's id makes 660 bytes of garbage, hash included (was 830).
 */
function caseText(c: TestCase, named: boolean): string {
  const vars = c.vars ?? {};
  const keys = sortedKeys(vars);
  let text = named ? `[${json(c.name)},${sortedJson},[` : unnamedStart;
  for (let i = 0; i < keys.length; i++) text += (i ? ',' : '') + json(vars[keys[i]!]);
  return text + '],' + json(c.assert ?? []) + ']';
}

/** The keys of the last vars as met, sorted, and as JSON: the rows of a dataset have the same keys, in one order. */
let metKeys: string[] = [];
let sorted: string[] = [];
let sortedJson = '[]';
/** the start of the text of a case with no name and those keys */
let unnamedStart = '[null,[],[';

/**
 * The keys of `vars` sorted, `sortedJson` theirs: sorted and written again only when they are not the last vars'. They
 * are walked with `for…in`, which makes no list (an inherited key, of a polluted Object.prototype, sorts them again).
 */
function sortedKeys(vars: Record<string, unknown>): string[] {
  let n = 0;
  for (const k in vars) if (k !== metKeys[n++]) return sortAgain(vars);
  return n === metKeys.length ? sorted : sortAgain(vars);
}

function sortAgain(vars: Record<string, unknown>): string[] {
  metKeys = Object.keys(vars);
  sorted = [...metKeys].sort();
  sortedJson = json(sorted);
  unnamedStart = `[null,${sortedJson},[`;
  return sorted;
}

/** Keys of objects as JSON: those of assertions are a few, met a million times. */
const keysJson = new Map<string, string>();

function keyJson(key: string): string {
  let text = keysJson.get(key);
  if (text === undefined) {
    text = json(key);
    if (keysJson.size < 256) keysJson.set(key, text);
  }
  return text;
}

/** What JSON.stringify writes escaped in a string: a quote, a backslash, a control character, a lone surrogate. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Below this length a string is looked through a character at a time: quicker than a call to the expression. */
const SHORT = 32;

/** Whether JSON.stringify escapes a character of `s` (as ESCAPED finds; any surrogate sends it to JSON.stringify). */
function escaped(s: string): boolean {
  if (s.length >= SHORT) return ESCAPED.test(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/** How deep `json` writes a value itself; deeper, JSON.stringify writes the rest (a stack of its own). */
const JSON_DEPTH = 32;

/**
 * The text JSON.stringify writes for `v` as an array's element (undefined, a function: null), the same text
 * written quicker for what a case holds (strings, numbers, plain objects and arrays): Node 20's JSON.stringify took
 * half of a case id's time, a hash apart. Anything else (a toJSON, a class, an escape) is JSON.stringify's.
 */
function json(v: unknown, depth = 0): string {
  switch (typeof v) {
    case 'string':
      return escaped(v) ? JSON.stringify(v) : `"${v}"`;
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (v === null) return 'null';
      if (depth > JSON_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(v);
      if (Array.isArray(v)) {
        let out = '';
        for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + json(v[i], depth + 1);
        return `[${out}]`;
      }
      if (Object.getPrototypeOf(v) !== Object.prototype) return JSON.stringify(v);
      let out = '';
      // no list of keys made; an inherited key (of a polluted Object.prototype) is skipped, as JSON.stringify skips it
      for (const k in v) {
        const x = (v as Record<string, unknown>)[k];
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol' || !Object.hasOwn(v, k)) continue;
        out += `${out ? ',' : ''}${keyJson(k)}:${json(x, depth + 1)}`;
      }
      return `{${out}}`;
    }
    default:
      // undefined, a function, a symbol: null; a bigint throws, as in JSON.stringify
      return JSON.stringify(v) ?? 'null';
  }
}

/** The 64 bits of a text as two 32-bit halves: an id's own, or a hash of any other text (a name). */
export function bitsOf(idOrText: string, isId = true): [number, number] {
  const hex = isId ? idOrText : sha256(idOrText);
  return [parseInt(hex.slice(0, 8), 16) >>> 0, parseInt(hex.slice(8, 16), 16) >>> 0];
}

/** One part of an IdSet: open addressing over typed arrays. */
class IdTable {
  hi = new Uint32Array(16);
  lo = new Uint32Array(16);
  /** the line, plus one (0: an empty slot) */
  lines = new Uint32Array(16);
  size = 0;

  add(hi: number, lo: number, line: number): number | undefined {
    if ((this.size + 1) * 4 > this.lines.length * 3) this.grow();
    const mask = this.lines.length - 1;
    for (let i = (Math.imul(lo, 0x9e3779b1) >>> 8) & mask; ; i = (i + 1) & mask) {
      const at = this.lines[i]!;
      if (at === 0) {
        this.hi[i] = hi;
        this.lo[i] = lo;
        this.lines[i] = line + 1;
        this.size++;
        return undefined;
      }
      if (this.hi[i] === hi && this.lo[i] === lo) return at - 1;
    }
  }

  private grow(): void {
    const { hi, lo, lines } = this;
    this.hi = new Uint32Array(lines.length * 2);
    this.lo = new Uint32Array(lines.length * 2);
    this.lines = new Uint32Array(lines.length * 2);
    this.size = 0;
    for (let i = 0; i < lines.length; i++) if (lines[i]) this.add(hi[i]!, lo[i]!, lines[i]! - 1);
  }
}

/**
 * A set of 64-bit keys, each with the line it was first seen on: 256 tables by the key's first byte, each growing
 * alone, so growing never holds two copies of the whole set.
 */
export class IdSet {
  private readonly tables = Array.from({ length: 256 }, () => new IdTable());

  /** Adds a key; returns the line it was first seen on when it was there already, else undefined. */
  add([hi, lo]: [number, number], line: number): number | undefined {
    return this.tables[hi >>> 24]!.add(hi, lo, line);
  }
}
