// Case files: the shape checked with the zod schema, problems at exact ranges with their rule names in YAML
// and in JSON, what the schema cannot say (one key per assertion, patterns that compile, unique names), what
// can still be used of a file with problems, and the JSON Schema the editor gets.
import * as assert from 'node:assert/strict';
import { parseCaseFile as parseWithEveryRule } from '../../../src/core/cases/caseFile';
import { schemaCompletions, schemaHover } from '../../../src/core/language/schemaAssist';
import { isCaseFile } from '../../../src/core/fileNames';
import type { Problem } from '../../../src/core/request/types';
import { CASE_FILE_FIELDS } from '../../support/caseFields';

/** Each problem as [rule, severity, the text it marks]. */
/**
 * The file's problems, but the warning every case without an assertion gets (these fixtures' cases mostly have
 * none): that rule's own test is `a case without assertions: a warning at its name`.
 */
function parseCaseFile(text: string, format: 'yaml' | 'json') {
  const r = parseWithEveryRule(text, format);
  return { ...r, problems: r.problems.filter(p => p.code !== 'case-without-assertions') };
}

const marks = (text: string, problems: readonly Problem[]) =>
  problems.map(p => [p.code, p.severity, text.slice(p.start, p.end)]);

const GOOD_YAML = `request: support.prompt.yaml
models: [model-sonnet-4-6, model-haiku-4-5]
cases:
  - name: refund
    vars: { question: "Puis-je être remboursé ?", tone: formal, n: 3, ok: true }
    assert:
      - contains: rembours
      - regex: "/^hello/i"
      - stop_reason: end_turn
      - max-output-tokens: 300
      - max-latency-ms: 2500.5
      - json-schema: { type: object }
      - tool-call: get_weather
  - name: no vars
`;

describe('cases: case files', () => {
  it('isCaseFile: *.cases.yaml, *.cases.yml, *.cases.json', () => {
    for (const f of ['a.cases.yaml', 'dir/b.cases.yml', 'C.CASES.JSON']) assert.ok(isCaseFile(f), f);
    for (const f of ['a.prompt.yaml', 'cases.yaml', 'a.cases.txt', 'a.cases.yaml.bak']) assert.ok(!isCaseFile(f), f);
  });

  it('a good file has no problems and gives the file as written', () => {
    const r = parseCaseFile(GOOD_YAML, 'yaml');
    assert.deepEqual(r.problems, []);
    assert.equal(r.file?.request, 'support.prompt.yaml');
    assert.deepEqual(r.file?.models, ['model-sonnet-4-6', 'model-haiku-4-5']);
    assert.deepEqual(r.file?.cases[0]?.vars, { question: 'Puis-je être remboursé ?', tone: 'formal', n: 3, ok: true });
    assert.equal(r.file?.cases[0]?.assert?.length, 7);
    assert.deepEqual(r.file?.cases[1], { name: 'no vars' });
    const span = r.locate(['cases', 0, 'vars', 'tone'], true)!;
    assert.equal(GOOD_YAML.slice(span.start, span.end), 'tone');
  });

  it('a case without assertions: a warning at its name, none for a case with one', () => {
    const text =
      'request: a.prompt.yaml\ncases:\n  - name: bare\n  - name: empty\n    assert: []\n' +
      '  - name: ok\n    assert: [{ contains: x }]\n';
    const r = parseWithEveryRule(text, 'yaml');
    assert.deepEqual(marks(text, r.problems), [
      ['case-without-assertions', 'warning', 'bare'],
      ['case-without-assertions', 'warning', 'empty'],
    ]);
    assert.match(r.problems[0]!.message, /^Case "bare" has no assertions: nothing checks its reply/);
  });

  describe('problems at exact ranges (YAML)', () => {
    it('missing fields: at the start of the object that lacks them', () => {
      const text = 'models: [m]\ncases:\n  - vars: {}\n';
      const r = parseCaseFile(text, 'yaml');
      assert.deepEqual(
        r.problems.map(p => [p.code, p.message, p.start]),
        [
          ['case-missing-field', 'Missing required field "request" (text) in the case file.', 0],
          ['case-missing-field', 'Missing required field "name" (text) in case 1.', text.indexOf('vars')],
        ],
      );
    });
    it('wrong types, empty values and lists, negative limits: at the value', () => {
      const text = [
        'request: 3',
        'models: []',
        'cases:',
        '  - name: ""',
        '    vars: { tone: [a], empty: }',
        '    assert:',
        '      - contains: 5',
        '      - max-output-tokens: -1',
        '      - max-input-tokens: 1.5',
        '      - json-schema: "object"',
        '      - tool-call: ""',
        '',
      ].join('\n');
      assert.deepEqual(marks(text, parseCaseFile(text, 'yaml').problems), [
        ['case-wrong-type', 'error', '3'],
        ['case-invalid-value', 'error', '[]'],
        ['case-invalid-value', 'error', '""'],
        ['case-wrong-type', 'error', '[a]'],
        ['case-wrong-type', 'error', 'empty'], // no value: the key is marked
        ['case-wrong-type', 'error', '5'],
        ['case-invalid-value', 'error', '-1'],
        ['case-wrong-type', 'error', '1.5'],
        ['case-wrong-type', 'error', '"object"'],
        ['case-invalid-value', 'error', '""'],
      ]);
    });
    it('messages say what was expected and what came', () => {
      const text =
        'request: a.prompt.yaml\ncases:\n  - name: x\n    vars: { tone: [a] }\n    assert:\n      - contains: 5\n';
      const messages = parseCaseFile(text, 'yaml').problems.map(p => p.message);
      assert.deepEqual(messages, [
        'The value of "tone" must be text, a number or true/false, not an array.',
        'The argument of "contains" must be text, not number 5.',
      ]);
    });
    it('an unknown key is a warning with "did you mean"; an unknown assertion is an error', () => {
      const text = [
        'request: a.prompt.yaml',
        'modles: [m]',
        'cases:',
        '  - name: x',
        '    asert: []',
        '  - name: y',
        '    assert:',
        '      - contain: rembours',
        '      - frobnicate: 1',
        '',
      ].join('\n');
      const r = parseCaseFile(text, 'yaml');
      assert.deepEqual(marks(text, r.problems), [
        ['case-unknown-field', 'warning', 'modles'],
        ['case-unknown-field', 'warning', 'asert'],
        ['unknown-assertion', 'error', 'contain'],
        ['unknown-assertion', 'error', 'frobnicate'],
      ]);
      assert.match(
        r.problems[0]!.message,
        /Unknown field "modles" in the case file: it is ignored\. Did you mean "models"\?/,
      );
      assert.match(r.problems[1]!.message, /in case 1: .*Did you mean "assert"\?/);
      assert.equal(r.problems[2]!.message, 'Unknown assertion "contain". Did you mean "contains"?');
      assert.match(r.problems[3]!.message, /^Unknown assertion "frobnicate"\. Known: contains, icontains, /);
    });
    it('one key per assertion: none, or two, is an error', () => {
      const text = 'request: a\ncases:\n  - name: x\n    assert:\n      - {}\n      - contains: a\n        regex: b\n';
      const r = parseCaseFile(text, 'yaml');
      assert.deepEqual(marks(text, r.problems), [
        ['assertion-keys', 'error', '{}'],
        ['assertion-keys', 'error', 'regex'],
      ]);
      assert.match(r.problems[1]!.message, /One assertion per item: this one has "contains" and "regex"/);
    });
    it('a regex that does not compile is an error at its range, bare or as a literal with flags', () => {
      const text = 'request: a\ncases:\n  - name: x\n    assert:\n      - regex: "(unclosed"\n      - regex: "/a/zz"\n';
      const r = parseCaseFile(text, 'yaml');
      assert.deepEqual(marks(text, r.problems), [
        ['invalid-regex', 'error', '"(unclosed"'],
        ['invalid-regex', 'error', '"/a/zz"'],
      ]);
      assert.match(r.problems[0]!.message, /does not compile: .*Unterminated group/);
    });
    it('an unknown stop_reason is a warning, with the nearest known one', () => {
      const text = 'request: a\ncases:\n  - name: x\n    assert:\n      - stop_reason: end-turn\n';
      const r = parseCaseFile(text, 'yaml');
      assert.deepEqual(marks(text, r.problems), [['unknown-stop-reason', 'warning', 'end-turn']]);
      assert.match(r.problems[0]!.message, /did you mean "end_turn"\?/);
    });
    it('two cases with the same name: an error at the second name', () => {
      const text = 'request: a\ncases:\n  - name: same\n  - name: other\n  - name: same\n';
      const r = parseCaseFile(text, 'yaml');
      assert.deepEqual(marks(text, r.problems), [['duplicate-case-name', 'error', 'same']]);
      assert.equal(r.problems[0]!.start, text.lastIndexOf('same'));
    });
    it('syntax errors come from the shared parser, with its rule names', () => {
      const r = parseCaseFile('request: a\ncases:\n  - name: [x\n', 'yaml');
      assert.ok(r.problems.some(p => p.code === 'yaml-syntax'));
    });
    it('an empty file, and a file that is not an object', () => {
      assert.deepEqual(
        parseCaseFile('', 'yaml').problems.map(p => p.code),
        ['empty-file'],
      );
      const list = parseCaseFile('- a\n- b\n', 'yaml');
      assert.deepEqual(
        list.problems.map(p => p.code),
        ['not-an-object'],
      );
      assert.equal(list.file, undefined);
    });
  });

  describe('problems at exact ranges (JSON)', () => {
    it('the same rules, at the JSON ranges', () => {
      const text = JSON.stringify(
        {
          request: 'a.prompt.json',
          cases: [
            { name: 'x', vars: { tone: null }, assert: [{ contains: 1 }, { regex: '[' }, { icontain: 'a' }] },
            { nmae: 'y' },
          ],
          extra: 1,
        },
        null,
        2,
      );
      assert.deepEqual(marks(text, parseCaseFile(text, 'json').problems), [
        ['case-wrong-type', 'error', '"tone"'],
        ['case-wrong-type', 'error', '1'],
        ['invalid-regex', 'error', '"["'],
        ['unknown-assertion', 'error', '"icontain"'],
        ['case-missing-field', 'error', '{'],
        ['case-unknown-field', 'warning', '"nmae"'],
        ['case-unknown-field', 'warning', '"extra"'],
      ]);
    });
    it('a trailing comma or a comment is a syntax error, as in request files', () => {
      const r = parseCaseFile('{"request": "a", "cases": [{"name": "x"},]}', 'json');
      assert.ok(r.problems.some(p => p.code === 'json-trailing-comma'));
    });
  });

  describe('what can still be used of a file with problems', () => {
    it('keeps each case at its index, leaving out values and assertions of the wrong shape', () => {
      const text = [
        'request: a.prompt.yaml',
        'models: [m, 3]',
        'cases:',
        '  - name: ok',
        '    vars: { a: x, b: [1] }',
        '    assert: [ { contains: x }, { contains: 1 }, { regex: "(" }, { contains: a, equals: b }, 7 ]',
        '  - 42',
        '  - vars: { a: y }',
        '',
      ].join('\n');
      const r = parseCaseFile(text, 'yaml');
      assert.ok(r.problems.length > 0);
      assert.deepEqual(r.file, {
        request: 'a.prompt.yaml',
        models: ['m'],
        cases: [
          { name: 'ok', vars: { a: 'x' }, assert: [{ contains: 'x' }] },
          { name: '' },
          { name: '', vars: { a: 'y' } },
        ],
      });
    });
    it('no file without a request text and a cases list', () => {
      assert.equal(parseCaseFile('request: a\ncases: 3\n', 'yaml').file, undefined);
      assert.equal(parseCaseFile('cases: []\n', 'yaml').file, undefined);
    });
  });

  describe('completion and hover in a JSON case file (from the zod schema, as in YAML)', () => {
    const at = (text: string) => ({ text: text.replace('|', ''), offset: text.indexOf('|') });
    const labels = (text: string) => {
      const here = at(text);
      return (schemaCompletions(here.text, here.offset, 'cases', 'json') ?? []).map(c => c.label);
    };
    it('offers every field, each described on hover', () => {
      const fields = CASE_FILE_FIELDS;
      assert.deepEqual(labels('{ | }'), fields);
      const file = `{ ${fields.map(f => `"${f}": 1`).join(', ')} }`;
      for (const f of fields) {
        const hover = schemaHover(file, file.indexOf(`"${f}"`) + 2, 'cases', 'json');
        assert.match(hover?.markdown ?? '', new RegExp(`^\\*\\*${f}\\*\\*\\n\\n\\S`), f);
      }
    });
    it('offers every assertion kind, the stop reasons and the model ids', () => {
      const kinds = labels('{ "request": "a.prompt.json", "cases": [{ "name": "a", "assert": [{ | }] }] }');
      for (const kind of [
        'contains',
        'not-contains',
        'json-schema',
        'tool-call',
        'max-latency-ms',
        'rubric',
        'max-cost',
      ])
        assert.ok(kinds.includes(kind), `${kind} in ${kinds.join(', ')}`);
      const reasons = labels('{ "cases": [{ "name": "a", "assert": [{ "stop_reason": | }] }] }');
      assert.ok(reasons.includes('end_turn'), reasons.join(', '));
      assert.ok(labels('{ "models": [|] }').includes('model-sonnet-4-6'));
    });
  });
});
