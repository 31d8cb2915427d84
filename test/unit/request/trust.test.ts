// An error means the service will reject the request: null as absent, unknown fields and beta features as
// warnings with a way forward, hostile input that never crashes.
import * as assert from 'node:assert/strict';
import { applyEdits, fixEdits } from '../../../src/core/request/fixes';
import { MAX_DEPTH } from '../../../src/core/request/parse';
import { validateText } from '../../../src/core/request/validate';
import { base, check, NOW, user, assistant, type Seen } from './helpers';

const errors = (s: Seen[]) => s.filter(p => p.severity === 'error');
const codes = (s: Seen[]) => s.map(p => `${p.severity}:${p.code}`);

describe('null is absent for every optional field', () => {
  it('web search and web fetch tools with null options pass (no bogus mutual exclusion)', () => {
    const tools = [
      {
        type: 'web_search_20250305',
        name: 'web_search',
        allowed_domains: null,
        blocked_domains: null,
        max_uses: null,
        user_location: null,
      },
      {
        type: 'web_fetch_20250910',
        name: 'web_fetch',
        allowed_domains: ['a.org'],
        blocked_domains: null,
        citations: null,
        max_content_tokens: null,
      },
      {
        name: 'get',
        description: null,
        input_schema: { type: 'object', properties: null, required: null },
        cache_control: null,
        strict: null,
      },
    ];
    assert.deepEqual(check(base({ tools })), []);
  });
  it('null top-level options pass, and so does null inside blocks', () => {
    const req = base({
      system: null,
      temperature: null,
      top_p: null,
      top_k: null,
      metadata: null,
      stop_sequences: null,
      thinking: null,
      tools: null,
      tool_choice: null,
      output_config: null,
      container: null,
      inference_geo: null,
      cache_control: null,
      stream: null,
      messages: [
        user({ type: 'text', text: 'x', citations: null, cache_control: null }),
        assistant({ type: 'tool_use', id: 't', name: 'n', input: {}, caller: null }),
        user({ type: 'tool_result', tool_use_id: 't', content: null, is_error: null }),
      ],
    });
    assert.deepEqual(check(req), []);
  });
  it('a required field that is null is still an error, named as required', () => {
    const s = check(base({ max_tokens: null }));
    assert.deepEqual(codes(s), ['error:missing-field']);
    assert.match(s[0]!.message, /"max_tokens" is required: it must be a number, not null/);
  });
  it('null temperature with top_p on model-opus-4-1 is not "both given"', () => {
    assert.deepEqual(check(base({ model: 'model-opus-4-1', temperature: null, top_p: 0.9 })), []);
  });
});

describe('unknown fields are warnings, with "did you mean" and a rename fix', () => {
  it('a near miss at the top level suggests the field and renames only the key', () => {
    const text =
      '{\n  "model": "model-opus-4-7",\n  "max_token": 10,\n  "messages": [{"role": "user", "content": "x"}]\n}';
    const v = validateText(text, 'json', { now: NOW });
    const p = v.problems.find(x => x.code === 'unknown-field')!;
    assert.equal(p.severity, 'warning');
    assert.match(p.message, /did you mean "max_tokens"\?/);
    assert.equal(text.slice(p.start, p.end), '"max_token"');
    const rename = p.fixes!.find(f => f.kind === 'rename-property')!;
    assert.ok(rename.kind === 'rename-property');
    const fixed = applyEdits(text, fixEdits(text, 'json', v.parsed, rename));
    assert.equal(fixed, text.replace('"max_token"', '"max_tokens"'));
  });
  it('nested unknown fields (in a tool, a cache_control) are warnings too; in a content block, errors', () => {
    const s = check(
      base({
        tools: [{ name: 'n', input_schema: { type: 'object' }, extra: 1 }],
        messages: [user({ type: 'text', text: 'x', cache_control: { type: 'ephemeral', tll: '1h' }, extra: 1 })],
      }),
    );
    assert.deepEqual(codes(s), ['warning:unknown-field', 'error:extra-field-in-block', 'warning:unknown-field']);
    assert.match(s.find(p => p.path.endsWith('tll'))!.message, /did you mean "ttl"/);
    assert.match(s.find(p => p.path === 'tools/0/extra')!.message, /does not describe it/);
    // the service refuses a key a block does not have ("Extra inputs are not permitted")
    assert.match(s.find(p => p.path === 'messages/0/content/0/extra')!.message, /A text block has no field "extra"/);
  });
  it('a field of another API at the top level is an error, with a rename where this API has the field', () => {
    const s = check(base({ response_format: { type: 'json_object' }, max_completion_tokens: 5 }));
    assert.deepEqual(codes(s), ['error:foreign-field', 'error:foreign-field']);
    assert.match(s[0]!.message, /output_config\.format/);
    const text =
      '{\n  "model": "model-opus-4-7",\n  "max_completion_tokens": 10,\n' +
      '  "messages": [{"role": "user", "content": "x"}]\n}';
    const v = validateText(text, 'json', { now: NOW });
    const p = v.problems.find(x => x.code === 'foreign-field')!;
    const rename = p.fixes!.find(f => f.kind === 'rename-property')!;
    assert.equal(
      applyEdits(text, fixEdits(text, 'json', v.parsed, rename)),
      text.replace('max_completion_tokens', 'max_tokens'),
    );
  });
  it('YAML: the rename keeps the value and comments', () => {
    const text = 'model: model-opus-4-7 # m\nmax_tokens: 5\nmesages:\n  - role: user\n    content: hi\n';
    const v = validateText(text, 'yaml', { now: NOW });
    const p = v.problems.find(x => x.code === 'unknown-field')!;
    const rename = p.fixes!.find(f => f.kind === 'rename-property')!;
    assert.ok(rename.kind === 'rename-property');
    assert.equal(applyEdits(text, fixEdits(text, 'yaml', v.parsed, rename)), text.replace('mesages:', 'messages:'));
  });
  it('service_tier auto is accepted; an unknown value is a warning', () => {
    assert.deepEqual(check(base({ service_tier: 'auto' })), []);
    assert.deepEqual(codes(check(base({ service_tier: 'fastest' }))), ['warning:unknown-value']);
  });
});

describe('beta features: a warning naming the beta, silence when it is configured', () => {
  const mcp = base({
    mcp_servers: [{ type: 'url', url: 'https://mcp.example/sse', name: 'docs', authorization_token: null }],
    messages: [
      user('q'),
      assistant({ type: 'mcp_tool_use', id: 'm1', name: 'search', server_name: 'docs', input: {} }),
      user({ type: 'mcp_tool_result', tool_use_id: 'm1', is_error: false, content: [{ type: 'text', text: 'r' }] }),
    ],
    tools: [{ type: 'mcp_toolset', mcp_server_name: 'docs' }],
  });
  it('mcp_servers, mcp_tool_use/mcp_tool_result blocks and mcp_toolset warn without the beta', () => {
    const s = check(mcp);
    assert.deepEqual(errors(s), []);
    const beta = s.filter(p => p.code === 'beta-feature');
    assert.equal(beta.length, 4);
    assert.match(
      beta.find(p => p.path === 'mcp_servers')!.message,
      /"mcp_servers" needs the beta "mcp-client-2025-11-20".*promptwright\.betas/,
    );
  });
  it('with the beta configured, nothing is said', () => {
    assert.deepEqual(check(mcp, 'json', ['mcp-client-2025-11-20']), []);
  });
  it('context_management, compaction blocks, output_config.task_budget, container objects, output_format', () => {
    const req = base({
      context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
      messages: [user('q'), assistant({ type: 'compaction', content: 'summary' }), user('more')],
      output_config: { effort: 'high', task_budget: { type: 'tokens', total: 1000 } },
      container: { id: null, skills: [{ type: 'vendor', skill_id: 'pptx', version: 'latest' }] },
      output_format: { type: 'json_schema', schema: { type: 'object', additionalProperties: false } },
    });
    const s = check(req);
    assert.deepEqual(errors(s), []);
    assert.deepEqual(
      s
        .filter(p => p.code === 'beta-feature')
        .map(p => p.path)
        .sort(),
      ['container', 'context_management', 'messages/1/content/0/type', 'output_config/task_budget', 'output_format'],
    );
    const all = [
      'context-management-2025-06-27',
      'compact-2026-01-12',
      'task-budgets-2026-03-13',
      'skills-2025-10-02',
      'structured-outputs-2025-11-13',
    ];
    assert.deepEqual(check(req, 'json', all), []);
  });
  it('a beta warning offers to add the beta to the setting', () => {
    const v = validateText(JSON.stringify(base({ speed: 'fast' })), 'json', { now: NOW });
    const p = v.problems.find(x => x.code === 'beta-feature')!;
    assert.deepEqual(p.fixes, [
      {
        kind: 'add-beta',
        title: 'Add the beta "fast-mode-2026-02-01" to promptwright.betas',
        beta: 'fast-mode-2026-02-01',
      },
    ]);
  });
  it('a block type that is neither in the spec nor known to come with a beta stays an error', () => {
    for (const type of ['video', 'audio', 'txt']) {
      const s = check(base({ messages: [user({ type, data: 'x' })] }));
      assert.deepEqual(codes(s), ['error:unknown-type'], type);
      assert.equal(s[0]!.at, `"${type}"`);
    }
  });
});

describe('messages and model ids', () => {
  it('messages: [] is an error: the service requires at least one message', () => {
    const s = check(base({ messages: [] }));
    assert.deepEqual(codes(s), ['error:empty-messages']);
    assert.match(s[0]!.message, /at least one message/);
  });
  it('aliases of retired models are retired, with a fix to a current model of the same family first', () => {
    for (const [model, first] of [
      ['model-3-opus-latest', 'model-opus-4-7'],
      ['model-3-5-haiku-latest', 'model-haiku-4-5'],
      ['model-3-7-sonnet-latest', 'model-sonnet-4-6'],
      ['model-3-5-sonnet-latest', 'model-sonnet-4-6'],
      ['model-3-haiku-latest', 'model-haiku-4-5'],
    ]) {
      const v = validateText(JSON.stringify(base({ model })), 'json', { now: NOW });
      const p = v.problems.find(x => x.code === 'retired-model');
      assert.ok(p && p.severity === 'error', model);
      assert.equal(p.fixes![0]!.title, `Use ${first}`, model);
    }
    assert.deepEqual(codes(check(base({ model: 'model-haiku-4-5-latest' }))), ['info:unknown-model']);
  });
});

describe('hostile and edge input never crashes', () => {
  const deep = (n: number, open = '[', close = ']') => open.repeat(n) + close.repeat(n);
  const inInput = (n: number) =>
    `{"model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"x"},` +
    `{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{"a":${deep(n)}}}]}]}`;
  it(`JSON nested 100,000 deep, valid: checked, with a depth warning (> ${MAX_DEPTH})`, () => {
    const s = check(inInput(100_000));
    assert.deepEqual(codes(s), ['warning:nesting-depth']);
  });
  it('JSON nested 100,000 deep and unclosed: a syntax error at the end, and the depth', () => {
    const text = inInput(100_000).slice(0, -60_000);
    const s = check(text);
    assert.deepEqual(codes(s).sort(), ['error:json-syntax', 'warning:nesting-depth']);
  });
  it('a 100,000-deep array as the whole file, and a bare deep object', () => {
    assert.ok(codes(check(deep(100_000))).includes('error:not-an-object'));
    assert.ok(codes(check(deep(100_000, '{"a":', '}').replace(/\{"a":\}/, '{"a":1}'))).length >= 1);
  });
  it('YAML nested 100,000 deep (flow and block sequences), valid and unclosed: one clear error', () => {
    for (const text of [
      deep(100_000),
      '['.repeat(100_000),
      `${'- '.repeat(100_000)}x\n`,
      `a:\n  b: ${'['.repeat(100_000)}`,
    ]) {
      const s = check(text, 'yaml');
      assert.ok(codes(s).includes('error:nesting-depth'), codes(s).join());
    }
  });
  it(`YAML just under ${MAX_DEPTH} levels is read and checked`, () => {
    const s = check(
      `model: model-opus-4-7\nmax_tokens: 5\n` +
        `messages: [{role: user, content: [{type: tool_result, tool_use_id: x, content: ${deep(300)}}]}]\n`,
      'yaml',
    );
    assert.ok(!codes(s).includes('error:nesting-depth'), codes(s).join());
  });
  it('duplicate keys in deep valid JSON are found without a parse tree', () => {
    const text =
      `{"model":"model-opus-4-7","model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"x"}],` +
      '"metadata":{"user_id":"u"},"tools":[{"name":"t","input_schema":{"type":"object","properties":{"a":' +
      `${deep(2000, '{"b":', '}').replace('{"b":}', '{"b":1}')}}}}]}`;
    const s = check(text);
    const dup = s.filter(p => p.code === 'duplicate-key');
    assert.equal(dup.length, 1);
    assert.equal(dup[0]!.path, 'model');
  });
  it('numbers beyond double range read as "must be an integer between 0 and …"', () => {
    const s = check('{"model":"model-opus-4-7","max_tokens":1e400,"messages":[{"role":"user","content":"x"}]}');
    assert.deepEqual(codes(s), ['error:out-of-range']);
    assert.match(
      s[0]!.message,
      /"max_tokens" must be an integer between 0 and 9,007,199,254,740,991; this one is a number too large/,
    );
    assert.equal(s[0]!.at, '1e400');
    assert.match(
      check(
        '{"model":"model-opus-4-5","max_tokens":5,"temperature":-1e999,"messages":[{"role":"user","content":"x"}]}',
      )[0]!.message,
      /"temperature" must be a finite number/,
    );
  });
  it('lone surrogates in strings are an error (refused as invalid JSON), escaped or raw; a real pair is fine', () => {
    const lone = check('{"model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"a\\ud800b"}]}');
    assert.deepEqual(codes(lone), ['error:lone-surrogate']);
    assert.equal(lone[0]!.at, '\\ud800');
    // upper-case hex and a high half in A–F are found too (the prefilter lower-cases the letter)
    for (const escape of ['\\uDBFF', '\\uDAbc', '\\ud9ff']) {
      const found = check(
        `{"model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"${escape}!"}]}`,
      );
      assert.deepEqual(codes(found), ['error:lone-surrogate'], escape);
    }
    assert.deepEqual(
      check(
        '{"model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"\\ud83d\\ude00 \\\\ud800"}]}',
      ),
      [],
    );
    const raw = check(
      `{"model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"a${'\udc00'}"}]}`,
    );
    assert.deepEqual(codes(raw), ['error:lone-surrogate']);
  });
  it('a 20 MB one-line string is answered in well under a second per MB', () => {
    const big = 'x'.repeat(20 * 1024 * 1024);
    for (const format of ['json', 'yaml'] as const) {
      const text =
        format === 'json'
          ? `{"model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"${big}"}]}`
          : `model: model-opus-4-7\nmax_tokens: 5\nmessages:\n  - role: user\n    content: ${big}\n`;
      const t0 = process.hrtime.bigint();
      const s = check(text, format);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      assert.deepEqual(s, [], format);
      assert.ok(ms < 20 * 250, `${format}: ${ms.toFixed(0)} ms for 20 MB`);
    }
  });
  it('types and keys named like Object.prototype members are unknown, not a crash', () => {
    const s = check(
      base({
        constructor: 1,
        tools: [{ type: 'toString', name: 'x' }],
        messages: [user({ type: 'constructor' }, { type: 'text', text: 'x' })],
      }),
    );
    assert.deepEqual(
      s.map(p => `${p.severity}:${p.code}`).filter(c => c.endsWith('internal-error')),
      [],
    );
    assert.ok(s.some(p => p.code === 'unknown-type' && p.path === 'messages/0/content/0/type'));
    assert.ok(s.some(p => p.code === 'unknown-type' && p.path === 'tools/0/type'));
    assert.ok(s.some(p => p.code === 'unknown-field' && p.path === 'constructor'));
  });
  it('an exception inside the validator becomes one internal-error problem, never a throw', () => {
    const v = validateText('{}', 'json', {
      get betas(): string[] {
        throw new Error('boom');
      },
    });
    assert.deepEqual(
      v.problems.map(p => [p.code, p.severity]),
      [['internal-error', 'warning']],
    );
    assert.match(v.problems[0]!.message, /could not check this file \(boom\)/);
  });
});

describe('the count_tokens endpoint', () => {
  it('checks what count_tokens takes: no max_tokens needed, other fields not looked at', () => {
    const text = JSON.stringify({
      model: 'model-opus-4-7',
      messages: [{ role: 'user', content: 'x' }],
      temperature: 'hot',
    });
    assert.deepEqual(validateText(text, 'json', { now: NOW, endpoint: 'count_tokens' }).problems, []);
    assert.ok(validateText(text, 'json', { now: NOW }).problems.some(p => p.code === 'missing-field'));
  });
  it('still refuses what count_tokens would reject (a retired model, no messages)', () => {
    const text = JSON.stringify({ model: 'model-3-opus-latest', messages: [] });
    const got = validateText(text, 'json', { now: NOW, endpoint: 'count_tokens' })
      .problems.map(p => p.code)
      .sort();
    assert.deepEqual(got, ['empty-messages', 'retired-model']);
  });
});

describe('review fixes: fewer false errors, clearer messages', () => {
  it('duplicate keys are a warning (the last one counts, as in every JSON parser), in JSON and YAML', () => {
    assert.deepEqual(
      codes(
        check('{"model":"model-opus-4-7","max_tokens":5,"max_tokens":6,"messages":[{"role":"user","content":"x"}]}'),
      ),
      ['warning:duplicate-key'],
    );
    assert.deepEqual(
      codes(
        check('model: model-opus-4-7\nmax_tokens: 5\nmax_tokens: 6\nmessages: [{role: user, content: x}]\n', 'yaml'),
      ),
      ['warning:duplicate-key'],
    );
  });
  it('a missing field with a fixed value is "missing", with a fix that adds it (one problem per missing name)', () => {
    const text = JSON.stringify(base({ cache_control: {}, tools: [{ type: 'bash_20250124' }] }), null, 2);
    const v = validateText(text, 'json', { now: NOW });
    assert.deepEqual(
      v.problems.map(p => [p.code, p.message]),
      [
        ['missing-field', 'Missing required field "type" (always "ephemeral" here).'],
        ['missing-field', 'Missing required field "name" (always "bash" here).'],
      ],
    );
    const add = v.problems[1]!.fixes![0]!;
    assert.ok(add.kind === 'insert-property');
    assert.deepEqual(JSON.parse(applyEdits(text, fixEdits(text, 'json', v.parsed, add))).tools[0], {
      type: 'bash_20250124',
      name: 'bash',
    });
  });
  it('YAML: brackets inside quoted strings and block scalars are text, not nesting', () => {
    const many = '['.repeat(600);
    const yaml =
      `model: model-opus-4-7\nmax_tokens: 5\nsystem: "${many}"\nmessages:\n  - role: user\n` +
      `    content: |\n      ${many}\n      ${'{'.repeat(600)}\n`;
    assert.deepEqual(check(yaml, 'yaml'), []);
  });
  it('YAML: an undefined alias is a YAML error, not a "billion laughs"', () => {
    const s = check('model: *nope\nmax_tokens: 5\nmessages: [{role: user, content: x}]\n', 'yaml');
    assert.ok(s.length >= 1);
    assert.ok(!s.some(p => /billion laughs/.test(p.message)), JSON.stringify(s));
  });
  it('a beta block where its beta cannot put it (an mcp_tool_use inside a tool_result) is an error', () => {
    const s = check(
      base({
        messages: [
          user('q'),
          assistant({ type: 'tool_use', id: 't', name: 'n', input: {} }),
          user({
            type: 'tool_result',
            tool_use_id: 't',
            content: [{ type: 'mcp_tool_use', id: 'm', name: 'x', server_name: 's', input: {} }],
          }),
        ],
      }),
    );
    assert.deepEqual(codes(s), ['error:unknown-type']);
    assert.equal(s[0]!.at, '"mcp_tool_use"');
  });
  it('fallbacks and fallback_credit_token are beta fields, silent with their betas', () => {
    const req = base({ fallbacks: 'default', fallback_credit_token: 'tok' });
    assert.deepEqual(codes(check(req)), ['warning:beta-feature', 'warning:beta-feature']);
    assert.deepEqual(check(req, 'json', ['server-side-fallback-2026-07-01', 'fallback-credit-2026-07-01']), []);
  });
  it('citation ranges: only content_block_location must end after it starts (the spec says so of it alone)', () => {
    const c = {
      type: 'search_result_location',
      cited_text: 'a',
      search_result_index: 0,
      source: 's',
      title: 't',
      start_block_index: 1,
      end_block_index: 1,
    };
    assert.deepEqual(check(base({ messages: [user({ type: 'text', text: 'x', citations: [c] })] })), []);
  });
});
