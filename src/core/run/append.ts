// "Append reply to file": the assistant turn (and, after tool_use, a user turn with a tool_result stub
// per call) inserted at the end of `messages` as one text edit that keeps the file's formatting and
// comments, in JSON and YAML. Generated test cases are appended to a case file's `cases` the same way.
import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import type { Message } from '../api/types';
import { detectIndent, type TextEdit } from '../request/fixes';
import type { Format } from '../request/types';
import { assistantTurn, STUB, toolResultTurn } from './turns';

export { assistantTurn, curlCommand, STUB } from './turns';

export interface AppendResult {
  edit: TextEdit;
  /** where to put the cursor (the first tool_result stub's content), as an offset into the new text */
  cursor?: { start: number; end: number };
}

export function appendReply(
  text: string,
  format: Format,
  m: Message,
  withToolResults = m.stop_reason === 'tool_use',
): AppendResult {
  const turns: object[] = [assistantTurn(m)];
  const tr = withToolResults ? toolResultTurn(m) : undefined;
  if (tr) turns.push(tr);
  const edit = appendItems(text, format, 'messages', turns);
  const after = text.slice(0, edit.start) + edit.newText + text.slice(edit.end);
  let cursor: AppendResult['cursor'];
  if (tr) {
    const needle = format === 'json' ? JSON.stringify(STUB) : STUB;
    const at = after.indexOf(needle, edit.start);
    if (at >= 0)
      cursor =
        format === 'json' ? { start: at + 1, end: at + needle.length - 1 } : { start: at, end: at + needle.length };
  }
  return { edit, ...(cursor ? { cursor } : {}) };
}

/**
 * One edit that appends `items` to the top-level list `key` (`messages`, `cases`), after its last item and at
 * its indentation, so nothing already in the file is reformatted and its comments stay.
 */
export function appendItems(text: string, format: Format, key: string, items: object[]): TextEdit {
  return format === 'json' ? appendJson(text, key, items) : appendYaml(text, key, items);
}

function appendJson(text: string, key: string, turns: object[]): TextEdit {
  const tree = jsonc.parseTree(text);
  const msgs = tree && jsonc.findNodeAtLocation(tree, [key]);
  if (!msgs || msgs.type !== 'array') throw new Error(`The file has no "${key}" array to append to.`);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const { insertSpaces, tabSize } = detectIndent(text);
  const unit = insertSpaces ? ' '.repeat(tabSize) : '\t';
  const items = msgs.children ?? [];
  const last = items[items.length - 1];
  if (!last) {
    // an empty array: write its items between the brackets
    const ls = text.lastIndexOf('\n', msgs.offset) + 1;
    const base = /^[ \t]*/.exec(text.slice(ls))![0];
    const body = turns
      .map(
        t =>
          base +
          unit +
          JSON.stringify(t, null, unit)
            .split('\n')
            .join(eol + base + unit),
      )
      .join(`,${eol}`);
    return { start: msgs.offset, end: msgs.offset + msgs.length, newText: `[${eol}${body}${eol}${base}]` };
  }
  // after the last item, at its indentation, so nothing already in the file is reformatted
  const ls = text.lastIndexOf('\n', last.offset - 1) + 1;
  const before = text.slice(ls, last.offset);
  const sameLine = before.trim() !== '';
  const indent = sameLine ? /^[ \t]*/.exec(before)![0] + unit : before;
  const body = turns
    .map(
      t =>
        indent +
        JSON.stringify(t, null, unit)
          .split('\n')
          .join(eol + indent),
    )
    .join(`,${eol}`);
  const at = last.offset + last.length;
  return { start: at, end: at, newText: `,${eol}${body}` };
}

function appendYaml(text: string, key: string, turns: object[]): TextEdit {
  const doc = YAML.parseDocument(text);
  const seq = doc.get(key, true);
  if (!YAML.isSeq(seq)) throw new Error(`The file has no "${key}" list to append to.`);
  if (seq.flow || !seq.items.length) {
    // a flow or empty list: let the library write it (comments are kept)
    for (const t of turns) seq.items.push(doc.createNode(t));
    return singleEdit(text, doc.toString({ lineWidth: 0 }));
  }
  const first = seq.items[0] as YAML.Node;
  const itemStart = first.range![0];
  const lineStart = text.lastIndexOf('\n', itemStart - 1) + 1;
  const dash = text.lastIndexOf('-', itemStart);
  const indent = ' '.repeat(Math.max(0, dash - lineStart));
  const last = seq.items[seq.items.length - 1] as YAML.Node;
  const end = last.range![1];
  const insertAt =
    text.indexOf('\n', Math.max(end - 1, 0)) < 0 ? text.length : text.indexOf('\n', Math.max(end - 1, 0)) + 1;
  const body = YAML.stringify(turns, { lineWidth: 0, blockQuote: 'literal' })
    .trimEnd()
    .split('\n')
    .map(l => indent + l)
    .join('\n');
  const needNl = insertAt === text.length && !text.endsWith('\n');
  return { start: insertAt, end: insertAt, newText: `${needNl ? '\n' : ''}${body}\n` };
}

/** The one edit that turns `before` into `after`: from the first character that differs to the last. */
export function singleEdit(before: string, after: string): TextEdit {
  let s = 0;
  while (s < before.length && s < after.length && before[s] === after[s]) s++;
  let e1 = before.length,
    e2 = after.length;
  while (e1 > s && e2 > s && before[e1 - 1] === after[e2 - 1]) {
    e1--;
    e2--;
  }
  return { start: s, end: e1, newText: after.slice(s, e2) };
}
