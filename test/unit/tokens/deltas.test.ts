// Token deltas in the words every report uses, the --max-increase limit in both forms, and the change of
// each part of a Token Breakdown.
import * as assert from 'node:assert/strict';
import {
  changeWords,
  deltaLine,
  deltaOf,
  exceeds,
  parseIncreaseLimit,
  partDeltas,
  signedPercent,
  signedTokens,
} from '../../../src/core/tokens/deltas';

describe('compare: deltas', () => {
  it('a change in tokens and percent, said with its sign', () => {
    assert.deepEqual(deltaOf(1180, 1236), { before: 1180, after: 1236, delta: 56, percent: (100 * 56) / 1180 });
    assert.equal(deltaLine(deltaOf(1180, 1236)), '1,180 → 1,236  (+56, +4.7%)');
    assert.equal(deltaLine(deltaOf(1236, 1180)), '1,236 → 1,180  (-56, -4.5%)');
    assert.equal(deltaLine(deltaOf(5, 5)), '5 → 5  (±0, ±0%)');
    assert.equal(signedTokens(12_345), '+12,345');
    assert.equal(signedPercent(0.01), '+0.1%', 'a tiny growth is not shown as none');
  });

  it('a new file has no before, a deleted one no after', () => {
    assert.deepEqual(deltaOf(null, 10), { before: null, after: 10, delta: null, percent: null });
    assert.equal(changeWords(deltaOf(null, 10)), 'new');
    assert.equal(changeWords(deltaOf(10, undefined)), 'deleted');
    assert.equal(deltaLine(deltaOf(null, 300)), '— → 300  (new)');
  });

  it('--max-increase: N tokens or P%, only for counts that existed before', () => {
    assert.deepEqual(parseIncreaseLimit('100'), { tokens: 100 });
    assert.deepEqual(parseIncreaseLimit('2.5%'), { percent: 2.5 });
    for (const bad of ['', '-5', '5 tokens', '%', '1e3', 'ten']) assert.equal(parseIncreaseLimit(bad), undefined, bad);
    const tokens = { tokens: 50 };
    assert.ok(!exceeds(tokens, deltaOf(1000, 1050)), 'exactly the limit is allowed');
    assert.ok(exceeds(tokens, deltaOf(1000, 1051)));
    assert.ok(!exceeds(tokens, deltaOf(null, 100_000)), 'a new file is reported, not held to it');
    assert.ok(!exceeds(tokens, deltaOf(1000, 10)), 'shrinking never exceeds');
    const percent = { percent: 5 };
    assert.ok(!exceeds(percent, deltaOf(1000, 1050)));
    assert.ok(exceeds(percent, deltaOf(1000, 1051)));
  });

  it('Token Breakdown parts against the base: by label; a part the base has not is null', () => {
    const part = (label: string, tokens: number) => ({ label, path: [label], tokens });
    const d = partDeltas(
      [part('system', 120), part('messages[0] (user)', 40), part('messages[1] (assistant)', 9)],
      [part('system', 100), part('messages[0] (user)', 40)],
    );
    assert.deepEqual(
      [...d],
      [
        ['system', 20],
        ['messages[0] (user)', 0],
        ['messages[1] (assistant)', null],
      ],
    );
  });
});
