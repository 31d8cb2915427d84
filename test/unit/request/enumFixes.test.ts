import * as assert from 'node:assert/strict';
import { parseCaseFile } from '../../../src/core/cases/caseFile';
import { enumCandidates } from '../../../src/core/request/enumFixes';
import { applyEdits, fixEdits } from '../../../src/core/request/fixes';
import type { FixData, Format, Problem } from '../../../src/core/request/types';
import { validateText } from '../../../src/core/request/validate';
import { NOW } from './helpers';

type EditFix = Exclude<FixData, { kind: 'add-beta' }>;
const isEdit = (f: FixData): f is EditFix => f.kind !== 'add-beta';

/** The fixes of the problem with `code`, as [title, preferred] pairs. */
function offered(problems: Problem[], code: string): [string, boolean][] {
  const p = problems.find(x => x.code === code);
  assert.ok(p, `no ${code} in ${JSON.stringify(problems.map(x => x.code))}`);
  return (p.fixes ?? []).map(f => [f.title, 'preferred' in f && f.preferred === true]);
}

/** Applies the fix titled `title` of the problem with `code`. */
function apply(text: string, format: Format, code: string, title: string): string {
  const v = validateText(text, format, { now: NOW });
  const fix = v.problems.find(p => p.code === code)?.fixes?.find(f => f.title === title);
  assert.ok(fix && isEdit(fix), `no fix "${title}" for ${code}`);
  return applyEdits(text, fixEdits(text, format, v.parsed, fix));
}

const request = (extra: Record<string, unknown>, message: Record<string, unknown> = {}) =>
  JSON.stringify(
    { model: 'model-opus-4-7', max_tokens: 100, messages: [{ role: 'user', content: 'Hi', ...message }], ...extra },
    null,
    2,
  );

describe('enum fixes: candidates and the preferred one', () => {
  it('nearest first; a slip of a letter or a case change is clearly meant', () => {
    const c = enumCandidates('users', ['user', 'assistant', 'system']);
    assert.deepEqual(
      c.map(x => [x.value, x.preferred]),
      [
        ['user', true],
        ['system', false],
        ['assistant', false],
      ],
    );
    assert.equal(enumCandidates('High', ['low', 'medium', 'high', 'xhigh', 'max'])[0]?.value, 'high');
    assert.equal(enumCandidates('High', ['low', 'medium', 'high', 'xhigh', 'max'])[0]?.preferred, true);
    assert.equal(enumCandidates('5min', ['5m', '1h'])[0]?.preferred, true);
  });
  it('no preferred one when two are as near, or when the nearest is far from what was written', () => {
    assert.ok(
      enumCandidates('hat', ['cat', 'bat']).every(c => !c.preferred),
      'a tie',
    );
    assert.ok(
      enumCandidates('human', ['user', 'assistant', 'system']).every(c => !c.preferred),
      'far',
    );
    assert.ok(
      enumCandidates('image_url', ['text', 'image', 'document']).every(c => !c.preferred),
      'far',
    );
    assert.ok(
      enumCandidates(3, ['user', 'assistant']).every(c => !c.preferred),
      'not text',
    );
    assert.ok(
      enumCandidates('', ['user', 'assistant']).every(c => !c.preferred),
      'empty',
    );
  });
  it('the only value of a set is always the one', () => {
    assert.deepEqual(
      enumCandidates('persistent', ['ephemeral']).map(c => [c.value, c.preferred]),
      [['ephemeral', true]],
    );
  });
  it('a short set is offered whole, a long one its five nearest; never the value itself', () => {
    assert.equal(enumCandidates('x', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']).length, 8);
    const many = Array.from({ length: 20 }, (_, i) => `type_${i}`);
    assert.equal(enumCandidates('type_1x', many).length, 5);
    assert.deepEqual(
      enumCandidates('a', ['a', 'b']).map(c => c.value),
      ['b'],
    );
  });
});

describe('enum fixes: every enum of the schema gets "Change to …"', () => {
  it("role \"users\": Change to 'user' (preferred) and 'assistant'; applied in JSON", () => {
    const text = request({}, { role: 'users' });
    const v = validateText(text, 'json', { now: NOW });
    const fixes = offered(v.problems, 'invalid-value');
    assert.deepEqual(fixes[0], ["Change to 'user'", true]);
    assert.ok(fixes.some(([t, p]) => t === "Change to 'assistant'" && !p));
    assert.equal(fixes.filter(([, p]) => p).length, 1, 'one preferred');
    assert.equal(
      apply(text, 'json', 'invalid-value', "Change to 'user'"),
      text.replace('"role": "users"', '"role": "user"'),
    );
  });
  it('YAML: the value changes and the comments stay', () => {
    const text =
      '# a prompt\nmodel: model-opus-4-7\nmax_tokens: 100\nmessages:\n  - role: users # who speaks\n    content: Hi\n';
    assert.equal(
      apply(text, 'yaml', 'invalid-value', "Change to 'user'"),
      text.replace('role: users # who', 'role: user # who'),
    );
  });
  it('block types, cache_control, thinking, effort and tool types', () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>, string, string][] = [
      ['unknown-type', {}, { content: [{ type: 'txt', text: 'x' }] }, "Change to 'text'", 'text'],
      [
        'invalid-value',
        {},
        { content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemral' } }] },
        "Change to 'ephemeral'",
        'ephemeral',
      ],
      [
        'invalid-value',
        {},
        { content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '1H' } }] },
        "Change to '1h'",
        '1h',
      ],
      ['unknown-type', { thinking: { type: 'adaptiv' } }, {}, "Change to 'adaptive'", 'adaptive'],
      ['invalid-value', { output_config: { effort: 'hihg' } }, {}, "Change to 'high'", 'high'],
      [
        'unknown-type',
        { tools: [{ type: 'bash_2025012', name: 'bash' }] },
        {},
        "Change to 'bash_20250124'",
        'bash_20250124',
      ],
      [
        'invalid-value',
        { tools: [{ type: 'web_search_20250305', name: 'websearch' }] },
        {},
        "Change to 'web_search'",
        'web_search',
      ],
    ];
    for (const [code, extra, message, title, value] of cases) {
      const text = request(extra, message);
      const fixes = offered(validateText(text, 'json', { now: NOW }).problems, code);
      assert.deepEqual(
        fixes[0],
        [title, true],
        `${code} ${JSON.stringify({ extra, message })}: ${JSON.stringify(fixes)}`,
      );
      const fixed = apply(text, 'json', code, title);
      assert.ok(fixed.includes(`"${value}"`), fixed);
      assert.ok(!validateText(fixed, 'json', { now: NOW }).problems.some(p => p.code === code), fixed);
    }
  });
  it('an unknown content block type far from every known one: its nearest five, none preferred', () => {
    const fixes = offered(
      validateText(request({}, { content: [{ type: 'zzzz' }] }), 'json', { now: NOW }).problems,
      'unknown-type',
    );
    assert.equal(fixes.length, 5);
    assert.ok(fixes.every(([t, p]) => t.startsWith('Change to ') && !p));
  });
  it('values rules check against a list: speed, service_tier, a JSON Schema type', () => {
    const speed = offered(validateText(request({ speed: 'fats' }), 'json', { now: NOW }).problems, 'unknown-value');
    assert.deepEqual(speed[0], ["Change to 'fast'", true]);
    const tier = offered(
      validateText(request({ service_tier: 'Auto' }), 'json', { now: NOW }).problems,
      'unknown-value',
    );
    assert.deepEqual(tier[0], ["Change to 'auto'", true]);
    const tool = {
      name: 'f',
      input_schema: { type: 'object', properties: { city: { type: 'strng' } } },
    };
    const schema = offered(
      validateText(request({ tools: [tool] }), 'json', { now: NOW }).problems,
      'tool-input-schema-invalid',
    );
    assert.deepEqual(schema[0], ["Change to 'string'", true]);
  });
});

describe('enum fixes in case files', () => {
  const caseFile = (assertion: string) =>
    `request: hello.prompt.json\ncases:\n  - name: one\n    assert:\n${assertion}`;
  it('a stop_reason the spec does not list: Change to the nearest, preferred', () => {
    const text = caseFile('      - stop_reason: end-turn # the usual\n');
    const parsed = parseCaseFile(text, 'yaml');
    const fixes = offered(parsed.problems, 'unknown-stop-reason');
    assert.deepEqual(fixes[0], ["Change to 'end_turn'", true]);
    const fix = parsed.problems.find(p => p.code === 'unknown-stop-reason')!.fixes![0]!;
    assert.ok(isEdit(fix));
    assert.equal(
      applyEdits(text, fixEdits(text, 'yaml', parsed, fix)),
      text.replace('end-turn # the usual', 'end_turn # the usual'),
    );
  });
  it('an unknown assertion: renamed to the kind meant', () => {
    const text = caseFile('      - contians: Bonjour\n');
    const parsed = parseCaseFile(text, 'yaml');
    const fixes = offered(parsed.problems, 'unknown-assertion');
    assert.deepEqual(fixes[0], ["Rename to 'contains'", true]);
    const fix = parsed.problems.find(p => p.code === 'unknown-assertion')!.fixes![0]!;
    assert.ok(isEdit(fix));
    assert.equal(applyEdits(text, fixEdits(text, 'yaml', parsed, fix)), text.replace('contians', 'contains'));
  });
});
