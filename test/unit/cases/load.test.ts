// A case file and its request read from a source (the disk for the CLI, a git revision for `test --base` and
// the grid's "Compare with…"): the request resolved beside the case file in the same source, every problem a
// `file:line:col` record naming the file it is in.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { fileRecord, loadCaseFileFrom, type FileSource } from '../../../src/core/cases/load';

const root = path.resolve('/repo');
const CASES = path.join(root, 'prompts', 'support.cases.yaml');
const REQUEST = path.join(root, 'prompts', 'support.prompt.json');

const caseFile = (request = 'support.prompt.json', extra = '') =>
  `request: ${request}\nmodels: [model-opus-4-7]\ncases:\n  - name: greeting\n    vars: { question: Hi }\n` +
  `    assert: [{ contains: Hi }]\n${extra}`;
const request = JSON.stringify({
  model: 'model-haiku-4-5',
  max_tokens: 100,
  messages: [{ role: 'user', content: '{{question}}' }],
});

/** A source of in-memory texts (or records) by path; what it does not hold is missing. */
function sourceOf(files: Record<string, string | { problem: string }>): FileSource & { asked: string[] } {
  const asked: string[] = [];
  const source = (abs: string, display: string) => {
    asked.push(`${abs} as ${display}`);
    const f = files[abs];
    if (f === undefined) return undefined;
    return typeof f === 'string' ? { text: f } : { record: fileRecord(display, 'invalid-utf8', f.problem) };
  };
  return Object.assign(source, { asked });
}

describe('cases: loading a case file from a source', () => {
  it('reads the case file and the request it names beside it, in the same source', () => {
    const source = sourceOf({ [CASES]: caseFile(), [REQUEST]: request });
    const { loaded, records } = loadCaseFileFrom(CASES, root, source, 'support.cases.yaml');
    assert.deepEqual(records, []);
    assert.equal(loaded?.display, 'support.cases.yaml');
    assert.equal(loaded?.requestModel, 'model-haiku-4-5');
    assert.deepEqual(
      loaded?.file.cases.map(c => c.name),
      ['greeting'],
    );
    assert.deepEqual((loaded?.requestValue as { max_tokens: number }).max_tokens, 100);
    // the request is named relative to `cwd` in what is printed
    assert.deepEqual(source.asked, [
      `${CASES} as support.cases.yaml`,
      `${REQUEST} as ${path.join('prompts', 'support.prompt.json')}`,
    ]);
  });

  it('a request or judge prompt out of the repository is an error at its line, never asked of the source', () => {
    const judge = 'judge:\n  prompt: ../../etc/judge.txt\n';
    const source = sourceOf({ [CASES]: caseFile('support.prompt.json', judge), [REQUEST]: request });
    const prompt = loadCaseFileFrom(CASES, root, source, 'c.yaml');
    assert.deepEqual(
      prompt.records.map(r => [r.line, r.code]),
      [[8, 'path-outside-repository']],
    );
    const up = sourceOf({ [CASES]: caseFile('../../secret.prompt.json') });
    const { loaded, records } = loadCaseFileFrom(CASES, root, up, 'c.yaml');
    assert.equal(loaded, undefined);
    assert.deepEqual(
      records.map(r => [r.line, r.column, r.code]),
      [[1, 10, 'path-outside-repository']],
    );
    assert.deepEqual(source.asked.concat(up.asked), [
      `${CASES} as c.yaml`,
      `${REQUEST} as ${path.join('prompts', 'support.prompt.json')}`,
      `${CASES} as c.yaml`,
    ]);
  });

  it('a request the source lacks is an error at the case file\'s "request" line', () => {
    const { loaded, records } = loadCaseFileFrom(CASES, root, sourceOf({ [CASES]: caseFile() }), 'c.yaml');
    assert.equal(loaded, undefined);
    assert.equal(records.length, 1);
    assert.deepEqual(
      [records[0]!.file, records[0]!.line, records[0]!.code, records[0]!.severity],
      ['c.yaml', 1, 'request-not-found', 'error'],
    );
    assert.match(records[0]!.message, /"support\.prompt\.json" cannot be read/);
  });

  it("the source's own records pass through: a case file that is not there, a request that is not UTF-8", () => {
    const none = loadCaseFileFrom(CASES, root, sourceOf({}), 'c.yaml');
    assert.equal(none.loaded, undefined);
    assert.deepEqual(
      none.records.map(r => [r.file, r.code, r.message]),
      [['c.yaml', 'internal-error', 'There is no such file.']],
    );
    const bad = loadCaseFileFrom(
      CASES,
      root,
      sourceOf({ [CASES]: caseFile(), [REQUEST]: { problem: 'Invalid UTF-8 at this revision.' } }),
      'c.yaml',
    );
    assert.equal(bad.loaded, undefined);
    assert.deepEqual(
      bad.records.map(r => [r.file, r.code]),
      [[path.join('prompts', 'support.prompt.json'), 'invalid-utf8']],
    );
  });

  it('problems of either file are records at their line; a case file that does not parse loads nothing', () => {
    const withTypo = caseFile('support.prompt.json', '    asert:\n      - contains: x\n');
    const source = sourceOf({ [CASES]: withTypo, [REQUEST]: '{ "model": "model-opus-4-7", ' });
    const { loaded, records } = loadCaseFileFrom(CASES, root, source, 'c.yaml');
    const byFile = records.map(r => `${r.file}:${r.line}`);
    assert.ok(byFile.includes('c.yaml:7'), `the case file's typo at its line: ${byFile.join(', ')}`);
    assert.ok(
      records.some(r => r.file.endsWith('support.prompt.json') && r.severity === 'error'),
      'the request syntax error, in the request file',
    );
    assert.ok(loaded, 'a case file that parses loads, its problems beside it');
    const broken = loadCaseFileFrom(CASES, root, sourceOf({ [CASES]: 'request: [' }), 'c.yaml');
    assert.equal(broken.loaded, undefined);
    assert.ok(broken.records.length > 0);
  });
});
