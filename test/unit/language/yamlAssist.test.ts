import * as assert from 'node:assert/strict';
import { CaseFileSchema } from '../../../src/core/cases/caseFile';
import { CountTokensBody, RequestBody } from '../../../src/core/request/schema';
import type { Schema } from '../../../src/core/request/schemaPath';
import { requestValueHints, yamlCompletions, yamlHover } from '../../../src/core/language/yamlAssist';
import { CASE_FILE_FIELDS } from '../../support/caseFields';

/** Completions where `|` is in `text`: the labels, and what they replace. */
function complete(text: string, root: Schema = RequestBody) {
  const at = text.indexOf('|');
  const clean = text.replace('|', '');
  const found = yamlCompletions(clean, at, root, requestValueHints);
  return found && { ...found, labels: found.items.map(i => i.label), replaced: clean.slice(found.start, found.end) };
}

function hover(text: string, root: Schema = RequestBody) {
  const at = text.indexOf('|');
  const clean = text.replace('|', '');
  const found = yamlHover(clean, at, root);
  return found && { ...found, over: clean.slice(found.start, found.end) };
}

const HEAD = 'model: model-opus-4-7\nmax_tokens: 100\nmessages:\n';

describe('YAML completion from the schema (no YAML extension)', () => {
  it("a field's values at `key: …`, replacing what was typed", () => {
    const c = complete(`${HEAD}  - role: us|\n    content: hi\n`);
    assert.deepEqual(c?.labels, ['user', 'assistant', 'system']);
    assert.equal(c?.replaced, 'us');
    assert.ok(c?.items.every(i => i.kind === 'value'));
  });
  it('the fields a message has not got yet, required ones marked', () => {
    const c = complete(`${HEAD}  - role: user\n    |\n`);
    assert.deepEqual(c?.labels, ['content']);
    assert.equal(c?.items[0]?.required, true);
    assert.equal(c?.items[0]?.insertText, 'content: ');
  });
  it('a content block without a type is offered its `type` first; with one, the fields of that type', () => {
    const bare = complete(`${HEAD}  - role: user\n    content:\n      - |\n`);
    assert.deepEqual(bare?.labels, ['type']);
    const text = complete(`${HEAD}  - role: user\n    content:\n      - type: text\n        |\n`);
    assert.deepEqual(text?.labels, ['text', 'cache_control', 'citations']);
    // an object's key opens its block at the next indentation; a list's opens its first item
    const byLabel = new Map(text?.items.map(i => [i.label, i]));
    assert.equal(byLabel.get('cache_control')?.insertText, 'cache_control:\n          ');
    assert.equal(byLabel.get('citations')?.insertText, 'citations:\n          - ');
    assert.equal(byLabel.get('cache_control')?.retrigger, true);
    const image = complete(`${HEAD}  - role: user\n    content:\n      - type: image\n        |\n`);
    assert.deepEqual(image?.labels, ['source', 'cache_control']);
  });
  it('`type` values by where the object is: content blocks, thinking, tool_result content', () => {
    const block = complete(`${HEAD}  - role: user\n    content:\n      - type: |\n`);
    assert.ok(block?.labels.includes('text') && block.labels.includes('tool_result'), String(block?.labels));
    assert.deepEqual(complete('thinking:\n  type: |\n')?.labels, ['enabled', 'adaptive', 'disabled']);
    const inner = complete(
      `${HEAD}  - role: user\n    content:\n      - type: tool_result\n        tool_use_id: t\n` +
        '        content:\n          - type: |\n',
    );
    assert.deepEqual(inner?.labels, ['text', 'image', 'search_result', 'document', 'tool_reference']);
    const desc = block?.items.find(i => i.label === 'text')?.documentation;
    assert.match(desc ?? '', /Text content/);
  });
  it('enums anywhere: a cache ttl, an effort, and model ids for `model`', () => {
    const ttl = complete(
      `${HEAD}  - role: user\n    content:\n      - type: text\n        cache_control:\n          ttl: |\n`,
    );
    assert.deepEqual(ttl?.labels, ['5m', '1h']);
    assert.deepEqual(complete('output_config:\n  effort: |\n')?.labels, ['low', 'medium', 'high', 'xhigh', 'max']);
    const model = complete('model: |\nmax_tokens: 5\n');
    assert.ok(model?.labels.includes('model-opus-4-7'), String(model?.labels));
    assert.ok(!model?.labels.some(l => /\d{8}$/.test(l)), 'dated ids are left out');
  });
  it('top-level fields at the first line and while renaming a key', () => {
    const first = complete('|\nmodel: m\n');
    assert.ok(first?.labels.includes('max_tokens') && !first.labels.includes('model'), String(first?.labels));
    assert.equal(first?.items.find(i => i.label === 'messages')?.insertText, 'messages:\n  - ');
    const rename = complete('mo|del: m\n');
    assert.equal(rename?.replaced, 'model');
    assert.equal(rename?.items.find(i => i.label === 'model')?.insertText, 'model');
  });
  it('count files take the count_tokens fields', () => {
    const c = complete('|\nmodel: m\n', CountTokensBody);
    assert.ok(c && !c.labels.includes('max_tokens') && c.labels.includes('messages'), String(c?.labels));
  });
  it('nothing inside a comment, a block of text, or a flow mapping', () => {
    assert.equal(complete(`${HEAD}  - role: user # ro|\n`), undefined);
    assert.equal(complete(`${HEAD}  - role: user\n    content: |\n      some tex|\n`), undefined);
    assert.equal(complete(`${HEAD}  - role: user\n    content: |\n      word|\n`), undefined);
    assert.equal(complete('metadata: { user_id: a, |}\n'), undefined);
  });
  it('case files: the fields, the assertion kinds and the stop reasons', () => {
    assert.deepEqual(complete('request: a.prompt.yaml\n|\n', CaseFileSchema)?.labels, CASE_FILE_FIELDS.slice(1));
    const kinds = complete('request: a.prompt.yaml\ncases:\n  - name: a\n    assert:\n      - |\n', CaseFileSchema);
    for (const kind of ['contains', 'json-schema', 'rubric', 'max-cost'])
      assert.ok(kinds?.labels.includes(kind), String(kinds?.labels));
    const judge = complete('request: a.prompt.yaml\njudge:\n  |\n', CaseFileSchema);
    assert.deepEqual(judge?.labels, ['model', 'prompt']);
    const stop = complete(
      'request: a.prompt.yaml\ncases:\n  - name: a\n    assert:\n      - stop_reason: end|\n',
      CaseFileSchema,
    );
    assert.ok(stop?.labels.includes('end_turn') && stop.labels.includes('refusal'), String(stop?.labels));
    assert.equal(stop?.replaced, 'end');
    const models = complete('request: a.prompt.yaml\nmodels:\n  - |\n', CaseFileSchema);
    assert.ok(models?.labels.includes('model-opus-4-7'), String(models?.labels));
  });
});

describe('YAML hover from the schema', () => {
  it("a key shows the field's description as Markdown, with its values", () => {
    const h = hover(`${HEAD}  - ro|le: user\n`);
    assert.equal(h?.over, 'role');
    assert.match(h?.markdown ?? '', /^\*\*role\*\*\n\n`user` or `assistant`/);
    assert.match(h?.markdown ?? '', /Values: `user`, `assistant`, `system`/);
  });
  it('a `type` value says what that kind of object is', () => {
    const h = hover(`${HEAD}  - role: user\n    content:\n      - type: te|xt\n        text: hi\n`);
    assert.equal(h?.over, 'text');
    assert.match(h?.markdown ?? '', /`text`: Text content/);
  });
  it('fields in a flow mapping, in case files; nothing on an unknown key', () => {
    const ttl = hover(
      `${HEAD}  - role: user\n    content:\n      - type: text\n        cache_control: {type: ephemeral, t|tl: 5m}\n`,
    );
    assert.match(ttl?.markdown ?? '', /Cache lifetime/);
    assert.match(hover('request: x\ncases:\n  - na|me: a\n', CaseFileSchema)?.markdown ?? '', /The case's name/);
    assert.equal(hover(`${HEAD}  - role: user\n    colo|r: red\n`), undefined);
  });
});
