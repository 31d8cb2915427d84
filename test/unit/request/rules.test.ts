// One test per rule; each names the spec section it enforces (doc1 and doc3, as docs/spec.md describes them).
import * as assert from 'node:assert/strict';
import { check, base, user, assistant, type Seen } from './helpers';

/** A 1x1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const only = (seen: Seen[], code: string) => seen.filter(s => s.code === code);
const one = (seen: Seen[], code: string): Seen => {
  const m = only(seen, code);
  assert.equal(m.length, 1, `expected one ${code}, got ${JSON.stringify(seen, null, 1)}`);
  return m[0]!;
};

describe('schema rules (doc1 §2.1-§2.6)', () => {
  it("§2.1 missing required fields are marked on the object's opening brace, with their type", () => {
    const s = check({ model: 'model-opus-4-7', messages: [] });
    const p = s.find(x => x.message.includes('"max_tokens"'))!;
    assert.equal(p.at, '{');
    assert.match(p.message, /Missing required field "max_tokens" \(a number\)/);
  });
  it("§2.1 a missing field inside a property is marked on that property's key", () => {
    const s = check(base({ metadata: {}, thinking: { type: 'enabled' }, model: 'model-opus-4-5' }));
    const p = s.find(x => x.message.includes('budget_tokens'))!;
    assert.equal(p.at, '"thinking"');
  });
  it('§2.1 an unknown key is marked on the key', () => {
    const p = check(base({ temprature: 1 })).find(x => x.path === 'temprature')!;
    assert.equal(p.at, '"temprature"');
    assert.match(p.message, /Unknown field "temprature"/);
  });
  it('§2.1 a wrong value type is marked on the value', () => {
    const p = check(base({ max_tokens: '1024' }))[0]!;
    assert.equal(p.at, '"1024"');
    assert.match(p.message, /"max_tokens" must be an integer|"max_tokens" must be a number/);
  });
  it('§2.2 role is user or assistant only; a system turn is a beta feature, not an error', () => {
    const p = check(base({ messages: [{ role: 'tool', content: 'x' }] }))[0]!;
    assert.equal(p.at, '"tool"');
    assert.equal(p.severity, 'error');
    assert.match(p.message, /"role" must be "user" or "assistant"/);
    const s = one(
      check(
        base({
          messages: [
            { role: 'user', content: 'x' },
            { role: 'system', content: 'be brief' },
          ],
        }),
      ),
      'beta-feature',
    );
    assert.match(s.message, /mid-conversation-system-2026-04-07/);
  });
  it('§2.2 r3 at most 100,000 messages', () => {
    const msgs = Array.from({ length: 100_001 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'x' }));
    const p = check(JSON.stringify(base({ messages: msgs }))).find(x => x.path === 'messages')!;
    assert.match(p.message, /At most 100,000 messages per request \(this one has 100,001\)/);
    assert.equal(p.code, 'too-many-messages');
  });
  it('§2.3 ttl is 5m or 1h', () => {
    const p = check(base({ cache_control: { type: 'ephemeral', ttl: '2h' } }))[0]!;
    assert.equal(p.code, 'invalid-value');
    assert.match(p.message, /"5m", "1h"/);
  });
  it('§2.3 cache_control on a nested block other than the last of tool_result.content is an error', () => {
    const tr = {
      type: 'tool_result',
      tool_use_id: 't',
      content: [
        { type: 'text', text: 'a', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'b' },
      ],
    };
    const s = check(
      base({ messages: [user('q'), assistant({ type: 'tool_use', id: 't', name: 'n', input: {} }), user(tr)] }),
    );
    const p = one(s, 'nested-cache-control');
    assert.equal(p.at, '"cache_control"');
    assert.equal(p.path, 'messages/2/content/0/content/0/cache_control');
  });
  it('§2.3 cache_control on the last block of document.source.content is allowed; not on search_result content', () => {
    const doc = {
      type: 'document',
      source: {
        type: 'content',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b', cache_control: { type: 'ephemeral' } },
        ],
      },
    };
    assert.deepEqual(check(base({ messages: [user(doc)] })), []);
    const sr = {
      type: 'search_result',
      source: 's',
      title: 't',
      content: [{ type: 'text', text: 'b', cache_control: { type: 'ephemeral' } }],
    };
    one(check(base({ messages: [user(sr)] })), 'nested-cache-control');
  });
  it('§2.4 an unknown block type says so and lists the known ones', () => {
    const p = check(base({ messages: [user({ type: 'txt', text: 'a' })] }))[0]!;
    assert.match(p.message, /Unknown content block "txt"; known: "text", "image", "document"/);
    assert.doesNotMatch(p.message, /alternative|union/i);
  });
  it('§2.4 a known block type reports what is wrong inside it', () => {
    const s = check(
      base({ messages: [user({ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: PNG } })] }),
    );
    assert.equal(s.length, 1);
    assert.equal(s[0]!.at, '"image/bmp"');
    assert.match(s[0]!.message, /"image\/jpeg", "image\/png", "image\/gif", "image\/webp"/);
  });
  it('§2.4 a document base64 source takes application/pdf only', () => {
    const s = check(
      base({ messages: [user({ type: 'document', source: { type: 'base64', media_type: 'image/png', data: 'x' } })] }),
    );
    assert.match(s[0]!.message, /must be "application\/pdf"/);
  });
  it('§2.4 error codes are checked per result type (bash adds output_file_too_large, code execution does not)', () => {
    const mk = (type: string, etype: string, code: string) =>
      base({
        messages: [
          user('q'),
          assistant(
            { type: 'server_tool_use', id: 's', name: 'code_execution', input: {} },
            { type, tool_use_id: 's', content: { type: etype, error_code: code } },
          ),
        ],
      });
    assert.deepEqual(
      check(mk('bash_code_execution_tool_result', 'bash_code_execution_tool_result_error', 'output_file_too_large')),
      [],
    );
    assert.equal(
      check(mk('code_execution_tool_result', 'code_execution_tool_result_error', 'output_file_too_large'))[0]!.at,
      '"output_file_too_large"',
    );
    assert.deepEqual(
      check(
        mk('text_editor_code_execution_tool_result', 'text_editor_code_execution_tool_result_error', 'file_not_found'),
      ),
      [],
    );
  });
  it('§2.4 server_tool_use names are the seven of the spec', () => {
    const s = check(
      base({ messages: [user('q'), assistant({ type: 'server_tool_use', id: 's', name: 'web_browse', input: {} })] }),
    );
    assert.match(s[0]!.message, /"web_search", "web_fetch"/);
  });
  it('§2.4 caller types: direct, code_execution_20250825/20260120 with tool_id', () => {
    const s = check(
      base({
        messages: [
          user('q'),
          assistant({ type: 'tool_use', id: 't', name: 'n', input: {}, caller: { type: 'code_execution_20260120' } }),
        ],
      }),
    );
    assert.match(s[0]!.message, /Missing required field "tool_id"/);
  });
  it('§2.4 tool_result whose tool_use_id matches no earlier tool_use is an error with a fix per known id', () => {
    const s = check(
      base({
        messages: [
          user('q'),
          assistant({ type: 'tool_use', id: 'toolu_1', name: 'n', input: {} }),
          user({ type: 'tool_result', tool_use_id: 'toolu_2' }),
        ],
      }),
    );
    const p = one(s, 'orphan-tool-result');
    assert.equal(p.at, '"toolu_2"');
    assert.match(p.message, /its ids: "toolu_1"/);
  });
  it('§2.5 end_block_index must be greater than start_block_index', () => {
    const c = {
      type: 'content_block_location',
      cited_text: 'a',
      document_index: 0,
      document_title: 'D',
      start_block_index: 2,
      end_block_index: 2,
    };
    const p = one(
      check(base({ messages: [user({ type: 'text', text: 'x', citations: [c] })] })),
      'citation-block-range',
    );
    assert.equal(p.at, '2');
    assert.equal(p.path, 'messages/0/content/0/citations/0/end_block_index');
  });
  it('§2.6 a built-in tool has its fixed name', () => {
    const p = check(base({ tools: [{ type: 'bash_20250124', name: 'shell' }] }))[0]!;
    assert.equal(p.at, '"shell"');
    assert.match(p.message, /must be "bash"/);
  });
  it('§2.6 an unknown tool type lists the known ones', () => {
    const p = check(base({ tools: [{ type: 'web_search_2025', name: 'web_search' }] }))[0]!;
    assert.match(p.message, /Unknown tool type "web_search_2025"; known: "custom", "bash_20250124"/);
  });
  it('§2.6 allowed_domains and blocked_domains are mutually exclusive', () => {
    const p = one(
      check(
        base({
          tools: [{ type: 'web_fetch_20250910', name: 'web_fetch', allowed_domains: ['a'], blocked_domains: ['b'] }],
        }),
      ),
      'exclusive-domains',
    );
    assert.equal(p.at, '"blocked_domains"');
  });
  it('§2.6 user_location.country is a two-letter code; use_cache only on web_fetch_20260309', () => {
    const p = check(
      base({
        tools: [
          { type: 'web_search_20260209', name: 'web_search', user_location: { type: 'approximate', country: 'FRA' } },
        ],
      }),
    )[0]!;
    assert.match(p.message, /two-letter ISO country code/);
    const q = check(base({ tools: [{ type: 'web_fetch_20260209', name: 'web_fetch', use_cache: true }] }))[0]!;
    assert.equal(q.at, '"use_cache"');
  });
  it('§2.6 custom tool input_schema must be an object schema; tool names must be unique', () => {
    const p = check(base({ tools: [{ name: 'a', input_schema: { type: 'array' } }] }))[0]!;
    assert.equal(p.at, '"array"');
    const s = check(
      base({
        tools: [
          { name: 'a', input_schema: { type: 'object' } },
          { name: 'a', input_schema: { type: 'object' } },
        ],
      }),
    );
    assert.match(one(s, 'duplicate-tool-name').message, /already used by tools\[0\]/);
  });
  it('§2.1 metadata.user_id that looks like an e-mail is an error (reports show the service refusing it)', () => {
    const p = one(check(base({ metadata: { user_id: 'ana@example.org' } })), 'user-id-email');
    assert.equal(p.severity, 'error');
    const email = (id: string) => check(base({ metadata: { user_id: id } })).some(x => x.code === 'user-id-email');
    for (const id of ['a@b.c', ' a@b.c. ', 'a@b..c', 'a@.b.c', 'a.b@c.d'])
      assert.equal(email(id), true, `${JSON.stringify(id)} is an e-mail`);
    for (const id of ['a@b.', 'a@.b', '@b.c', 'a@b', 'a@@b.c', 'a@b.c@d.e', 'a b@c.d', 'uuid-1234'])
      assert.equal(email(id), false, `${JSON.stringify(id)} is not`);
    // in time linear in the value (a regular expression took 6 s on 40 KB of `a.`)
    const t0 = performance.now();
    assert.equal(email(`a@${'a.'.repeat(500_000)}@`), false);
    assert.ok(performance.now() - t0 < 1000, `${performance.now() - t0} ms`);
  });
});

describe('model rules (doc1 §2.2, §4.3; doc3 §9.4)', () => {
  it('doc3 §9.4 a retired model is an error with replacements', () => {
    const p = one(check(base({ model: 'model-3-haiku-20240307' })), 'retired-model');
    assert.equal(p.severity, 'error');
    assert.equal(one(check(base({ model: 'model-3-5-sonnet-20241022' })), 'retired-model').severity, 'error');
  });
  it('doc3 §9.4 a deprecated model is a warning before its retirement date and an error after it', () => {
    const s = check(base({ model: 'model-sonnet-4-20250514' }));
    const p = one(s, 'retired-model');
    assert.equal(p.severity, 'error'); // NOW is after June 15, 2026
    assert.match(p.message, /June 15, 2026/);
  });
  it('unknown model ids are allowed with an informational hint', () => {
    const p = one(check(base({ model: 'my-finetune' })), 'unknown-model');
    assert.equal(p.severity, 'info');
  });
  it('§2.2 r1 consecutive turns of the same role are a warning, not an error', () => {
    const p = one(
      check(
        base({
          messages: [
            { role: 'user', content: 'a' },
            { role: 'user', content: 'b' },
          ],
        }),
      ),
      'consecutive-roles',
    );
    assert.equal(p.severity, 'warning');
    assert.equal(p.at, '"user"');
  });
  it('§2.2 r4 no prefill on model-opus-4-6', () => {
    const msgs = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'Sure:' },
    ];
    assert.equal(
      one(check(base({ model: 'model-opus-4-6', messages: msgs })), 'prefill-unsupported').severity,
      'error',
    );
    assert.deepEqual(only(check(base({ model: 'model-opus-4-7', messages: msgs })), 'prefill-unsupported'), []);
  });
  it('§2.2 r5 not both temperature and top_p on model-opus-4-1 (and its dated id)', () => {
    for (const model of ['model-opus-4-1', 'model-opus-4-1-20250805']) {
      const s = only(check(base({ model, temperature: 0.2, top_p: 0.9 })), 'temperature-with-top-p');
      assert.equal(s.length, 2, model);
    }
    assert.deepEqual(
      only(check(base({ model: 'model-opus-4-5', temperature: 0.2, top_p: 0.9 })), 'temperature-with-top-p'),
      [],
    );
  });
  it('§4.3 r1 effort only on effort-capable models', () => {
    const p = one(check(base({ model: 'model-haiku-4-5', output_config: { effort: 'low' } })), 'effort-unsupported');
    assert.equal(p.at, '"low"');
  });
  it('§4.3 max on four models; xhigh only on model-opus-4-7 (and the newer models reports describe)', () => {
    assert.equal(
      one(check(base({ model: 'model-opus-4-5', output_config: { effort: 'max' } })), 'effort-unavailable').severity,
      'error',
    );
    assert.deepEqual(
      only(check(base({ model: 'model-sonnet-4-6', output_config: { effort: 'max' } })), 'effort-unavailable'),
      [],
    );
    assert.match(
      one(check(base({ model: 'model-opus-4-6', output_config: { effort: 'xhigh' } })), 'effort-unavailable').message,
      /\(it is available on model-opus-4-8, model-sonnet-5 and model-opus-4-7\)/,
    );
    assert.deepEqual(
      only(check(base({ output_config: { effort: 'xhigh' }, max_tokens: 64000 })), 'effort-unavailable'),
      [],
    );
  });
  it('§4.3 dated ids follow their model (model-opus-4-5-20251101 has no max)', () => {
    one(check(base({ model: 'model-opus-4-5-20251101', output_config: { effort: 'max' } })), 'effort-unavailable');
  });
  it('§4.3 r4 thinking disabled is rejected on model-mythos-preview', () => {
    one(check(base({ model: 'model-mythos-preview', thinking: { type: 'disabled' } })), 'thinking-disabled-rejected');
  });
  it('§4.3 r5 manual thinking is not supported on model-opus-4-7', () => {
    const p = one(check(base({ thinking: { type: 'enabled', budget_tokens: 100 } })), 'manual-thinking-unsupported');
    assert.equal(p.severity, 'error');
  });
  it('§4.3 r6 budget_tokens is deprecated on model-opus-4-6 and model-sonnet-4-6', () => {
    for (const model of ['model-opus-4-6', 'model-sonnet-4-6']) {
      assert.equal(
        one(check(base({ model, thinking: { type: 'enabled', budget_tokens: 100 } })), 'budget-tokens-deprecated')
          .severity,
        'warning',
      );
    }
  });
  it('§4.3 r7 model-opus-4-5 uses manual thinking; reports show adaptive thinking refused on the 4-5 models', () => {
    for (const model of ['model-opus-4-5', 'model-sonnet-4-5', 'model-haiku-4-5-20251001']) {
      const p = one(check(base({ model, thinking: { type: 'adaptive' } })), 'manual-thinking-expected');
      assert.equal(p.severity, 'error', model);
    }
    assert.deepEqual(
      only(check(base({ model: 'model-sonnet-4-6', thinking: { type: 'adaptive' } })), 'manual-thinking-expected'),
      [],
    );
  });
  it('§4.3 r8 xhigh/max with a small max_tokens on model-opus-4-7 gets a hint', () => {
    const p = one(check(base({ output_config: { effort: 'xhigh' }, max_tokens: 4096 })), 'effort-max-tokens');
    assert.equal(p.severity, 'info');
    assert.equal(p.at, '4096');
  });
  it('doc3 §9.5 with extended thinking top_p may be 0.95 to 1', () => {
    one(
      check(base({ model: 'model-opus-4-5', thinking: { type: 'enabled', budget_tokens: 100 }, top_p: 0.5 })),
      'top-p-with-thinking',
    );
  });
  it('§2.1 speed fast needs its beta; diagnostics needs cache-diagnosis', () => {
    const fast = { model: 'model-opus-4-6', speed: 'fast' };
    one(check(base(fast)), 'beta-feature');
    assert.deepEqual(check(base(fast), 'json', ['fast-mode-2026-02-01']), []);
    one(check(base({ diagnostics: { previous_message_id: 'm' } })), 'cache-diagnosis-beta');
  });
  it('§8 the context-1m beta has no effect on sonnet-4-5 and sonnet-4-0', () => {
    one(check(base({ model: 'model-sonnet-4-5' }), 'json', ['context-1m-2025-08-07']), 'retired-1m-beta');
  });
});
