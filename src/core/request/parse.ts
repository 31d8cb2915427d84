// Parses a request file (JSON or YAML, the editor's unsaved text) into a value plus a way to find the
// exact source range of any path in it. JSON takes a fast path (native JSON.parse, ranges found on demand
// by a small scanner) and falls back to jsonc-parser, which reports every syntax error with its offset.
import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import type { Format, Path, Problem } from './types';

export interface Span { start: number; end: number }

export interface Parsed {
  format: Format;
  /** the request value, or undefined when the text could not be parsed at all */
  value: unknown;
  /** syntax problems (always errors or warnings with offsets) */
  problems: Problem[];
  /** range of the value at path; `key: true` gives the key that holds it (falls back to the value) */
  locate(path: Path, key?: boolean): Span | undefined;
}

/** The most alias expansions a YAML file may make before it is refused (a "billion laughs" guard). */
export const MAX_YAML_ALIASES = 1000;

export function formatOf(fileName: string): Format {
  return /\.ya?ml$/i.test(fileName) ? 'yaml' : 'json';
}

export function parseRequest(text: string, format: Format): Parsed {
  return format === 'yaml' ? parseYaml(text) : parseJson(text);
}

// ---- JSON ----------------------------------------------------------------------------------------------

function parseJson(text: string): Parsed {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let value: unknown;
  let fast = true;
  try {
    value = JSON.parse(bom ? text.slice(1) : text);
  } catch {
    fast = false;
  }
  if (fast && countKeys(text) === countValueKeys(value)) {
    return { format: 'json', value, problems: [], locate: (path, key) => locateJson(text, path, key) };
  }
  return parseJsonSlow(text);
}

/** jsonc-parser path: every syntax error, comments and trailing commas as errors, duplicate keys. */
function parseJsonSlow(text: string): Parsed {
  const errors: jsonc.ParseError[] = [];
  const root = jsonc.parseTree(text, errors, { disallowComments: false, allowTrailingComma: true, allowEmptyContent: true });
  const problems: Problem[] = [];
  // comments and trailing commas: jsonc-parser accepts them with these options, the API does not
  jsonc.visit(text, {
    onComment: (offset, length) => problems.push({ start: offset, end: offset + length, severity: 'error', code: 'json-comment', message: 'Comments are not allowed: the API takes strict JSON. Remove the comment.', path: [] }),
  }, { disallowComments: false });
  findTrailingCommas(text, problems);
  for (const e of errors) {
    problems.push({ start: e.offset, end: e.offset + Math.max(1, e.length), severity: 'error', code: 'json-syntax', message: jsonErrorMessage(e.error), path: [] });
  }
  if (root) findDuplicateKeys(root, [], problems);
  const value = root ? jsonc.getNodeValue(root) : undefined;
  return {
    format: 'json', value, problems: problems.sort((a, b) => a.start - b.start),
    locate: (path, key) => {
      if (!root) return undefined;
      const node = jsonc.findNodeAtLocation(root, path);
      if (!node) return undefined;
      const target = key && node.parent?.type === 'property' ? node.parent.children?.[0] ?? node : node;
      return { start: target.offset, end: target.offset + target.length };
    },
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

// jsonc-parser's SyntaxKind is a const enum (not usable with isolatedModules): its values
const COMMA = 5, CLOSE_BRACE = 2, CLOSE_BRACKET = 4, EOF = 17;

function findTrailingCommas(text: string, out: Problem[]): void {
  const scanner = jsonc.createScanner(text, true);
  let lastComma = -1;
  for (let t: number = scanner.scan(); t !== EOF; t = scanner.scan()) {
    if (t === COMMA) { lastComma = scanner.getTokenOffset(); continue; }
    if ((t === CLOSE_BRACE || t === CLOSE_BRACKET) && lastComma >= 0) {
      out.push({ start: lastComma, end: lastComma + 1, severity: 'error', code: 'json-trailing-comma', message: 'Trailing comma: the API takes strict JSON. Remove the comma.', path: [] });
    }
    lastComma = -1;
  }
}

function findDuplicateKeys(node: jsonc.Node, path: Path, out: Problem[]): void {
  if (node.type === 'object') {
    const seen = new Map<string, jsonc.Node>();
    for (const prop of node.children ?? []) {
      const k = prop.children?.[0];
      const v = prop.children?.[1];
      if (!k) continue;
      const name = String(k.value);
      const first = seen.get(name);
      if (first) {
        out.push({ start: k.offset, end: k.offset + k.length, severity: 'error', code: 'duplicate-key', message: `Duplicate key "${name}": only the last one would count. Remove one of them.`, path: [...path, name] });
      } else seen.set(name, k);
      if (v) findDuplicateKeys(v, [...path, name], out);
    }
  } else if (node.type === 'array') {
    (node.children ?? []).forEach((c, i) => findDuplicateKeys(c, [...path, i], out));
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

function countValueKeys(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) { const x: unknown = v[i]; if (x !== null && typeof x === 'object') n += countValueKeys(x); }
    return n;
  }
  const keys = Object.keys(v);
  n = keys.length;
  for (let i = 0; i < keys.length; i++) {
    const x = (v as Record<string, unknown>)[keys[i]!];
    if (x !== null && typeof x === 'object') n += countValueKeys(x);
  }
  return n;
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
    while (text.charCodeAt(b) === 92) { backslashes++; b--; }
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
      else if (ch === 125 || ch === 93) { depth--; if (depth === 0) return j + 1; }
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
            if (JSON.parse(text.slice(nk, nkEnd)) === seg) { keySpan = { start: nk, end: nkEnd }; laterI = nv; }
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

// ---- YAML ----------------------------------------------------------------------------------------------

function parseYaml(text: string): Parsed {
  const problems: Problem[] = [];
  const docs = YAML.parseAllDocuments(text, { uniqueKeys: true, merge: true, prettyErrors: false, strict: true });
  const list = (Array.isArray(docs) ? docs : []) as YAML.Document.Parsed[]; // an empty stream has no documents
  const doc = list[0];
  for (const extra of list.slice(1)) {
    const r = extra.range;
    problems.push({ start: r[0], end: Math.max(r[0] + 1, r[1]), severity: 'error', code: 'yaml-multiple-documents', message: 'A request file holds one YAML document; this file has more than one. Remove the extra `---` document(s).', path: [] });
  }
  if (!doc) return { format: 'yaml', value: undefined, problems, locate: () => undefined };
  for (const e of doc.errors) problems.push(yamlProblem(e, 'error'));
  for (const w of doc.warnings) problems.push(yamlProblem(w, 'warning'));
  let value: unknown;
  if (doc.errors.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      const first = findFirstAlias(doc.contents);
      problems.push({
        start: first?.[0] ?? 0, end: first?.[1] ?? 1, severity: 'error', code: 'yaml-alias',
        message: /alias/i.test(msg) ? `Too many alias expansions (more than ${MAX_YAML_ALIASES}): the file would expand to an enormous request ("billion laughs"). Write the values out instead.` : `YAML: ${msg}`,
        path: [],
      });
    }
  } else {
    // keep what can be read, so the schema still checks the rest of the file
    try { value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }); } catch { value = undefined; }
  }
  return { format: 'yaml', value, problems, locate: (path, key) => locateYaml(doc, path, key) };
}

function yamlProblem(e: YAML.YAMLError, severity: 'error' | 'warning'): Problem {
  const [start, end] = e.pos;
  let message = e.message.split('\n')[0] ?? e.message;
  if (e.code === 'DUPLICATE_KEY') message = `Duplicate key: ${message.replace(/^Map keys must be unique;?\s*/i, '') || 'keys in a mapping must be unique'}. Remove one of them.`;
  else if (e.code === 'TAB_AS_INDENT' || /tab/i.test(message)) message = 'Tabs are not allowed for indentation in YAML; indent with spaces.';
  return { start, end: Math.max(end, start + 1), severity, code: e.code === 'DUPLICATE_KEY' ? 'duplicate-key' : 'yaml-syntax', message: message.startsWith('Duplicate') || message.startsWith('Tabs') ? message : `YAML: ${message}`, path: [] };
}

function findFirstAlias(node: unknown): [number, number] | undefined {
  let found: [number, number] | undefined;
  YAML.visit(node as YAML.Node, { Alias(_k, n) { if (n.range) { found = [n.range[0], n.range[1]]; return YAML.visit.BREAK; } return undefined; } });
  return found;
}

function locateYaml(doc: YAML.Document, path: Path, key = false): Span | undefined {
  let node: unknown = doc.contents;
  let keyNode: YAML.Node | undefined;
  for (const seg of path) {
    if (YAML.isAlias(node)) node = node.resolve(doc);
    if (YAML.isMap(node)) {
      let pair: YAML.Pair | undefined;
      for (const p of node.items) {
        const k = YAML.isScalar(p.key) ? p.key.value : p.key;
        if (String(k) === String(seg)) pair = p;
      }
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
