// JSON request files: native JSON.parse first (fast, no tree), then the checks it does not make (depth,
// duplicate keys); broken JSON goes to jsonc-parser, which names every syntax error at its offset.
import * as jsonc from 'jsonc-parser';
import type { Path, Problem } from '../types';
import { keepKeys, MANY_KEYS } from './keys';
import { locateJson, locateJsonMany, skipString } from './positions';
import { locateNothing, MAX_DEPTH, type Locate, type Parsed } from './types';

export function parseJson(text: string): Parsed {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let value: unknown;
  try {
    value = JSON.parse(bom ? text.slice(1) : text);
  } catch (e) {
    const tooDeepAt = jsonTooDeepAt(text);
    return tooDeepAt < 0 ? parseJsonSlow(text) : parseJsonTooDeep(text, tooDeepAt, e);
  }
  // valid JSON: ranges come from a scanner over the text; the parse tree is never built
  const problems: Problem[] = [];
  const keys = keyOffsets(text);
  const shape = measure(value, containersIfManyKeys(text, keys.count));
  // JSON.parse keeps the last of duplicate keys silently: fewer keys in the value than in the text
  const duplicates = keys.count !== shape.keys;
  if (duplicates) findDuplicateKeysInText(text, problems);
  if (shape.tooDeep) problems.push(tooDeep(text, jsonTooDeepAt(text)));
  return {
    format: 'json',
    value,
    problems,
    locate: (path, key) => locateJson(text, path, key),
    locateMany: paths => locateJsonMany(text, paths, duplicates ? undefined : { value, keys: keys.copy }),
  };
}

function tooDeep(text: string, at: number): Problem {
  return {
    start: Math.max(0, at),
    end: Math.max(0, at) + 1,
    severity: 'warning',
    code: 'nesting-depth',
    path: [],
    message:
      `Nested deeper than ${MAX_DEPTH} levels. The spec states no limit, but a service may refuse a body ` +
      'this deep; Promptwright checks the fields of the request but not the inside of values this deep.',
  };
}

/** Broken JSON nested too deep for a parse tree: the syntax error JSON.parse found, and the depth. */
function parseJsonTooDeep(text: string, tooDeepAt: number, error: unknown): Parsed {
  const message = error instanceof Error ? error.message : String(error);
  const m = /at position (\d+)/.exec(message);
  const at = m ? Number(m[1]) : text.length;
  const syntax: Problem = {
    start: at,
    end: at + 1,
    severity: 'error',
    code: 'json-syntax',
    path: [],
    message: `${message.replace(/ in JSON at position.*$/, '').replace(/\.$/, '')}.`,
  };
  return { format: 'json', value: undefined, problems: [syntax, tooDeep(text, tooDeepAt)], ...locateNothing };
}

/** Offset of the first bracket that opens a level deeper than MAX_DEPTH (strings skipped), or -1. */
function jsonTooDeepAt(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = skipString(text, i);
    else if (c === 123 || c === 91) {
      if (++depth > MAX_DEPTH) return i;
    } else if (c === 125 || c === 93) depth--;
  }
  return -1;
}

/** jsonc-parser path: every syntax error, comments and trailing commas as errors, duplicate keys. */
function parseJsonSlow(text: string): Parsed {
  const errors: jsonc.ParseError[] = [];
  const root = jsonc.parseTree(text, errors, {
    disallowComments: false,
    allowTrailingComma: true,
    allowEmptyContent: true,
  });
  const problems: Problem[] = [];
  // comments and trailing commas: jsonc-parser accepts them with these options, the API does not
  findCommentsAndTrailingCommas(text, problems);
  for (const e of errors) {
    problems.push({
      start: e.offset,
      end: e.offset + Math.max(1, e.length),
      severity: 'error',
      code: 'json-syntax',
      message: jsonErrorMessage(e.error),
      path: [],
    });
  }
  if (root) findDuplicateKeys(root, problems);
  const value: unknown = root ? jsonc.getNodeValue(root) : undefined;
  const locate = root ? jsoncLocator(root) : locateNothing.locate;
  return {
    format: 'json',
    value,
    problems: problems.sort((a, b) => a.start - b.start),
    locate,
    // every lookup is already O(depth): properties are looked up in a map built on first use
    locateMany: () => locate,
  };
}

/**
 * jsonc-parser's `findNodeAtLocation`, with each object's properties put in a map the first time a path
 * goes through it: many problems in one wide object then cost one pass over its properties, not one each.
 */
function jsoncLocator(root: jsonc.Node): Locate {
  const propertiesOf = new WeakMap<jsonc.Node, Map<string, jsonc.Node>>();
  const property = (object: jsonc.Node, name: string): jsonc.Node | undefined => {
    let byName = propertiesOf.get(object);
    if (!byName) {
      byName = new Map();
      for (const prop of object.children ?? []) {
        const [k, v] = prop.children ?? [];
        // as findNodeAtLocation: the first property of that name that has a value
        if (k && v && prop.children?.length === 2 && typeof k.value === 'string' && !byName.has(k.value))
          byName.set(k.value, v);
      }
      propertiesOf.set(object, byName);
    }
    return byName.get(name);
  };
  return (path, key) => {
    let node: jsonc.Node | undefined = root;
    for (const seg of path) {
      if (typeof seg === 'string') node = node.type === 'object' ? property(node, seg) : undefined;
      else node = node.type === 'array' && seg >= 0 ? node.children?.[seg] : undefined;
      if (!node) return undefined;
    }
    const target = key && node.parent?.type === 'property' ? (node.parent.children?.[0] ?? node) : node;
    return { start: target.offset, end: target.offset + target.length };
  };
}

const JSON_ERRORS: Record<string, string> = {
  InvalidSymbol: 'Invalid symbol: this is not JSON here.',
  InvalidNumberFormat: 'Invalid number format.',
  PropertyNameExpected: 'A property name (a double-quoted string) is expected.',
  ValueExpected: 'A value is expected.',
  ColonExpected: 'A colon (:) is expected after the property name.',
  CommaExpected: 'A comma is expected between items.',
  CloseBraceExpected: 'A closing brace (}) is expected.',
  CloseBracketExpected: 'A closing bracket (]) is expected.',
  EndOfFileExpected: 'Only one JSON value is allowed; remove what follows it.',
  InvalidCommentToken: 'Comments are not allowed in JSON.',
  UnexpectedEndOfComment: 'Unterminated comment.',
  UnexpectedEndOfString: 'Unterminated string.',
  UnexpectedEndOfNumber: 'Unterminated number.',
  InvalidUnicode: 'Invalid unicode escape sequence.',
  InvalidEscapeCharacter: 'Invalid escape character in string.',
  InvalidCharacter: 'Invalid character in string (control characters must be escaped).',
};

function jsonErrorMessage(code: jsonc.ParseErrorCode): string {
  return JSON_ERRORS[jsonc.printParseErrorCode(code)] ?? 'JSON syntax error.';
}

// jsonc-parser's SyntaxKind is a const enum (not usable with isolatedModules): the values we use
const Token = {
  OpenBrace: 1,
  CloseBrace: 2,
  OpenBracket: 3,
  CloseBracket: 4,
  Comma: 5,
  Colon: 6,
  String: 10,
  LineComment: 12,
  BlockComment: 13,
  LineBreak: 14,
  Trivia: 15,
  EOF: 17,
} as const;

function findCommentsAndTrailingCommas(text: string, out: Problem[]): void {
  const scanner = jsonc.createScanner(text, false);
  let lastComma = -1;
  for (let t: number = scanner.scan(); t !== Token.EOF; t = scanner.scan()) {
    if (t === Token.LineBreak || t === Token.Trivia) continue;
    if (t === Token.LineComment || t === Token.BlockComment) {
      const start = scanner.getTokenOffset();
      out.push({
        start,
        end: start + scanner.getTokenLength(),
        severity: 'error',
        code: 'json-comment',
        path: [],
        message: 'Comments are not allowed: the API takes strict JSON. Remove the comment.',
      });
      continue;
    }
    if (t === Token.Comma) {
      lastComma = scanner.getTokenOffset();
      continue;
    }
    if ((t === Token.CloseBrace || t === Token.CloseBracket) && lastComma >= 0) {
      out.push({
        start: lastComma,
        end: lastComma + 1,
        severity: 'error',
        code: 'json-trailing-comma',
        path: [],
        message: 'Trailing comma: the API takes strict JSON. Remove the comma.',
      });
    }
    lastComma = -1;
  }
}

/** JSON parsers (the service's too) keep the last of duplicate keys: legal, but surely not meant. */
function duplicateKey(name: string, start: number, end: number, path: Path): Problem {
  return {
    start,
    end,
    severity: 'warning',
    code: 'duplicate-key',
    path,
    message: `Duplicate key "${name}": only the last one counts. Remove one of them.`,
  };
}

/** Duplicate keys in a jsonc-parser tree, without recursion (the tree may be deep). */
function findDuplicateKeys(root: jsonc.Node, out: Problem[]): void {
  const stack: { node: jsonc.Node; path: Path }[] = [{ node: root, path: [] }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { node, path } = item;
    if (node.type === 'array') {
      (node.children ?? []).forEach((c, i) => stack.push({ node: c, path: [...path, i] }));
      continue;
    }
    if (node.type !== 'object') continue;
    const seen = new Set<string>();
    for (const prop of node.children ?? []) {
      const [k, v] = prop.children ?? [];
      if (!k) continue;
      const name = String(k.value);
      if (seen.has(name)) out.push(duplicateKey(name, k.offset, k.offset + k.length, [...path, name]));
      seen.add(name);
      if (v) stack.push({ node: v, path: [...path, name] });
    }
  }
}

/** Duplicate keys in valid JSON text, in one pass of jsonc-parser's scanner (no tree, no recursion). */
function findDuplicateKeysInText(text: string, out: Problem[]): void {
  interface Frame {
    keys?: Set<string>;
    path: Path;
    index: number;
    key?: string;
  }
  const stack: Frame[] = [];
  const scanner = jsonc.createScanner(text, true);
  let expectKey = false;
  const childPath = (f: Frame | undefined): Path =>
    !f ? [] : f.keys ? [...f.path, f.key ?? ''] : [...f.path, f.index];
  for (let t: number = scanner.scan(); t !== Token.EOF; t = scanner.scan()) {
    const top = stack[stack.length - 1];
    if (t === Token.OpenBrace || t === Token.OpenBracket) {
      stack.push({ path: childPath(top), index: 0, ...(t === Token.OpenBrace ? { keys: new Set<string>() } : {}) });
      expectKey = t === Token.OpenBrace;
    } else if (t === Token.CloseBrace || t === Token.CloseBracket) {
      stack.pop();
      expectKey = false;
    } else if (t === Token.Comma) {
      if (top && !top.keys) top.index++;
      expectKey = !!top?.keys;
    } else if (t === Token.String && expectKey && top?.keys) {
      const name = scanner.getTokenValue();
      const start = scanner.getTokenOffset();
      if (top.keys.has(name))
        out.push(duplicateKey(name, start, start + scanner.getTokenLength(), [...top.path, name]));
      top.keys.add(name);
      top.key = name;
      expectKey = false;
    } else if (t === Token.Colon) {
      expectKey = false;
    }
  }
}

/**
 * Where each object key of JSON text starts (a string followed by a colon), in the order of the text. Their
 * number finds duplicate keys; their places, the paths of problems (positions.ts). They are gathered in a
 * buffer kept from one check to the next, and copied out only when a problem is placed: a clean 10 MB file
 * allocates nothing for its million keys (`copy` scans the text again if another check has used the buffer).
 */
function keyOffsets(text: string): { count: number; copy: () => Int32Array } {
  const count = scanKeys(text);
  let scan = ++keyScan;
  return {
    count,
    copy: () => {
      if (scan !== keyScan) {
        scanKeys(text);
        scan = ++keyScan;
      }
      return keyBuffer.slice(0, count);
    },
  };
}

let keyBuffer = new Int32Array(4096);
/** which scan the buffer holds */
let keyScan = 0;

/** Writes where each key of the text starts into keyBuffer; jumps from quote to quote. Returns their number. */
function scanKeys(text: string): number {
  let offsets = keyBuffer;
  let n = 0;
  const len = text.length;
  let i = text.indexOf('"');
  while (i >= 0) {
    const end = skipString(text, i);
    let j = end + 1;
    let c = text.charCodeAt(j);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++j);
    if (c === 58) {
      if (n === offsets.length) {
        const grown = new Int32Array(n * 2);
        grown.set(offsets);
        offsets = keyBuffer = grown;
      }
      offsets[n++] = i;
    }
    if (end >= len) break;
    i = text.indexOf('"', end + 1);
  }
  return n;
}

/**
 * The number of object keys in a value, and whether it nests deeper than MAX_DEPTH. A recursive walk that stops
 * at MAX_DEPTH (so the stack stays small); the keys of a value that deep are counted again without recursion.
 * Where the text may hold an object of many keys (`containers`, else Infinity), each object's keys are listed with
 * Object.keys (for-in over 200,000 keys costs more), a long list is kept for the checks after the parse (keys.ts),
 * and once the walk has met as many objects and arrays as the text holds, the values left are not read. Elsewhere
 * for-in: nothing allocated per object (listing the keys of each cost a normal file 15%).
 */
function measure(root: unknown, containers: number): { keys: number; tooDeep: boolean } {
  let keys = 0;
  let tooDeep = false;
  let met = 0;
  const walk = (v: object, depth: number): void => {
    met++;
    if (depth > MAX_DEPTH) {
      tooDeep = true;
      return;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length && met < containers; i++) {
        const x: unknown = v[i];
        if (x !== null && typeof x === 'object') walk(x, depth + 1);
      }
      return;
    }
    if (containers === Infinity) {
      for (const k in v) {
        keys++;
        const x = (v as Record<string, unknown>)[k];
        if (x !== null && typeof x === 'object') walk(x, depth + 1);
      }
      return;
    }
    const own = Object.keys(v);
    keys += own.length;
    if (own.length >= MANY_KEYS) keepKeys(v, own);
    for (let i = 0; i < own.length && met < containers; i++) {
      const x = (v as Record<string, unknown>)[own[i]!];
      if (x !== null && typeof x === 'object') walk(x, depth + 1);
    }
  };
  if (root !== null && typeof root === 'object') walk(root, 1);
  return { keys: tooDeep ? countKeysDeep(root) : keys, tooDeep };
}

/** Keys per object, on average, from which a text may hold an object of many keys. */
const KEYS_PER_BRACE = 64;

/**
 * When a text of `keys` keys may hold an object of MANY_KEYS keys (many keys, few objects): how many `{` and `[` it
 * has, at least as many as its objects and arrays (strings may hold some). Else Infinity.
 */
function containersIfManyKeys(text: string, keys: number): number {
  if (keys < MANY_KEYS) return Infinity;
  let n = 0;
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1))
    if (++n * KEYS_PER_BRACE > keys) return Infinity;
  for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) n++;
  return n;
}

/** The number of object keys in a value nested past MAX_DEPTH, without recursion. */
function countKeysDeep(root: unknown): number {
  let keys = 0;
  const values: unknown[] = [root];
  while (values.length) {
    const v = values.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) values.push(v[i]);
      continue;
    }
    for (const k in v) {
      keys++;
      values.push((v as Record<string, unknown>)[k]);
    }
  }
  return keys;
}
