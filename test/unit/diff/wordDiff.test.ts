// The word diff: true (each side rebuilt from its parts), minimal on small edits, readable (a changed
// phrase is one replacement), and bounded on large unrelated texts.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { differs, diffWords, plainWordDiff, type DiffPart } from '../../../src/core/diff/wordDiff';

const side = (parts: readonly DiffPart[], which: 'before' | 'after') =>
  parts
    .filter(p => p.kind === 'same' || p.kind === (which === 'before' ? 'removed' : 'added'))
    .map(p => p.text)
    .join('');

describe('compare: word diff', () => {
  it('one changed word', () => {
    const parts = diffWords('Hello! You said: hi there', 'Hello! You said: hello there');
    assert.equal(plainWordDiff(parts), 'Hello! You said: [-hi-]{+hello+} there');
    assert.ok(differs(parts));
  });

  it('words added and removed at the start, the middle and the end', () => {
    assert.equal(plainWordDiff(diffWords('a b c', 'x a b c')), '{+x +}a b c');
    assert.equal(plainWordDiff(diffWords('a b c', 'a c')), 'a [-b -]c');
    assert.equal(plainWordDiff(diffWords('a b c', 'a b c d')), 'a b c{+ d+}');
  });

  it('a changed phrase is one replacement, not word by word', () => {
    assert.equal(
      plainWordDiff(diffWords('the quick brown fox', 'a slow brown fox')),
      '[-the quick-]{+a slow+} brown fox',
    );
  });

  it('punctuation is a token of its own', () => {
    assert.equal(plainWordDiff(diffWords('Yes, I can.', 'Yes; I can!')), 'Yes[-,-]{+;+} I can[-.-]{+!+}');
  });

  it('the same text, and empty texts', () => {
    assert.deepEqual(diffWords('same', 'same'), [{ kind: 'same', text: 'same' }]);
    assert.ok(!differs(diffWords('same', 'same')));
    assert.deepEqual(diffWords('', ''), []);
    assert.deepEqual(diffWords('', 'new'), [{ kind: 'added', text: 'new' }]);
    assert.deepEqual(diffWords('old', ''), [{ kind: 'removed', text: 'old' }]);
  });

  it('either side is rebuilt exactly from its parts (property)', () => {
    const words = fc.array(fc.constantFrom('a', 'b', 'c', 'de', ' ', '  ', '\n', ',', 'é', '🙂', 'x1'), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(words, words, (a, b) => {
        const before = a.join('');
        const after = b.join('');
        const parts = diffWords(before, after);
        assert.equal(side(parts, 'before'), before);
        assert.equal(side(parts, 'after'), after);
        assert.equal(differs(parts), before !== after);
      }),
      { numRuns: 300 },
    );
  });

  it('two large unrelated texts: still a true diff (past the bound on edits, the middle replaced whole)', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `alpha${i}`).join(' ');
    const b = Array.from({ length: 20_000 }, (_, i) => `beta${i}`).join(' ');
    const parts = diffWords(a, b);
    assert.equal(side(parts, 'before'), a);
    assert.equal(side(parts, 'after'), b);
  });

  it('a long text with a few edits: only those edits', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `w${i}`);
    const edited = [...words];
    edited[10] = 'CHANGED';
    edited.splice(4000, 1);
    const parts = diffWords(words.join(' '), edited.join(' '));
    assert.deepEqual(
      parts.filter(p => p.kind !== 'same'),
      [
        { kind: 'removed', text: 'w10' },
        { kind: 'added', text: 'CHANGED' },
        { kind: 'removed', text: ' w4000' },
      ],
    );
  });
});
