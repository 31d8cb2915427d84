// A case file against its request file, both ways: a placeholder some case gives no value is an error in the
// request (at each occurrence) and in the case file (at each case that lacks it); a value no placeholder
// uses is a warning at its key. In YAML and JSON request files.
import * as assert from 'node:assert/strict';
import { parseCaseFile } from '../../../src/core/cases/caseFile';
import { crossCheck, valuesByCase } from '../../../src/core/cases/crossCheck';
import { MAX_PER_RULE } from '../../../src/core/request/perRule';

const REQUEST_YAML = `model: model-sonnet-4-6
max_tokens: 300
system: "Answer in a {{tone}} tone."
messages:
  - role: user
    content: "{{question}} ({{ tone }})"
`;

function check(cases: string, requestText = REQUEST_YAML, format: 'yaml' | 'json' = 'yaml') {
  const caseText = `request: support.prompt.yaml\ncases:\n${cases}`;
  const parsed = parseCaseFile(caseText, 'yaml');
  assert.ok(parsed.file, JSON.stringify(parsed.problems));
  const r = crossCheck(parsed.file, parsed.locateMany, requestText, format);
  return {
    caseMarks: r.caseProblems.map(p => [p.code, p.severity, caseText.slice(p.start, p.end)]),
    requestMarks: r.requestProblems.map(p => [p.code, p.severity, requestText.slice(p.start, p.end)]),
    r,
    file: parsed.file,
  };
}

describe('cases: cross-check of a case file and its request', () => {
  it('every placeholder given a value in every case, every value used: nothing to say', () => {
    const { r } = check(
      '  - name: a\n    vars: { question: q, tone: t }\n  - name: b\n    vars: { question: q2, tone: t2 }\n',
    );
    // and the request's own model, what a case file without `models` runs on
    assert.deepEqual(r, { caseProblems: [], requestProblems: [], requestModel: 'model-sonnet-4-6' });
  });

  it('a placeholder no case defines: an error at each occurrence in the request, and at each case', () => {
    const { caseMarks, requestMarks, r } = check(
      '  - name: a\n    vars: { question: q }\n  - name: b\n    vars: { question: q2 }\n',
    );
    assert.deepEqual(requestMarks, [
      ['undefined-placeholder', 'error', '{{tone}}'],
      ['undefined-placeholder', 'error', '{{ tone }}'],
    ]);
    assert.match(r.requestProblems[0]!.message, /^No case gives \{\{tone\}\} a value/);
    assert.deepEqual(caseMarks, [
      ['undefined-placeholder', 'error', 'vars'],
      ['undefined-placeholder', 'error', 'vars'],
    ]);
    assert.match(r.caseProblems[1]!.message, /case "b" gives it no value.*Add "tone" to its vars/);
  });

  it('a placeholder some cases lack: the request says which; a case without vars is marked at its name', () => {
    const { caseMarks, r } = check('  - name: full\n    vars: { question: q, tone: t }\n  - name: bare\n');
    assert.deepEqual(caseMarks, [
      ['undefined-placeholder', 'error', 'bare'],
      ['undefined-placeholder', 'error', 'bare'],
    ]);
    const question = r.requestProblems.find(p => p.message.startsWith('{{question}}'));
    assert.match(question!.message, /^\{\{question\}\} has no value in 1 of 2 cases \("bare"\): they would send it/);
  });

  it('a value no placeholder uses: a warning at its key, with the nearest placeholder', () => {
    const { caseMarks, r } = check('  - name: a\n    vars: { question: q, tone: t, queston: x, other: 1 }\n');
    assert.deepEqual(caseMarks, [
      ['unused-var', 'warning', 'queston'],
      ['unused-var', 'warning', 'other'],
    ]);
    assert.match(r.caseProblems[0]!.message, /no \{\{queston\}\}.*Did you mean \{\{question\}\}\?/);
    assert.doesNotMatch(r.caseProblems[1]!.message, /Did you mean/);
  });

  it('a JSON request: the same, at JSON ranges; placeholders in keys are not placeholders', () => {
    const request = JSON.stringify(
      {
        model: 'm',
        max_tokens: 5,
        metadata: { '{{key}}': 'x' },
        messages: [{ role: 'user', content: 'Q {{question}}' }],
      },
      null,
      2,
    );
    const { requestMarks, caseMarks } = check('  - name: a\n    vars: { key: k }\n', request, 'json');
    assert.deepEqual(requestMarks, [['undefined-placeholder', 'error', '{{question}}']]);
    assert.deepEqual(caseMarks, [
      ['undefined-placeholder', 'error', 'vars'],
      ['unused-var', 'warning', 'key'],
    ]);
  });

  it('a placeholder written with escapes (not visible in the text) marks the whole string', () => {
    const request = '{"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "\\u007b{question}}"}]}';
    const { requestMarks } = check('  - name: a\n', request, 'json');
    assert.deepEqual(requestMarks, [['undefined-placeholder', 'error', '"\\u007b{question}}"']]);
  });

  it('a request that cannot be read: nothing to say (its own errors stand)', () => {
    const { r } = check('  - name: a\n    vars: { x: 1 }\n', '{"model": ', 'json');
    assert.deepEqual(r, { caseProblems: [], requestProblems: [] });
  });

  it('valuesByCase: each case’s value, undefined where it gives none', () => {
    const { file } = check(
      '  - name: a\n    vars: { question: q, tone: formal }\n  - name: b\n    vars: { question: 2 }\n',
    );
    assert.deepEqual(valuesByCase(file, 'tone'), [
      { caseName: 'a', value: 'formal' },
      { caseName: 'b', value: undefined },
    ]);
    assert.deepEqual(valuesByCase(file, 'question'), [
      { caseName: 'a', value: 'q' },
      { caseName: 'b', value: 2 },
    ]);
    assert.deepEqual(valuesByCase(file, 'constructor'), [
      { caseName: 'a', value: undefined },
      { caseName: 'b', value: undefined },
    ]);
  });
});

describe('cases: cross-check of files built to be slow (linear time, the first problems of each rule)', function () {
  this.timeout(30_000);
  const request = (n: number) =>
    JSON.stringify({
      model: 'model-opus-4-7',
      max_tokens: 5,
      messages: [{ role: 'user', content: Array.from({ length: n }, (_, i) => `{{p${i}}}`).join(' ') }],
    });
  const crossOf = (cases: object[], requestText: string) => {
    const parsed = parseCaseFile(JSON.stringify({ request: 'r.prompt.json', cases }), 'json');
    assert.ok(parsed.file);
    const t0 = performance.now();
    const r = crossCheck(parsed.file, parsed.locateMany, requestText, 'json');
    return { r, ms: performance.now() - t0 };
  };

  it('every case lacks every placeholder (4,000,000 pairs): 1,000 of each side said, one more counts the rest', () => {
    const { r, ms } = crossOf(
      Array.from({ length: 2000 }, (_, i) => ({ name: `c${i}` })),
      request(2000),
    );
    assert.ok(ms < 5000, `${ms} ms`);
    for (const [side, more] of [
      [r.caseProblems, '3,999,000'],
      [r.requestProblems, '1,000'],
    ] as const) {
      assert.equal(side.length, MAX_PER_RULE + 1);
      assert.ok(side.every(p => p.code === 'undefined-placeholder' && p.severity === 'error'));
      const last = side.at(-1)!;
      assert.equal(
        last.message,
        `${more} more undefined-placeholder problems in this file from here on are not shown: Promptwright shows ` +
          'the first 1,000 of each rule.',
      );
    }
    // the first said are the first in the files, each where it belongs
    assert.match(r.caseProblems[0]!.message, /uses \{\{p0\}\}, and case "c0" gives it no value/);
    assert.match(r.requestProblems[0]!.message, /^No case gives \{\{p0\}\} a value/);
    assert.ok(r.requestProblems[999]!.start < r.requestProblems[1000]!.start, 'the one that counts comes after');
  });

  it('vars no placeholder uses, each near one: 1,000 said with "did you mean", one more counts the rest', () => {
    const vars = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}x`, 'v']));
    const { r, ms } = crossOf([{ name: 'c', vars }], request(20_000));
    assert.ok(ms < 5000, `${ms} ms`);
    const unused = r.caseProblems.filter(p => p.code === 'unused-var');
    assert.equal(unused.length, MAX_PER_RULE + 1);
    assert.match(
      unused[0]!.message,
      /^The request has no \{\{p0x\}\}: this value is not used\. Did you mean \{\{p0\}\}\?$/,
    );
    assert.match(unused.at(-1)!.message, /^19,000 more unused-var problems/);
    // "did you mean" weighs the first 100 different vars: a thousand different typos are not a person's
    assert.match(unused[99]!.message, /^The request has no \{\{p99x\}\}: .* Did you mean \{\{p\d+\}\}\?$/);
    assert.match(unused[100]!.message, /^The request has no \{\{p100x\}\}: this value is not used\.$/);
  });

  it('the same unused var in 300 cases is weighed once, and each of them says "did you mean"', () => {
    const cases = Array.from({ length: 300 }, (_, i) => ({ name: `c${i}`, vars: { p0x: 'v', [`q${i}`]: 'w' } }));
    const { r } = crossOf(cases, request(3));
    const typo = r.caseProblems.filter(p => p.code === 'unused-var' && p.path.at(-1) === 'p0x');
    assert.equal(typo.length, 300);
    assert.ok(typo.every(p => p.message.endsWith('Did you mean {{p0}}?')));
  });

  it('a placeholder written many times in one string: each time counted, past the bound too', () => {
    const twice = Array.from({ length: 2000 }, (_, i) => `{{p${i}}} {{p${i}}}`).join(' ');
    const requestText = JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: twice }] });
    const { r } = crossOf([{ name: 'c', vars: { z: 1 } }], requestText);
    assert.equal(r.requestProblems.length, MAX_PER_RULE + 1);
    // 4,000 places, 1,000 of them said: the first 500 names, twice each
    assert.match(r.requestProblems[999]!.message, /\{\{p499\}\}/);
    assert.match(r.requestProblems.at(-1)!.message, /^3,000 more undefined-placeholder problems/);
  });

  it('one string holding 20,000 placeholders no case gives: read once, not once per name', () => {
    const { r, ms } = crossOf([{ name: 'c', vars: { z: 1 } }], request(20_000));
    assert.ok(ms < 5000, `${ms} ms`);
    assert.equal(r.requestProblems.length, MAX_PER_RULE + 1);
    assert.match(r.requestProblems.at(-1)!.message, /^19,000 more undefined-placeholder problems/);
  });
});
