// core/text: the helpers both the extension and the CLI (and the webviews) use.
import * as assert from 'node:assert/strict';
import { lineColumn } from '../../src/core/request/records';
import { count, LineIndex, thousands } from '../../src/core/text';

describe('LineIndex', () => {
  it('turns offsets into lines and characters, for \\n, \\r\\n and \\r', () => {
    const text = 'ab\ncd\r\nef\rgh';
    const idx = new LineIndex(text);
    const at = (s: string) => idx.position(text.indexOf(s));
    assert.deepEqual(at('a'), { line: 0, character: 0 });
    assert.deepEqual(at('d'), { line: 1, character: 1 });
    assert.deepEqual(at('e'), { line: 2, character: 0 });
    assert.deepEqual(at('h'), { line: 3, character: 1 });
    assert.deepEqual(idx.position(text.length), { line: 3, character: 2 });
  });
});

describe('one line count for the editor and the CLI', () => {
  it('the CLI reports the same line as the editor for LF, CRLF and a lone CR', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = ['{', '  "model": "m",', '  "max_tokens": 5', '}'].join(eol);
      const at = text.indexOf('max_tokens');
      const editor = new LineIndex(text).position(at);
      assert.deepEqual(
        lineColumn(text)(at),
        { line: editor.line + 1, column: editor.character + 1 },
        JSON.stringify(eol),
      );
      assert.deepEqual(lineColumn(text)(at), { line: 3, column: 4 }, JSON.stringify(eol));
    }
  });
});

describe('count', () => {
  it('singular for one, grouped digits, irregular plurals', () => {
    assert.equal(count(1, 'record'), '1 record');
    assert.equal(count(2000, 'record'), '2,000 records');
    assert.equal(count(2, 'ox', 'oxen'), '2 oxen');
  });
});

describe('thousands', () => {
  it('writes numbers as en-US does everywhere, with one formatter: a thousand of them in well under 50 ms', () => {
    const samples = [0, 7, 999, 1000, 12_345, -2_500_000, 1234.5678, 9_007_199_254_740_991];
    assert.deepEqual(samples.map(thousands), [
      '0',
      '7',
      '999',
      '1,000',
      '12,345',
      '-2,500,000',
      '1,234.568',
      '9,007,199,254,740,991',
    ]);
    const t0 = performance.now();
    for (let n = 0; n < 1000; n++) thousands(n * 1001);
    // toLocaleString('en-US') builds a formatter each call: 0.1 to 0.7 ms, 100 to 700 ms for these
    assert.ok(performance.now() - t0 < 50, `${performance.now() - t0} ms`);
  });
});
