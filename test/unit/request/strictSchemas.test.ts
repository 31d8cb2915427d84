// Strict schemas (structured outputs and tools with "strict": true): the limits of the service's grammar compiler,
// counted across the whole request, and the keywords it refuses; what the record shows accepted stays clean.
import * as assert from 'node:assert/strict';
import { validateText } from '../../../src/core/request/validate';
import { base, check, NOW, type Seen } from './helpers';

const found = (s: Seen[]) => s.map(p => `${p.severity}:${p.code}@${p.path}`);
const only = (s: Seen[], code: string) => found(s.filter(p => p.code === code));
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const strictTool = (name: string, schema: object) => ({ name, strict: true, input_schema: schema });
const output = (schema: object, extra: Record<string, unknown> = {}) =>
  base({ model: 'model-haiku-4-5', output_config: { format: { type: 'json_schema', schema } }, ...extra });

describe('strict schemas: what the grammar compiler takes', () => {
  it('more than 20 strict tools: an error on the 21st strict tool, non-strict tools not counted', () => {
    const tools = [
      { name: 'loose', input_schema: { type: 'object' } },
      ...Array.from({ length: 21 }, (_, i) => strictTool(`t${i}`, obj({ q: { type: 'string' } }))),
    ];
    const s = check(base({ tools }));
    assert.deepEqual(only(s, 'strict-tools-too-many'), ['error:strict-tools-too-many@tools/21/strict']);
    assert.match(
      s.find(p => p.code === 'strict-tools-too-many')!.message,
      /21 strict tools; the service takes at most 20/,
    );
    assert.deepEqual(only(check(base({ tools: tools.slice(0, 21) })), 'strict-tools-too-many'), []);
  });
  it('optional parameters are counted across all strict schemas, nested ones and the output schema included', () => {
    const twelve = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`a${i}`, { type: 'string' }]));
    const nested = obj({ inner: obj(twelve, []) }, []); // 1 optional (inner) + 12 nested
    const tools = [strictTool('one', obj(twelve, [])), strictTool('two', nested)];
    // 12 + 13 = 25: the 25th is the last nested property
    assert.deepEqual(only(check(base({ tools })), 'strict-schema-too-many-optional'), [
      'error:strict-schema-too-many-optional@tools/1/input_schema/properties/inner/properties/a11',
    ]);
    // 24 is within the limit; without strict nothing is counted
    assert.deepEqual(
      only(check(base({ tools: [tools[0], strictTool('two', obj(twelve, []))] })), 'strict-schema-too-many-optional'),
      [],
    );
    assert.deepEqual(
      only(check(base({ tools: [tools[0], { ...tools[1], strict: false }] })), 'strict-schema-too-many-optional'),
      [],
    );
    // the output schema counts with the tools
    const s = check(output(obj(twelve, []), { tools: [strictTool('two', nested)] }));
    assert.deepEqual(only(s, 'strict-schema-too-many-optional'), [
      'error:strict-schema-too-many-optional@output_config/format/schema/properties/a11',
    ]);
  });
  it('union-typed parameters (anyOf, or a list of types) over 16: an error at the 17th', () => {
    const props = Object.fromEntries(
      Array.from({ length: 17 }, (_, i) => [
        `p${i}`,
        i % 2 ? { type: ['string', 'null'] } : { anyOf: [{ type: 'string' }, { type: 'null' }] },
      ]),
    );
    assert.deepEqual(only(check(output(obj(props))), 'strict-schema-too-many-unions'), [
      'error:strict-schema-too-many-unions@output_config/format/schema/properties/p16/anyOf',
    ]);
    delete props.p16;
    assert.deepEqual(only(check(output(obj(props))), 'strict-schema-too-many-unions'), []);
  });
  it('bounds on numbers and strings, and minItems other than 0 or 1, are refused', () => {
    const schema = obj({
      age: { type: 'integer', minimum: 0, maximum: 130 },
      score: { type: 'number', multipleOf: 0.5 },
      code: { type: 'string', minLength: 2 },
      tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
      some: { type: 'array', items: { type: 'string' }, minItems: 1 },
      when: { type: 'string', format: 'date-time' },
    });
    const s = check(output(schema));
    assert.deepEqual(only(s, 'strict-schema-keyword'), [
      'error:strict-schema-keyword@output_config/format/schema/properties/age/minimum',
      'error:strict-schema-keyword@output_config/format/schema/properties/age/maximum',
      'error:strict-schema-keyword@output_config/format/schema/properties/score/multipleOf',
      'error:strict-schema-keyword@output_config/format/schema/properties/code/minLength',
      'error:strict-schema-keyword@output_config/format/schema/properties/tags/minItems',
    ]);
    assert.match(s.find(p => p.code === 'strict-schema-keyword')!.message, /do not support "minimum" on an integer/);
    // in a strict tool too, maxItems included there; a tool without strict takes them all
    const input = obj({
      n: { type: 'integer', minimum: 1 },
      l: { type: 'array', items: { type: 'string' }, maxItems: 3 },
    });
    assert.deepEqual(only(check(base({ tools: [strictTool('t', input)] })), 'strict-schema-keyword'), [
      'error:strict-schema-keyword@tools/0/input_schema/properties/n/minimum',
      'error:strict-schema-keyword@tools/0/input_schema/properties/l/maxItems',
    ]);
    assert.deepEqual(check(base({ tools: [{ name: 't', input_schema: input }] })), []);
  });
  it('a recursive $ref is refused; $defs with a plain $ref, allOf, const and format are not', () => {
    const tree = {
      ...obj({ root: { $ref: '#/$defs/node' } }),
      $defs: { node: obj({ label: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/$defs/node' } } }) },
    };
    assert.deepEqual(only(check(output(tree)), 'strict-schema-recursive'), [
      'error:strict-schema-recursive@output_config/format/schema/$defs/node/properties/kids/items/$ref',
    ]);
    const self = obj({ next: { $ref: '#' } });
    assert.deepEqual(only(check(output(self)), 'strict-schema-recursive'), [
      'error:strict-schema-recursive@output_config/format/schema/properties/next/$ref',
    ]);
    const fine = {
      ...obj({ a: { $ref: '#/$defs/addr' }, b: { allOf: [{ $ref: '#/$defs/addr' }] }, kind: { const: 'x' } }),
      $defs: {
        addr: obj({
          street: { type: 'string', format: 'email' },
          n: { type: 'array', items: { type: 'string' }, minItems: 0 },
        }),
      },
    };
    assert.deepEqual(check(output(fine)), []);
    assert.deepEqual(check(base({ tools: [strictTool('t', fine)] })), []);
  });
  it('a type named like what every object has ("constructor") is an unknown type, not a failed check', () => {
    for (const type of ['constructor', 'toString', '__proto__']) {
      const input = obj({ a: { type } });
      assert.deepEqual(found(check(base({ tools: [strictTool('t', input)] }))), [
        'error:tool-input-schema-invalid@tools/0/input_schema/properties/a/type',
      ]);
    }
  });
  it("true as a property's schema in a strict tool is an error, at the true, with a fix that takes strict off", () => {
    // recorded: a strict tool with "properties": {"value": true} was refused (RULES.md, strict-schema-boolean)
    const body = base({ tools: [strictTool('t', obj({ value: true }))] });
    assert.deepEqual(found(check(body)), ['error:strict-schema-boolean@tools/0/input_schema/properties/value']);
    const [p] = validateText(JSON.stringify(body), 'json', { now: NOW }).problems;
    assert.match(p!.message, /For 'object' type, property 'properties' is not supported/);
    assert.deepEqual(p!.fixes, [
      { kind: 'remove-property', title: 'Remove "strict" from this tool', path: ['tools', 0, 'strict'] },
    ]);
    // a nested object of the tool is compiled the same way
    const nested = check(base({ tools: [strictTool('t', obj({ inner: obj({ any: true }) }))] }));
    assert.deepEqual(found(nested), [
      'error:strict-schema-boolean@tools/0/input_schema/properties/inner/properties/any',
    ]);
    // without strict the schema is plain JSON Schema, where true is valid: nothing
    assert.deepEqual(check(base({ tools: [{ name: 't', input_schema: obj({ value: true }) }] })), []);
  });
  it('a true subschema the record does not cover stays a warning: an output schema, items, a list entry', () => {
    assert.deepEqual(found(check(output(obj({ any: true })))), [
      'warning:strict-schema-boolean@output_config/format/schema/properties/any',
    ]);
    const list = obj({ xs: { type: 'array', items: true }, u: { anyOf: [{ type: 'string' }, true] } });
    assert.deepEqual(found(check(base({ tools: [strictTool('t', list)] }))), [
      'warning:strict-schema-boolean@tools/0/input_schema/properties/xs/items',
      'warning:strict-schema-boolean@tools/0/input_schema/properties/u/anyOf/1',
    ]);
  });
});
