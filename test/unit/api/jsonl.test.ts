import * as assert from 'node:assert/strict';
import { readJsonLines, readLines, type MalformedLine } from '../../../src/core/api/jsonl';
import { LineTooLong } from '../../../src/core/api/limits';

const enc = new TextEncoder();

/** A body that hands out the given chunks one read at a time, and says whether it was cancelled. */
function body(chunks: Uint8Array[]): {
  stream: ReadableStream<Uint8Array>;
  cancelled: () => boolean;
  reads: () => number;
} {
  let i = 0;
  let cancelled = false;
  let reads = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      reads++;
      if (i < chunks.length) c.enqueue(chunks[i++]);
      else c.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled, reads: () => reads };
}

/** The bytes of `text` cut every `size` bytes (a multi-byte character may be cut in two). */
function cut(text: string, size: number): Uint8Array[] {
  const bytes = enc.encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function lines(chunks: Uint8Array[]): Promise<string[]> {
  const out: string[] = [];
  for await (const l of readLines(body(chunks).stream)) out.push(l.text);
  return out;
}

describe('JSON Lines reader', () => {
  it('reads lines split across chunks, at every cut, multi-byte characters included', async () => {
    const text = '{"a":"é"}\n{"b":"日本"}\r\n\n{"c":"🎉"}';
    const want = ['{"a":"é"}', '{"b":"日本"}', '{"c":"🎉"}'];
    for (let size = 1; size <= enc.encode(text).length; size++) assert.deepEqual(await lines(cut(text, size)), want);
  });

  it('hands out a line as soon as its newline arrives, before the body ends', async () => {
    let pushMore: (() => void) | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode('{"first":1}\n{"sec'));
        pushMore = () => {
          c.enqueue(enc.encode('ond":2}\n'));
          c.close();
        };
      },
    });
    const it = readLines(stream)[Symbol.asyncIterator]();
    assert.deepEqual((await it.next()).value, { n: 1, text: '{"first":1}' });
    pushMore!();
    assert.deepEqual((await it.next()).value, { n: 2, text: '{"second":2}' });
    assert.equal((await it.next()).done, true);
  });

  it('reads a 10,000-line body in 4 KB chunks, holding one line at a time', async () => {
    const n = 10_000;
    const text = Array.from({ length: n }, (_, i) => JSON.stringify({ custom_id: `c${i}`, result: { type: 'x' } }))
      .join('\n')
      .concat('\n');
    const b = body(cut(text, 4096));
    let seen = 0;
    let last = -1;
    for await (const v of readJsonLines(b.stream)) {
      const id = Number((v as { custom_id: string }).custom_id.slice(1));
      assert.equal(id, last + 1);
      last = id;
      seen++;
    }
    assert.equal(seen, n);
    assert.equal(b.cancelled(), false);
  });

  it('a long line in small chunks is read in time linear in its size', async () => {
    const big = `{"x":"${'a'.repeat(2_000_000)}"}\n`;
    const t0 = performance.now();
    const got = await lines(cut(big, 64));
    assert.equal(got[0]!.length, big.length - 1);
    // rescanning the line at every chunk would be ~30,000 × 1 MB: minutes, not a second
    assert.ok(performance.now() - t0 < 5000);
  });

  it('a last line without a newline is read; blank lines are skipped but counted', async () => {
    const got: [number, string][] = [];
    for await (const l of readLines(body(cut('a\n\n  \nb', 3)).stream)) got.push([l.n, l.text]);
    assert.deepEqual(got, [
      [1, 'a'],
      [4, 'b'],
    ]);
  });

  it('a malformed line is reported with its number and skipped; the others are read', async () => {
    const bad: MalformedLine[] = [];
    const values: unknown[] = [];
    const text = '{"ok":1}\n{"truncated": \n{"ok":2}\n';
    for await (const v of readJsonLines(body(cut(text, 5)).stream, { onMalformed: m => bad.push(m) })) values.push(v);
    assert.deepEqual(values, [{ ok: 1 }, { ok: 2 }]);
    assert.equal(bad.length, 1);
    assert.equal(bad[0]!.n, 2);
    assert.match(bad[0]!.problem, /^line 2 is not JSON/);
  });

  it('a consumer that stops early cancels the body', async () => {
    const b = body(cut('{"a":1}\n{"b":2}\n{"c":3}\n', 8));
    for await (const v of readJsonLines(b.stream)) {
      assert.deepEqual(v, { a: 1 });
      break;
    }
    assert.equal(b.cancelled(), true);
  });

  it('calls onBytes for every chunk (the idle timer restarts)', async () => {
    let calls = 0;
    const chunks = cut('{"a":1}\n{"b":2}\n', 4);
    for await (const _ of readLines(body(chunks).stream, () => calls++)) void _;
    assert.equal(calls, chunks.length);
  });
  it('a line longer than its bound stops the reading (the rest cancelled); a line at the bound is read', async () => {
    const lines: string[] = [];
    const ok = body(cut(`${'a'.repeat(100)}\n${'b'.repeat(101)}\n{"c":1}\n`, 7));
    await assert.rejects(
      (async () => {
        for await (const l of readLines(ok.stream, undefined, 100)) lines.push(l.text);
      })(),
      (e: unknown) => e instanceof LineTooLong && /^Line 2 of the answer is longer than 100 bytes/.test(e.message),
    );
    assert.deepEqual(lines, ['a'.repeat(100)]);
    assert.equal(ok.cancelled(), true);
  });
});
