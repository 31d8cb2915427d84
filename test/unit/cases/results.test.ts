// The last results of a case file: where they are kept, written and read back (a bad file is no file), and
// compared cell by cell with a new run; a partial run merged over the last one; never written through a symbolic
// link out of the repository's .promptwright/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  compareResults,
  keptFolder,
  mergeResults,
  parseResults,
  resultsName,
  resultsPath,
  serializeResults,
  writeKept,
} from '../../../src/core/cases/results';
import { DirectoryVerdictCache } from '../../../src/core/cases/verdictCache';
import type { CellResult } from '../../../src/core/cases/types';

const cell = (caseName: string, model: string, status: CellResult['status']): CellResult => ({
  caseName,
  model,
  status,
  pass: status === 'passed',
  assertions: [{ type: 'contains', pass: status === 'passed', message: 'contains "x": …' }],
  outcome: { text: `${caseName} on ${model}`, usage: { input_tokens: 3, output_tokens: 4 }, requestId: 'req_1' },
});
const key = (c: string, m: string) => `${c}\u0000${m}`;

describe('cases: results', () => {
  it('resultsPath: .promptwright/results/<the case file’s path in the workspace>.json', () => {
    const root = path.resolve('/work/space');
    assert.equal(
      resultsPath(path.join(root, 'examples', 'support.cases.yaml'), root),
      path.join(root, '.promptwright', 'results', 'examples', 'support.cases.yaml.json'),
    );
    assert.equal(resultsPath('a.cases.json', root), path.join(root, '.promptwright', 'results', 'a.cases.json.json'));
    const outside = resultsPath(path.resolve('/elsewhere/x.cases.yaml'), root);
    assert.match(path.basename(outside), /^x\.cases\.yaml-[0-9a-f]{8}\.json$/);
    assert.equal(path.dirname(outside), path.join(root, '.promptwright', 'results'));
  });

  it('resultsName: the same name under any folder of results (the workspace storage by default)', () => {
    const root = path.resolve('/work/space');
    assert.equal(
      resultsName(path.join(root, 'examples', 'support.cases.yaml'), root),
      path.join('examples', 'support.cases.yaml.json'),
    );
    assert.match(resultsName(path.resolve('/elsewhere/x.cases.yaml'), root), /^x\.cases\.yaml-[0-9a-f]{8}\.json$/);
  });

  it('serializeResults and parseResults round-trip; anything else reads as no results', () => {
    const results = [cell('a', 'm1', 'passed'), cell('b', 'm1', 'error')];
    const text = serializeResults('examples/x.cases.yaml', results, new Date('2026-05-01T10:00:00Z'));
    assert.deepEqual(parseResults(text), {
      version: 1,
      caseFile: 'examples/x.cases.yaml',
      savedAt: '2026-05-01T10:00:00.000Z',
      results,
    });
    for (const bad of [
      '',
      '{',
      '[]',
      '{"version": 2, "caseFile": "x", "savedAt": "", "results": []}',
      text.slice(0, 40),
    ])
      assert.equal(parseResults(bad), undefined, bad);
    const wrong = JSON.parse(text);
    wrong.results[0].status = 'maybe';
    assert.equal(parseResults(JSON.stringify(wrong)), undefined);
  });

  it('compareResults: new, fixed, broke, same; a failed request is a failure; unfinished cells have no entry', () => {
    const before = [
      cell('a', 'm1', 'passed'),
      cell('b', 'm1', 'failed'),
      cell('c', 'm1', 'passed'),
      cell('d', 'm1', 'error'),
      cell('e', 'm1', 'cancelled'),
    ];
    const after = [
      cell('a', 'm1', 'passed'),
      cell('b', 'm1', 'passed'),
      cell('c', 'm1', 'error'),
      cell('d', 'm1', 'failed'),
      cell('e', 'm1', 'passed'),
      cell('a', 'm2', 'failed'),
      cell('f', 'm1', 'cancelled'),
    ];
    assert.deepEqual(
      [...compareResults(before, after)],
      [
        [key('a', 'm1'), 'same'],
        [key('b', 'm1'), 'fixed'],
        [key('c', 'm1'), 'broke'],
        [key('d', 'm1'), 'same'],
        [key('e', 'm1'), 'new'],
        [key('a', 'm2'), 'new'],
      ],
    );
    assert.deepEqual([...compareResults(undefined, [cell('a', 'm1', 'failed')]).values()], ['new']);
  });

  it('mergeResults keeps the last result of every cell the new run did not finish', () => {
    const before = [cell('a', 'm1', 'passed'), cell('b', 'm1', 'failed'), cell('gone', 'm1', 'passed')];
    const after = [cell('a', 'm1', 'cancelled'), cell('b', 'm1', 'passed'), cell('new', 'm1', 'queued')];
    assert.deepEqual(
      mergeResults(before, after).map(r => [r.caseName, r.status]),
      [
        ['a', 'passed'],
        ['b', 'passed'],
        ['new', 'queued'],
        ['gone', 'passed'],
      ],
    );
  });
});

describe('cases: results and verdicts in the repository go through no symbolic link', () => {
  let dir: string;
  let repo: string;
  let outside: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-kept-')));
    repo = path.join(dir, 'repo');
    outside = path.join(dir, 'outside');
    fs.mkdirSync(repo);
    fs.mkdirSync(outside);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = () => resultsPath(path.join(repo, 'prompts', 'a.cases.yaml'), repo);
  const nothingOutside = () => assert.deepEqual(fs.readdirSync(outside, { recursive: true }), []);

  it('writes a results file, making its folders', async () => {
    await writeKept(keptFolder(repo), file(), 'one');
    await writeKept(keptFolder(repo), file(), 'two');
    assert.equal(
      fs.readFileSync(path.join(repo, '.promptwright', 'results', 'prompts', 'a.cases.yaml.json'), 'utf8'),
      'two',
    );
  });

  for (const [what, link] of [
    ['.promptwright itself', '.promptwright'],
    ['.promptwright/results', '.promptwright/results'],
    ['a folder under it', '.promptwright/results/prompts'],
  ] as const)
    it(`${what} as a link out of the repository: refused, nothing written there`, async () => {
      fs.mkdirSync(path.dirname(path.join(repo, link)), { recursive: true });
      fs.symlinkSync(outside, path.join(repo, link));
      await assert.rejects(
        writeKept(keptFolder(repo), file(), 'x'),
        /is a symbolic link: nothing is written through it/,
      );
      nothingOutside();
    });

  it('the results file itself as a link: refused, the file it points at unchanged', async () => {
    const target = path.join(outside, 'victim');
    fs.writeFileSync(target, 'mine');
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.symlinkSync(target, file());
    await assert.rejects(writeKept(keptFolder(repo), file(), 'x'));
    assert.equal(fs.readFileSync(target, 'utf8'), 'mine');
  });

  it('verdicts under .promptwright/: a link on the way refused, a link in a verdict’s place replaced', async () => {
    const kept = keptFolder(repo);
    const said: string[] = [];
    fs.mkdirSync(kept);
    fs.symlinkSync(outside, path.join(kept, 'verdicts'));
    const value = { verdict: { pass: true, score: 1, reason: 'r' }, model: 'm', savedAt: 'now' };
    await new DirectoryVerdictCache(path.join(kept, 'verdicts'), m => said.push(m), kept).set('ab12', value);
    nothingOutside();
    assert.match(said.join('\n'), /is a symbolic link/);
    fs.rmSync(path.join(kept, 'verdicts'));
    fs.mkdirSync(path.join(kept, 'verdicts', 'ab'), { recursive: true });
    const victim = path.join(outside, 'victim');
    fs.writeFileSync(victim, 'mine');
    fs.symlinkSync(victim, path.join(kept, 'verdicts', 'ab', 'ab12.json'));
    await new DirectoryVerdictCache(path.join(kept, 'verdicts'), m => said.push(m), kept).set('ab12', value);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'mine');
    assert.equal(fs.lstatSync(path.join(kept, 'verdicts', 'ab', 'ab12.json')).isFile(), true);
  });
});
