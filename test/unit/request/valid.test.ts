// Valid files of every content block and tool type pass with no problems (doc1 §2.3-2.6).
import * as assert from 'node:assert/strict';
import { check, base, user, assistant } from './helpers';

const cc = { type: 'ephemeral', ttl: '1h' };
const blocks: Record<string, unknown> = {
  text: {
    type: 'text',
    text: 'hi',
    cache_control: cc,
    citations: [
      {
        type: 'char_location',
        cited_text: 'a',
        document_index: 0,
        document_title: 'D',
        start_char_index: 0,
        end_char_index: 1,
      },
      {
        type: 'page_location',
        cited_text: 'a',
        document_index: 0,
        document_title: null,
        start_page_number: 1,
        end_page_number: 2,
      },
      {
        type: 'content_block_location',
        cited_text: 'a',
        document_index: 0,
        document_title: 'D',
        start_block_index: 0,
        end_block_index: 1,
      },
      { type: 'web_search_result_location', cited_text: 'a', encrypted_index: 'x', title: 'T', url: 'https://e.org' },
      {
        type: 'search_result_location',
        cited_text: 'a',
        search_result_index: 0,
        source: 's',
        title: 'T',
        start_block_index: 0,
        end_block_index: 1,
      },
    ],
  },
  image_b64: { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
  image_url: {
    type: 'image',
    source: { type: 'url', url: 'https://e.org/a.png' },
    cache_control: { type: 'ephemeral' },
  },
  doc_pdf: {
    type: 'document',
    source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
    title: 'T',
    context: 'c',
    citations: { enabled: true },
  },
  doc_text: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hello' } },
  doc_content: {
    type: 'document',
    source: {
      type: 'content',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b', cache_control: cc },
      ],
    },
  },
  doc_content_str: { type: 'document', source: { type: 'content', content: 'plain' } },
  doc_url: { type: 'document', source: { type: 'url', url: 'https://e.org/a.pdf' } },
  search_result: {
    type: 'search_result',
    content: [{ type: 'text', text: 'r' }],
    source: 'https://e.org',
    title: 'T',
    citations: { enabled: false },
  },
  container_upload: { type: 'container_upload', file_id: 'file_1' },
};
const assistantBlocks: unknown[] = [
  { type: 'thinking', thinking: 't', signature: 's' },
  { type: 'redacted_thinking', data: 'xx' },
  { type: 'tool_use', id: 'tu1', name: 'get', input: { a: 1 }, caller: { type: 'direct' } },
  {
    type: 'server_tool_use',
    id: 'st1',
    name: 'web_search',
    input: { query: 'q' },
    caller: { type: 'code_execution_20250825', tool_id: 'x' },
  },
  {
    type: 'web_search_tool_result',
    tool_use_id: 'st1',
    content: [{ type: 'web_search_result', encrypted_content: 'e', title: 'T', url: 'https://e.org', page_age: '1d' }],
  },
  { type: 'server_tool_use', id: 'st2', name: 'web_fetch', input: { url: 'https://e.org' } },
  {
    type: 'web_fetch_tool_result',
    tool_use_id: 'st2',
    content: {
      type: 'web_fetch_result',
      url: 'https://e.org',
      retrieved_at: '2026-01-01T00:00:00Z',
      content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } },
    },
  },
  { type: 'server_tool_use', id: 'st3', name: 'code_execution', input: {} },
  {
    type: 'code_execution_tool_result',
    tool_use_id: 'st3',
    content: {
      type: 'code_execution_result',
      content: [{ type: 'code_execution_output', file_id: 'f' }],
      return_code: 0,
      stderr: '',
      stdout: 'ok',
    },
  },
  { type: 'server_tool_use', id: 'st4', name: 'bash_code_execution', input: {} },
  {
    type: 'bash_code_execution_tool_result',
    tool_use_id: 'st4',
    content: { type: 'bash_code_execution_tool_result_error', error_code: 'output_file_too_large' },
  },
  { type: 'server_tool_use', id: 'st5', name: 'text_editor_code_execution', input: {} },
  {
    type: 'text_editor_code_execution_tool_result',
    tool_use_id: 'st5',
    content: {
      type: 'text_editor_code_execution_view_result',
      content: 'x',
      file_type: 'text',
      num_lines: 1,
      start_line: 1,
      total_lines: 1,
    },
  },
  { type: 'server_tool_use', id: 'st6', name: 'tool_search_tool_regex', input: {} },
  {
    type: 'tool_search_tool_result',
    tool_use_id: 'st6',
    content: {
      type: 'tool_search_tool_search_result',
      tool_references: [{ type: 'tool_reference', tool_name: 'get' }],
    },
  },
  { type: 'server_tool_use', id: 'st7', name: 'code_execution', input: {} },
  {
    type: 'code_execution_tool_result',
    tool_use_id: 'st7',
    content: {
      type: 'encrypted_code_execution_result',
      content: [],
      encrypted_stdout: 'e',
      return_code: 1,
      stderr: '',
    },
  },
  { type: 'server_tool_use', id: 'st8', name: 'text_editor_code_execution', input: {} },
  {
    type: 'text_editor_code_execution_tool_result',
    tool_use_id: 'st8',
    content: {
      type: 'text_editor_code_execution_str_replace_result',
      lines: ['a'],
      new_lines: 1,
      new_start: 1,
      old_lines: 1,
      old_start: 1,
    },
  },
];
const tools: unknown[] = [
  {
    name: 'get',
    description: 'd',
    input_schema: {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    },
    strict: true,
    defer_loading: false,
    eager_input_streaming: null,
    input_examples: [{ a: 'x' }],
    cache_control: cc,
  },
  { type: 'custom', name: 'get2', input_schema: { type: 'object' } },
  { type: 'bash_20250124', name: 'bash', input_examples: [] },
  { type: 'code_execution_20250522', name: 'code_execution' },
  { type: 'code_execution_20250825', name: 'code_execution' },
  { type: 'code_execution_20260120', name: 'code_execution', allowed_callers: ['direct'] },
  { type: 'memory_20250818', name: 'memory' },
  { type: 'text_editor_20250124', name: 'str_replace_editor' },
  { type: 'text_editor_20250429', name: 'str_replace_based_edit_tool' },
  { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 10000 },
  {
    type: 'web_search_20250305',
    name: 'web_search',
    allowed_domains: ['e.org'],
    max_uses: 3,
    user_location: { type: 'approximate', city: 'Paris', country: 'FR', region: 'IDF', timezone: 'Europe/Paris' },
  },
  { type: 'web_search_20260209', name: 'web_search', blocked_domains: ['x.org'] },
  {
    type: 'web_fetch_20250910',
    name: 'web_fetch',
    citations: { enabled: true },
    max_content_tokens: 1000,
    max_uses: 2,
  },
  { type: 'web_fetch_20260209', name: 'web_fetch' },
  { type: 'web_fetch_20260309', name: 'web_fetch', use_cache: false },
  { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
  { type: 'tool_search_tool_bm25', name: 'tool_search_tool_bm25' },
  { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
  { type: 'tool_search_tool_regex', name: 'tool_search_tool_regex', defer_loading: true, strict: false },
];

describe('valid request files (doc1 §2.1-§2.6)', () => {
  for (const [name, block] of Object.entries(blocks)) {
    it(`a user ${name} block passes`, () => assert.deepEqual(check(base({ messages: [user(block)] })), []));
  }
  it('assistant thinking, tool use and every server tool result block pass, and tool_result answers them', () => {
    const req = base({
      messages: [
        { role: 'user', content: 'go' },
        assistant(...assistantBlocks),
        user({
          type: 'tool_result',
          tool_use_id: 'tu1',
          is_error: false,
          content: [
            { type: 'text', text: 'r' },
            { type: 'image', source: { type: 'url', url: 'https://e.org/i.png' } },
            { type: 'search_result', content: [{ type: 'text', text: 'x' }], source: 's', title: 't' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'd' } },
            { type: 'tool_reference', tool_name: 'get', cache_control: { type: 'ephemeral' } },
          ],
        }),
      ],
    });
    assert.deepEqual(check(req), []);
  });
  for (const tool of tools) {
    const t = tool as { type?: string; name: string };
    it(`tool ${t.type ?? '(custom, no type)'} named ${t.name} passes`, () =>
      assert.deepEqual(check(base({ tools: [tool] })), []));
  }
  it('every top-level field of §2.1 is accepted', () => {
    const req = base({
      // a model with fast mode (speed-unsupported)
      model: 'model-opus-4-6',
      cache_control: { type: 'ephemeral' },
      container: 'c1',
      inference_geo: 'us',
      metadata: { user_id: '3f1c8a' },
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      temperature: 0.5,
      top_k: 5,
      // manual thinking takes neither a temperature other than 1 nor top_k (thinking-with-temperature, -top-k)
      thinking: { type: 'disabled' },
      output_config: { effort: 'medium', format: { type: 'json_schema' } },
      speed: 'fast',
      diagnostics: { previous_message_id: 'msg_1' },
      stop_sequences: ['END'],
      stream: true,
      tool_choice: { type: 'none' },
    });
    assert.deepEqual(check(req, 'json', ['fast-mode-2026-02-01', 'cache-diagnosis-2026-04-07']), []);
  });
  it('system as a string, and the YAML form of a request, pass', () => {
    assert.deepEqual(check(base({ system: 'Be brief.' })), []);
    assert.deepEqual(
      check('model: model-sonnet-4-6\nmax_tokens: 100\nmessages:\n  - role: user\n    content: hi\n', 'yaml'),
      [],
    );
  });
  it('the examples folder passes', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    // case files are checked as such (test/unit/cases); their request files are request files
    for (const f of fs.readdirSync('examples').filter(f => !/\.cases\.(json|ya?ml)$/.test(f))) {
      const text = fs.readFileSync(path.join('examples', f), 'utf8');
      assert.deepEqual(
        check(text, /\.ya?ml$/.test(f) ? 'yaml' : 'json').filter(p => p.severity === 'error'),
        [],
        f,
      );
    }
  });
});
