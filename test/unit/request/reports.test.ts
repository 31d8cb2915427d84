// The rules that come from reports of the service's own messages (test/fixtures/rejected): where each fires,
// and where it stays silent, in particular where an accepted body narrowed it (test/fixtures/accepted).
import * as assert from 'node:assert/strict';
import { validateText } from '../../../src/core/request/validate';
import { assistant, base, check, NOW, user, type Seen } from './helpers';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
/** A header-only PNG of the given size (signature, IHDR, no pixel data). */
const pngOf = (w: number, h: number) => {
  const b = Buffer.from(PNG, 'base64').subarray(0, 33);
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return b.toString('base64');
};
const image = (data = PNG) => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } });
const errors = (s: Seen[]) => s.filter(p => p.severity === 'error').map(p => `${p.code}@${p.path}`);
const codes = (s: Seen[]) => s.map(p => `${p.severity}:${p.code}`);
const use = (id: string) => ({ type: 'tool_use', id, name: 't', input: {} });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'r' });
const haiku = (extra: Record<string, unknown>) => base({ model: 'model-haiku-4-5', ...extra });

describe('tool calls and results, turn by turn', () => {
  it('consecutive turns of one role are one turn, as the service combines them', () => {
    const s = check(haiku({ messages: [user('q'), assistant(use('a')), user('wait'), user(result('a'))] }));
    assert.deepEqual(codes(s), ['warning:consecutive-roles']);
  });
  it('a result for a call of an earlier turn names that turn; a call with no result is marked on its id', () => {
    const s = check(
      haiku({ messages: [user('q'), assistant(use('a')), user(result('a')), assistant(use('b')), user(result('a'))] }),
    );
    assert.deepEqual(errors(s), [
      'tool-use-without-result@messages/3/content/0/id',
      'orphan-tool-result@messages/4/content/0/tool_use_id',
    ]);
    assert.match(s.find(p => p.code === 'orphan-tool-result')!.message, /a tool_use of messages\[1\]/);
  });
  it('a call in a final assistant turn (a prefill) and server tool calls need no result', () => {
    const server = { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: {} };
    assert.deepEqual(errors(check(haiku({ messages: [user('q'), assistant(use('a'))] }))), []);
    assert.deepEqual(errors(check(haiku({ messages: [user('q'), assistant(server), user('go on')] }))), []);
  });
  it('a result after a message with an invalid role is not judged: that role is the error', () => {
    const s = check(haiku({ messages: [user('q'), { role: 'robot', content: [use('a')] }, user(result('a'))] }));
    assert.deepEqual(errors(s), ['invalid-value@messages/1/role']);
  });
  it('ids are unique across the request and made of letters, digits, _ and -', () => {
    const s = check(
      haiku({
        messages: [user('q'), assistant(use('a')), user(result('a')), assistant(use('a'), use('')), user(result('a'))],
      }),
    );
    assert.deepEqual(errors(s), [
      'duplicate-tool-use-id@messages/3/content/0/id',
      'tool-use-id-pattern@messages/3/content/1/id',
      'tool-use-without-result@messages/3/content/1/id',
    ]);
  });
});

describe('empty and whitespace text', () => {
  it('the final assistant turn may be empty; every other turn may not', () => {
    assert.deepEqual(errors(check(haiku({ messages: [user('q'), assistant('')] }))), []);
    assert.deepEqual(errors(check(haiku({ messages: [user('q'), { role: 'assistant', content: [] }] }))), []);
    assert.deepEqual(errors(check(haiku({ messages: [user('q'), assistant('a'), user('')] }))), [
      'empty-text-block@messages/2/content',
    ]);
    assert.deepEqual(errors(check(haiku({ messages: [user(' \n')] }))), ['whitespace-text-block@messages/0/content']);
  });
  it('text nested in a tool_result, and system text, are not checked (no report shows them refused)', () => {
    const nested = { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: '' }] };
    const s = check(
      haiku({ system: [{ type: 'text', text: ' ' }], messages: [user('q'), assistant(use('a')), user(nested)] }),
    );
    assert.deepEqual(errors(s), []);
  });
  it("a prefill's trailing whitespace; on a model without prefill, prefill-unsupported on the message instead", () => {
    const msgs = [user('q'), assistant('Sure: ')];
    assert.deepEqual(errors(check(haiku({ messages: msgs }))), ['prefill-trailing-whitespace@messages/1/content']);
    for (const model of ['model-opus-4-6', 'model-sonnet-4-6'])
      assert.deepEqual(errors(check(base({ model, messages: msgs }))), ['prefill-unsupported@messages/1']);
    assert.deepEqual(errors(check(base({ model: 'model-sonnet-4-5', messages: msgs.slice(0, 1) }))), []);
  });
});

describe('cache breakpoints: counted over tools, system, messages, then the top level', () => {
  const cc = (ttl?: string) => ({ type: 'ephemeral', ...(ttl ? { ttl } : {}) });
  const text = (t: string, ttl?: string) => ({ type: 'text', text: t, cache_control: cc(ttl) });
  it('four are fine; the top-level cache_control is the fifth', () => {
    const msgs = [user(text('a'), text('b'), text('c'), text('d'))];
    assert.deepEqual(errors(check(haiku({ messages: msgs }))), []);
    assert.deepEqual(errors(check(haiku({ messages: msgs, cache_control: cc() }))), [
      'too-many-cache-breakpoints@cache_control',
    ]);
  });
  it('the last block of a tool_result content counts (it applies to the parent)', () => {
    const tr = { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'r', cache_control: cc() }] };
    const s = check(
      haiku({ system: [text('s'), text('t')], messages: [user(text('q')), assistant(use('a')), user(tr, text('e'))] }),
    );
    assert.deepEqual(errors(s), ['too-many-cache-breakpoints@messages/2/content/1/cache_control']);
  });
  it('1h after 5m is marked on the later marker, the top-level one included; 1h before 5m is fine', () => {
    assert.deepEqual(errors(check(haiku({ system: [text('s', '1h')], messages: [user(text('q', '5m'))] }))), []);
    assert.deepEqual(errors(check(haiku({ system: [text('s', '5m')], cache_control: cc('1h') }))), [
      'cache-ttl-order@cache_control/ttl',
    ]);
  });
});

describe('thinking: manual only where the reports are; adaptive thinking as accepted bodies send it', () => {
  const manual = { type: 'enabled', budget_tokens: 2048 };
  const tools = [{ name: 't', input_schema: { type: 'object' } }];
  it('a forced tool_choice, a temperature, top_k: errors with manual thinking, silent with adaptive', () => {
    const extra = { tools, tool_choice: { type: 'tool', name: 't' }, temperature: 0.5, top_k: 5, max_tokens: 4096 };
    assert.deepEqual(errors(check(haiku({ ...extra, thinking: manual }))), [
      'thinking-with-forced-tool-choice@tool_choice',
      'thinking-with-temperature@temperature',
      'thinking-with-top-k@top_k',
    ]);
    assert.deepEqual(errors(check(base({ model: 'model-opus-4-6', ...extra, thinking: { type: 'adaptive' } }))), []);
  });
  it('thinking blocks in the final turn: refused with thinking off, not on a model that thinks by default', () => {
    const msgs = [
      user('q'),
      assistant({ type: 'thinking', thinking: 't', signature: 's' }, { type: 'text', text: 'a' }),
    ];
    assert.deepEqual(errors(check(haiku({ messages: msgs }))), [
      'thinking-blocks-without-thinking@messages/1/content/0',
    ]);
    assert.deepEqual(errors(check(base({ model: 'model-mythos-preview', messages: msgs }))), []);
    assert.deepEqual(errors(check(base({ model: 'my-model', messages: msgs }))), []);
    assert.deepEqual(errors(check(haiku({ messages: [...msgs, user('more')] }))), []);
  });
  it('with the interleaved-thinking beta the budget may exceed max_tokens', () => {
    const req = haiku({ max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 4096 } });
    assert.deepEqual(errors(check(req)), ['budget-exceeds-max-tokens@thinking/budget_tokens']);
    assert.deepEqual(errors(check(req, 'json', ['interleaved-thinking-2025-05-14'])), []);
  });
});

describe('sampling and max_tokens per model', () => {
  it('model-opus-4-7: temperature 1 passes, any top_p and top_k are refused; model-opus-4-6 takes them', () => {
    assert.deepEqual(errors(check(base({ temperature: 1 }))), []);
    assert.deepEqual(errors(check(base({ top_p: 1, top_k: 1 }))), ['top-p-deprecated@top_p', 'top-k-deprecated@top_k']);
    assert.deepEqual(errors(check(base({ model: 'model-opus-4-6', temperature: 0.2, top_p: 0.5, top_k: 3 }))), []);
  });
  it('model-mythos-preview keeps the SDK-based warning', () => {
    assert.deepEqual(codes(check(base({ model: 'model-mythos-preview', temperature: 0.2 }))), [
      'warning:sampling-unsupported',
    ]);
  });
  it('max_tokens up to 64,000 on the 4-5 models; no limit known for the others', () => {
    assert.deepEqual(errors(check(haiku({ max_tokens: 64000 }))), []);
    assert.deepEqual(errors(check(base({ model: 'model-opus-4-5-20251101', max_tokens: 64001 }))), [
      'max-tokens-above-model-limit@max_tokens',
    ]);
    assert.deepEqual(errors(check(base({ model: 'model-opus-4-6', max_tokens: 128000 }))), []);
  });
});

describe('images and PDFs', () => {
  it('more than 20 images: each side at most 2000 pixels; 20 images may be larger', () => {
    const twenty = Array.from({ length: 20 }, () => image());
    assert.deepEqual(errors(check(haiku({ messages: [user(...twenty.slice(1), image(pngOf(3000, 10)))] }))), []);
    assert.deepEqual(errors(check(haiku({ messages: [user(...twenty, image(pngOf(2001, 2001)))] }))), [
      'image-dimensions-many-images@messages/0/content/20/source/data',
    ]);
    assert.deepEqual(errors(check(haiku({ messages: [user(image(pngOf(10, 8001)))] }))), [
      'image-dimensions-too-large@messages/0/content/0/source/data',
    ]);
  });
  it('images and PDFs count together, marked where the count passes 100; on the 4.6 models unless the 1M beta', () => {
    const pdf = { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } };
    const msgs = [user(...Array.from({ length: 100 }, () => image()), pdf)];
    assert.deepEqual(errors(check(haiku({ messages: msgs }))), ['too-much-media@messages/0/content/100']);
    assert.match(
      check(haiku({ messages: msgs })).find(p => p.code === 'too-much-media')!.message,
      /1 document pages \+ 100 images > 100/,
    );
    // the 4.6 generation has the limit too (a 2026 report), unless the 1M-context beta may raise it
    const s46 = check(base({ model: 'model-sonnet-4-6', messages: msgs }));
    assert.deepEqual(errors(s46), ['too-much-media@messages/0/content/100']);
    assert.match(s46.find(p => p.code === 'too-much-media')!.message, /context-1m-2025-08-07/);
    assert.deepEqual(errors(check(base({ model: 'model-opus-4-6', messages: msgs }), 'json', [])), [
      'too-much-media@messages/0/content/100',
    ]);
    assert.deepEqual(
      errors(check(base({ model: 'model-sonnet-4-6', messages: msgs }), 'json', ['context-1m-2025-08-07'])),
      [],
    );
    // models of 1M tokens that no report covers are not judged
    assert.deepEqual(errors(check(base({ model: 'model-opus-4-8', messages: msgs }))), []);
  });
  it('images inside a tool_result are read too; data of no image format is a warning', () => {
    const tr = {
      type: 'tool_result',
      tool_use_id: 'a',
      content: [{ ...image(PNG), source: { ...image().source, media_type: 'image/gif' } }],
    };
    assert.deepEqual(errors(check(haiku({ messages: [user('q'), assistant(use('a')), user(tr)] }))), [
      'image-media-type-mismatch@messages/2/content/0/content/0/source/media_type',
    ]);
    assert.deepEqual(codes(check(haiku({ messages: [user(image('SGVsbG8='))] }))), ['warning:unknown-media-format']);
    const doc = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PNG } };
    assert.deepEqual(codes(check(haiku({ messages: [user(doc)] }))), ['warning:unknown-media-format']);
  });
  it('an image over 5 MB, measured from the length of its base64', () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    Buffer.from(PNG, 'base64').copy(big);
    const s = check(haiku({ messages: [user(image(big.toString('base64')))] }));
    assert.deepEqual(errors(s), ['image-too-large-bytes@messages/0/content/0/source/data']);
    assert.match(s[0]!.message, /5,242,881 bytes/);
  });
});

describe('tool schemas and structured outputs', () => {
  const tool = (input_schema: unknown, extra = {}) => haiku({ tools: [{ name: 't', input_schema, ...extra }] });
  it('valid JSON Schema passes: type lists, boolean schemas, tuple items, data keywords, null as absent', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: ['string', 'null'], enum: ['x', null], default: 'x' },
        b: true,
        c: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
        d: { type: 'object', properties: { properties: { type: 'string' } }, required: ['properties'] },
      },
      required: null,
    };
    assert.deepEqual(errors(check(tool(schema))), []);
  });
  it('a schema that is not JSON Schema, marked at the first bad value', () => {
    assert.deepEqual(errors(check(tool({ type: 'object', properties: { a: { type: 'text' } } }))), [
      'tool-input-schema-invalid@tools/0/input_schema/properties/a/type',
    ]);
    const nested = { type: 'object', properties: { a: { type: 'object', required: 'b' } } };
    assert.deepEqual(errors(check(tool(nested))), [
      'tool-input-schema-invalid@tools/0/input_schema/properties/a/required',
    ]);
    // the root's own fields are the request schema's: reported once, as wrong-type
    assert.deepEqual(errors(check(tool({ type: 'object', required: 'a' }))), [
      'wrong-type@tools/0/input_schema/required',
    ]);
  });
  it('a tool name of 128 characters passes; 129 do not', () => {
    const named = (name: string) => haiku({ tools: [{ name, input_schema: { type: 'object' } }] });
    assert.deepEqual(errors(check(named('a'.repeat(128)))), []);
    assert.deepEqual(errors(check(named('a'.repeat(129)))), ['tool-name-pattern@tools/0/name']);
  });
  it('strict tools and output schemas: every nested object closed; without strict, a tool schema may stay open', () => {
    const open = { type: 'object', properties: { p: { type: 'object', additionalProperties: false } } };
    assert.deepEqual(errors(check(tool(open))), []);
    assert.deepEqual(errors(check(tool(open, { strict: true }))), ['strict-schema-not-closed@tools/0/input_schema']);
    assert.deepEqual(errors(check(haiku({ output_config: { format: { type: 'json_schema', schema: open } } }))), [
      'output-schema-not-closed@output_config/format/schema',
    ]);
  });
});

describe('keys the service refuses, and those that stay warnings', () => {
  it('an unknown key of a system block is an error; of a tool or of the body, a warning', () => {
    const s = check(
      haiku({
        system: [{ type: 'text', text: 's', colour: 'red' }],
        tools: [{ name: 't', input_schema: { type: 'object' }, colour: 'red' }],
        colour: 'red',
      }),
    );
    assert.deepEqual(codes(s).sort(), ['error:extra-field-in-block', 'warning:unknown-field', 'warning:unknown-field']);
  });
  it('count_tokens reads what it takes: the breakpoints count, sampling settings are not read', () => {
    const cc = { type: 'ephemeral' };
    const body = haiku({
      temperature: 7,
      system: [1, 2, 3, 4, 5].map(i => ({ type: 'text', text: `s${i}`, cache_control: cc })),
    });
    const problems = validateText(JSON.stringify(body), 'json', { now: NOW, endpoint: 'count_tokens' }).problems;
    assert.deepEqual(
      problems.map(p => p.code),
      ['too-many-cache-breakpoints'],
    );
  });
});
