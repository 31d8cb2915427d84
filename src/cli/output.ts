// How a command prints what the service returned: `--format json` (one array for a list, the object for
// one) or `--format text`, an aligned table; columns say how each record becomes cells.
import { collect } from '../core/api/paging';
import { count } from '../core/text';
import { cancelled } from './guard';
import type { CliIo } from './io';

export type Column<T> = [header: string, cell: (r: T) => string | null | undefined];

export function table<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map(r => columns.map(([, f]) => (f(r) ?? '').replace(/\s+/g, ' ')));
  const widths = columns.map(([h], i) => Math.max(h.length, ...cells.map(c => c[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map(([h]) => h)), ...cells.map(line)].join('\n') + '\n';
}

/** One object in text: `key  value` lines (nested values as JSON). */
function record(o: object): string {
  const entries = Object.entries(o);
  const width = Math.max(...entries.map(([k]) => k.length));
  return (
    entries
      .map(([k, v]) => `${k.padEnd(width)}  ${typeof v === 'string' ? v : v === null ? '-' : JSON.stringify(v)}`)
      .join('\n') + '\n'
  );
}

export async function printList<T>(
  io: CliIo,
  format: string,
  rows: readonly T[],
  columns: readonly Column<T>[],
): Promise<void> {
  if (format === 'json') await printJsonArray(io, rows);
  else io.stdout.write(table(rows, columns));
}

/**
 * A list printed once all its pages came. Cancelled (Ctrl-C) after some pages, it prints the records that
 * came and says the list is incomplete, then lets the cancel through (exit 130).
 */
export async function printPages<T>(
  io: CliIo,
  format: string,
  pages: AsyncIterable<{ data: T[] }>,
  columns: readonly Column<T>[],
  max?: number,
): Promise<void> {
  const rows: T[] = [];
  try {
    await collect(pages, max, rows);
  } catch (e) {
    if (rows.length && cancelled(e, io)) {
      await printList(io, format, rows, columns);
      io.stderr.write(`${count(rows.length, 'record')} came before the cancel (above); the list is incomplete.\n`);
    }
    throw e;
  }
  await printList(io, format, rows, columns);
}

/**
 * `JSON.stringify(items.map(json), null, 2)` and a line end, written a record at a time in pieces of about 64 KB,
 * each after the one before has gone out: the same bytes, without the whole document (12 MB for a suite of 10,000
 * requests) in memory as one string, or as many pieces queued for a pipe that is read slowly.
 */
export async function printJsonArray<T>(
  io: CliIo,
  items: readonly T[],
  json: (item: T) => unknown = x => x,
): Promise<void> {
  if (!items.length) {
    io.stdout.write('[]\n');
    return;
  }
  let piece = '[\n';
  for (let i = 0; i < items.length; i++) {
    // a record inside the array is indented one level more; a JSON string holds no raw line end
    const text = (JSON.stringify(json(items[i]!), null, 2) ?? 'null').replaceAll('\n', '\n  ');
    piece += `  ${text}${i < items.length - 1 ? ',' : ''}\n`;
    if (piece.length >= 65_536) {
      await written(io, piece);
      piece = '';
    }
  }
  await written(io, `${piece}]\n`);
}

/** Writes to stdout; when the stream's buffer is full, resolves once it has drained. */
async function written(io: CliIo, text: string): Promise<void> {
  const { stdout } = io;
  if (stdout.write(text) === false && stdout.once) await new Promise<void>(resolve => stdout.once!('drain', resolve));
}

export function printOne(io: CliIo, format: string, o: object): void {
  io.stdout.write(format === 'json' ? `${JSON.stringify(o, null, 2)}\n` : record(o));
}

/** A date-time as `2026-11-23 10:15` (UTC), for tables. */
export const day = (iso: string | null | undefined): string =>
  iso ? iso.replace('T', ' ').replace(/:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/, '') : '';
