// How the CLI prints `--format json` lists: printJsonArray writes, a record at a time, exactly the bytes of
// `JSON.stringify(list, null, 2)` and a line end, in pieces rather than as one string.
import * as assert from 'node:assert/strict';
import { printJsonArray } from '../../../src/cli/output';
import type { CliIo } from '../../../src/cli/io';

/** What printJsonArray writes, as the pieces it wrote them in. */
async function printed<T>(items: readonly T[], json?: (item: T) => unknown): Promise<string[]> {
  const pieces: string[] = [];
  const io: CliIo = { stdout: { write: (s: string) => pieces.push(s) }, stderr: { write: () => true }, env: {} };
  await printJsonArray(io, items, json);
  return pieces;
}

const whole = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('printJsonArray', () => {
  it('writes what JSON.stringify(list, null, 2) does', async () => {
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
    for (const list of lists) assert.equal((await printed(list)).join(''), whole(list), JSON.stringify(list));
  });

  it('maps each record as it writes it', async () => {
    const rows = [
      { id: 'a', secret: 1 },
      { id: 'b', secret: 2 },
    ];
    assert.equal((await printed(rows, r => ({ id: r.id }))).join(''), whole(rows.map(r => ({ id: r.id }))));
  });

  it('writes a long list in pieces, never the whole document at once', async () => {
    const cells = Array.from({ length: 5_000 }, (_, i) => ({
      case: `case ${i}`,
      status: 'passed',
      text: 'x'.repeat(40),
    }));
    const pieces = await printed(cells);
    assert.equal(pieces.join(''), whole(cells));
    const size = whole(cells).length;
    assert.ok(pieces.length >= Math.floor(size / 65_536), `${pieces.length} pieces for ${size} characters`);
    assert.ok(Math.max(...pieces.map(p => p.length)) < 70_000, 'each piece is about 64 KB');
  });

  it('writes the next piece only once a full stream has drained', async () => {
    const cells = Array.from({ length: 3_000 }, (_, i) => ({ case: `case ${i}`, text: 'y'.repeat(60) }));
    const pieces: string[] = [];
    let drain: (() => void) | undefined;
    const io: CliIo = {
      // a pipe read slowly: every write fills its buffer
      stdout: { write: (s: string) => (pieces.push(s), false), once: (_e, listener) => (drain = listener) },
      stderr: { write: () => true },
      env: {},
    };
    const done = printJsonArray(io, cells);
    const waiting = async () => {
      for (let i = 0; i < 5; i++) await new Promise(resolve => setImmediate(resolve));
    };
    await waiting();
    assert.equal(pieces.length, 1, 'one piece, then it waits');
    let drains = 0;
    while (drain) {
      const resume = drain;
      drain = undefined;
      drains++;
      const before = pieces.length;
      resume();
      await waiting();
      assert.ok(pieces.length - before <= 1, 'at most one more piece per drain');
    }
    await done;
    assert.equal(pieces.join(''), whole(cells));
    assert.ok(drains >= 3, `${drains} drains`);
  });
});
