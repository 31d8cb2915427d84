// Text set into Markdown for a pull-request comment: file names, case names and model output are data, so
// nothing in them may start a table cell, a link, an emphasis or an HTML tag, mention a person or a team, or
// reach a terminal as a control character (the comment is printed before it is posted).
import { terminalText } from './io';

/** Inline code that holds any text: a fence longer than its longest run of backticks; `|` escaped for tables. */
export function markdownCode(s: string): string {
  const flat = terminalText(s.replace(/[\r\n]+/g, ' '));
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map(r => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat.replace(/\|/g, '\\|')}${pad}${fence}`;
}

/**
 * Plain text on one line: Markdown's punctuation and HTML's brackets escaped, and a zero-width space after each
 * `@` and `#`, so GitHub neither notifies `@someone` nor links (and notifies) `#123`, here or in another
 * repository; a backslash would not stop either, since both are found in the rendered text.
 */
export function markdownText(s: string): string {
  return terminalText(s.replace(/[\r\n]+/g, ' '))
    .replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&')
    .replace(/[@#]/g, '$&\u200b');
}

/** A fenced code block that holds any text (its fence is longer than any run of backticks inside). */
export function codeBlock(s: string): string {
  const text = terminalText(s);
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map(r => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}
