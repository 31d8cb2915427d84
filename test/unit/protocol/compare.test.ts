// The Compare page's protocol: what the webview sends is untrusted input, so every message is checked for
// its shape and bounds (a column is one of the few a comparison has), and anything else is dropped.
import * as assert from 'node:assert/strict';
import { MAX_COLUMNS, parseFromCompareWebview, type FromCompareWebview } from '../../../src/protocol/compare';

describe('Compare protocol', () => {
  it('accepts every message kind in its shape, and keeps only the known fields', () => {
    const good: FromCompareWebview[] = [
      { type: 'ready' },
      { type: 'run-again' },
      { type: 'cancel' },
      { type: 'diff', a: 0, b: 1 },
      { type: 'diff', a: MAX_COLUMNS - 1, b: 0 },
      { type: 'open-link', url: 'https://example.com/docs' },
    ];
    for (const m of good) assert.deepEqual(parseFromCompareWebview(m), m, JSON.stringify(m));
    assert.deepEqual(parseFromCompareWebview({ type: 'cancel', columns: [0, 1] }), { type: 'cancel' });
  });

  it('drops anything malformed: unknown kinds, a diff of one column with itself or out of range, other links', () => {
    const bad: unknown[] = [
      null,
      'ready',
      [],
      { type: 'run' },
      { type: 'diff', a: 1, b: 1 },
      { type: 'diff', a: -1, b: 0 },
      { type: 'diff', a: 0, b: MAX_COLUMNS },
      { type: 'diff', a: 0.5, b: 1 },
      { type: 'diff', a: '0', b: '1' },
      { type: 'open-link', url: 'javascript:alert(1)' },
      { type: 'open-link', url: `https://example.com/${'x'.repeat(5000)}` },
    ];
    for (const m of bad) assert.equal(parseFromCompareWebview(m), undefined, JSON.stringify(m));
  });
});
