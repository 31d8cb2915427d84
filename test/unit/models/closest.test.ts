// "Did you mean": one distance for the checks (a model id, a case-file key, a stop reason) and the CLI (a command,
// an option, a value): insertions, deletions, substitutions and an adjacent swap each count one edit.
import * as assert from 'node:assert/strict';
import { closest as closestOption } from '../../../src/cli/args';
import { closest, editDistance } from '../../../src/core/models/table';

describe('closest and editDistance (core/models/table)', () => {
  it('counts an adjacent swap as one edit, as the other edits', () => {
    assert.equal(editDistance('fromat', 'format'), 1);
    assert.equal(editDistance('tset', 'test'), 1);
    assert.equal(editDistance('format', 'format'), 0);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('ab', 'ba'), 1);
    assert.equal(editDistance('abc', 'ca'), 3);
  });

  it('the nearest candidate within the distance, the first of a tie; none beyond it', () => {
    assert.equal(closest('model-opus-4-6', ['model-opus-4-7', 'model-sonnet-4-6']), 'model-opus-4-7');
    assert.equal(closest('stop_sequense', ['end_turn', 'stop_sequence', 'tool_use']), 'stop_sequence');
    assert.equal(closest('abcd', ['abce', 'abcf']), 'abce');
    assert.equal(closest('entirely-else', ['format', 'limit']), undefined);
    assert.equal(closest('FORMAT', ['format']), undefined, 'case counts unless asked not to');
    assert.equal(closest('FORAMT', ['format'], 3, { ignoreCase: true }), 'format');
  });

  it('the CLI: a slip of at most a third of the word (its dashes aside), in any case, keeps its candidate', () => {
    assert.equal(closestOption('--fromat', ['--format', '--limit']), '--format');
    assert.equal(closestOption('tset', ['test', 'run']), 'test');
    assert.equal(closestOption('RNU', ['run', 'test']), 'run');
    // a swap in a word of five is a slip; three edits are not
    assert.equal(closestOption('cuont', ['count', 'cases']), 'count');
    assert.equal(closestOption('xcuon', ['count']), undefined);
  });
});
