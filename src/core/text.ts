/** A value from the service shown as text: a string as it is, nothing as '', anything else as JSON. */
export function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

let enUs: Intl.NumberFormat | undefined;

/**
 * 2,000 rather than 2000: numbers are read at a glance, the same on every machine. One formatter, made when first
 * asked for: `toLocaleString('en-US')` makes one for each call (0.1 to 0.7 ms: a hundred counts in a check's
 * messages cost it more than the check). The lint forbids the other way.
 */
export function thousands(n: number): string {
  return (enUs ??= new Intl.NumberFormat('en-US')).format(n);
}

/** A count with its noun, singular for one: "1 chat", "2,000 records" (`many` for irregular plurals). */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${thousands(n)} ${n === 1 ? one : many}`;
}

/** A token limit for people: 1,000,000 as "1M", 200,000 as "200k", anything else in full. */
export function tokensShort(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return thousands(n);
}

/**
 * Offsets to lines and columns, counted as VS Code counts them (a line ends at \n, \r\n or a lone \r), for
 * text that may not be open in an editor (a case file's problems land in the request file it names, often
 * closed) and for the CLI's file:line:col, so that both report the same line for the same problem.
 */
export class LineIndex {
  /** the offset at which each line starts */
  private readonly starts: number[] = [0];

  constructor(text: string) {
    // line ends found with indexOf: a text of long lines is not read character by character
    let n = text.indexOf('\n');
    let r = text.indexOf('\r');
    while (n >= 0 || r >= 0) {
      if (r >= 0 && (n < 0 || r < n)) {
        // \r\n ends one line, as VS Code counts them
        if (r + 1 !== n) this.starts.push(r + 1);
        r = text.indexOf('\r', r + 1);
      } else {
        this.starts.push(n + 1);
        n = text.indexOf('\n', n + 1);
      }
    }
  }

  /** The zero-based line and character (UTF-16 code units, as VS Code counts) of an offset. */
  position(offset: number): { line: number; character: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo]! };
  }
}

/**
 * Text from a file or the service set into Markdown as it is (hovers, tooltips, completion details, the language
 * server's hovers, a pull-request comment): Markdown's punctuation, HTML's brackets, `&` and `$` (VS Code's
 * `$(icon)`) escaped, so nothing in it makes a link (in a trusted tooltip, a `command:` link runs the command), an
 * image (a remote one is fetched when shown), an emphasis, an HTML tag or an icon. Line breaks become `lineBreak`,
 * so no line of it can start a heading, a list or a table.
 */
export function markdownText(s: string, lineBreak = ' '): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~$&]/g, '\\$&').replace(/\r\n?|\n/g, lineBreak);
}

/**
 * Inline code that holds any text: a fence longer than its longest run of backticks, padded when the text starts
 * or ends with one; line breaks as spaces. In a table's cell, `|` escaped too (`table`).
 */
export function markdownCode(s: string, o: { table?: boolean } = {}): string {
  const flat = s.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map(r => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${o.table ? flat.replace(/\|/g, '\\|') : flat}${pad}${fence}`;
}

/**
 * Text for a notification: VS Code makes `[label](command:…)` (and `https:`, `file:`) in a notification's message a
 * link, and runs the command when it is clicked. A message that quotes the service or a model (an error, the
 * changes a model says it made) gets a zero-width space between `]` and `(`: it reads the same and links nothing.
 */
export function notificationText(s: string): string {
  return s.replace(/\]\s*\(/g, ']\u200b(');
}

/**
 * An address as it is shown where a request is sent (the status bar, the response panel): the URL as parsed, with
 * no user name or password it may carry; as given when it is not a URL.
 */
export function addressShown(address: string): string {
  try {
    const u = new URL(address);
    u.username = '';
    u.password = '';
    return u.href.replace(/\/+$/, '');
  } catch {
    return address;
  }
}
