// Case files in the editor beyond their diagnostics: the size of a case file for its "Run Cases" lens, the hover
// on `{{name}}` in a request file with its value in each case, and completion of the request's placeholder
// names at the keys of a case's `vars`.
import { valuesByCase } from '../cases/crossCheck';
import { findPlaceholders } from '../cases/placeholders';
import type { CaseFile, VarValue } from '../cases/types';
import { flowVarsContext, yamlVarsContext } from '../cases/varsContext';
import { count, markdownText } from '../text';
import type { CompletionData, HoverData } from './types';

/** A value in a hover's table: long ones shortened, line breaks shown, Markdown read as text. */
const MAX_VALUE_CHARS = 160;

/** " (3 cases × 2 models)" */
export function caseFileSize(file: CaseFile | undefined): string {
  return file ? ` (${count(file.cases.length, 'case')} × ${count(file.models?.length ?? 1, 'model')})` : '';
}

function shown(value: VarValue | undefined): string {
  if (value === undefined) return '*no value: sent as written*';
  const text = String(value);
  const short = text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
  // a case's value is data: no emphasis, link, image or HTML from it; its line breaks shown
  return short ? markdownText(short, ' ↵ ') : '*empty*';
}

/** The line around an offset: where it starts, and its text. */
function lineAt(text: string, offset: number): { start: number; text: string } {
  const start = offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0;
  let end = text.indexOf('\n', offset);
  if (end < 0) end = text.length;
  if (text[end - 1] === '\r') end--;
  return { start, text: text.slice(start, Math.max(start, end)) };
}

/**
 * `{{name}}` at `offset` of a request file: its value in each case of each case file that names the request
 * (`name`: how the case file is shown).
 */
export function placeholderHover(
  text: string,
  offset: number,
  caseFiles: readonly { name: string; file: CaseFile }[],
): HoverData | undefined {
  if (!caseFiles.length) return undefined;
  const line = lineAt(text, offset);
  const character = offset - line.start;
  const at = findPlaceholders(line.text).find(p => p.start <= character && character <= p.end);
  if (!at) return undefined;
  const head = `**\`{{${at.name}}}\`** in ${count(caseFiles.length, 'case file')}\n\n`;
  const tables = caseFiles.map(c => valuesTable(c.name, c.file, at.name)).join('');
  return { markdown: head + tables, start: line.start + at.start, end: line.start + at.end };
}

function valuesTable(caseFileName: string, file: CaseFile, name: string): string {
  const rows = valuesByCase(file, name).map(v => `| ${markdownText(v.caseName) || '*unnamed*'} | ${shown(v.value)} |`);
  return [`*${markdownText(caseFileName)}*`, '', '| Case | Value |', '| --- | --- |', ...rows, '', ''].join('\n');
}

/**
 * The request's placeholder names at the keys of a `vars` map, those the map has not got yet. `position`: the
 * line and character of `offset`; `requestName`: how the request file is shown.
 */
export function varsCompletions(
  text: string,
  offset: number,
  position: { line: number; character: number },
  yaml: boolean,
  request: { text: string; name: string },
): CompletionData[] | undefined {
  const flow = flowVarsContext(text, offset);
  const context = flow ?? (yaml ? yamlVarsContext(text.split(/\r?\n/), position.line, position.character) : undefined);
  if (!context) return undefined;
  // a key in a YAML flow map is written as in a block one; a JSON key is quoted
  const quoted = !yaml;
  const names = [...new Set(findPlaceholders(request.text).map(p => p.name))].filter(n => !context.existing.has(n));
  const typed = typedKey(lineAt(text, offset).text, position.character, quoted);
  return names.map(name => ({
    label: name,
    kind: 'variable' as const,
    detail: `{{${name}}} in ${request.name}`,
    insertText: quoted ? `"${name}": ` : `${name}: `,
    filterText: quoted ? `"${name}"` : name,
    start: offset - typed.before,
    end: offset + typed.after,
    sortText: `0${name}`,
  }));
}

/**
 * What the completion replaces: the part of the key typed before the cursor (with its opening quote in JSON)
 * and, in JSON, the closing quote right after it. Read from the line, since a word pattern that may match
 * nothing (a key not begun) is one VS Code refuses.
 */
function typedKey(line: string, character: number, quoted: boolean): { before: number; after: number } {
  const before = (quoted ? /"?[A-Za-z0-9_.-]*$/ : /[A-Za-z0-9_.-]*$/).exec(line.slice(0, character))![0];
  const after = quoted && before.startsWith('"') ? /^[A-Za-z0-9_.-]*"?/.exec(line.slice(character))![0] : '';
  return { before: before.length, after: after.length };
}
