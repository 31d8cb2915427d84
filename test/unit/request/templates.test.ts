// Element templates offered only where the element fits: at an element position of messages, of a
// content array, of tools or of system; never inside a string or at a key.
import * as assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { requestTemplates } from '../../../src/core/request/requestTemplates';
import { requestFileName } from '../../../src/core/request/template';
import { renderTemplate, slotAt, type SlotAt, type Template } from '../../../src/core/request/templates';
import type { Format } from '../../../src/core/request/types';
import { validateText } from '../../../src/core/request/validate';

/** The slot at the `|` of a text (the bar is removed). */
function at(marked: string, format: Format = 'json'): SlotAt | undefined {
  const offset = marked.indexOf('|');
  return slotAt(marked.slice(0, offset) + marked.slice(offset + 1), offset, format);
}

/** Inserts a template as the editor would: the snippet's placeholders filled with their defaults, commas added. */
function insert(marked: string, t: Template, format: Format): string {
  const offset = marked.indexOf('|');
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  const s = slotAt(text, offset, format)!;
  const snippet = renderTemplate(t, format, s).replace(/\$\{\d+:([^}]*)\}/g, '$1');
  const line = text.lastIndexOf('\n', s.start - 1) + 1;
  const indent = /^[ ]*/.exec(text.slice(line))![0];
  // the editor indents a snippet's later lines like the line it is inserted on
  const body = snippet.split('\n').join(`\n${indent}`);
  let out = text.slice(0, s.start) + body + text.slice(s.end);
  if (s.commaAt !== undefined) out = `${out.slice(0, s.commaAt)},${out.slice(s.commaAt)}`;
  return out;
}

const templates = requestTemplates();
const named = (name: string, slot: string) => templates.find(t => t.name === name && t.slot === slot)!;

describe('element templates: where they are offered', () => {
  it('JSON: an element of messages, of a content array, of tools, of system', () => {
    assert.equal(at('{"messages": [ pw-u| ]}')?.slot, 'message');
    assert.equal(at('{"messages": [{"role": "user", "content": [ pw| ]}]}')?.slot, 'content');
    assert.equal(
      at('{"messages": [{"role": "user", "content": [{"type": "text", "text": "a"}, |]}]}')?.slot,
      'content',
    );
    assert.equal(at('{"tools": [ | ]}')?.slot, 'tool');
    assert.equal(at('{"system": [ pw-t| ], "model": "m"}')?.slot, 'system');
    const inner =
      '{"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [ |]}]}]}';
    assert.equal(at(inner)?.slot, 'content');
  });
  it('JSON: never inside a string value, at a key, or in another array', () => {
    assert.equal(at('{"messages": [{"role": "user", "content": "a burst of pw-| prose"}]}'), undefined);
    assert.equal(at('{"messages": [{"role": "user", "content": "unterminated pw|'), undefined);
    assert.equal(at('{"messages": [{"role": "user", pw| }]}'), undefined);
    assert.equal(at('{"model": "pw|"}'), undefined);
    assert.equal(at('{"stop_sequences": [ | ]}'), undefined);
    assert.equal(at('{ pw| }'), undefined);
    assert.equal(at('{"metadata": {"tags": [ | ]}}'), undefined);
  });
  it('JSON: the word typed is replaced, commas go where the neighbours need them', () => {
    const s = at('{"messages": [\n  {"role": "user", "content": "hi"}\n  pw-as|\n]}')!;
    assert.equal(s.slot, 'message');
    assert.equal(s.commaAt, '{"messages": [\n  {"role": "user", "content": "hi"}'.length);
    assert.equal(s.commaAfter, undefined);
    const before = at('{"messages": [\n  pw|\n  {"role": "user", "content": "hi"}\n]}')!;
    assert.equal(before.commaAt, undefined);
    assert.equal(before.commaAfter, true);
  });
  it('YAML: an item of messages, content, tools, system: with or without the dash, at any indentation', () => {
    assert.equal(at('model: m\nmessages:\n  - pw-u|\n', 'yaml')?.slot, 'message');
    assert.equal(at('model: m\nmessages:\n- |\n', 'yaml')?.slot, 'message');
    assert.equal(at('messages:\n  - role: user\n    content:\n      - pw|\n', 'yaml')?.slot, 'content');
    assert.equal(at('messages:\n  - role: user\n    content:\n      pw-te|\n', 'yaml')?.slot, 'content');
    assert.equal(at('tools:\n  - name: a\n    input_schema: {type: object}\n  - |\n', 'yaml')?.slot, 'tool');
    assert.equal(at('system:\n  pw|\nmodel: m\n', 'yaml')?.slot, 'system');
  });
  it('YAML: never in a value, at a key, or in another sequence', () => {
    assert.equal(at('messages:\n  - role: user\n    content: a burst of pw|\n', 'yaml'), undefined);
    assert.equal(at('messages:\n  - role: user\n    pw|\n', 'yaml'), undefined);
    assert.equal(at('model: m\npw|\n', 'yaml'), undefined);
    assert.equal(at('stop_sequences:\n  - |\n', 'yaml'), undefined);
    assert.equal(at('model: pw|\n', 'yaml'), undefined);
  });
});

describe('element templates: what they insert', () => {
  it('every content block type, every built-in tool name, messages, a custom tool and system blocks', () => {
    const names = (slot: string) => templates.filter(t => t.slot === slot).map(t => t.name);
    assert.deepEqual(names('message'), ['pw-user', 'pw-assistant', 'pw-tool_result', 'pw-tool_use']);
    assert.deepEqual(names('system'), ['pw-text', 'pw-text-cached']);
    for (const n of ['pw-text', 'pw-image', 'pw-document', 'pw-tool_use', 'pw-tool_result', 'pw-container_upload'])
      assert.ok(names('content').includes(n), n);
    assert.ok(names('tool').includes('pw-tool'));
    // the newest version of each built-in
    assert.deepEqual(
      templates.filter(t => t.name === 'pw-web_search').map(t => t.body),
      [{ type: 'web_search_20260209', name: 'web_search' }],
    );
  });
  it('inserted where offered, a template leaves a request with no error (JSON and YAML)', () => {
    const json = [
      [
        '{"model": "model-opus-4-7", "max_tokens": 5, "messages": [\n  {"role": "user", "content": "hi"}\n  |\n]}',
        'pw-assistant',
        'message',
      ],
      [
        '{"model": "model-opus-4-7", "max_tokens": 5, "messages": [{"role": "user", "content": [ | ]}]}',
        'pw-text',
        'content',
      ],
      [
        '{"model": "model-opus-4-7", "max_tokens": 5, "tools": [ | ], "messages": [{"role": "user", "content": "x"}]}',
        'pw-tool',
        'tool',
      ],
      [
        '{"model": "model-opus-4-7", "max_tokens": 5, "system": [ | ], "messages": [{"role": "user", "content": "x"}]}',
        'pw-text-cached',
        'system',
      ],
    ] as const;
    for (const [text, name, slot] of json) {
      const out = insert(text, named(name, slot), 'json');
      const errors = validateText(out, 'json').problems.filter(p => p.severity === 'error');
      assert.deepEqual(
        errors.map(p => p.message),
        [],
        out,
      );
    }
    const yaml = 'model: model-opus-4-7\nmax_tokens: 5\nmessages:\n  - role: user\n    content:\n      - |\n';
    const out = insert(yaml, named('pw-text', 'content'), 'yaml');
    assert.deepEqual(YAML.parse(out).messages[0].content, [{ type: 'text', text: 'text' }]);
    assert.deepEqual(
      validateText(out, 'yaml').problems.filter(p => p.severity === 'error'),
      [],
    );
  });
});

describe('New Request File: the name written', () => {
  it('a request file name stays; a bare name or another extension gets the request extension', () => {
    assert.equal(requestFileName('hello.prompt.json'), 'hello.prompt.json');
    assert.equal(requestFileName('  hello.prompt.YML '), 'hello.prompt.YML');
    assert.equal(requestFileName('my-first'), 'my-first.prompt.json');
    assert.equal(requestFileName('my-first.prompt'), 'my-first.prompt.json');
    assert.equal(requestFileName('notes.yaml'), 'notes.prompt.yaml');
    assert.equal(requestFileName('prompts/support.json'), 'prompts/support.prompt.json');
  });
  it('nothing for an empty name, only an extension, or a folder', () => {
    for (const typed of ['', '   ', '.prompt.json', '.json', 'prompts/'])
      assert.equal(requestFileName(typed), undefined);
  });
});
