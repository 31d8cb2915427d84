// Text set into Markdown for a pull-request comment: file names, case names and model output are data, so
// nothing in them may start a table cell, a link, an emphasis or an HTML tag.

/** Inline code that holds any text: a fence longer than its longest run of backticks; `|` escaped for tables. */
export function markdownCode(s: string): string {
  const flat = s.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map(r => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat.replace(/\|/g, '\\|')}${pad}${fence}`;
}

/** Plain text on one line: Markdown's punctuation and HTML's brackets escaped. */
export function markdownText(s: string): string {
  return s.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}

/** A fenced code block that holds any text (its fence is longer than any run of backticks inside). */
export function codeBlock(s: string): string {
  const longest = Math.max(2, ...(s.match(/`+/g) ?? []).map(r => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${s}\n${fence}`;
}
