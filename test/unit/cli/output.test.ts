// How the CLI prints `--format json` lists: printJsonArray writes, a record at a time, exactly the bytes of
// `JSON.stringify(list, null, 2)` and a line end, in pieces rather than as one string.
import * as assert from 'node:assert/strict';
import { printJsonArray } from '../../../src/core/cli/output';
import type { CliIo } from '../../../src/core/cli/io';

/** What printJsonArray writes, as the pieces it wrote them in. */
function printed<T>(items: readonly T[], json?: (item: T) => unknown): string[] {
  const pieces: string[] = [];
  const io: CliIo = { stdout: { write: (s: string) => pieces.push(s) }, stderr: { write: () => true }, env: {} };
  printJsonArray(io, items, json);
  return pieces;
}

const whole = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('printJsonArray', () => {
  it('writes what JSON.stringify(list, null, 2) does', () => {
    const lists: unknown[][] = [
      [],
      [{}],
      [[]],
      [1, 'two', null, true],
      [{ a: 1, b: [1, [2, { c: 'd' }]], e: {} }],
      [{ text: 'a line\nanother\r\n\tand "quotes" \\ \u2028' }, { text: '' }],
      [{ nested: { deeper: { deepest: [{ x: 1 }, { y: [] }] } } }, 42],
      [undefined, () => 1, { skipped: undefined, kept: 0 }],
    ];
    for (const list of lists) assert.equal(printed(list).join(''), whole(list), JSON.stringify(list));
  });

  it('maps each record as it writes it', () => {
    const rows = [
      { id: 'a', secret: 1 },
      { id: 'b', secret: 2 },
    ];
    assert.equal(printed(rows, r => ({ id: r.id })).join(''), whole(rows.map(r => ({ id: r.id }))));
  });

  it('writes a long list in pieces, never the whole document at once', () => {
    const cells = Array.from({ length: 5_000 }, (_, i) => ({
      case: `case ${i}`,
      status: 'passed',
      text: 'x'.repeat(40),
    }));
    const pieces = printed(cells);
    assert.equal(pieces.join(''), whole(cells));
    const size = whole(cells).length;
    assert.ok(pieces.length >= Math.floor(size / 65_536), `${pieces.length} pieces for ${size} characters`);
    assert.ok(Math.max(...pieces.map(p => p.length)) < 70_000, 'each piece is about 64 KB');
  });
});
