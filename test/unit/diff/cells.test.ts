// What a change did to a cell's verdict, and the pairing of a run's cells across two versions.
import * as assert from 'node:assert/strict';
import { cellChange, changeOf, pairCells } from '../../../src/core/diff/cells';

describe('compare: cells', () => {
  it('same, fixed, broke, new, removed; a base that could not be sent counts as failing', () => {
    assert.equal(changeOf(true, true), 'same');
    assert.equal(changeOf(false, false), 'same');
    assert.equal(changeOf(false, true), 'fixed');
    assert.equal(changeOf(true, false), 'broke');
    assert.equal(changeOf(undefined, true), 'new');
    assert.equal(changeOf(true, undefined), 'removed');
    assert.equal(changeOf(null, true), 'fixed');
    assert.equal(changeOf(null, false), 'same');
  });

  it('with samples: the pass state first, then the pass count (4/5 → 2/5 broke it, both failing)', () => {
    const v = (pass: boolean, passed: number, n: number) => ({ pass, passedSamples: passed, samples: Array(n) });
    assert.equal(cellChange(v(false, 4, 5), v(false, 2, 5)), 'broke');
    assert.equal(cellChange(v(false, 2, 5), v(false, 4, 5)), 'fixed');
    assert.equal(cellChange(v(true, 5, 5), v(false, 4, 5)), 'broke');
    assert.equal(cellChange(v(true, 3, 5), v(true, 3, 5)), 'same');
    // counts of different repeats compare as shares: 2 of 4 is 4 of 8
    assert.equal(cellChange(v(false, 2, 4), v(false, 4, 8)), 'same');
    assert.equal(cellChange(null, v(false, 4, 5)), 'same', 'not sent counts as failing');
    assert.equal(cellChange(undefined, v(true, 1, 1)), 'new');
    assert.equal(cellChange({ pass: true }, { pass: true }), 'same', 'results without samples');
  });

  it('pairs by file, case and model: the current order, then what only the base has', () => {
    const c = (file: string, caseName: string, model: string) => ({ file, caseName, model });
    const base = [c('f', 'a', 'm1'), c('f', 'gone', 'm1'), c('f', 'b', 'm1')];
    const current = [c('f', 'b', 'm1'), c('f', 'a', 'm1'), c('f', 'a', 'm2')];
    const pairs = pairCells(base, current).map(p => [
      p.base?.caseName ?? '-',
      p.current ? `${p.current.caseName}/${p.current.model}` : '-',
    ]);
    assert.deepEqual(pairs, [
      ['b', 'b/m1'],
      ['a', 'a/m1'],
      ['-', 'a/m2'],
      ['gone', '-'],
    ]);
  });
});
