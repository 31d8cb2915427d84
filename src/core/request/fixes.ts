// Quick fixes as minimal text edits that keep the file's formatting and comments (JSON via jsonc-parser's
// modify, YAML by editing the lines of the node), so the editor applies them as one undoable edit.
import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import type { Parsed } from './parse';
import type { FixData, Format, Path } from './types';

export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

/** A fix that is a change of the file (all but `add-beta`, which changes a setting). */
export type EditFix = Exclude<FixData, { kind: 'add-beta' }>;

/** The edits of a fix; `parsed` is the file's parse (a request file's or a case file's: only `locate` is read). */
export function fixEdits(text: string, format: Format, parsed: Pick<Parsed, 'locate'>, fix: EditFix): TextEdit[] {
  if (fix.kind === 'rename-property') return renameKey(text, format, parsed, fix);
  return format === 'json' ? jsonEdits(text, fix) : yamlEdits(text, parsed, fix);
}

/** Replaces the key's text only: the value, comments and layout stay. */
function renameKey(
  text: string,
  format: Format,
  parsed: Pick<Parsed, 'locate'>,
  fix: Extract<FixData, { kind: 'rename-property' }>,
): TextEdit[] {
  const span = parsed.locate(fix.path, true);
  if (!span) return [];
  const plain = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(fix.key);
  const newText = format === 'json' || !plain ? JSON.stringify(fix.key) : fix.key;
  return [{ start: span.start, end: span.end, newText }];
}

/** Indentation used by the file (first indented line), for inserted text. */
export function detectIndent(text: string): { insertSpaces: boolean; tabSize: number } {
  const m = /\n([ \t]+)\S/.exec(text);
  if (!m) return { insertSpaces: true, tabSize: 2 };
  const ws = m[1]!;
  return ws.startsWith('\t')
    ? { insertSpaces: false, tabSize: 1 }
    : { insertSpaces: true, tabSize: Math.min(ws.length, 8) };
}

function jsonEdits(text: string, fix: Exclude<EditFix, { kind: 'rename-property' }>): TextEdit[] {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const formattingOptions = { ...detectIndent(text), eol };
  const path = fix.kind === 'insert-property' ? [...fix.path, fix.key] : fix.path;
  const value = fix.kind === 'remove-property' ? undefined : fix.value;
  return jsonc
    .modify(text, path, value, { formattingOptions })
    .map(e => ({ start: e.offset, end: e.offset + e.length, newText: e.content }));
}

function lineStart(text: string, i: number): number {
  return text.lastIndexOf('\n', i - 1) + 1;
}
function lineEndIncl(text: string, i: number): number {
  const n = text.indexOf('\n', i);
  return n < 0 ? text.length : n + 1;
}

/** A scalar or small structure written in YAML flow style, to replace a node in place. */
function yamlInline(value: unknown): string {
  const s = YAML.stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trimEnd();
  return s;
}

function yamlEdits(
  text: string,
  parsed: Pick<Parsed, 'locate'>,
  fix: Exclude<EditFix, { kind: 'rename-property' }>,
): TextEdit[] {
  if (fix.kind === 'replace-value') {
    const span = parsed.locate(fix.path);
    if (!span) return wholeDocument(text, fix);
    return [{ start: span.start, end: trimEndWs(text, span.start, span.end), newText: yamlInline(fix.value) }];
  }
  if (fix.kind === 'remove-property') {
    const key = parsed.locate(fix.path, true);
    const val = parsed.locate(fix.path);
    if (!key || !val) return wholeDocument(text, fix);
    const before = text.slice(lineStart(text, key.start), key.start);
    // flow style, or the first key of a list item: let the library do it
    if (before.trim() !== '') return wholeDocument(text, fix);
    return [{ start: lineStart(text, key.start), end: lineEndIncl(text, Math.max(val.end - 1, key.end)), newText: '' }];
  }
  // insert-property into a block mapping: a new line after the mapping's last pair, at its indentation
  const doc = YAML.parseDocument(text);
  const node = fix.path.length ? doc.getIn(fix.path, true) : doc.contents;
  if (!YAML.isMap(node) || node.flow || !node.items.length) return wholeDocument(text, fix);
  const firstKey = node.items[0]!.key as YAML.Node;
  const lastPair = node.items[node.items.length - 1]!;
  const keyStart = firstKey.range![0];
  const col = keyStart - lineStart(text, keyStart);
  const indent = ' '.repeat(col);
  const lastEnd = YAML.isNode(lastPair.value) ? lastPair.value.range![1] : (lastPair.key as YAML.Node).range![1];
  const at = lineEndIncl(text, Math.max(lastEnd - 1, 0));
  const body = YAML.stringify({ [fix.key]: fix.value }, { lineWidth: 0 })
    .trimEnd()
    .split('\n')
    .map(l => indent + l)
    .join('\n');
  const needNl = at === text.length && !text.endsWith('\n');
  return [{ start: at, end: at, newText: `${needNl ? '\n' : ''}${body}\n` }];
}

function trimEndWs(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /\s/.test(text[e - 1]!)) e--;
  return e;
}

/** Fallback: change the document through the yaml library (comments are kept) and replace the text. */
function wholeDocument(text: string, fix: Exclude<EditFix, { kind: 'rename-property' }>): TextEdit[] {
  const doc = YAML.parseDocument(text);
  const path: Path = fix.kind === 'insert-property' ? [...fix.path, fix.key] : fix.path;
  if (fix.kind === 'remove-property') doc.deleteIn(path);
  else doc.setIn(path, fix.value);
  return [{ start: 0, end: text.length, newText: doc.toString() }];
}

/** Applies edits (non-overlapping) to text; used by tests and the CLI. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
