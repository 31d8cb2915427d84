import * as assert from 'node:assert/strict';
import { schemaCompletions, schemaHover } from '../../../src/core/language/schemaAssist';
import { CASE_FILE_FIELDS } from '../../support/caseFields';

/** Completions where `|` is in `text`: the labels, and what they replace. */
function complete(text: string, kind: 'messages' | 'count_tokens' | 'cases' = 'messages') {
  const at = text.indexOf('|');
  const clean = text.replace('|', '');
  const found = schemaCompletions(clean, at, kind, 'json');
  return (
    found && { items: found, labels: found.map(i => i.label), replaced: clean.slice(found[0]!.start, found[0]!.end) }
  );
}

function hoverAt(text: string, kind: 'messages' | 'cases' = 'messages') {
  const at = text.indexOf('|');
  return schemaHover(text.replace('|', ''), at, kind, 'json');
}

describe('JSON completion and hover from the schema (the language server)', () => {
  it('the fields an object has not got yet, required ones first, each inserted with its key quoted', () => {
    const c = complete('{\n  "model": "m",\n  |\n}');
    assert.ok(c, 'completions');
    assert.ok(!c.labels.includes('model'), 'a field already there is not offered again');
    assert.deepEqual(c.labels.slice(0, 2), ['max_tokens', 'messages']);
    const messages = c.items.find(i => i.label === 'messages')!;
    assert.equal(messages.insertText, '"messages": [$1]');
    assert.equal(messages.snippet, true);
    assert.equal(messages.detail, 'required');
    assert.equal(c.items.find(i => i.label === 'temperature')?.insertText, '"temperature": ');
  });

  it('a key being typed is replaced with its quotes; a key before its colon is renamed, nothing more', () => {
    const typed = complete('{ "mo|" }');
    assert.equal(typed?.replaced, '"mo"');
    assert.equal(typed?.items.find(i => i.label === 'model')?.filterText, '"model"');
    const renaming = complete('{ "mo|": "x" }');
    assert.equal(renaming?.items.find(i => i.label === 'model')?.insertText, '"model"');
  });

  it('the values a field takes: a `type` by where the object is, an enum, the model ids', () => {
    assert.deepEqual(complete('{ "thinking": { "type": | } }')?.labels, ['enabled', 'adaptive', 'disabled']);
    const typed = complete('{ "thinking": { "type": "ad|" } }');
    assert.equal(typed?.replaced, '"ad"');
    assert.equal(typed?.items.find(i => i.label === 'adaptive')?.insertText, '"adaptive"');
    const models = complete('{ "model": | }');
    assert.ok(models?.labels.includes('model-opus-4-7'), String(models?.labels));
    // after a value, or inside an object with nothing typed: no values
    assert.equal(complete('{ "model": "x" | }'), undefined);
  });

  it('a count_tokens body is offered what that endpoint takes, and a case file its own fields', () => {
    assert.ok(!complete('{ | }', 'count_tokens')?.labels.includes('max_tokens'));
    assert.deepEqual(complete('{ "request": "a.prompt.json", | }', 'cases')?.labels, CASE_FILE_FIELDS.slice(1));
  });

  it('hovers a field by its key or its value, and a `type` value with what that kind is', () => {
    const key = hoverAt('{ "max_to|kens": 5 }');
    assert.match(key?.markdown ?? '', /^\*\*max_tokens\*\*/);
    const value = hoverAt('{ "thinking": { "type": "adap|tive" } }');
    assert.match(value?.markdown ?? '', /^\*\*type\*\*\n\nThe model decides when and how much to think/);
    assert.equal(hoverAt('{ "nothing_known|": 1 }'), undefined);
  });

  it('never throws on text being typed, or nested past any stack', () => {
    for (const text of ['', '{', '{ "a": [', '{ "model": "', '}}}', '['.repeat(50_000)])
      for (const at of [0, Math.floor(text.length / 2), text.length]) {
        try {
          schemaCompletions(text, at, 'messages', 'json');
          schemaHover(text, at, 'messages', 'json');
        } catch (e) {
          // nesting past the stack is the one failure allowed: the server answers nothing for it
          assert.ok(e instanceof RangeError, `${JSON.stringify(text.slice(0, 20))} at ${at}: ${String(e)}`);
        }
      }
  });
});
