// How long a file waits after typing before both editors check it (core/language/workspace.ts).
import * as assert from 'node:assert/strict';
import { checkDelay } from '../../../src/core/language/workspace';

describe('checkDelay: the pause before a file is checked, in both editors', () => {
  it('is the setting for a small file, a millisecond more per 20,000 characters, at most a second more', () => {
    const settings = { validationDebounceMs: 250 };
    assert.equal(checkDelay(settings, 1_000), 250);
    assert.equal(checkDelay(settings, 200_000), 260);
    assert.equal(checkDelay(settings, 50_000_000), 1250);
  });
  it('is no pause at all when the setting is 0, whatever the size', () => {
    assert.equal(checkDelay({ validationDebounceMs: 0 }, 50_000_000), 0);
  });
});
