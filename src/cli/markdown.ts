// Text set into Markdown for a pull-request comment: file names, case names and model output are data, so
// nothing in them may start a table cell, a link, an emphasis or an HTML tag (core/text.ts), mention a person or
// a team, or reach a terminal as a control character (the comment is printed before it is posted).
import { markdownCode as codeSpan, markdownText as plainText } from '../core/text';
import { terminalText } from './io';

/** Inline code that holds any text, in a table's cell. */
export function markdownCode(s: string): string {
  return codeSpan(terminalText(s), { table: true });
}

/**
 * Plain text on one line, as core's markdownText, and a zero-width space after each `@` and `#`, so GitHub
 * neither notifies `@someone` nor links (and notifies) `#123`, here or in another repository; a backslash would
 * not stop either, since both are found in the rendered text.
 */
export function markdownText(s: string): string {
  return plainText(terminalText(s)).replace(/[@#]/g, '$&\u200b');
}

/** A fenced code block that holds any text (its fence is longer than any run of backticks inside). */
export function codeBlock(s: string): string {
  const text = terminalText(s);
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map(r => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}
