// At most 1,000 problems of one rule are said about a file, and one more counts the others, where the first of them
// is: for request files (syntax, schema and rules) and case files alike, in time linear in the file.
import * as assert from 'node:assert/strict';
import { parseCaseFile } from '../../../src/core/cases/caseFile';
import { boundPerRule, MAX_PER_RULE, RuleTally } from '../../../src/core/request/perRule';
import type { PathProblem } from '../../../src/core/request/types';
import { validateText } from '../../../src/core/request/validate';
import { base, check } from './helpers';

const problem = (code: 'unknown-field' | 'invalid-value', n: number): PathProblem => ({
  path: [`k${n}`],
  anchor: 'key',
  severity: 'warning',
  code,
  message: `${code} ${n}`,
  fixes: [{ kind: 'remove-property', title: 'Remove', path: [`k${n}`] }],
});

describe('problems per rule', function () {
  this.timeout(60_000);

  it('the first 1,000 of each rule in order, one more in place of the first left out that counts them', () => {
    const list = [
      ...Array.from({ length: 1050 }, (_, n) => problem('unknown-field', n)),
      problem('invalid-value', 0),
      ...Array.from({ length: 3 }, (_, n) => problem('unknown-field', 1050 + n)),
    ];
    const out = boundPerRule(list);
    assert.equal(out.length, MAX_PER_RULE + 2);
    assert.deepEqual(out.slice(0, MAX_PER_RULE), list.slice(0, MAX_PER_RULE));
    assert.deepEqual(out[MAX_PER_RULE], {
      path: ['k1000'],
      anchor: 'key',
      severity: 'warning',
      code: 'unknown-field',
      message:
        '53 more unknown-field problems in this file from here on are not shown: Promptwright shows the first 1,000 ' +
        'of each rule.',
    });
    assert.equal(out[MAX_PER_RULE + 1]!.message, 'invalid-value 0', 'another rule has its own count');
    assert.match(
      boundPerRule(Array.from({ length: 1001 }, (_, n) => problem('unknown-field', n)))[1000]!.message,
      /^1 more unknown-field problem in this file from here on is not shown/,
    );
    assert.equal(boundPerRule(list.slice(0, 1000)).length, 1000);
  });

  it('past the bound a check keeps one problem of a rule, which the bound counts as all it stands for', () => {
    const tally = new RuleTally();
    const out: PathProblem[] = [];
    let made = 0;
    for (let n = 0; n < 5000; n++) {
      if (tally.said('unknown-field')) out.push(problem('unknown-field', n));
      else tally.leftOut('unknown-field', out, () => (made++, { ...problem('unknown-field', n), message: '' }));
    }
    assert.equal(made, 1, 'one problem made for the 4,000 left out');
    assert.equal(out.length, MAX_PER_RULE + 1);
    const bounded = boundPerRule([...out, problem('invalid-value', 0)]);
    assert.equal(bounded.length, MAX_PER_RULE + 2);
    assert.deepEqual(bounded[MAX_PER_RULE], {
      path: ['k1000'],
      anchor: 'key',
      severity: 'warning',
      code: 'unknown-field',
      message:
        '4,000 more unknown-field problems in this file from here on are not shown: Promptwright shows the first ' +
        '1,000 of each rule.',
    });
    // and where problems of the rule come after it one by one, they are counted with it
    const later = boundPerRule([...out, problem('unknown-field', 9000)]);
    assert.match(later[MAX_PER_RULE]!.message, /^4,001 more unknown-field problems/);
  });

  it('a request with 100,000 unknown keys: 1,001 problems, in about the time of a clean file of that size', () => {
    const keys = (prefix: string) =>
      Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`${prefix}${i}`, 1]));
    const text = JSON.stringify(base(keys('k')));
    const t0 = performance.now();
    const { problems } = validateText(text, 'json');
    const ms = performance.now() - t0;
    assert.equal(problems.length, MAX_PER_RULE + 1);
    assert.match(problems[0]!.message, /^Unknown field "k0" in the request/);
    assert.equal(text.slice(problems[0]!.start, problems[0]!.end), '"k0"');
    assert.equal(text.slice(problems[1000]!.start, problems[1000]!.end), '"k1000"');
    assert.match(problems[1000]!.message, /^99,000 more unknown-field problems in this file from here on/);
    // (33 s before: a "did you mean" and a place for each key)
    assert.ok(ms < 15_000, `${ms} ms`);
  });

  it('an object of many keys, its keys listed once: what comes after them is still read and placed', () => {
    // the keys of an object of 1,000 or more are listed by the parse and used by the later checks; once the parse has
    // met every object the text can hold, it reads no more values
    const many = Array.from({ length: 1200 }, (_, i) => `"k${i}": "{[${i}"`).join(', ');
    const tail = '"messages": [{"role": "user", "content": "hi", "content": "again"}], "temperature": "hot"';
    const text = `{"model": "model-opus-4-7", "max_tokens": 100, ${many}, ${tail}}`;
    const { problems } = validateText(text, 'json');
    const of = (code: string) => problems.filter(p => p.code === code);
    assert.equal(of('unknown-field').length, MAX_PER_RULE + 1);
    assert.equal(text.slice(of('unknown-field')[0]!.start, of('unknown-field')[0]!.end), '"k0"');
    assert.match(of('unknown-field')[1000]!.message, /^200 more unknown-field problems/);
    const duplicate = of('duplicate-key');
    assert.equal(duplicate.length, 1);
    assert.equal(duplicate[0]!.start, text.lastIndexOf('"content"'));
    const hot = problems.find(p => p.path.join('/') === 'temperature')!;
    assert.equal(text.slice(hot.start, hot.end), '"hot"');
    // an integer-like key among many: the engine lists it first, so places are found from the text
    const integer = validateText(`{"model": "model-opus-4-7", "max_tokens": 100, ${many}, "7": 1, ${tail}}`, 'json');
    assert.equal(integer.problems.filter(p => p.code === 'unknown-field').length, MAX_PER_RULE + 1);
    assert.deepEqual(
      integer.problems.filter(p => p.code === 'duplicate-key').map(p => p.path),
      [['messages', 0, 'content']],
    );
  });

  it('a near key among many: the first keys say "did you mean"; a wrong value past the bound costs no fixes', () => {
    const seen = check(
      base({ temperatur: 1, ...Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`x${i}`, 1])) }),
    );
    assert.match(seen.find(s => s.at === '"temperatur"')!.message, /did you mean "temperature"\?/);
    const roles = Array.from({ length: 2401 }, (_, i) => ({ role: i % 2 ? 'robot' : 'user', content: 'hi' }));
    const bad = check(base({ messages: roles })).filter(s => s.code === 'invalid-value');
    assert.equal(bad.length, MAX_PER_RULE + 1);
    assert.match(bad.at(-1)!.message, /^200 more invalid-value problems/);
  });

  it('a file of broken JSON, a syntax error every few characters: the first of them', () => {
    const seen = check(`{"a": [${'1 '.repeat(50_000)}]}`);
    const syntax = seen.filter(s => s.code === 'json-syntax');
    assert.equal(syntax.length, MAX_PER_RULE + 1);
    assert.match(syntax.at(-1)!.message, /more json-syntax problems in this file from here on are not shown/);
  });

  it('a case with 50,000 unknown keys: 1,001 problems', () => {
    const c = { name: 'c', ...Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, 1])) };
    const text = JSON.stringify({ request: 'r.prompt.json', cases: [c] });
    const t0 = performance.now();
    const unknown = parseCaseFile(text, 'json').problems.filter(p => p.code === 'case-unknown-field');
    assert.ok(performance.now() - t0 < 15_000, `${performance.now() - t0} ms`);
    assert.equal(unknown.length, MAX_PER_RULE + 1);
    assert.equal(text.slice(unknown[0]!.start, unknown[0]!.end), '"k0"');
    assert.match(unknown[1000]!.message, /^49,000 more case-unknown-field problems/);
  });
});
