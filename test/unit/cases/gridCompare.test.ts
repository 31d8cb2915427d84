// The Cases grid's compare mode as plain values: cells paired with their side at a git revision, each settled
// as same/fixed/broke/new/removed with the word diff of the replies once both sides have ended; a side at the
// revision streaming; a run of some cells keeping the others' pairs; leaving compare mode.
import * as assert from 'node:assert/strict';
import type { StreamEvent } from '../../../src/core/api/types';
import { cellViewOf, queuedCell, type CellView, type ComparedCell, type GridView } from '../../../src/core/cases/grid';
import {
  beginComparison,
  compareSummary,
  comparedAxes,
  comparedCells,
  endComparison,
  onBaseUpdate,
  onCurrentEnded,
  pairChange,
  settle,
} from '../../../src/core/cases/gridCompare';
import type { CellKey, CellResult } from '../../../src/core/cases/types';

const key = (caseName: string, model = 'm1'): CellKey => ({ caseName, model });

const result = (c: CellKey, pass: boolean, text: string): CellResult => ({
  ...c,
  status: pass ? 'passed' : 'failed',
  pass,
  assertions: [{ type: 'contains', pass, message: pass ? 'contains "x"' : 'contains "x": not found' }],
  outcome: { text },
});

const view = (c: CellKey, pass: boolean, text: string): CellView => cellViewOf(result(c, pass, text));

const textDelta = (text: string): StreamEvent => ({
  type: 'content_block_delta',
  index: 0,
  delta: { type: 'text_delta', text },
});

function gridOf(cells: CellView[]): GridView {
  return {
    caseFile: 'a.cases.yaml',
    caseFilePath: 'a.cases.yaml',
    caseFileUri: 'file:///a.cases.yaml',
    request: 'a.prompt.json',
    cases: [...new Set(cells.map(c => c.caseName))],
    models: [...new Set(cells.map(c => c.model))],
    cells,
    running: false,
  };
}

describe('cases: the grid compared with a git revision', () => {
  it('pairs the working copy in its order, then what only the revision has; the axes follow', () => {
    const pairs = comparedCells([key('a'), key('gone'), key('b')], [key('b'), key('a'), key('a', 'm2')]);
    assert.deepEqual(
      pairs.map(p => [p.caseName, p.model, p.base?.status ?? '-', p.inCurrent]),
      [
        ['b', 'm1', 'queued', true],
        ['a', 'm1', 'queued', true],
        ['a', 'm2', '-', true],
        ['gone', 'm1', 'queued', false],
      ],
    );
    assert.deepEqual(comparedAxes(pairs), { cases: ['b', 'a', 'gone'], models: ['m1', 'm2'] });
  });

  it('the change once every side has ended: fixed, broke, same, new, removed; none while one runs', () => {
    const c = key('a');
    assert.equal(pairChange(view(c, false, ''), view(c, true, '')), 'fixed');
    assert.equal(pairChange(view(c, true, ''), view(c, false, '')), 'broke');
    assert.equal(pairChange(view(c, true, ''), view(c, true, '')), 'same');
    assert.equal(pairChange(undefined, view(c, true, '')), 'new');
    assert.equal(pairChange(view(c, true, ''), undefined), 'removed');
    assert.equal(pairChange(queuedCell(c), view(c, true, '')), undefined);
    assert.equal(pairChange(view(c, true, ''), { ...queuedCell(c), status: 'running' }), undefined);
    const cancelled: CellView = { ...queuedCell(c), status: 'cancelled' };
    assert.equal(pairChange(cancelled, view(c, true, '')), undefined, 'a cancelled side says nothing');
    // a side at the revision that could not be sent counts as failing, as `test --base` counts it
    const notSent: CellView = { ...view(c, false, ''), status: 'error', problems: ['max_tokens: required'] };
    assert.equal(pairChange(notSent, view(c, true, '')), 'fixed');
    assert.equal(pairChange(notSent, view(c, false, '')), 'same');
  });

  it('settles a pair with the word diff of both replies; no diff when a side was not sent', () => {
    const c = key('a');
    const pair: ComparedCell = { ...c, base: view(c, true, 'Hello there, friend.'), inCurrent: true };
    const settled = settle(pair, view(c, false, 'Hello there, enemy.'));
    assert.equal(settled.change, 'broke');
    assert.deepEqual(settled.diff, [
      { kind: 'same', text: 'Hello there, ' },
      { kind: 'removed', text: 'friend' },
      { kind: 'added', text: 'enemy' },
      { kind: 'same', text: '.' },
    ]);
    assert.equal(pair.change, undefined, 'the pair given is left as it was');
    const notSent = { ...view(c, false, ''), status: 'error' as const, problems: ['bad'] };
    const noDiff = settle({ ...pair, base: notSent }, view(c, true, 'Hi'));
    assert.equal(noDiff.change, 'fixed');
    assert.equal(noDiff.diff, undefined);
    // a side that runs again unsettles the pair
    const again = settle(settled, { ...queuedCell(c), status: 'running' });
    assert.equal(again.change, undefined);
    assert.equal(again.diff, undefined);
  });

  it('the summary counts the settled pairs, the most urgent first', () => {
    assert.equal(
      compareSummary([{ change: 'same' }, { change: 'broke' }, {}, { change: 'fixed' }, { change: 'broke' }]),
      '2 broke · 1 fixed · 1 same',
    );
    assert.equal(compareSummary([{}, {}]), '');
  });

  it("the revision's side streams, ends and settles with the working copy's, in either order", () => {
    const a = key('a');
    const b = key('b');
    const grid = gridOf([queuedCell(a), queuedCell(b)]);
    beginComparison(grid, { ref: 'HEAD', sha: 'f'.repeat(40), cells: [a, b] }, [a, b], () => true);
    const compare = grid.compare!;
    const running = { ...result(a, false, ''), status: 'running' as const };
    const [started] = onBaseUpdate(compare, running, undefined, undefined);
    assert.ok(started && 'pair' in started);
    assert.equal(started.pair.base!.status, 'running');
    assert.deepEqual(onBaseUpdate(compare, running, textDelta('Bonjour'), undefined), [{ append: 'Bonjour' }]);
    assert.equal(compare.cells[0]!.base!.text, 'Bonjour');
    // the base ends first: nothing settles until the working copy's side has ended too
    const [ended] = onBaseUpdate(compare, result(a, true, 'Bonjour'), undefined, {
      ...queuedCell(a),
      status: 'running',
    });
    assert.ok(ended && 'pair' in ended);
    assert.equal(ended.pair.change, undefined);
    const settled = onCurrentEnded(compare, view(a, false, 'Hello'));
    assert.equal(settled?.change, 'broke');
    assert.deepEqual(settled?.diff, [
      { kind: 'removed', text: 'Bonjour' },
      { kind: 'added', text: 'Hello' },
    ]);
    // the other cell: the working copy's side first, then the base's
    assert.equal(onCurrentEnded(compare, view(b, true, 'x'))?.change, undefined);
    const [last] = onBaseUpdate(compare, result(b, false, 'y'), undefined, view(b, true, 'x'));
    assert.ok(last && 'pair' in last);
    assert.equal(last.pair.change, 'fixed');
    assert.equal(compareSummary(compare.cells), '1 broke · 1 fixed');
  });

  it('a run of some cells keeps the other pairs; another commit, or other cells, start over', () => {
    const a = key('a');
    const b = key('b');
    const grid = gridOf([view(a, true, 'x'), view(b, true, 'y')]);
    const sha = '1'.repeat(40);
    assert.equal(beginComparison(grid, { ref: 'HEAD', sha, cells: [a, b] }, [a, b], () => true).kept, false);
    grid.compare!.cells = grid.compare!.cells.map(p => settle({ ...p, base: view(p, true, 'x') }, view(p, true, 'x')));
    const onlyB = (c: CellKey) => c.caseName === 'b';
    assert.equal(beginComparison(grid, { ref: 'HEAD', sha, cells: [a, b] }, [a, b], onlyB).kept, true);
    assert.equal(grid.compare!.cells[0]!.change, 'same', 'a was not in this run: its pair stays');
    assert.equal(grid.compare!.cells[1]!.base!.status, 'queued', 'b runs again on both sides');
    assert.equal(grid.compare!.cells[1]!.change, undefined);
    const other = '2'.repeat(40);
    assert.equal(beginComparison(grid, { ref: 'HEAD', sha: other, cells: [a, b] }, [a, b], onlyB).kept, false);
    assert.equal(beginComparison(grid, { ref: 'HEAD', sha: other, cells: [a] }, [a, b], onlyB).kept, false);
  });

  it('the rows and columns only the revision has join the grid; leaving compare mode drops them', () => {
    const a = key('a');
    const grid = gridOf([queuedCell(a)]);
    beginComparison(grid, { ref: 'main', sha: 'a'.repeat(40), cells: [a, key('gone', 'm0')] }, [a], () => true);
    assert.deepEqual(
      [grid.cases, grid.models],
      [
        ['a', 'gone'],
        ['m1', 'm0'],
      ],
    );
    assert.deepEqual(
      grid.compare!.cells.map(p => [p.caseName, p.inCurrent, !!p.base]),
      [
        ['a', true, true],
        ['gone', false, true],
      ],
    );
    endComparison(grid);
    assert.equal(grid.compare, undefined);
    assert.deepEqual([grid.cases, grid.models], [['a'], ['m1']]);
  });

  it('a version at the revision that cannot be used: every cell set against its problems, settled as they end', () => {
    const a = key('a');
    const b = key('b');
    const grid = gridOf([queuedCell(a), queuedCell(b)]);
    const problems = ['a.cases.yaml:3:1: unknown-field: "cases" has no field "prompt"'];
    beginComparison(grid, { ref: 'HEAD', sha: 'c'.repeat(40), problems, cells: [] }, [a, b], () => true);
    assert.deepEqual(
      grid.compare!.cells.map(p => [p.caseName, p.base?.status, p.base?.problems]),
      [
        ['a', 'error', problems],
        ['b', 'error', problems],
      ],
    );
    assert.equal(onCurrentEnded(grid.compare!, view(a, true, 'ok'))?.change, 'fixed');
    assert.equal(onCurrentEnded(grid.compare!, view(b, false, 'no'))?.change, 'same');
  });

  it('a case file the revision does not have: every cell is new', () => {
    const a = key('a');
    const grid = gridOf([queuedCell(a)]);
    beginComparison(grid, { ref: 'HEAD', sha: 'd'.repeat(40), notice: 'not there', cells: [] }, [a], () => true);
    assert.equal(grid.compare!.notice, 'not there');
    assert.equal(onCurrentEnded(grid.compare!, view(a, false, 'no'))?.change, 'new');
  });
});
