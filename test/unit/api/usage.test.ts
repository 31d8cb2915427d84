// A reply's usage in words, as the panel, the CLI and the Cases grid say it.
import * as assert from 'node:assert/strict';
import { cacheShort, tokensInOut, totalInput, usageWords } from '../../../src/core/api/usage';

describe('usage in words', () => {
  it('without the cache', () => {
    const u = { input_tokens: 1, output_tokens: 512 };
    assert.equal(usageWords(u), '1 input token (no cache read or written) and 512 output tokens.');
    assert.equal(tokensInOut(u), '1 in · 512 out');
    assert.equal(cacheShort(u), undefined);
  });
  it('cache reads with their share of the input, writes for 5 minutes and 1 hour apart', () => {
    const u = {
      input_tokens: 200,
      output_tokens: 10,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 300,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
    };
    assert.equal(totalInput(u), 1500);
    assert.equal(
      usageWords(u),
      '1,500 input tokens (1,000 read from the cache: 67% of the input; 300 written to it, 100 for 5 minutes and ' +
        '200 for 1 hour) and 10 output tokens.',
    );
    assert.equal(tokensInOut(u), '1,500 in · 10 out');
    assert.equal(cacheShort(u), '67% from cache, wrote 300');
  });
  it('a share that rounds to 100% while something was not read says 99%; nulls count as none', () => {
    const u = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 999, cache_creation_input_tokens: null };
    assert.equal(cacheShort(u), '99% from cache');
    assert.equal(usageWords(undefined), '');
  });
});
