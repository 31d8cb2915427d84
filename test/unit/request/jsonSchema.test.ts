import * as assert from 'node:assert/strict';
import { requestJsonSchema } from '../../../src/core/request/jsonSchema';

const FAILING = [
  'type',
  'required',
  'additionalProperties',
  'enum',
  'const',
  'oneOf',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'pattern',
  'not',
];

/** Every place a keyword that can fail validation appears, outside `if` (which never fails). */
function failingKeywords(node: unknown, path: string, out: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((n, i) => failingKeywords(n, `${path}/${i}`, out));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if (k === 'if' || k === 'examples' || k === 'defaultSnippets') continue;
    const parentIsProperties = path.endsWith('/properties');
    if (!parentIsProperties && FAILING.includes(k)) out.push(`${path}/${k}`);
    failingKeywords(v, `${path}/${k}`, out);
  }
}

describe('the generated JSON Schema (completion and hover only)', () => {
  const schema = requestJsonSchema();
  it('cannot produce diagnostics: no failing keyword outside `if` (so none duplicate ours)', () => {
    const out: string[] = [];
    failingKeywords(schema, '', out);
    assert.deepEqual(out, []);
  });
  it('has a description on every top-level field, taken from the zod schema', () => {
    const props = schema.properties as Record<string, { description?: string; $ref?: string }>;
    const defs = schema.definitions as Record<string, { description?: string }>;
    for (const [k, v] of Object.entries(props)) {
      const desc = v.description ?? (v.$ref ? defs[v.$ref.split('/').pop()!]?.description : undefined);
      assert.ok(desc && desc.length > 5, `no description for ${k}`);
    }
  });
  it('offers the content block types and a snippet per block type', () => {
    const text = JSON.stringify(schema);
    for (const t of ['"tool_result"', '"web_fetch_tool_result"', '"container_upload"']) assert.ok(text.includes(t), t);
    assert.ok(text.includes('"defaultSnippets"'));
    assert.ok(text.includes('"if":{"properties":{"type":{"const":"image"}}'));
  });
});

describe('the count_tokens JSON Schema', () => {
  const count = requestJsonSchema('count_tokens');
  const request = requestJsonSchema();
  it("points into the request schema's properties, for exactly the fields count_tokens takes", () => {
    const props = count.properties as Record<string, { $ref: string }>;
    assert.deepEqual(Object.keys(props).sort(), ['cache_control', 'messages', 'model', 'system', 'thinking', 'tools']);
    const requestProps = request.properties as Record<string, unknown>;
    for (const [k, v] of Object.entries(props)) {
      assert.equal(v.$ref, `request.schema.json#/properties/${k}`);
      assert.ok(requestProps[k], `the request schema has ${k}`);
    }
  });
  it('cannot produce diagnostics either', () => {
    const out: string[] = [];
    failingKeywords(count, '', out);
    assert.deepEqual(out, []);
  });
});

describe('descriptions in the JSON Schemas', () => {
  it('a Markdown description is also markdownDescription (rendered in hover), beside a plain one', () => {
    const request = requestJsonSchema();
    const role = JSON.stringify(request).match(/"description":"user or assistant[^"]*","markdownDescription":"`user`/);
    assert.ok(role, 'role has both');
  });
});
