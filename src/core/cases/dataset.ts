// A case file's dataset read a record at a time: CSV (a header row), TSV, JSON Lines or a JSON array, from a
// stream of chunks (a file read 64 KB at a time, a git blob, an editor's text), never held whole. CSV and TSV
// go through csv-parse; a JSON Lines line and a JSON array's element through JSON.parse (the array is cut
// into its elements first, by their brackets and strings, so one element is held at a time). Memory is the
// record in hand and the chunk being read. Every problem has its line and column: invalid UTF-8, a ragged row,
// a bad quote, a line that is not JSON. Nothing here reads the disk.
import { Parser, type CsvError, type Options } from 'csv-parse';
import type { DatasetFormat } from './types';

/** One record: its first line (1-based) and its values (by column for CSV and TSV; a JSON value otherwise). */
interface DatasetRecord {
  line: number;
  /** its last line (a quoted value or a JSON element may span several) */
  endLine: number;
  /** CSV/TSV: each column's text; JSON Lines and JSON: the parsed value */
  value: unknown;
  /** JSON Lines and JSON: the record's text as written, and the column it starts at (to place a problem in it) */
  text?: string;
  column?: number;
}

/** A problem with the file itself: where it is, and what to do. */
interface DatasetSyntaxProblem {
  line: number;
  column: number;
  message: string;
}

/** What reading a dataset yields: the header (CSV and TSV, first), records, and problems, in file order. */
export type DatasetItem =
  | { kind: 'header'; columns: string[]; line: number }
  | ({ kind: 'record' } & DatasetRecord)
  | ({ kind: 'problem' } & DatasetSyntaxProblem);

/** At most this many syntax problems are said; the rest are counted in the last one. */
const MAX_SYNTAX_PROBLEMS = 50;

/**
 * The records of a dataset, streamed. A problem does not stop the reading (the next record is read), except
 * invalid UTF-8, which stops it: nothing after it can be trusted.
 */
export async function* readDataset(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  format: DatasetFormat,
): AsyncGenerator<DatasetItem> {
  const text = decoded(chunks);
  let said = 0;
  const items = format === 'csv' || format === 'tsv' ? csvItems(text, format) : jsonItems(text, format);
  for await (const item of items) {
    if (item.kind === 'problem' && ++said > MAX_SYNTAX_PROBLEMS) continue;
    yield item;
  }
  if (said > MAX_SYNTAX_PROBLEMS) {
    const more = said - MAX_SYNTAX_PROBLEMS;
    yield { kind: 'problem', line: 1, column: 1, message: `…and ${more} more problems like these in this file.` };
  }
}

/** The file's text as decoded chunks: UTF-8 checked (a byte that is not UTF-8 stops it, at its line), no BOM. */
async function* decoded(chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lines = 1;
  let first = true;
  for await (const chunk of chunks) {
    let text: string;
    if (typeof chunk === 'string') text = chunk;
    else {
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        throw new InvalidUtf8(lines + newlines(validPrefix(chunk)));
      }
    }
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text) first = false;
    lines += newlines(text);
    if (text) yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new InvalidUtf8(lines);
  }
}

/** A byte that is not UTF-8, on this line. */
export class InvalidUtf8 extends Error {
  override name = 'InvalidUtf8';
  constructor(readonly line: number) {
    super('The file is not UTF-8 text here: save it as UTF-8 (most editors and spreadsheets offer it on export).');
  }
}

/** The text of the chunk up to its first byte that cannot start or continue UTF-8 (for the line of the message). */
function validPrefix(bytes: Uint8Array): string {
  let lo = 0;
  let hi = bytes.length;
  // the longest prefix that decodes (a stream decoder may hold a partial character at the end: that is fine)
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return new TextDecoder().decode(bytes.subarray(0, lo));
}

function newlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

// ---- CSV and TSV: csv-parse --------------------------------------------------------------------------------

/** What csv-parse says of a record it skipped, in words and with what to do. */
function csvMessage(e: CsvError, columns: number): string {
  switch (e.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
    case 'CSV_RECORD_INCONSISTENT_COLUMNS': {
      const got = Array.isArray(e.record) ? e.record.length : undefined;
      return (
        `This row has ${got ?? 'a different number of'} fields; the header has ${columns}. ` +
        'Quote a value that holds the separator, or add the missing fields.'
      );
    }
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_QUOTE_NOT_CLOSED':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return (
        'A quoted value is not closed where it should be. A quote inside a quoted value is written twice ("") ' +
        'and the closing quote is followed by the separator or the end of the line.'
      );
    case 'INVALID_OPENING_QUOTE':
      return 'A quote in the middle of an unquoted value: quote the whole value, with each quote in it written twice.';
    default:
      return `${e.message.replace(/\s+/g, ' ')}.`;
  }
}

/** Errors after which nothing more of the file can be trusted: a quote out of place shifts every field after it. */
const QUOTE_ERRORS = new Set<string>([
  'CSV_INVALID_CLOSING_QUOTE',
  'CSV_QUOTE_NOT_CLOSED',
  'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE',
  'INVALID_OPENING_QUOTE',
]);

/** csv-parse's parser, noting the line each record ends on as it hands the record out (in that order). */
interface LinedParser extends Parser {
  /** The last line of the next record read. */
  lineOfNext(): number;
}

let linedParserClass: (new (options: Options) => LinedParser) | undefined;

/**
 * A LinedParser. Its own `info: true` builds an object of a dozen fields a record for the same number: a sixth of
 * the time of a million-row file. The class is made on first use: in the extension, csv-parse's Parser comes from
 * the bundle loaded when a dataset is first read (scripts/bundles.mjs), not when this module loads.
 */
function linedParser(options: Options): LinedParser {
  linedParserClass ??= class extends Parser {
    /** the last line of each record handed out and not read yet, from `next` on */
    private readonly lines: number[] = [];
    private next = 0;

    override push(record: unknown): boolean {
      if (record !== null) this.lines.push(this.info.lines);
      return super.push(record);
    }

    lineOfNext(): number {
      const line = this.lines[this.next++]!;
      if (this.next > 4096 && this.next * 2 > this.lines.length) {
        this.lines.splice(0, this.next);
        this.next = 0;
      }
      return line;
    }
  };
  return new linedParserClass(options);
}

/** Whether a value holds a line end (a quoted value may). */
const hasLineEnd = (s: string) => s.includes('\n') || s.includes('\r');

async function* csvItems(text: AsyncIterable<string>, format: 'csv' | 'tsv'): AsyncGenerator<DatasetItem> {
  /** what csv-parse skipped, said in order with the records around it */
  const skipped: CsvError[] = [];
  let columns: string[] | undefined;
  const parser = linedParser({
    delimiter: format === 'tsv' ? '\t' : ',',
    skip_empty_lines: true,
    skip_records_with_error: true,
    // a TSV file writes a quote as it is; a quoted value is still read as one
    ...(format === 'tsv' ? { relax_quotes: true } : {}),
    on_skip: (e: CsvError | undefined) => {
      if (e) skipped.push(e);
    },
  });
  // the text is written as the parser takes it (backpressure), while its records are read below
  const feeding = (async () => {
    try {
      for await (const chunk of text) {
        if (parser.destroyed) break;
        if (!parser.write(chunk)) await drained(parser);
      }
      parser.end();
    } catch (e) {
      parser.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  })();
  let stop = false;
  /** the problems of records skipped before `line` (all of them when undefined), in order */
  function* said(line?: number): Generator<DatasetItem> {
    while (skipped.length && !stop) {
      const e = skipped[0]!;
      const at = typeof e.lines === 'number' ? e.lines : 1;
      if (line !== undefined && at >= line) return;
      skipped.shift();
      yield { kind: 'problem', line: at, column: 1, message: csvMessage(e, columns?.length ?? 0) };
      // a quote out of place: what follows it cannot be read as the author meant
      if (QUOTE_ERRORS.has(e.code)) stop = true;
    }
  }
  /** `\r\n` inside quoted values so far: csv-parse counts each as two line ends, a person as one */
  let crlf = 0;
  /** a column named "__proto__" is set as a property, not as the record's prototype */
  let protoColumn = false;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const lastLine = parser.lineOfNext();
      // where the record starts: its last line, less the line ends inside its quoted values
      let inside = 0;
      for (const field of record)
        if (hasLineEnd(field)) {
          const pairs = field.split('\r\n').length - 1;
          crlf += pairs;
          inside += (field.match(/\r\n|\r|\n/g) ?? []).length;
        }
      const line = Math.max(1, lastLine - crlf - inside);
      if (skipped.length) yield* said(line);
      if (stop) break;
      if (!columns) {
        columns = record;
        protoColumn = columns.includes('__proto__');
        yield { kind: 'header', columns, line };
        continue;
      }
      const value: Record<string, string> = {};
      if (protoColumn)
        for (let i = 0; i < columns.length; i++)
          Object.defineProperty(value, columns[i]!, {
            value: record[i] ?? '',
            enumerable: true,
            writable: true,
            configurable: true,
          });
      else for (let i = 0; i < columns.length; i++) value[columns[i]!] = record[i] ?? '';
      yield { kind: 'record', line, endLine: line + inside, value };
    }
    yield* said();
  } finally {
    if (stop || !parser.writableFinished) parser.destroy();
    await feeding;
  }
}

function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise(resolve => {
    const done = () => {
      stream.removeListener('drain', done);
      stream.removeListener('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}

// ---- JSON Lines and JSON arrays --------------------------------------------------------------------------

/** Where a JSON.parse error is in the text it read (V8 says "at position N" or "line L column C"). */
function jsonErrorAt(e: unknown, text: string): { line: number; column: number; why: string } {
  const message = e instanceof Error ? e.message : String(e);
  const why = message.replace(/\s*\(line \d+ column \d+\)$/, '').replace(/ in JSON at position \d+.*$/, '');
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]), why };
  const pos = /position (\d+)/.exec(message);
  if (!pos) return { line: 1, column: 1, why };
  const before = text.slice(0, Number(pos[1]));
  const nl = before.lastIndexOf('\n');
  return { line: 1 + newlines(before), column: before.length - nl, why };
}

async function* jsonItems(text: AsyncIterable<string>, format: 'jsonl' | 'json'): AsyncGenerator<DatasetItem> {
  const pieces = format === 'jsonl' ? jsonLines(text) : arrayElements(text);
  for await (const piece of pieces) {
    if ('problem' in piece) {
      yield { kind: 'problem', ...piece.problem };
      continue;
    }
    try {
      const value: unknown = JSON.parse(piece.text);
      const endLine = format === 'jsonl' ? piece.line : piece.line + newlines(piece.text);
      yield { kind: 'record', line: piece.line, endLine, column: piece.column, value, text: piece.text };
    } catch (e) {
      const at = jsonErrorAt(e, piece.text);
      const what = format === 'jsonl' ? 'This line is not JSON' : 'This item of the array is not JSON';
      yield {
        kind: 'problem',
        line: piece.line + at.line - 1,
        column: (at.line === 1 ? piece.column - 1 : 0) + at.column,
        message:
          `${what} (${at.why}). ` +
          (format === 'jsonl' ? 'Each line holds one JSON object, on one line.' : 'Check its quotes and commas.'),
      };
    }
  }
}

type Piece = { text: string; line: number; column: number } | { problem: DatasetSyntaxProblem };

/** Each non-blank line of a JSON Lines file (a line end `\r\n` or `\n`), with its line number. */
async function* jsonLines(text: AsyncIterable<string>): AsyncGenerator<Piece> {
  let pending = '';
  let line = 1;
  const piece = (s: string, at: number): Piece | undefined => {
    const t = s.endsWith('\r') ? s.slice(0, -1) : s;
    return t.trim() ? { text: t, line: at, column: 1 } : undefined;
  };
  for await (const chunk of text) {
    pending += chunk;
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n', start)) {
      const p = piece(pending.slice(start, nl), line++);
      if (p) yield p;
      start = nl + 1;
    }
    pending = pending.slice(start);
  }
  const last = piece(pending, line);
  if (last) yield last;
}

/**
 * The elements of a JSON array, each as its own text: the array is read a character at a time for its brackets
 * and strings only (JSON.parse reads each element), so one element is held at a time, however long the array.
 */
async function* arrayElements(text: AsyncIterable<string>): AsyncGenerator<Piece> {
  let line = 1;
  let column = 0;
  /** 0: before `[`; 1: in the array; 2: after `]` */
  let state = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let started = false;
  let afterComma = false;
  let element = '';
  let elementLine = 0;
  let elementColumn = 0;
  const problem = (message: string): Piece => ({ problem: { line, column, message } });
  for await (const chunk of text) {
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 10) {
        line++;
        column = 0;
      } else column++;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) inString = false;
        continue;
      }
      if (depth > 0) {
        if (c === 34) inString = true;
        else if (c === 123 || c === 91) depth++;
        else if (c === 125 || c === 93) depth--;
        continue;
      }
      if (c === 32 || c === 9 || c === 10 || c === 13) continue;
      if (state !== 1) {
        if (state === 0 && c === 91) {
          state = 1;
          from = i + 1;
          continue;
        }
        yield problem(
          state === 0
            ? 'A .json dataset holds one array of rows: [ {…}, {…} ]. Use .jsonl for one row a line.'
            : 'Text after the end of the array: a .json dataset holds one array.',
        );
        return;
      }
      if (c === 44 || c === 93) {
        // a comma ends an element, `]` the array
        element += chunk.slice(from, i);
        from = i + 1;
        const t = element.trim();
        element = '';
        if (t) yield { text: t, line: elementLine, column: elementColumn };
        else if (c === 44 || afterComma) yield problem('An empty item in the array (two commas, or one too many).');
        started = false;
        afterComma = c === 44;
        if (c === 93) state = 2;
        continue;
      }
      if (!started) {
        started = true;
        elementLine = line;
        elementColumn = column;
      }
      if (c === 34) inString = true;
      else if (c === 123 || c === 91) depth = 1;
    }
    if (state === 1) element += chunk.slice(from);
  }
  if (state === 1) yield problem('The array is not closed: a .json dataset ends with "]".');
}
