import * as assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { appendReply, assistantTurn, curlCommand, STUB } from '../../../src/core/run/append';
import { EventBatcher } from '../../../src/core/run/batcher';
import { applyEdits } from '../../../src/core/request/fixes';
import { validateText } from '../../../src/core/request/validate';
import { parseFromResponseWebview } from '../../../src/protocol/response';
import type { Message } from '../../../src/core/api/types';

const msg = (content: Message['content'], stop = 'end_turn'): Message => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'model-opus-4-7',
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 2 },
});

describe('append reply to file', () => {
  it('JSON: appends the assistant turn, keeping comments-free formatting and indentation', () => {
    const text =
      '{\n    "model": "model-opus-4-7",\n    "max_tokens": 10,\n    "messages": [\n' +
      '        { "role": "user", "content": "Hi" }\n    ]\n}\n';
    const r = appendReply(text, 'json', msg([{ type: 'text', text: 'Hello!' }]));
    const out = applyEdits(text, [r.edit]);
    assert.deepEqual(JSON.parse(out).messages, [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ]);
    assert.ok(
      out.startsWith(
        '{\n    "model": "model-opus-4-7",\n    "max_tokens": 10,\n    "messages": [\n' +
          '        { "role": "user", "content": "Hi" },',
      ),
    );
    assert.equal(r.cursor, undefined);
  });
  it("YAML: appends at the list's indentation and keeps comments", () => {
    const text =
      '# greeting\nmodel: model-opus-4-7 # best\nmax_tokens: 10\nmessages:\n  # first turn\n  - role: user\n' +
      '    content: Hi\n# trailing comment\n';
    const r = appendReply(text, 'yaml', msg([{ type: 'text', text: 'Hello!\nTwo lines.' }]));
    const out = applyEdits(text, [r.edit]);
    assert.ok(
      out.includes('# greeting') &&
        out.includes('# best') &&
        out.includes('# first turn') &&
        out.includes('# trailing comment'),
    );
    assert.deepEqual(YAML.parse(out).messages, [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!\nTwo lines.' },
    ]);
    assert.deepEqual(validateText(out, 'yaml').problems, []);
  });
  it('after tool_use: the assistant turn and a tool_result stub per call; cursor in the first stub', () => {
    const m = msg(
      [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_a', name: 'w', input: { q: 1 } },
        { type: 'tool_use', id: 'toolu_b', name: 'w', input: {} },
      ],
      'tool_use',
    );
    for (const [format, text] of [
      ['json', '{"model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"q"}]}'],
      ['yaml', 'model: model-opus-4-7\nmax_tokens: 5\nmessages:\n  - role: user\n    content: q\n'],
    ] as const) {
      const r = appendReply(text, format, m);
      const out = applyEdits(text, [r.edit]);
      const v = format === 'json' ? JSON.parse(out) : YAML.parse(out);
      assert.deepEqual(
        v.messages[2],
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_a', content: STUB },
            { type: 'tool_result', tool_use_id: 'toolu_b', content: STUB },
          ],
        },
        format,
      );
      assert.equal(out.slice(r.cursor!.start, r.cursor!.end), STUB, format);
      assert.deepEqual(
        validateText(out, format).problems.filter(p => p.severity === 'error'),
        [],
        format,
      );
    }
  });
  it('keeps thinking blocks with their signature and drops streaming leftovers', () => {
    const t = assistantTurn(
      msg([
        { type: 'thinking', thinking: 't', signature: 's' },
        { type: 'tool_use', id: 'x', name: 'n', input: {}, partial_json: '{}' },
      ]),
    );
    assert.deepEqual(t.content, [
      { type: 'thinking', thinking: 't', signature: 's' },
      { type: 'tool_use', id: 'x', name: 'n', input: {} },
    ]);
  });
  it('curl: the key is a shell variable, never the key', () => {
    const c = curlCommand('https://api.example.com', '2023-06-01', ['b1'], {
      model: 'm',
      messages: [{ role: 'user', content: "it's" }],
    });
    assert.match(c, /x-api-key: '"\$PROMPTWRIGHT_API_KEY"/);
    assert.match(c, /vendor-beta: b1/);
    assert.match(c, /it'\\''s/);
  });
  it('curl without an address: the shell variable, no placeholder to edit by hand', () => {
    const c = curlCommand('', '2023-06-01', [], { model: 'm', messages: [] });
    assert.equal(c.split('\n')[0], `curl "$PROMPTWRIGHT_BASE_URL"'/v1/messages' \\`);
    assert.doesNotMatch(c, /\{base_url\}/);
  });
});

describe('webview protocol', () => {
  it('accepts only known messages from the webview', () => {
    assert.deepEqual(parseFromResponseWebview({ type: 'ready' }), { type: 'ready' });
    // the actions are title-bar commands: the page has no message for them
    assert.equal(parseFromResponseWebview({ type: 'action', action: 'append' }), undefined);
    // but for a tool call's Answer… (by its id), Continue and Append Conversation below the calls
    assert.deepEqual(parseFromResponseWebview({ type: 'answer', id: 'toolu_1' }), { type: 'answer', id: 'toolu_1' });
    assert.equal(parseFromResponseWebview({ type: 'answer', id: 7 }), undefined);
    assert.deepEqual(parseFromResponseWebview({ type: 'continue', x: 1 }), { type: 'continue' });
    assert.deepEqual(parseFromResponseWebview({ type: 'append-conversation' }), { type: 'append-conversation' });
    // Use Fixture (by the call's id) and Run to End
    assert.deepEqual(parseFromResponseWebview({ type: 'use-fixture', id: 't' }), { type: 'use-fixture', id: 't' });
    assert.equal(parseFromResponseWebview({ type: 'use-fixture' }), undefined);
    assert.deepEqual(parseFromResponseWebview({ type: 'call-mcp', id: 't' }), { type: 'call-mcp', id: 't' });
    assert.deepEqual(parseFromResponseWebview({ type: 'run-to-end' }), { type: 'run-to-end' });
    assert.equal(parseFromResponseWebview({ type: 'open-link', url: 'javascript:alert(1)' }), undefined);
    assert.equal(parseFromResponseWebview({ type: 'open-link', url: 'command:workbench.action.quit' }), undefined);
    assert.deepEqual(parseFromResponseWebview({ type: 'open-link', url: 'https://e.org' }), {
      type: 'open-link',
      url: 'https://e.org',
    });
    assert.equal(parseFromResponseWebview('ready'), undefined);
  });
  it('the batcher sends every event, in order, at most once per frame', async () => {
    const batches: unknown[][] = [];
    const b = new EventBatcher(evs => batches.push(evs), 5);
    for (let i = 0; i < 1000; i++)
      b.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: String(i) } });
    await new Promise(r => setTimeout(r, 20));
    b.flush();
    const all = batches.flat() as { delta: { text: string } }[];
    assert.equal(all.length, 1000);
    assert.deepEqual(
      all.map(e => e.delta.text),
      Array.from({ length: 1000 }, (_, i) => String(i)),
    );
    assert.equal(batches.length, 1);
  });
});
