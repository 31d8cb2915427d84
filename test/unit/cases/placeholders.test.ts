// Placeholders: found in raw JSON and YAML text with exact offsets, collected from string values only (never
// keys), filled in a copy, with the odd inputs a request file can hold (deep nesting, `__proto__` keys,
// names that look like Object.prototype's, braces that are not placeholders).
import * as assert from 'node:assert/strict';
import {
  fillPlaceholders,
  findPlaceholders,
  placeholderFiller,
  placeholderNames,
} from '../../../src/core/cases/placeholders';
import type { VarValue } from '../../../src/core/cases/types';

describe('cases: placeholders', () => {
  describe('findPlaceholders', () => {
    it('finds each {{name}} with offsets that include the braces, spaces allowed inside', () => {
      const text = 'Hi {{name}}, {{ tone }} and {{  a.b-c_1  }}';
      const found = findPlaceholders(text);
      assert.deepEqual(
        found.map(p => [p.name, text.slice(p.start, p.end)]),
        [
          ['name', '{{name}}'],
          ['tone', '{{ tone }}'],
          ['a.b-c_1', '{{  a.b-c_1  }}'],
        ],
      );
    });
    it('works on JSON and YAML text alike', () => {
      const json = '{"messages": [{"role": "user", "content": "Q: {{question}}"}]}';
      const yaml = 'messages:\n  - role: user\n    content: "Q: {{question}}"\n';
      for (const t of [json, yaml]) {
        const [p] = findPlaceholders(t);
        assert.equal(t.slice(p!.start, p!.end), '{{question}}');
      }
    });
    it('leaves what is not a placeholder: empty braces, a leading digit, one brace, spaces in the name', () => {
      assert.deepEqual(findPlaceholders('{{}} {{1a}} {x} {{ a b }} {{-x}} {{ }}'), []);
    });
    it('finds the inner placeholder of triple braces and offsets in UTF-16 code units', () => {
      const text = '😀 {{{x}}}';
      const [p] = findPlaceholders(text);
      assert.equal(p!.start, 4); // the emoji is two code units, then a space and one brace
      assert.equal(text.slice(p!.start, p!.end), '{{x}}');
    });
  });

  describe('placeholderNames', () => {
    it('collects names from string values at any depth, not from keys or other values', () => {
      const value = {
        system: 'Tone: {{tone}}',
        '{{key}}': 'no',
        messages: [{ role: 'user', content: [{ type: 'text', text: '{{question}} and {{ tone }}' }] }],
        n: 3,
        ok: true,
        none: null,
      };
      assert.deepEqual([...placeholderNames(value)].sort(), ['question', 'tone']);
    });
    it('walks a value nested 100,000 levels deep without overflowing the stack', () => {
      let deep: unknown = '{{bottom}}';
      for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { x: deep };
      assert.deepEqual([...placeholderNames(deep)], ['bottom']);
    });
  });

  describe('fillPlaceholders', () => {
    it('fills every placeholder in a copy; numbers and booleans are written as text', () => {
      const request = { system: 'Be {{tone}}.', messages: [{ role: 'user', content: '{{q}} ({{n}}, {{flag}})' }] };
      const { value, missing } = fillPlaceholders(request, { tone: 'formal', q: 'Why?', n: 2.5, flag: false });
      assert.deepEqual(value, { system: 'Be formal.', messages: [{ role: 'user', content: 'Why? (2.5, false)' }] });
      assert.deepEqual(missing, []);
      assert.equal(request.system, 'Be {{tone}}.', 'the original is untouched');
    });
    it('leaves a placeholder with no value as written and names it once in missing', () => {
      const { value, missing } = fillPlaceholders(['{{a}} {{b}}', '{{ b }}', '{{a}}'], { a: 'A' });
      assert.deepEqual(value, ['A {{b}}', '{{ b }}', 'A']);
      assert.deepEqual(missing, ['b']);
    });
    it('does not take values from Object.prototype ({{constructor}}, {{toString}})', () => {
      const { value, missing } = fillPlaceholders('{{constructor}} {{toString}}', {});
      assert.equal(value, '{{constructor}} {{toString}}');
      assert.deepEqual(missing, ['constructor', 'toString']);
    });
    it('keeps a "__proto__" key as a key (JSON.parse makes it one), and values with "$&" as written', () => {
      const request = JSON.parse('{"__proto__": {"polluted": "{{x}}"}, "a": "{{x}}"}') as object;
      const { value } = fillPlaceholders(request, { x: '$& $1' });
      assert.equal(Object.getPrototypeOf(value), Object.prototype);
      assert.deepEqual(Object.keys(value as object), ['__proto__', 'a']);
      assert.equal((value as { a: string }).a, '$& $1');
      assert.equal(({} as { polluted?: string }).polluted, undefined);
    });
    it('fills a value nested 100,000 levels deep', () => {
      let deep: unknown = '{{bottom}}';
      for (let i = 0; i < 100_000; i++) deep = { x: deep };
      let v = fillPlaceholders(deep, { bottom: 'here' }).value;
      for (let i = 0; i < 100_000; i++) v = (v as { x: unknown }).x;
      assert.equal(v, 'here');
    });
    it('copies scalars and empty containers as they are', () => {
      assert.deepEqual(fillPlaceholders({ a: [], b: {}, c: null, d: 0 }, {}).value, { a: [], b: {}, c: null, d: 0 });
      assert.equal(fillPlaceholders(undefined, {}).value, undefined);
    });
    it('names the missing ones in the order it always has: each object’s keys in order, the last found first', () => {
      const request = {
        a: { x: '{{p}} {{ p }}' },
        b: '{{q}}',
        c: [{ y: '{{r}}', z: '{{a}}' }, '{{s}}', 3, null, true],
        d: JSON.parse('{"__proto__": "{{t}} {{a}}"}') as object,
      };
      const { value, missing } = fillPlaceholders(request, { a: 'A', z: 1 });
      assert.deepEqual(missing, ['q', 't', 's', 'r', 'p']);
      assert.equal(
        JSON.stringify(value),
        '{"a":{"x":"{{p}} {{ p }}"},"b":"{{q}}","c":[{"y":"{{r}}","z":"A"},"{{s}}",3,null,true],' +
          '"d":{"__proto__":"{{t}} A"}}',
      );
    });
  });

  describe('placeholderFiller', () => {
    it('fills the value it compiled once, many times, each time a new copy that shares nothing with the others', () => {
      const request = {
        system: 'Be {{tone}}.',
        messages: [{ role: 'user', content: [{ type: 'text', text: '{{q}}' }] }],
      };
      const fill = placeholderFiller(request);
      const rows: Record<string, VarValue>[] = [
        { tone: 'brief', q: 'a' },
        { tone: 'kind' },
        { q: 'c', tone: 'x{{q}}' },
      ];
      const filled = rows.map(fill);
      rows.forEach((vars, i) => assert.deepEqual(filled[i], fillPlaceholders(request, vars)));
      assert.deepEqual(filled[1]!.missing, ['q']);
      assert.equal((filled[2]!.value as { system: string }).system, 'Be x{{q}}.', 'a value is not filled again');
      const [a, b] = filled.map(f => f.value as typeof request);
      assert.notEqual(a!.messages, b!.messages);
      assert.notEqual(a!.messages[0]!.content, b!.messages[0]!.content);
      assert.deepEqual(request.messages[0]!.content, [{ type: 'text', text: '{{q}}' }], 'the original is untouched');
    });
    it('compiles and fills a value nested 100,000 levels deep', () => {
      let deep: unknown = '{{bottom}}';
      for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { x: deep };
      const fill = placeholderFiller(deep);
      for (const bottom of ['one', 'two']) {
        let v = fill({ bottom }).value;
        for (let i = 100_000 - 1; i >= 0; i--) v = i % 2 ? (v as unknown[])[0] : (v as { x: unknown }).x;
        assert.equal(v, bottom);
      }
    });
  });
});
