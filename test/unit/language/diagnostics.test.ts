// A request file's diagnostics as every front end shows them (core/language/diagnostics.ts): the validator's problems
// and the cache breakpoints under the model's minimum, estimated without a key, counted by the service with one.
import * as assert from 'node:assert/strict';
import {
  checkRequestText,
  requestDiagnostics,
  requestProblems,
  type PrefixCounts,
} from '../../../src/core/language/diagnostics';
import { validateText } from '../../../src/core/request/validate';
import { NOW } from '../request/helpers';

const body = {
  model: 'model-haiku-4-5',
  max_tokens: 1024,
  notes: 'x',
  stop_sequences: [''],
  system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: 'Hello' }],
};
const text = JSON.stringify(body, null, 2);
const settings = { endpoint: 'messages' as const, betas: [], now: NOW };
const codes = (ps: { code: string; severity: string }[]) => ps.map(p => `${p.severity} ${p.code}`);

describe("a request file's diagnostics (one function for check, the extension and the server)", () => {
  it("without a key: the validator's problems and the estimated warning, in the order of the text", () => {
    const got = requestDiagnostics(text, 'a.prompt.json', settings);
    const validation = validateText(text, 'json', { now: NOW }).problems;
    assert.deepEqual(codes(validation), ['warning unknown-field', 'error stop-sequence-empty']);
    assert.deepEqual(codes(got), [
      'warning unknown-field',
      'error stop-sequence-empty',
      'warning cache-prefix-below-minimum',
    ]);
    const cache = got.find(p => p.code === 'cache-prefix-below-minimum')!;
    assert.match(cache.message, /a local estimate/);
    assert.equal(text.slice(cache.start, cache.end), '"cache_control"');
    assert.deepEqual(
      got.map(p => p.start),
      got.map(p => p.start).sort((a, b) => a - b),
    );
  });

  it("with a key: the service's count, or why counting failed; the other problems unchanged", () => {
    const check = checkRequestText(text, 'a.prompt.json', settings);
    const counted: PrefixCounts = { counting: false, of: () => 5000 };
    assert.deepEqual(
      codes(requestProblems(check, counted)),
      ['warning unknown-field', 'error stop-sequence-empty'],
      '5,000 counted tokens reach the 4,096 of model-haiku-4-5',
    );
    const small: PrefixCounts = { counting: false, of: () => ({ tokens: 12 }) };
    assert.match(requestProblems(check, small).at(-1)!.message, /12 tokens \(counted by the service\)/);
    const failed: PrefixCounts = { counting: false, of: () => ({ error: { message: 'overloaded' } }) };
    assert.match(requestProblems(check, failed).at(-1)!.message, /local estimate.*counting it failed: overloaded/);
  });

  it('the settings: cache.minimumTokens over the table; a count_tokens file has no breakpoints to judge', () => {
    const low = requestDiagnostics(text, 'a.prompt.json', {
      ...settings,
      cacheMinimumTokens: { 'model-haiku-4-5': 1 },
    });
    assert.deepEqual(codes(low), ['warning unknown-field', 'error stop-sequence-empty']);
    const count = checkRequestText(text, 'a.count.json', { ...settings, endpoint: 'count_tokens' });
    assert.equal(count.cache, undefined);
    assert.deepEqual(codes(requestProblems(count)), []);
  });

  it('YAML by the file name, and a file that is not a body: its problem, no breakpoints', () => {
    const yaml = 'model: model-haiku-4-5\nmax_tokens: 10\nmessages:\n  - role: user\n    content: Hi\n';
    assert.deepEqual(requestDiagnostics(yaml, 'a.prompt.yaml', settings), []);
    assert.deepEqual(codes(requestDiagnostics('[1]', 'a.prompt.json', settings)), ['error not-an-object']);
  });
});
