// The status bar text for each count state: counts read as people write them ("1 token", "2,048 tokens").
import * as assert from 'node:assert/strict';
import { renderStatus } from '../../../src/core/tokens/status';

describe('token count status text', () => {
  const meta = { model: 'model-opus-4-7', maxTokens: 1024 };

  it('says "1 token" and "2,048 tokens"', () => {
    assert.equal(
      renderStatus({ kind: 'count', tokens: 1, at: 0, stale: false, cached: false }, meta).text,
      '$(symbol-number) 1 token',
    );
    assert.equal(
      renderStatus({ kind: 'count', tokens: 2048, at: 0, stale: false, cached: false }, meta).text,
      '$(symbol-number) 2,048 tokens',
    );
    assert.equal(
      renderStatus({ kind: 'estimate', tokens: 1, reason: 'no-key' }, meta).text,
      '$(symbol-number) ≈ 1 token',
    );
  });

  it('keeps the last count, singular too, while counting again', () => {
    assert.equal(renderStatus({ kind: 'counting', previous: 1 }, meta).text, '$(loading~spin) 1 token');
  });
});
