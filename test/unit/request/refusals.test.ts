// The second round of rules from public reports of the service's 400 messages: the order inside a user turn,
// malformed text, per-model parameters, names in the history, stop sequences; and -1 sampling values, which 2025
// recordings show accepted, kept out of the errors.
import * as assert from 'node:assert/strict';
import { applyEdits, fixEdits } from '../../../src/core/request/fixes';
import type { FixData } from '../../../src/core/request/types';
import { validateText } from '../../../src/core/request/validate';
import { assistant, base, check, NOW, user, type Seen } from './helpers';

const found = (s: Seen[]) => s.map(p => `${p.severity}:${p.code}@${p.path}`);
const use = (id: string, name = 'lookup') => ({ type: 'tool_use', id, name, input: {} });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'done' });
const text = (t: string) => ({ type: 'text', text: t });

/** The text after applying the fix titled `title` of the first problem `code`. */
function fixed(body: object, code: string, title: RegExp): string {
  const t = JSON.stringify(body, null, 2);
  const v = validateText(t, 'json', { now: NOW });
  const f = v.problems
    .find(p => p.code === code)
    ?.fixes?.find((x): x is Exclude<FixData, { kind: 'add-beta' }> => x.kind !== 'add-beta' && title.test(x.title));
  assert.ok(f, `no fix ${String(title)} for ${code}`);
  return applyEdits(t, fixEdits(t, 'json', v.parsed, f));
}

describe('tool_result blocks come first in the message that answers tool calls', () => {
  const history = (...answer: unknown[]) =>
    base({ messages: [user('q'), assistant(use('t1'), use('t2')), user(...answer)] });
  it('text before a tool_result: an error on that text, with a fix that moves the results to the front', () => {
    const body = history(text('Here you go.'), result('t1'), result('t2'));
    assert.deepEqual(found(check(body)), ['error:tool-result-not-first@messages/2/content/0']);
    const after = JSON.parse(fixed(body, 'tool-result-not-first', /tool_result blocks first/)) as typeof body;
    assert.deepEqual(after.messages[2], user(result('t1'), result('t2'), text('Here you go.')));
    assert.deepEqual(check(after), []);
  });
  it('an image between two results counts too; text after the results is fine', () => {
    const image = { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } };
    assert.deepEqual(found(check(history(result('t1'), image, result('t2')))), [
      'error:tool-result-not-first@messages/2/content/1',
    ]);
    assert.deepEqual(check(history(result('t1'), result('t2'), text('And a note.'))), []);
  });
});

describe('per-model parameters and names in the history', () => {
  it('speed "fast" on a model without fast mode is refused, naming the model; the fast models take it', () => {
    const s = check(base({ model: 'model-opus-4-7', speed: 'fast' }), 'json', ['fast-mode-2026-02-01']);
    assert.deepEqual(found(s), ['error:speed-unsupported@speed']);
    assert.match(s[0]!.message, /^model-opus-4-7 does not support the speed parameter: fast mode is for /);
    for (const model of ['model-opus-4-6', 'model-opus-4-8', 'model-quill-1'])
      assert.deepEqual(
        found(check(base({ model, speed: 'fast' }), 'json', ['fast-mode-2026-02-01'])).filter(x =>
          x.includes('speed-unsupported'),
        ),
        [],
      );
    assert.deepEqual(check(base({ model: 'model-haiku-4-5', speed: 'standard' })), []);
    assert.equal(
      JSON.parse(fixed(base({ model: 'model-sonnet-4-6', speed: 'fast' }), 'speed-unsupported', /Remove speed/)).speed,
      undefined,
    );
  });
  it('a tool_use name over 200 characters in the history is refused; 200 is fine', () => {
    const long = 'n'.repeat(201);
    const body = (name: string) =>
      base({ messages: [user('q'), assistant({ ...use('t1'), name }), user(result('t1'))] });
    assert.deepEqual(found(check(body(long))), ['error:tool-use-name-too-long@messages/1/content/0/name']);
    assert.deepEqual(check(body('n'.repeat(200))), []);
  });
});

describe('malformed text and stop sequences', () => {
  it('a lone surrogate is an error (the service refuses the body as invalid JSON)', () => {
    const s = check('{"model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"\\ud83d!"}]}');
    assert.deepEqual(found(s), ['error:lone-surrogate@']);
    assert.match(s[0]!.message, /no low surrogate in string/);
  });
  it('a stop sequence of whitespace only is an error, with its fix; whitespace among text is fine', () => {
    assert.deepEqual(found(check(base({ stop_sequences: ['END', '\n'] }))), [
      'error:stop-sequence-whitespace@stop_sequences/1',
    ]);
    assert.deepEqual(check(base({ stop_sequences: ['\nObservation:'] })), []);
    assert.deepEqual(
      JSON.parse(fixed(base({ stop_sequences: ['END', ' \t'] }), 'stop-sequence-whitespace', /Remove/)).stop_sequences,
      ['END'],
    );
  });
  it('a whitespace-only text block in an earlier assistant turn is a warning; in a user turn an error', () => {
    const body = base({
      model: 'model-haiku-4-5',
      messages: [user('q'), assistant(text('One.'), text(' '), text('Two.')), user(text('ok'), text(' '))],
    });
    assert.deepEqual(found(check(body)), [
      'warning:assistant-whitespace-text@messages/1/content/1/text',
      'error:whitespace-text-block@messages/2/content/1/text',
    ]);
  });
});

describe('top_k and top_p of -1: accepted in 2025 recordings, so a warning, never an error', () => {
  it('-1 alone, with temperature on a model that refuses temperature and top_p together, and with thinking', () => {
    const minus = { top_k: -1, top_p: -1 };
    const codes = (body: object) => found(check(body));
    assert.deepEqual(codes(base({ model: 'model-haiku-4-5', temperature: 1, ...minus })), [
      'warning:sampling-minus-one@top_k',
      'warning:sampling-minus-one@top_p',
    ]);
    for (const model of ['model-sonnet-4-5', 'model-opus-4-7'])
      assert.deepEqual(
        codes(base({ model, temperature: 1, ...minus })).filter(c => c.startsWith('error')),
        [],
        model,
      );
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    assert.deepEqual(
      codes(base({ model: 'model-haiku-4-5', max_tokens: 4096, thinking, ...minus })).filter(c =>
        c.startsWith('error'),
      ),
      [],
    );
    // other values keep their rules: -0.5 and 2 are out of range, -2 for top_k is a warning too
    assert.deepEqual(codes(base({ model: 'model-haiku-4-5', top_p: -0.5, top_k: -2 })), [
      'error:top-p-out-of-range@top_p',
      'warning:sampling-minus-one@top_k',
    ]);
    assert.deepEqual(codes(base({ model: 'model-haiku-4-5', temperature: -1 })), [
      'error:temperature-out-of-range@temperature',
    ]);
  });
});
