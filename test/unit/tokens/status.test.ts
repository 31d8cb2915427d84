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

  it('the tooltip names the address a count went to, without a user name or password it carries', () => {
    const at = { ...meta, service: 'https://user:pw@gateway.example.com/proxy/' };
    const counted = renderStatus({ kind: 'count', tokens: 3, at: 0, stale: false, cached: false }, at).tooltip;
    assert.match(counted, /Counted by `https:\/\/gateway\.example\.com\/proxy` at /);
    assert.doesNotMatch(counted, /user|pw@/);
    assert.match(
      renderStatus({ kind: 'counting' }, at).tooltip,
      /Counting tokens at `https:\/\/gateway\.example\.com\/proxy`…/,
    );
    const failed = renderStatus({ kind: 'error', type: 'redirect', message: 'm' }, at).tooltip;
    assert.match(failed, /\*\*Token count failed\*\*: `redirect` \(sent to `https:\/\/gateway\.example\.com\/proxy`\)/);
    assert.match(
      renderStatus({ kind: 'count', tokens: 3, at: 0, stale: false, cached: false }, meta).tooltip,
      /Counted by the service at/,
    );
  });
});
