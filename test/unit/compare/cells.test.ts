// What a change did to a cell's verdict, and the pairing of a run's cells across two versions.
import * as assert from 'node:assert/strict';
import { changeOf, pairCells } from '../../../src/core/compare/cells';

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
