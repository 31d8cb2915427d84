// Parses a request file (JSON or YAML, the editor's unsaved text) into a value plus a way to find the
// exact source range of any path in it. JSON takes a fast path (native JSON.parse, ranges found on demand
// by a small scanner) and falls back to jsonc-parser, which reports every syntax error with its offset.
import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import type { Format, Path, Problem } from './types';

export { formatOf } from './types';

export interface Span {
  start: number;
  end: number;
}

/** Range of the value at path; `key: true` gives the key that holds it (falls back to the value). */
export type Locate = (path: Path, key?: boolean) => Span | undefined;

export interface Parsed {
  format: Format;
  /** the request value, or undefined when the text could not be parsed at all */
  value: unknown;
  /** syntax problems (always errors or warnings with offsets) */
  problems: Problem[];
  locate: Locate;
  /**
   * `locate` for many paths at once, as placing every problem of a check needs: the paths and all their
   * prefixes are found together, at the cost of about one walk over the file, and each answer then costs
   * O(depth). Other paths are still answered, by `locate`.
   */
  locateMany(paths: readonly Path[]): Locate;
}

/** For text that has no value to look into. */
export const locateNothing: Pick<Parsed, 'locate' | 'locateMany'> = {
  locate: () => undefined,
  locateMany: () => () => undefined,
};

/** The most alias expansions a YAML file may make before it is refused (a "billion laughs" guard). */
export const MAX_YAML_ALIASES = 1000;

/**
 * Nesting Promptwright follows. Deeper values are still parsed (JSON.parse does not recurse) and checked
 * by the schema, which never descends into free-form values such as a tool's `input`; what recurses in
 * libraries (jsonc-parser's tree, the YAML composer) is not run on them. The spec states no depth limit,
 * so a deep body is a warning, not an error.
 */
export const MAX_DEPTH = 512;

/** A file that holds nothing at all: one problem at its start, saying what it needs (`"model", …`). */
export function emptyFileProblem(text: string, needs: string): Problem {
  return {
    start: 0,
    end: Math.min(1, text.length),
    severity: 'error',
    code: 'empty-file',
    path: [],
    message: `The file is empty: ${needs}.`,
  };
}

export function parseRequest(text: string, format: Format): Parsed {
  return format === 'yaml' ? parseYaml(text) : parseJson(text);
}

// ---- JSON ----------------------------------------------------------------------------------------------

function parseJson(text: string): Parsed {
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
  const shape = measure(value);
  // JSON.parse keeps the last of duplicate keys silently: fewer keys in the value than in the text
  if (countKeys(text) !== shape.keys) findDuplicateKeysInText(text, problems);
  if (shape.depth > MAX_DEPTH) problems.push(tooDeep(text, jsonTooDeepAt(text)));
  return {
    format: 'json',
    value,
    problems,
    locate: (path, key) => locateJson(text, path, key),
    locateMany: paths => locateJsonMany(text, paths),
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
export function jsonTooDeepAt(text: string): number {
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

/** Number of object keys in JSON text (strings followed by a colon); jumps from quote to quote. */
function countKeys(text: string): number {
  let n = 0;
  const len = text.length;
  let i = text.indexOf('"');
  while (i >= 0) {
    const end = skipString(text, i);
    let j = end + 1;
    let c = text.charCodeAt(j);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++j);
    if (c === 58) n++;
    if (end >= len) break;
    i = text.indexOf('"', end + 1);
  }
  return n;
}

/** The number of object keys in a value and how deep it nests, without recursion (values may be deep). */
export function measure(root: unknown): { keys: number; depth: number } {
  let keys = 0;
  let depth = 0;
  const values: unknown[] = [root];
  const depths: number[] = [1];
  while (values.length) {
    const v = values.pop();
    const d = depths.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > depth) depth = d;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (x !== null && typeof x === 'object') {
          values.push(x);
          depths.push(d + 1);
        }
      }
      continue;
    }
    const ks = Object.keys(v);
    keys += ks.length;
    for (let i = 0; i < ks.length; i++) {
      const x = (v as Record<string, unknown>)[ks[i]!];
      if (x !== null && typeof x === 'object') {
        values.push(x);
        depths.push(d + 1);
      }
    }
  }
  return { keys, depth };
}

const isWs = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** Index of the closing quote of the string that opens at i. */
function skipString(text: string, i: number): number {
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
}

/**
 * `locateJson` for many paths: a tree of the paths (prefixes shared) is filled in by one walk over the
 * text that enters only the containers on a wanted path and skips the rest, so placing every problem of
 * a check costs about one pass over the file, not one per problem. Answers are those of `locateJson`.
 */
function locateJsonMany(text: string, paths: readonly Path[]): Locate {
  const root: Wanted = {};
  for (const path of paths) {
    // an index that is not a count (-1, 1.5) is left to locateJson, which has its own idea of it
    if (!path.every(seg => typeof seg === 'string' || (Number.isSafeInteger(seg) && seg >= 0))) continue;
    let node = root;
    for (const seg of path) {
      node.children ??= new Map();
      let child = node.children.get(seg);
      if (!child) node.children.set(seg, (child = {}));
      node = child;
    }
  }
  let walked = false; // not before the first question: a check with no problems asks none
  return (path, key = false) => {
    if (!walked) findWanted(text, root);
    walked = true;
    let node: Wanted | undefined = root;
    for (let n = 0; node && n < path.length; n++) node = node.children?.get(path[n]!);
    if (!node) return locateJson(text, path, key);
    return key && node.key ? node.key : node.value;
  };
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
 * `skipValue` for a walk that only moves forward. The next quote and bracket of each kind are found with
 * indexOf and searched for again only once passed, so skipping a container costs a few native scans and
 * a step per string and bracket in it, rather than a step per character.
 */
function forwardSkipper(text: string): (i: number) => number {
  const end = text.length;
  const after = (mark: string, from: number) => {
    const at = text.indexOf(mark, from);
    return at < 0 ? end : at;
  };
  // the next of each mark at or after where it was last searched from (-1: search again)
  let braceOpen = -1;
  let bracketOpen = -1;
  let braceClose = -1;
  let bracketClose = -1;
  let quote = -1;
  let reached = 0;
  return i => {
    const c = text.charCodeAt(i);
    if (c !== 123 && c !== 91) return skipValue(text, i); // a string (indexOf already) or a short literal
    // moved back (the walk never does): what was found ahead may have passed marks in between
    if (i < reached) braceOpen = bracketOpen = braceClose = bracketClose = quote = -1;
    let depth = 0;
    for (let j = i; ;) {
      if (braceOpen < j) braceOpen = after('{', j);
      if (bracketOpen < j) bracketOpen = after('[', j);
      if (braceClose < j) braceClose = after('}', j);
      if (bracketClose < j) bracketClose = after(']', j);
      if (quote < j) quote = after('"', j);
      const open = Math.min(braceOpen, bracketOpen);
      const bracket = Math.min(open, braceClose, bracketClose);
      if (quote < bracket) {
        j = skipString(text, quote) + 1;
        continue;
      }
      if (bracket === end) {
        reached = end;
        return end; // not closed: not valid JSON, as with skipValue
      }
      j = bracket + 1;
      if (bracket === open) depth++;
      else if (--depth === 0) {
        reached = j;
        return j;
      }
    }
  };
}

// ---- YAML ----------------------------------------------------------------------------------------------

function parseYaml(text: string): Parsed {
  const problems: Problem[] = [];
  // The YAML composer recurses once per level of nesting, and deep enough it can exhaust the stack
  // in ways that cannot be caught (V8 aborts the process when a regular expression is compiled at the
  // stack limit), so files nested past MAX_DEPTH never reach it.
  const tooDeepAt = yamlTooDeepAt(text);
  if (tooDeepAt >= 0)
    return { format: 'yaml', value: undefined, problems: [yamlTooDeep(text, tooDeepAt)], ...locateNothing };
  const docs = YAML.parseAllDocuments(text, { uniqueKeys: true, merge: true, prettyErrors: false, strict: true });
  const list = (Array.isArray(docs) ? docs : []) as YAML.Document.Parsed[]; // an empty stream has no documents
  const doc = list[0];
  for (const extra of list.slice(1)) {
    const r = extra.range;
    problems.push({
      start: r[0],
      end: Math.max(r[0] + 1, r[1]),
      severity: 'error',
      code: 'yaml-multiple-documents',
      path: [],
      message:
        'A request file holds one YAML document; this file has more than one. Remove the extra `---` document(s).',
    });
  }
  if (!doc) return { format: 'yaml', value: undefined, problems, ...locateNothing };
  // the YAML composer recurses: past its stack it reports an error of its own instead of a value
  if (doc.errors.some(e => isStackOverflow(e.message))) {
    problems.push(yamlTooDeep(text, Math.max(0, yamlTooDeepAt(text))));
    return { format: 'yaml', value: undefined, problems, ...locateNothing };
  }
  for (const e of doc.errors) problems.push(yamlProblem(e, 'error'));
  for (const w of doc.warnings) problems.push(yamlProblem(w, 'warning'));
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    // with syntax errors, keep what can be read (nothing here), so the errors above stand alone
    if (doc.errors.length === 0) problems.push(isStackOverflow(msg) ? yamlTooDeep(text, 0) : aliasProblem(doc, msg));
  }
  const index = yamlIndex(doc);
  const locate: Locate = (path, key) => locateYaml(doc, index, path, key);
  // every lookup is already O(depth): mappings and aliases are indexed on first use
  return { format: 'yaml', value, problems, locate, locateMany: () => locate };
}

const isStackOverflow = (message: string) => /call stack/i.test(message);

function yamlTooDeep(text: string, at: number): Problem {
  return {
    start: at,
    end: at + 1,
    severity: 'error',
    code: 'nesting-depth',
    path: [],
    message:
      `Nested deeper than ${MAX_DEPTH} levels: Promptwright cannot read YAML this deep, so it cannot ` +
      'become a request body. Flatten it, or write this part in JSON.',
  };
}

/**
 * Where YAML nesting passes MAX_DEPTH, or -1. An upper estimate in one pass: the stack of block
 * indentations, plus compact entries ("- - x", "? ? x") and flow brackets on a line. Quoted strings,
 * comments and the lines of block scalars (`|`, `>`) hold text, not structure, and are skipped.
 */
function yamlTooDeepAt(text: string): number {
  const indents: number[] = [];
  let flow = 0;
  let scalarIndent = -1; // inside a block scalar: lines indented deeper than this are its text
  for (let lineStart = 0; lineStart < text.length;) {
    let end = text.indexOf('\n', lineStart);
    if (end < 0) end = text.length;
    let i = lineStart;
    while (i < end && text.charCodeAt(i) === 32) i++;
    const indent = i - lineStart;
    const blank = i >= end || text.charCodeAt(i) === 13;
    if (scalarIndent >= 0 && (blank || indent > scalarIndent)) {
      lineStart = end + 1;
      continue;
    }
    scalarIndent = -1;
    if (flow <= 0 && !blank && text.charCodeAt(i) !== 35) {
      while (indents.length && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
    }
    let compact = 0;
    let last = -1; // the last character of structure on the line
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 35 && (i === lineStart || text.charCodeAt(i - 1) === 32)) break; // a comment
      if (c === 34 || c === 39) {
        i = closingQuote(text, i, end);
        last = i;
        continue;
      }
      if (c === 91 || c === 123) flow++;
      else if (c === 93 || c === 125) flow--;
      else if ((c === 45 || c === 63) && text.charCodeAt(i + 1) === 32) compact++;
      if (c !== 32 && c !== 13) last = i;
      if (Math.max(0, flow) + indents.length + compact > MAX_DEPTH) return i;
    }
    const tail = last >= 0 ? text.slice(Math.max(lineStart, last - 2), last + 1) : '';
    if (flow <= 0 && /(^|[\s:-])[|>][-+0-9]*$/.test(tail)) scalarIndent = indent;
    lineStart = end + 1;
  }
  return -1;
}

/** The end of a quoted scalar that opens at `i` (on this line; a multi-line one is cut at the line end). */
function closingQuote(text: string, i: number, end: number): number {
  const q = text.charCodeAt(i);
  for (let j = i + 1; j < end; j++) {
    const c = text.charCodeAt(j);
    if (q === 34 && c === 92)
      j++; // an escape in a double-quoted scalar
    else if (c === q) {
      if (q === 39 && text.charCodeAt(j + 1) === 39)
        j++; // '' in a single-quoted scalar
      else return j;
    }
  }
  return end;
}

function aliasProblem(doc: YAML.Document.Parsed, msg: string): Problem {
  const first = findFirstAlias(doc.contents);
  return {
    start: first?.[0] ?? 0,
    end: first?.[1] ?? 1,
    severity: 'error',
    code: 'yaml-alias',
    path: [],
    message: /excessive alias count/i.test(msg)
      ? `Too many alias expansions (more than ${MAX_YAML_ALIASES}): the file would expand to an enormous request ` +
        '("billion laughs"). Write the values out instead.'
      : `YAML: ${msg}`,
  };
}

function yamlProblem(e: YAML.YAMLError, given: 'error' | 'warning'): Problem {
  // a duplicate key is a YAML error, but the body sent is JSON, where the last one counts
  const severity = e.code === 'DUPLICATE_KEY' ? 'warning' : given;
  const [start, end] = e.pos;
  let message = e.message.split('\n')[0] ?? e.message;
  if (e.code === 'DUPLICATE_KEY') {
    const which = message.replace(/^Map keys must be unique;?\s*/i, '') || 'keys in a mapping must be unique';
    message = `Duplicate key: ${which}. Only the last one counts; remove one of them.`;
  } else if (e.code === 'TAB_AS_INDENT' || /tab/i.test(message)) {
    message = 'Tabs are not allowed for indentation in YAML; indent with spaces.';
  }
  return {
    start,
    end: Math.max(end, start + 1),
    severity,
    code: e.code === 'DUPLICATE_KEY' ? 'duplicate-key' : 'yaml-syntax',
    message: message.startsWith('Duplicate') || message.startsWith('Tabs') ? message : `YAML: ${message}`,
    path: [],
  };
}

function findFirstAlias(node: unknown): [number, number] | undefined {
  let found: [number, number] | undefined;
  YAML.visit(node as YAML.Node, {
    Alias(_k, n) {
      if (n.range) {
        found = [n.range[0], n.range[1]];
        return YAML.visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * What finding paths in a YAML document needs, built on first use so that each lookup costs O(depth):
 * each mapping's keys in a map (not a scan of every key per lookup), and what every alias stands for, from
 * one walk (`Alias.resolve` walks the document from its start each time to find the anchor).
 */
interface YamlIndex {
  pair(map: YAML.YAMLMap, seg: string | number): YAML.Pair | undefined;
  resolve(alias: YAML.Alias): YAML.Node | undefined;
}

function yamlIndex(doc: YAML.Document): YamlIndex {
  const pairsOf = new WeakMap<YAML.YAMLMap, Map<string, YAML.Pair>>();
  let aliases: Map<YAML.Alias, YAML.Node | undefined> | undefined;
  return {
    pair(map, seg) {
      let byKey = pairsOf.get(map);
      if (!byKey) {
        byKey = new Map();
        // keys as text, as in the value; of duplicates the last one counts
        for (const p of map.items) byKey.set(String(YAML.isScalar(p.key) ? p.key.value : p.key), p);
        pairsOf.set(map, byKey);
      }
      return byKey.get(String(seg));
    },
    resolve: alias => (aliases ??= resolveAliases(doc)).get(alias),
  };
}

function locateYaml(doc: YAML.Document, index: YamlIndex, path: Path, key = false): Span | undefined {
  let node: unknown = doc.contents;
  let keyNode: YAML.Node | undefined;
  for (const seg of path) {
    if (YAML.isAlias(node)) node = index.resolve(node);
    if (YAML.isMap(node)) {
      const pair = index.pair(node, seg);
      if (!pair) return undefined;
      keyNode = YAML.isNode(pair.key) ? pair.key : undefined;
      node = pair.value;
      if (node === null || node === undefined) {
        // `key:` with no value: point at the key
        return keyNode?.range ? { start: keyNode.range[0], end: keyNode.range[1] } : undefined;
      }
    } else if (YAML.isSeq(node) && typeof seg === 'number') {
      node = node.items[seg];
      keyNode = undefined;
      if (node === undefined) return undefined;
    } else {
      return undefined;
    }
  }
  const target = key && keyNode ? keyNode : (node as YAML.Node | undefined);
  const r = target?.range;
  if (!r) return undefined;
  return { start: r[0], end: Math.max(r[1], r[0] + 1) };
}

/**
 * What each alias of the document stands for, as `Alias.resolve` finds it (the last node before the alias
 * with its anchor, in document order), for all aliases in one iterative walk.
 */
function resolveAliases(doc: YAML.Document): Map<YAML.Alias, YAML.Node | undefined> {
  const resolved = new Map<YAML.Alias, YAML.Node | undefined>();
  const latest = new Map<string, YAML.Node>();
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop();
    if (YAML.isAlias(node)) resolved.set(node, latest.get(node.source));
    else if (YAML.isPair(node)) stack.push(node.value, node.key);
    else if (YAML.isCollection(node) || YAML.isScalar(node)) {
      if (node.anchor) latest.set(node.anchor, node);
      if (YAML.isCollection(node)) for (let k = node.items.length - 1; k >= 0; k--) stack.push(node.items[k]);
    }
  }
  return resolved;
}
