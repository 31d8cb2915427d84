import * as assert from 'node:assert/strict';
import { estimateTokens } from '../../../src/core/tokens/estimate';

const body = (text: string) => ({
  model: 'model-opus-4-7',
  max_tokens: 100,
  temperature: 1,
  messages: [{ role: 'user', content: text }],
});

describe('token estimate (no service)', () => {
  it('the offline estimate counts only what count_tokens would send', () => {
    const a = estimateTokens(body('hello world'));
    assert.equal(
      a,
      estimateTokens({ ...body('hello world'), max_tokens: 99999, metadata: { user_id: 'x'.repeat(1000) } }),
    );
    assert.ok(estimateTokens(body('x'.repeat(4000))) >= 1000);
  });
});
