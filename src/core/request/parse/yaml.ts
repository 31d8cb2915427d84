// YAML request files: the yaml library's document with a line counter, aliases expanded within a bound (the
// API takes JSON), and the guards its recursion needs (depth is checked before the composer runs).
import * as YAML from 'yaml';
import type { Path, Problem } from '../types';
import { locateNothing, MAX_DEPTH, MAX_YAML_ALIASES, type Locate, type Parsed, type Span } from './types';

export function parseYaml(text: string): Parsed {
  const problems: Problem[] = [];
  // The YAML composer recurses once per level of nesting, and deep enough it can exhaust the stack
  // in ways that cannot be caught (V8 aborts the process when a regular expression is compiled at the
  // stack limit), so files nested past MAX_DEPTH never reach it.
  const tooDeepAt = yamlTooDeepAt(text);
  if (tooDeepAt >= 0)
    return { format: 'yaml', value: undefined, problems: [yamlTooDeep(text, tooDeepAt)], ...locateNothing };
  const docs = YAML.parseAllDocuments(text, {
    // the library compares each key with every key before it (300 ms for a mapping of 5,000 keys, quadratic):
    // duplicateKeys below does it with one set per mapping
    uniqueKeys: false,
    merge: true,
    prettyErrors: false,
    strict: true,
    // a key that is a list or mapping becomes text in JSON (then an unknown field, said at the key); the
    // library's own note would be a Node warning on the CLI's stderr
    logLevel: 'error',
  });
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
        'A request file holds one YAML document; this file has more than one. Remove the extra "---" document(s).',
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
  duplicateKeys(doc, problems);
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

/**
 * A key that a mapping has already (the library's rule with `uniqueKeys`: two scalars of the same value), on the
 * later one. The body sent is JSON, where the last one counts: a warning.
 */
function duplicateKeys(doc: YAML.Document.Parsed, problems: Problem[]): void {
  YAML.visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        if (!YAML.isScalar(key) || Number.isNaN(key.value)) continue;
        if (!seen.has(key.value)) {
          seen.add(key.value);
          continue;
        }
        const start = key.range?.[0] ?? 0;
        problems.push({
          start,
          end: start + 1,
          severity: 'warning',
          code: 'duplicate-key',
          path: [],
          message: 'Duplicate key: keys in a mapping must be unique. Only the last one counts; remove one of them.',
        });
      }
    },
  });
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
