// A case file's dataset read a record at a time: CSV (a header row), TSV, JSON Lines or a JSON array, from a
// stream of chunks (a file read 64 KB at a time, a git blob, an editor's text), never held whole. CSV and TSV
// go through csv-parse; a JSON Lines line and a JSON array's element through JSON.parse (the array is cut
// into its elements first, by their brackets and strings, so one element is held at a time). The items come in
// batches, those of a chunk (of 16 KB of it at most for CSV and TSV): an await for each of a million rows was a
// sixth of the time. Memory is the chunk being read and its records. Every problem has its line and column:
// invalid UTF-8, a ragged row, a bad quote, a line that is not JSON. Nothing here reads the disk.
import { Parser, type CsvError, type Options } from 'csv-parse';
import type { DatasetFormat } from './types';

/** One record: its first line (1-based) and its values (CSV and TSV: its fields and the header's; JSON: a value). */
interface DatasetRecord {
  line: number;
  /** its last line (a quoted value or a JSON element may span several) */
  endLine: number;
  /** CSV/TSV: the fields, in the order of `columns`; JSON Lines and JSON: the parsed value */
  value: unknown;
  /** CSV/TSV: the header's columns (one list for every record) */
  columns?: string[];
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
 * The records of a dataset, streamed, in batches (in file order, each batch the items of a chunk read). A problem
 * does not stop the reading (the next record is read), except invalid UTF-8, which stops it: nothing after it can
 * be trusted.
 */
export async function* readDataset(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  format: DatasetFormat,
): AsyncGenerator<DatasetItem[]> {
  const text = decoded(chunks);
  let said = 0;
  const batches = format === 'csv' || format === 'tsv' ? csvItems(text, format) : jsonItems(text, format);
  for await (const batch of batches) {
    const kept = batch.some(item => item.kind === 'problem')
      ? batch.filter(item => item.kind !== 'problem' || ++said <= MAX_SYNTAX_PROBLEMS)
      : batch;
    if (kept.length) yield kept;
  }
  if (said > MAX_SYNTAX_PROBLEMS) {
    const more = said - MAX_SYNTAX_PROBLEMS;
    yield [{ kind: 'problem', line: 1, column: 1, message: `…and ${more} more problems like these in this file.` }];
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

/** csv-parse's engine: what its stream Parser runs on each chunk written to it, and its counts. */
interface CsvEngine {
  /** Reads a chunk (undefined and `end` at the end of the file), handing each record to `push`, in order. */
  parse(
    chunk: Buffer | undefined,
    end: boolean,
    push: (record: string[]) => void,
    close: () => void,
  ): Error | undefined;
  /** `lines`: the line the engine is on (a record's last line, when it is pushed) */
  readonly info: { readonly lines: number };
}

/**
 * csv-parse's engine, run a chunk at a time: the stream Parser around it hands the records out one at a time through
 * a Readable (an await a record: a fifth of the time of a million-row file) and its `info: true` builds an object of
 * a dozen fields a record. It is the Parser's own `api` (csv-parse 5 on; the version is pinned, and the CSV tests
 * read through it). The Parser is made here, not when this module loads: in the extension, csv-parse comes from the
 * bundle loaded when a dataset is first read (scripts/bundles.mjs).
 */
function csvEngine(options: Options): CsvEngine {
  const engine = (new Parser(options) as unknown as { api?: CsvEngine }).api;
  if (typeof engine?.parse !== 'function')
    throw new Error('csv-parse has no engine (Parser.api): its version changed.');
  return engine;
}

/**
 * The most of a text handed to the engine at once: the records of a batch are those of this many bytes at most. A
 * batch's rows live until the suite's scan has them all as cases with ids; 16 KB rather than 64 KB leaves the collector
 * fewer to keep, and a million rows were read in 15 % less time (medians of six runs of the bench, in turns).
 */
const BATCH_BYTES = 16_000;

/** Whether a value holds a line end (a quoted value may). */
const hasLineEnd = (s: string) => s.includes('\n') || s.includes('\r');

async function* csvItems(text: AsyncIterable<string>, format: 'csv' | 'tsv'): AsyncGenerator<DatasetItem[]> {
  /** what csv-parse skipped, said in order with the records around it */
  const skipped: CsvError[] = [];
  let columns: string[] | undefined;
  const engine = csvEngine({
    delimiter: format === 'tsv' ? '\t' : ',',
    skip_empty_lines: true,
    skip_records_with_error: true,
    // a TSV file writes a quote as it is; a quoted value is still read as one
    ...(format === 'tsv' ? { relax_quotes: true } : {}),
    on_skip: (e: CsvError | undefined) => {
      if (e) skipped.push(e);
    },
  });
  /** the records of the chunk read, and the last line of each */
  const records: string[][] = [];
  const lastLines: number[] = [];
  const push = (record: string[]) => {
    records.push(record);
    lastLines.push(engine.info.lines);
  };
  const close = () => {};
  let stop = false;
  /** the problems of records skipped before `line` (all of them when undefined), in order */
  function said(items: DatasetItem[], line?: number): void {
    while (skipped.length && !stop) {
      const e = skipped[0]!;
      const at = typeof e.lines === 'number' ? e.lines : 1;
      if (line !== undefined && at >= line) return;
      skipped.shift();
      items.push({ kind: 'problem', line: at, column: 1, message: csvMessage(e, columns?.length ?? 0) });
      // a quote out of place: what follows it cannot be read as the author meant
      if (QUOTE_ERRORS.has(e.code)) stop = true;
    }
  }
  /** `\r\n` inside quoted values so far: csv-parse counts each as two line ends, a person as one */
  let crlf = 0;
  /** the last line of the record read before (csv-parse counts from line 1) */
  let lastLine = 0;
  /** The records read so far as items, with the problems of the records skipped between them. */
  function items(atEnd: boolean): DatasetItem[] {
    const out: DatasetItem[] = [];
    for (let r = 0; r < records.length; r++) {
      const record = records[r]!;
      // where the record starts: its last line, less the line ends inside its quoted values. csv-parse counts a line
      // for each `\r` and `\n` it meets once it reads the character after it, so a record that ends on the line after
      // the last one's has none in its values, and they are looked for only in the others; and in the last records,
      // read at the end of the file, where a value's `\r` may be its last character
      let inside = 0;
      if (atEnd || lastLines[r]! - lastLine !== 1)
        for (const field of record)
          if (hasLineEnd(field)) {
            const pairs = field.split('\r\n').length - 1;
            crlf += pairs;
            inside += (field.match(/\r\n|\r|\n/g) ?? []).length;
          }
      lastLine = lastLines[r]!;
      const line = Math.max(1, lastLines[r]! - crlf - inside);
      if (skipped.length) said(out, line);
      if (stop) break;
      if (!columns) {
        columns = record;
        out.push({ kind: 'header', columns, line });
        continue;
      }
      // csv-parse skips a record of another length than the header's
      out.push({ kind: 'record', line, endLine: line + inside, value: record, columns });
    }
    records.length = 0;
    lastLines.length = 0;
    return out;
  }
  const read = (chunk: Buffer | undefined) => {
    const e = engine.parse(chunk, chunk === undefined, push, close);
    if (e) throw e;
    return items(chunk === undefined);
  };
  for await (const chunk of text) {
    const bytes = Buffer.from(chunk);
    for (let at = 0; at < bytes.length && !stop; at += BATCH_BYTES) {
      const batch = read(bytes.subarray(at, at + BATCH_BYTES));
      if (batch.length) yield batch;
    }
    if (stop) return;
  }
  const last = read(undefined);
  said(last);
  if (last.length) yield last;
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

async function* jsonItems(text: AsyncIterable<string>, format: 'jsonl' | 'json'): AsyncGenerator<DatasetItem[]> {
  const batches = format === 'jsonl' ? jsonLines(text) : arrayElements(text);
  for await (const pieces of batches) yield pieces.map(piece => jsonItem(piece, format));
}

/** A JSON Lines line or a JSON array's element as a record, or the problem that it is not JSON. */
function jsonItem(piece: Piece, format: 'jsonl' | 'json'): DatasetItem {
  if ('problem' in piece) return { kind: 'problem', ...piece.problem };
  try {
    const value: unknown = JSON.parse(piece.text);
    const endLine = format === 'jsonl' ? piece.line : piece.line + newlines(piece.text);
    return { kind: 'record', line: piece.line, endLine, column: piece.column, value, text: piece.text };
  } catch (e) {
    const at = jsonErrorAt(e, piece.text);
    const what = format === 'jsonl' ? 'This line is not JSON' : 'This item of the array is not JSON';
    return {
      kind: 'problem',
      line: piece.line + at.line - 1,
      column: (at.line === 1 ? piece.column - 1 : 0) + at.column,
      message:
        `${what} (${at.why}). ` +
        (format === 'jsonl' ? 'Each line holds one JSON object, on one line.' : 'Check its quotes and commas.'),
    };
  }
}

type Piece = { text: string; line: number; column: number } | { problem: DatasetSyntaxProblem };

/** Each non-blank line of a JSON Lines file (a line end `\r\n` or `\n`) and its line number, a chunk's at once. */
async function* jsonLines(text: AsyncIterable<string>): AsyncGenerator<Piece[]> {
  let pending = '';
  let line = 1;
  const piece = (s: string, at: number): Piece | undefined => {
    const t = s.endsWith('\r') ? s.slice(0, -1) : s;
    return t.trim() ? { text: t, line: at, column: 1 } : undefined;
  };
  for await (const chunk of text) {
    pending += chunk;
    let start = 0;
    const pieces: Piece[] = [];
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n', start)) {
      const p = piece(pending.slice(start, nl), line++);
      if (p) pieces.push(p);
      start = nl + 1;
    }
    pending = pending.slice(start);
    if (pieces.length) yield pieces;
  }
  const last = piece(pending, line);
  if (last) yield [last];
}

/**
 * The elements of a JSON array, each as its own text (those ending in a chunk at once): the array is read a character
 * at a time for its brackets and strings only (JSON.parse reads each element), so one element is held at a time,
 * however long the array.
 */
async function* arrayElements(text: AsyncIterable<string>): AsyncGenerator<Piece[]> {
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
    const pieces: Piece[] = [];
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
        pieces.push(
          problem(
            state === 0
              ? 'A .json dataset holds one array of rows: [ {…}, {…} ]. Use .jsonl for one row a line.'
              : 'Text after the end of the array: a .json dataset holds one array.',
          ),
        );
        yield pieces;
        return;
      }
      if (c === 44 || c === 93) {
        // a comma ends an element, `]` the array
        element += chunk.slice(from, i);
        from = i + 1;
        const t = element.trim();
        element = '';
        if (t) pieces.push({ text: t, line: elementLine, column: elementColumn });
        else if (c === 44 || afterComma)
          pieces.push(problem('An empty item in the array (two commas, or one too many).'));
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
    if (pieces.length) yield pieces;
  }
  if (state === 1) yield [problem('The array is not closed: a .json dataset ends with "]".')];
}
