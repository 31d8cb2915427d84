// A case file as the Test Explorer shows it: its cases at their places in the text (each with its assertions'
// places), the models each runs on, and the `cases` key where the file's own item sits.
import * as assert from 'node:assert/strict';
import { parseCaseFile } from '../../../src/core/cases/caseFile';
import { caseOutline, modelsOf } from '../../../src/core/cases/outline';

const YAML = `request: support.prompt.yaml
models: [model-sonnet-4-6, model-haiku-4-5, model-sonnet-4-6]
cases:
  - name: greeting
    vars: { question: hi }
    assert:
      - contains: hello
      - regex: ^Bonjour
  - name: no assertions
  - name: greeting
  - name: ""
`;

/** The line (0-based) of an offset. */
const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length - 1;

describe('cases: outline (the Test Explorer items)', () => {
  it('each named case once, at its line, with its assertions at theirs; the models without repeats', () => {
    const parsed = parseCaseFile(YAML, 'yaml');
    const outline = caseOutline(parsed.file!, parsed.locate, undefined);
    assert.deepEqual(outline.models, ['model-sonnet-4-6', 'model-haiku-4-5']);
    assert.equal(lineOf(YAML, outline.casesKey!.start), 2);
    // the second "greeting" is an error (duplicate-case-name) and the empty name is no case: neither is an item
    assert.deepEqual(
      outline.cases.map(c => [c.name, c.index, lineOf(YAML, c.span.start)]),
      [
        ['greeting', 0, 3],
        ['no assertions', 1, 8],
      ],
    );
    assert.deepEqual(
      outline.cases[0]!.assertions.map(s => YAML.slice(s!.start, s!.end).trim()),
      ['contains: hello', 'regex: ^Bonjour'],
    );
    assert.deepEqual(outline.cases[1]!.assertions, []);
  });

  it('a JSON case file; without `models`, the request’s own model', () => {
    const json =
      '{\n  "request": "r.prompt.json",\n  "cases": [\n    {"name": "a", "assert": [{"contains": "x"}]}\n  ]\n}';
    const parsed = parseCaseFile(json, 'json');
    const outline = caseOutline(parsed.file!, parsed.locate, 'model-haiku-4-5');
    assert.deepEqual(outline.models, ['model-haiku-4-5']);
    assert.deepEqual(
      outline.cases.map(c => [c.name, lineOf(json, c.span.start), lineOf(json, c.assertions[0]!.start)]),
      [['a', 3, 3]],
    );
  });

  it('modelsOf: an override first, then the file’s models, then the request’s; none when none is known', () => {
    assert.deepEqual(modelsOf({ models: ['a', 'b'] }, 'r', ['c']), ['c']);
    assert.deepEqual(modelsOf({ models: ['a', 'b', 'a'] }, 'r'), ['a', 'b']);
    assert.deepEqual(modelsOf({}, 'r'), ['r']);
    assert.deepEqual(modelsOf({}, undefined), []);
  });
});
