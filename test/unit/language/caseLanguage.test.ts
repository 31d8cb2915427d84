import * as assert from 'node:assert/strict';
import { caseFileSize, placeholderHover, varsCompletions } from '../../../src/core/language/caseAssist';
import { checkCaseText, couldNotCheck } from '../../../src/core/language/caseCheck';
import { parseCaseFile } from '../../../src/core/cases/caseFile';

const CASES =
  'request: ask.prompt.yaml\nmodels: [a, b]\ncases:\n  - name: one\n    vars: { question: "*hi*" }\n  - name: two\n';
const REQUEST = 'model: m\nmax_tokens: 5\nmessages:\n  - role: user\n    content: "{{question}} {{tone}}"\n';

describe('case files in the editor: their check, hover, completion and size', () => {
  it('checks a case file with the request it names, as the front end reads it', async () => {
    const read: string[] = [];
    const c = await checkCaseText(
      CASES,
      '/w/ask.cases.yaml',
      request => ({ key: `/w/${request}`, path: `/w/${request}` }),
      key => {
        read.push(key);
        return REQUEST;
      },
    );
    assert.deepEqual(read, ['/w/ask.prompt.yaml']);
    assert.equal(c.requestText, REQUEST);
    assert.equal(c.requestModel, 'm');
    assert.ok(c.caseProblems.some(p => p.code === 'undefined-placeholder'));
    assert.deepEqual(
      c.requestProblems.map(p => REQUEST.slice(p.start, p.end)),
      ['{{question}}', '{{tone}}'],
    );
  });

  it('a request that cannot be read, or found: one problem at `request`, saying why', async () => {
    const missing = await checkCaseText(
      CASES,
      '/w/ask.cases.yaml',
      r => ({ key: r, path: r }),
      () => undefined,
    );
    assert.deepEqual(
      missing.caseProblems
        .filter(p => p.code !== 'case-without-assertions')
        .map(p => [p.code, /\(no such file\)/.test(p.message)]),
      [['request-not-found', true]],
    );
    const untitled = await checkCaseText(
      CASES,
      'Untitled-1.cases.yaml',
      () => undefined,
      () => REQUEST,
    );
    assert.ok(untitled.caseProblems.some(p => /untitled case file has no folder/.test(p.message)));
  });

  it('a failure of ours: one warning at the top, saying where to read more', () => {
    const p = couldNotCheck('case file', new Error('boom'), 'the log');
    assert.deepEqual([p.start, p.end, p.severity, p.code], [0, 1, 'warning', 'internal-error']);
    assert.equal(p.message, 'Promptwright could not check this case file (boom); see the log.');
  });

  it("hovers {{name}} with its value in each case, the case's text never read as Markdown", () => {
    const file = parseCaseFile(CASES, 'yaml').file!;
    const offset = REQUEST.indexOf('{{question}}') + 3;
    const h = placeholderHover(REQUEST, offset, [{ name: 'ask.cases.yaml', file }]);
    assert.ok(h);
    assert.equal(REQUEST.slice(h.start, h.end), '{{question}}');
    assert.match(h.markdown, /\| one \| \\\*hi\\\* \|/);
    assert.match(h.markdown, /\| two \| \*no value: sent as written\* \|/);
    assert.equal(placeholderHover(REQUEST, 0, [{ name: 'ask.cases.yaml', file }]), undefined);
  });

  it("completes a case's vars with the request's placeholders it has not got yet", () => {
    const text = 'request: ask.prompt.yaml\ncases:\n  - name: one\n    vars:\n      question: x\n      \n';
    const offset = text.indexOf('      \n') + 6;
    const items = varsCompletions(text, offset, { line: 5, character: 6 }, true, {
      text: REQUEST,
      name: 'ask.prompt.yaml',
    });
    assert.deepEqual(
      items?.map(i => [i.label, i.insertText, i.detail]),
      [['tone', 'tone: ', '{{tone}} in ask.prompt.yaml']],
    );
    const json = '{ "request": "ask.prompt.yaml", "cases": [{ "name": "a", "vars": { "q|" } }] }';
    const at = json.indexOf('|');
    const items2 = varsCompletions(json.replace('|', ''), at, { line: 0, character: at }, false, {
      text: REQUEST,
      name: 'ask.prompt.yaml',
    });
    assert.deepEqual(
      items2?.map(i => [i.label, i.insertText, json.replace('|', '').slice(i.start, i.end)]),
      [
        ['question', '"question": ', '"q"'],
        ['tone', '"tone": ', '"q"'],
      ],
    );
  });

  it('the size of a case file for its Run Cases lens', () => {
    assert.equal(caseFileSize(parseCaseFile(CASES, 'yaml').file), ' (2 cases × 2 models)');
    assert.equal(caseFileSize(undefined), '');
  });
});
