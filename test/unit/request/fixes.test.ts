import * as assert from 'node:assert/strict';
import { applyEdits, fixEdits } from '../../../src/core/request/fixes';
import { validateText } from '../../../src/core/request/validate';
import type { FixData, Format } from '../../../src/core/request/types';
import { NOW } from './helpers';

/** Applies the fix titled `title` of the first problem with `code`. */
function fix(text: string, format: Format, code: string, title: RegExp): string {
  const v = validateText(text, format, { now: NOW });
  const isEdit = (x: FixData): x is Exclude<FixData, { kind: 'add-beta' }> =>
    x.kind !== 'add-beta' && title.test(x.title);
  const p = v.problems.find(x => x.code === code && x.fixes?.some(isEdit));
  assert.ok(p, `no ${code} with a fix ${title} in ${JSON.stringify(v.problems.map(x => [x.code, x.fixes]))}`);
  const f = p.fixes?.find(isEdit);
  assert.ok(f, `no fix ${title} in ${JSON.stringify(p.fixes)}`);
  return applyEdits(text, fixEdits(text, format, v.parsed, f));
}

describe('quick fixes (text edits that keep formatting and comments)', () => {
  it('a true property schema in a strict tool: "strict" is taken off, the tool is plain JSON Schema (YAML)', () => {
    const text =
      'model: model-sonnet-4-6\nmax_tokens: 64\ntools:\n  - name: record\n    strict: true  # compiled\n' +
      '    input_schema:\n      type: object\n      properties:\n        value: true\n' +
      'messages:\n  - role: user\n    content: Record it.\n';
    const fixed = fix(text, 'yaml', 'strict-schema-boolean', /Remove "strict"/);
    assert.equal(fixed, text.replace('    strict: true  # compiled\n', ''));
    assert.deepEqual(validateText(fixed, 'yaml', { now: NOW }).problems, []);
  });
  it('a retired model is replaced by a current one (JSON)', () => {
    const text =
      '{\n  "model": "model-3-haiku-20240307",\n  "max_tokens": 5,\n' +
      '  "messages": [{"role": "user", "content": "x"}]\n}\n';
    assert.equal(
      fix(text, 'json', 'retired-model', /model-sonnet-4-6/),
      text.replace('model-3-haiku-20240307', 'model-sonnet-4-6'),
    );
  });
  it('an effort the model lacks becomes the nearest supported one (YAML, comment kept)', () => {
    const text =
      '# my prompt\nmodel: model-opus-4-6 # the model\nmax_tokens: 100\noutput_config:\n  effort: xhigh # too much\n' +
      'messages:\n  - role: user\n    content: hi\n';
    assert.equal(fix(text, 'yaml', 'effort-unavailable', /effort/), text.replace('effort: xhigh', 'effort: high'));
  });
  it('temperature and top_p together: remove one (JSON and YAML)', () => {
    const json =
      '{\n  "model": "model-opus-4-1",\n  "temperature": 0.5,\n  "top_p": 0.9,\n  "max_tokens": 5,\n' +
      '  "messages": [{"role": "user", "content": "x"}]\n}';
    assert.equal(fix(json, 'json', 'temperature-with-top-p', /Remove top_p/), json.replace('\n  "top_p": 0.9,', ''));
    const yaml =
      'model: model-opus-4-1\ntemperature: 0.5 # warm\ntop_p: 0.9\nmax_tokens: 5\nmessages:\n  - role: user\n' +
      '    content: x\n';
    assert.equal(
      fix(yaml, 'yaml', 'temperature-with-top-p', /Remove temperature/),
      yaml.replace('temperature: 0.5 # warm\n', ''),
    );
  });
  it("a missing required field is inserted (JSON keeps its indentation; YAML at the mapping's indentation)", () => {
    const json = '{\n    "model": "model-opus-4-7",\n    "messages": [{"role": "user", "content": "x"}]\n}';
    const out = fix(json, 'json', 'missing-field', /Add "max_tokens"/);
    assert.deepEqual(JSON.parse(out), {
      model: 'model-opus-4-7',
      messages: [{ role: 'user', content: 'x' }],
      max_tokens: 1024,
    });
    assert.match(out, /\n {4}"max_tokens": 1024/);
    const yaml = 'model: model-opus-4-7\nmessages:\n  - role: user\n    content:\n      - type: text\n# end\n';
    const y = fix(yaml, 'yaml', 'missing-field', /Add "text"/);
    assert.equal(
      y,
      'model: model-opus-4-7\nmessages:\n  - role: user\n    content:\n      - type: text\n        text: ""\n# end\n',
    );
  });
  it('a tool_result with an unknown tool_use_id: choose among the ids that exist', () => {
    const text = JSON.stringify(
      {
        model: 'model-opus-4-7',
        max_tokens: 5,
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'toolu_a', name: 'n', input: {} },
              { type: 'tool_use', id: 'toolu_b', name: 'n', input: {} },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x' }] },
        ],
      },
      null,
      2,
    );
    const v = validateText(text, 'json', { now: NOW });
    const p = v.problems.find(x => x.code === 'orphan-tool-result')!;
    assert.deepEqual(
      p.fixes!.map(f => f.title),
      ['Use tool_use id "toolu_b"', 'Use tool_use id "toolu_a"'],
    );
    assert.equal(fix(text, 'json', 'orphan-tool-result', /toolu_a/), text.replace('toolu_x', 'toolu_a'));
  });
  it('manual thinking on model-opus-4-7 becomes adaptive (YAML block mapping replaced in place)', () => {
    const yaml =
      'model: model-opus-4-7\nmax_tokens: 5\nthinking:\n  type: enabled\n  budget_tokens: 100\nmessages:\n' +
      '  - role: user\n    content: x\n';
    const out = fix(yaml, 'yaml', 'manual-thinking-unsupported', /adaptive/);
    assert.deepEqual(validateText(out, 'yaml', { now: NOW }).problems, []);
  });
});

/** The problems of a file after a fix, as `severity:code`. */
const after = (text: string, format: Format) =>
  validateText(text, format, { now: NOW }).problems.map(p => `${p.severity}:${p.code}`);
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('quick fixes of the rules from reports of the service', () => {
  it('the trailing whitespace of a prefill is removed (string content, JSON; a text block, YAML)', () => {
    const json =
      '{\n  "model": "model-haiku-4-5",\n  "max_tokens": 5,\n  "messages": [\n    {"role": "user", "content": "x"},\n' +
      '    {"role": "assistant", "content": "The colour is \\n"}\n  ]\n}\n';
    const out = fix(json, 'json', 'prefill-trailing-whitespace', /trailing whitespace/);
    assert.equal(out, json.replace('The colour is \\n', 'The colour is'));
    const yaml =
      'model: model-haiku-4-5\nmax_tokens: 5\nmessages:\n  - role: user\n    content: x\n  - role: assistant\n' +
      '    content:\n      - type: text\n        text: "Sure: " # the prefill\n';
    assert.equal(
      fix(yaml, 'yaml', 'prefill-trailing-whitespace', /trailing whitespace/),
      yaml.replace('"Sure: "', '"Sure:"'),
    );
  });
  it('an empty text block is removed from its list (JSON and YAML)', () => {
    const body = {
      model: 'model-haiku-4-5',
      max_tokens: 5,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarise.' },
            { type: 'text', text: '' },
          ],
        },
      ],
    };
    const json = JSON.stringify(body, null, 2);
    assert.deepEqual(JSON.parse(fix(json, 'json', 'empty-text-block', /Remove this text block/)).messages[0].content, [
      { type: 'text', text: 'Summarise.' },
    ]);
    const yaml =
      'model: model-haiku-4-5\nmax_tokens: 5\nmessages:\n  - role: user\n    content:\n      - type: text\n' +
      '        text: Summarise.\n      - type: text\n        text: ""\n';
    const out = fix(yaml, 'yaml', 'empty-text-block', /Remove this text block/);
    assert.deepEqual(after(out, 'yaml'), []);
    assert.match(out, /text: Summarise\.\n$/);
  });
  it('the fifth cache breakpoint is removed', () => {
    const cc = { type: 'ephemeral' };
    const body = {
      model: 'model-haiku-4-5',
      max_tokens: 5,
      tools: [{ name: 't', input_schema: { type: 'object' }, cache_control: cc }],
      system: [{ type: 'text', text: 's', cache_control: cc }],
      messages: [{ role: 'user', content: ['a', 'b', 'c'].map(text => ({ type: 'text', text, cache_control: cc })) }],
    };
    const json = JSON.stringify(body, null, 2);
    const v = validateText(json, 'json', { now: NOW });
    assert.deepEqual(
      v.problems.filter(p => p.code === 'too-many-cache-breakpoints').map(p => p.path.join('/')),
      ['messages/0/content/2/cache_control'],
    );
    const out = fix(json, 'json', 'too-many-cache-breakpoints', /Remove this cache_control/);
    assert.deepEqual(after(out, 'json'), []);
    assert.equal((JSON.parse(out) as typeof body).messages[0]!.content[2]!.cache_control, undefined);
  });
  it('a 1h breakpoint after a 5m one: use 5m here, or give the earlier one 1h (inserted where it has no ttl)', () => {
    const body = {
      model: 'model-haiku-4-5',
      max_tokens: 5,
      tools: [{ name: 't', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
      system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [{ role: 'user', content: 'x' }],
    };
    const json = JSON.stringify(body, null, 2);
    const here = fix(json, 'json', 'cache-ttl-order', /Use ttl "5m" here/);
    assert.equal((JSON.parse(here) as typeof body).system[0]!.cache_control.ttl, '5m');
    assert.deepEqual(after(here, 'json'), []);
    const earlier = fix(json, 'json', 'cache-ttl-order', /on the earlier breakpoint/);
    assert.deepEqual((JSON.parse(earlier) as typeof body).tools[0]!.cache_control, { type: 'ephemeral', ttl: '1h' });
    assert.deepEqual(after(earlier, 'json'), []);
  });
  it('temperature and top_k are removed with manual thinking; the budget is set below max_tokens', () => {
    const yaml =
      'model: model-haiku-4-5\nmax_tokens: 4096\nthinking: {type: enabled, budget_tokens: 4096}\ntemperature: 0.2\n' +
      'top_k: 5\nmessages:\n  - role: user\n    content: x\n';
    let out = fix(yaml, 'yaml', 'thinking-with-temperature', /Remove temperature/);
    out = fix(out, 'yaml', 'thinking-with-top-k', /Remove top_k/);
    out = fix(out, 'yaml', 'budget-exceeds-max-tokens', /Set budget_tokens to 2048/);
    assert.equal(
      out,
      'model: model-haiku-4-5\nmax_tokens: 4096\nthinking: {type: enabled, budget_tokens: 2048}\nmessages:\n' +
        '  - role: user\n    content: x\n',
    );
  });
  it('a forced tool_choice with manual thinking becomes auto; max_tokens comes down to the model limit', () => {
    const json = JSON.stringify({
      model: 'model-sonnet-4-5',
      max_tokens: 70000,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: [{ name: 't', input_schema: { type: 'object' } }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      messages: [{ role: 'user', content: 'x' }],
    });
    let out = fix(json, 'json', 'thinking-with-forced-tool-choice', /auto/);
    out = fix(out, 'json', 'max-tokens-above-model-limit', /64000/);
    const body = JSON.parse(out) as { tool_choice: unknown; max_tokens: number };
    assert.deepEqual(body.tool_choice, { type: 'auto', disable_parallel_tool_use: true });
    assert.equal(body.max_tokens, 64000);
    assert.deepEqual(after(out, 'json'), []);
  });
  it('a tool name with spaces is renamed; a strict schema and an output schema are closed', () => {
    const json = JSON.stringify(
      {
        model: 'model-haiku-4-5',
        max_tokens: 5,
        tools: [
          {
            name: 'get weather',
            strict: true,
            input_schema: {
              type: 'object',
              properties: { place: { type: 'object', properties: { city: { type: 'string' } } } },
              additionalProperties: false,
            },
          },
        ],
        output_config: { format: { type: 'json_schema', schema: { type: 'object', additionalProperties: true } } },
        messages: [{ role: 'user', content: 'x' }],
      },
      null,
      2,
    );
    let out = fix(json, 'json', 'tool-name-pattern', /Rename to "get_weather"/);
    out = fix(out, 'json', 'strict-schema-not-closed', /Add "additionalProperties": false/);
    out = fix(out, 'json', 'output-schema-not-closed', /Set "additionalProperties" to false/);
    assert.deepEqual(after(out, 'json'), []);
    const body = JSON.parse(out) as { tools: { name: string; input_schema: { properties: { place: unknown } } }[] };
    assert.equal(body.tools[0]!.name, 'get_weather');
    assert.deepEqual(body.tools[0]!.input_schema.properties.place, {
      type: 'object',
      properties: { city: { type: 'string' } },
      additionalProperties: false,
    });
  });
  it('oneOf in an output schema becomes anyOf (the key only); maxItems is removed', () => {
    const yaml =
      'model: model-haiku-4-5\nmax_tokens: 5\noutput_config:\n  format:\n    type: json_schema\n    schema:\n' +
      '      type: array\n      maxItems: 3\n      items:\n        oneOf: [{type: string}, {type: integer}]\n' +
      'messages:\n  - role: user\n    content: x\n';
    let out = fix(yaml, 'yaml', 'output-schema-oneof', /anyOf/);
    out = fix(out, 'yaml', 'output-schema-max-items', /Remove "maxItems"/);
    assert.equal(out, yaml.replace('oneOf:', 'anyOf:').replace('      maxItems: 3\n', ''));
  });
  it('an image: the data URL prefix is removed, and the media type follows the data', () => {
    const image = (media: string, data: string) =>
      JSON.stringify(
        {
          model: 'model-haiku-4-5',
          max_tokens: 5,
          messages: [
            { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: media, data } }] },
          ],
        },
        null,
        2,
      );
    const prefixed = image('image/jpeg', `data:image/png;base64,${PNG}`);
    let out = fix(prefixed, 'json', 'image-invalid-base64', /Remove the "data:" URL prefix/);
    assert.equal(out, image('image/jpeg', PNG));
    out = fix(out, 'json', 'image-media-type-mismatch', /Use "image\/png"/);
    assert.equal(out, image('image/png', PNG));
    assert.deepEqual(after(out, 'json'), []);
  });
  it('an empty stop sequence is removed; a field of another API is removed', () => {
    const json =
      '{"model": "model-haiku-4-5", "max_tokens": 5, "stop_sequences": ["", "END"], "n": 2,\n' +
      ' "messages": [{"role": "user", "content": "x"}]}';
    let out = fix(json, 'json', 'stop-sequence-empty', /Remove this stop sequence/);
    out = fix(out, 'json', 'foreign-field', /Remove "n"/);
    assert.deepEqual(JSON.parse(out), {
      model: 'model-haiku-4-5',
      max_tokens: 5,
      stop_sequences: ['END'],
      messages: [{ role: 'user', content: 'x' }],
    });
  });
  it('a budget below 1024 is raised; cache_control on a thinking block and on an empty text block is removed', () => {
    const json = JSON.stringify(
      {
        model: 'model-haiku-4-5',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 100 },
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 't', signature: 's', cache_control: { type: 'ephemeral' } },
              { type: 'text', text: 'a' },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'x' },
              { type: 'text', text: '', cache_control: { type: 'ephemeral' } },
            ],
          },
        ],
      },
      null,
      2,
    );
    let out = fix(json, 'json', 'budget-tokens-below-minimum', /Set budget_tokens to 1024/);
    out = fix(out, 'json', 'thinking-cache-control', /Remove "cache_control"/);
    out = fix(out, 'json', 'cache-control-on-empty-text', /Remove this cache_control/);
    out = fix(out, 'json', 'empty-text-block', /Remove this text block/);
    assert.deepEqual(after(out, 'json'), []);
  });
});
