import * as assert from 'node:assert/strict';
import { redactSecrets } from '../../src/core/redact';

describe('redactSecrets', () => {
  it('removes every occurrence of a registered secret', () => {
    const s = redactSecrets('key sk-abc123 then sk-abc123 again', ['sk-abc123']);
    assert.equal(s.includes('sk-abc123'), false);
    assert.equal(s, 'key [redacted] then [redacted] again');
  });
  it('redacts x-api-key header values even when the secret is unknown', () => {
    assert.equal(redactSecrets(`curl -H 'x-api-key: abcdef'`), `curl -H 'x-api-key: [redacted]'`);
    assert.equal(redactSecrets('{"x-api-key":"abcdef"}'), '{"x-api-key":"[redacted]"}');
  });
  it('leaves text without secrets alone', () => {
    assert.equal(redactSecrets('nothing here', ['sk-zzz']), 'nothing here');
  });
});
