// What the co-author writes into the author's files, keeping their comments and formatting: new texts in a request
// file (each string replaced where it stands, every other byte kept), generated cases appended to a case file's
// `cases`, or a new case file. An improved request is offered only when nothing but its texts changed and the
// check finds no problem the request did not have.
import { isDeepStrictEqual } from 'node:util';
import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import { parseRequest } from '../request/parse';
import type { Format, Path, Problem } from '../request/types';
import { validateText } from '../request/validate';
import { appendItems } from '../run/append';
import type { TextEdit } from '../request/fixes';
import type { GeneratedCase } from './generate';

/** A string of the file to replace: where it is, and its new value. */
export interface NewText {
  path: Path;
  text: string;
}

/**
 * The file with each string at `path` replaced by its new text and nothing else changed: in JSON the string
 * literal is rewritten; in YAML the scalar is written in its own style where it can be (a block scalar stays a
 * block at its indentation, a quoted one quoted) and the rest of the file is kept byte for byte. Throws when a
 * path is not a string of the file.
 */
export function replaceTexts(text: string, format: Format, texts: readonly NewText[]): string {
  if (!texts.length) return text;
  const out = format === 'json' ? replaceJson(text, texts) : replaceYaml(text, texts);
  if (!sameButTexts(text, out, format, texts)) throw new Error('the new texts could not be written in place');
  return out;
}

/** Whether `after` is `before` with the texts replaced, and nothing else changed. */
function sameButTexts(before: string, after: string, format: Format, texts: readonly NewText[]): boolean {
  const a = parseRequest(before, format).value;
  const b = parseRequest(after, format).value;
  return a !== undefined && isDeepStrictEqual(withTexts(a, texts), b);
}

/** A copy of a value with the strings at the paths replaced. */
function withTexts(value: unknown, texts: readonly NewText[]): unknown {
  const copy = structuredClone(value);
  for (const t of texts) {
    let at = copy as Record<string | number, unknown>;
    for (const seg of t.path.slice(0, -1)) at = at[seg] as Record<string | number, unknown>;
    at[t.path[t.path.length - 1]!] = t.text;
  }
  return copy;
}

function replaceJson(text: string, texts: readonly NewText[]): string {
  const tree = jsonc.parseTree(text);
  const edits: TextEdit[] = texts.map(t => {
    const node = tree && jsonc.findNodeAtLocation(tree, t.path);
    if (node?.type !== 'string') throw new Error(`${t.path.join('.')} is not a string of the file`);
    return { start: node.offset, end: node.offset + node.length, newText: JSON.stringify(t.text) };
  });
  return applyAll(text, edits);
}

function applyAll(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

/** The scalar at a path, the key it is the value of (for its column), and whether a flow collection holds it. */
function scalarAt(doc: YAML.Document, path: Path): { node: YAML.Scalar; key?: YAML.Node; flow: boolean } {
  let node: unknown = doc.contents;
  let key: YAML.Node | undefined;
  let flow = false;
  for (const seg of path) {
    if (YAML.isMap(node)) {
      flow ||= !!node.flow;
      const pair = node.items.find(p => (YAML.isScalar(p.key) ? p.key.value : p.key) === seg);
      key = YAML.isNode(pair?.key) ? pair.key : undefined;
      node = pair?.value;
    } else if (YAML.isSeq(node)) {
      flow ||= !!node.flow;
      key = undefined;
      node = typeof seg === 'number' ? node.items[seg] : undefined;
    } else node = undefined;
  }
  if (!YAML.isScalar(node) || typeof node.value !== 'string' || !node.range)
    throw new Error(`${path.join('.')} is not a text of the file`);
  return { node, ...(key ? { key } : {}), flow };
}

function replaceYaml(text: string, texts: readonly NewText[]): string {
  const doc = YAML.parseDocument(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const edits = texts.map(t => {
    const { node, key, flow } = scalarAt(doc, t.path);
    const [start, end] = node.range!;
    // a block scalar's range takes its last line break, a flow scalar's does not: the line keeps one either way
    const scalar = yamlScalar(text, node, key, flow, t.text, eol);
    const hadBreak = text[end - 1] === '\n';
    const hasBreak = scalar.endsWith('\n');
    const newText = hadBreak === hasBreak ? scalar : hasBreak ? scalar.slice(0, -eol.length) : scalar + eol;
    return { start, end, newText };
  });
  const spliced = applyAll(text, edits);
  if (sameButTexts(text, spliced, 'yaml', texts)) return spliced;
  // a layout the scalars could not be written into in place: the library writes them (comments kept)
  for (const t of texts) doc.setIn(t.path, t.text);
  return doc.toString({ lineWidth: 0 });
}

/** The column of an offset. */
const columnOf = (text: string, at: number) => at - (text.lastIndexOf('\n', at - 1) + 1);

/**
 * A YAML scalar holding `value`, to stand where `node` stands: a block scalar at the old one's indentation; a
 * one-line text in the old style (plain only where plain reads back the same); more lines in block context as a
 * literal block indented under its key; in a flow collection, double-quoted.
 */
function yamlScalar(
  text: string,
  node: YAML.Scalar,
  key: YAML.Node | undefined,
  flow: boolean,
  value: string,
  eol: string,
): string {
  const block = node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED';
  const oneLine = !value.includes('\n');
  // a block's first line cannot start with a space without an indentation indicator: quoted instead
  if ((!block && (oneLine || flow)) || /^[ \t]/.test(value)) {
    if (node.type === 'QUOTE_SINGLE' && oneLine) return `'${value.replace(/'/g, "''")}'`;
    if (node.type === 'PLAIN' && oneLine && !flow) {
      const plain = YAML.stringify(value, { lineWidth: 0 }).trimEnd();
      if (!/^["'|>]/.test(plain) && !plain.includes('\n')) return plain;
    }
    return JSON.stringify(value);
  }
  // the content's indentation: the old block's own, else two more than its key's column
  let indent = columnOf(text, key?.range?.[0] ?? node.range![0]) + 2;
  let source: string[] = [];
  if (block) {
    const body = text.slice(text.indexOf('\n', node.range![0]) + 1, node.range![1]).replace(/\r/g, '');
    const first = /^( *)\S/m.exec(body);
    if (first) indent = first[1]!.length;
    source = body.split('\n').map(l => l.slice(indent).trimEnd());
  }
  const pad = ' '.repeat(indent);
  const trailing = /\n*$/.exec(value)![0].length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const body = value.replace(/\n+$/, '');
  // a folded block stays folded (wrapped as the author wrapped it) unless a line is indented, which folding
  // would keep apart
  const folded = node.type === 'BLOCK_FOLDED' && !/(^|\n)[ \t]/.test(body);
  const lines = folded ? foldedLines(body, source) : body.split('\n');
  const content = lines.map(l => (l ? pad + l : '')).join(eol);
  return `${folded ? '>' : '|'}${chomp}${eol}${content}${eol}${trailing > 1 ? eol.repeat(trailing - 1) : ''}`;
}

/**
 * The lines of a folded block scalar that reads back as `value`: a run of k line breaks is written as k + 1 (a
 * single break folds into a space). A paragraph the old block had keeps its old lines; a new one is wrapped at
 * single spaces to the old block's width.
 */
function foldedLines(value: string, old: readonly string[]): string[] {
  // the old block's paragraphs (runs of lines that fold into one), by the text they fold into
  const known = new Map<string, string[]>();
  let run: string[] = [];
  for (const line of [...old, '']) {
    if (line && !line.startsWith(' ')) run.push(line);
    else if (run.length) {
      known.set(run.join(' '), run);
      run = [];
    }
  }
  const width = Math.max(40, ...old.map(l => l.length));
  const out: string[] = [];
  for (const line of value.replace(/\n+/g, m => `${m}\n`).split('\n')) {
    const kept = known.get(line);
    if (kept) {
      out.push(...kept);
      continue;
    }
    let rest = line;
    while (rest.length > width) {
      // a space with a word on each side: the break folds back into exactly that space
      let at = -1;
      for (let i = Math.min(width, rest.length - 1); i > 0 && at < 0; i--)
        if (rest[i] === ' ' && rest[i - 1] !== ' ' && rest[i + 1] !== ' ') at = i;
      if (at < 0) break;
      out.push(rest.slice(0, at));
      rest = rest.slice(at + 1);
    }
    out.push(rest);
  }
  return out;
}

/** The problems the check finds in `after` and not in `before`, by rule and place. */
export function newProblems(before: string, after: string, format: Format, betas: readonly string[]): Problem[] {
  const key = (p: Problem) => `${p.code} ${p.path.join('.')}`;
  const old = new Set(validateText(before, format, { betas: [...betas] }).problems.map(key));
  return validateText(after, format, { betas: [...betas] }).problems.filter(p => !old.has(key(p)));
}

/** A new case file for the request at `requestPath` (relative to the case file), holding `cases`. */
export function caseFileText(
  requestPath: string,
  cases: readonly GeneratedCase[],
  format: Format,
  model: string,
  judge?: string,
): string {
  const file = { request: requestPath, ...(judge ? { judge: { model: judge } } : {}), cases };
  if (format === 'json') return `${JSON.stringify(file, null, 2)}\n`;
  const header =
    `# Test cases for ${requestPath}, written by ${model} (Promptwright: Generate Test Cases).\n` +
    '# Review them: run them with `promptwright test` or Run Cases.\n';
  return header + YAML.stringify(file, { lineWidth: 0, blockQuote: 'literal' });
}

/**
 * The edit that gives a case file a judge model (`judge: { model }`, on the line before its `cases`), so the
 * rubrics added to it are graded as written; undefined when `cases` is not a key on a line of its own.
 */
export function judgeEdit(text: string, format: Format, model: string): TextEdit | undefined {
  const at = parseRequest(text, format).locate(['cases'], true);
  if (!at) return undefined;
  const lineStart = text.lastIndexOf('\n', at.start - 1) + 1;
  const indent = text.slice(lineStart, at.start);
  if (indent.trim()) return undefined;
  const line =
    format === 'json'
      ? `"judge": { "model": ${JSON.stringify(model)} },\n${indent}`
      : `judge: { model: ${JSON.stringify(model)} }\n${indent}`;
  return { start: at.start, end: at.start, newText: line };
}

/** The edit that appends `cases` to a case file's `cases`, keeping its comments and formatting. */
export function appendCases(text: string, format: Format, cases: readonly GeneratedCase[]): TextEdit {
  return appendItems(text, format, 'cases', [...cases]);
}
