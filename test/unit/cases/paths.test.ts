// A case file names only files inside its repository (the git work tree it is in, else its own folder), symbolic
// links resolved: `request:`, `judge.prompt:` or `dataset:` out of it is an error at its line, and nothing is read
// from there or sent. The check itself, then `check` and `test` as processes against the fake, then the language
// server over its protocol, which must say what `check` says.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { caseFileRoot, isInside, outsideProblems } from '../../../src/core/cases/paths';
import { parseCaseFile } from '../../../src/core/cases/caseFile';
import type { CheckRecord } from '../../../src/core/request/records';
import { cliEnv, useFake } from '../../support/fake';
import { LspClient } from '../../support/lspClient';
import { assertPrompt, runCli, runCliSync } from '../../support/spawnCli';

const REQUEST = 'model: model-sonnet-4-6\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "{{question}}"\n';
/** What lies outside the repository: a request whose text would show if it were read (its placeholder is unknown). */
const SECRET = 'model: model-sonnet-4-6\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "{{secret_token}}"\n';

/**
 * A folder holding `outside/` (a request and a judge prompt no case file may read) and `repo/` (a git work tree
 * with a request, a judge prompt, and links pointing in and out).
 */
function layout() {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-paths-')));
  const outside = path.join(top, 'outside');
  const repo = path.join(top, 'repo');
  fs.mkdirSync(outside);
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  fs.mkdirSync(path.join(repo, 'cases'), { recursive: true });
  fs.mkdirSync(path.join(repo, 'prompts'));
  fs.writeFileSync(path.join(outside, 'secret.prompt.yaml'), SECRET);
  fs.writeFileSync(path.join(outside, 'judge.txt'), 'secret judge {{reply}}');
  fs.writeFileSync(path.join(repo, 'prompts', 'ask.prompt.yaml'), REQUEST);
  fs.writeFileSync(path.join(repo, 'prompts', 'judge.txt'), 'Grade {{reply}} against {{criteria}}.');
  // a link inside the repository to a file outside it, and one to a file inside it
  fs.symlinkSync(path.join(outside, 'secret.prompt.yaml'), path.join(repo, 'prompts', 'linked.prompt.yaml'));
  fs.symlinkSync(path.join(outside, 'judge.txt'), path.join(repo, 'prompts', 'linked-judge.txt'));
  fs.symlinkSync(path.join(repo, 'prompts', 'ask.prompt.yaml'), path.join(repo, 'cases', 'near.prompt.yaml'));
  const caseFile = (name: string, request: string, judge?: string) => {
    const file = path.join(repo, 'cases', name);
    fs.writeFileSync(
      file,
      [
        `request: ${request}`,
        ...(judge ? ['judge:', '  model: model-haiku-4-5', `  prompt: ${judge}`] : []),
        'cases:',
        '  - name: one',
        '    vars: { question: hi }',
        '    assert: [ { contains: Hello } ]',
        '',
      ].join('\n'),
    );
    return file;
  };
  return { top, outside, repo, caseFile, dispose: () => fs.rmSync(top, { recursive: true, force: true }) };
}

describe('case files: the files they name stay inside the repository', () => {
  let at: ReturnType<typeof layout>;
  beforeEach(() => (at = layout()));
  afterEach(() => at.dispose());

  it('the repository is the nearest folder up holding .git (a folder or a file), else the case file’s folder', () => {
    assert.equal(caseFileRoot(path.join(at.repo, 'cases', 'x.cases.yaml')), at.repo);
    assert.equal(caseFileRoot(path.join(at.outside, 'x.cases.yaml')), at.outside);
    // a linked work tree (`git worktree add`) has a .git file
    const worktree = path.join(at.top, 'wt');
    fs.mkdirSync(path.join(worktree, 'deep'), { recursive: true });
    fs.writeFileSync(path.join(worktree, '.git'), 'gitdir: /elsewhere\n');
    assert.equal(caseFileRoot(path.join(worktree, 'deep', 'x.cases.yaml')), worktree);
  });

  it('inside means under the root once links are resolved, whether the target exists or not', () => {
    assert.ok(isInside(at.repo, path.join(at.repo, 'prompts', 'ask.prompt.yaml')));
    assert.ok(isInside(at.repo, path.join(at.repo, 'prompts', 'not-yet.prompt.yaml')));
    assert.ok(isInside(at.repo, path.join(at.repo, '..repo-like-name')));
    assert.ok(isInside(at.repo, path.join(at.repo, 'cases', 'near.prompt.yaml')), 'a link that stays inside');
    assert.ok(!isInside(at.repo, path.join(at.repo, '..', 'outside', 'secret.prompt.yaml')));
    assert.ok(!isInside(at.repo, path.join(at.repo, 'prompts', 'linked.prompt.yaml')), 'a link that points out');
    assert.ok(!isInside(at.repo, '/etc/passwd'));
    // a linked folder that points out takes what is under it out too
    fs.symlinkSync(at.outside, path.join(at.repo, 'elsewhere'));
    assert.ok(!isInside(at.repo, path.join(at.repo, 'elsewhere', 'new.prompt.yaml')));
  });

  it('each path out of the repository is an error at its own key; a path inside is none', () => {
    const check = (request: string, judge?: string) => {
      const file = at.caseFile('c.cases.yaml', request, judge);
      const parsed = parseCaseFile(fs.readFileSync(file, 'utf8'), 'yaml');
      return outsideProblems(file, parsed.file!, parsed.locate).map(p => [p.code, p.path.join('.'), p.start]);
    };
    assert.deepEqual(check('../prompts/ask.prompt.yaml', '../prompts/judge.txt'), []);
    assert.deepEqual(check('near.prompt.yaml'), []);
    for (const out of [
      '../../outside/secret.prompt.yaml',
      path.join(at.outside, 'secret.prompt.yaml'),
      '../prompts/linked.prompt.yaml',
      '..\\..\\outside\\secret.prompt.yaml',
    ])
      assert.deepEqual(check(out), [['path-outside-repository', 'request', 'request: '.length]], out);
    const judgeAt = 'request: ../prompts/ask.prompt.yaml\njudge:\n  model: model-haiku-4-5\n  prompt: '.length;
    assert.deepEqual(check('../prompts/ask.prompt.yaml', '../prompts/linked-judge.txt'), [
      ['path-outside-repository', 'judge.prompt', judgeAt],
    ]);
    // a dataset's rows are read and sent as much as a request
    const text = 'request: ../prompts/ask.prompt.yaml\ndataset: ../../outside/rows.csv\n';
    const parsed = parseCaseFile(text, 'yaml');
    const file = path.join(at.repo, 'cases', 'd.cases.yaml');
    assert.deepEqual(
      outsideProblems(file, parsed.file!, parsed.locate).map(p => [p.code, p.path.join('.'), p.start]),
      [['path-outside-repository', 'dataset', text.indexOf('../../outside')]],
    );
  });
});

describe('check, test and the language server refuse a case file naming a file outside its repository', function () {
  this.timeout(60_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let at: ReturnType<typeof layout>;
  beforeEach(() => (at = layout()));
  afterEach(() => at.dispose());

  const cli = (args: string[]) =>
    runCli(fake, args, { cwd: path.join(at.repo, 'cases'), env: { ...process.env, ...cliEnv(fake) } });

  it('check: an error at the line of `request`, of `judge.prompt`; exit 1; the outside file is not read', async () => {
    at.caseFile('up.cases.yaml', '../../outside/secret.prompt.yaml');
    at.caseFile('link.cases.yaml', '../prompts/ask.prompt.yaml', '../prompts/linked-judge.txt');
    const r = await cli(['check', 'up.cases.yaml', 'link.cases.yaml']);
    assert.equal(r.code, 1, r.err);
    const lines = r.out.trimEnd().split('\n');
    assert.ok(
      lines.includes(
        `up.cases.yaml:1:10: error path-outside-repository: The request file "../../outside/secret.prompt.yaml" is ` +
          `outside the repository (${at.repo}), symbolic links followed: a case file may name only files inside ` +
          'it. Nothing is read from there or sent.',
      ),
      r.out,
    );
    assert.ok(
      lines.some(l => l.startsWith('link.cases.yaml:4:11: error path-outside-repository: The judge prompt')),
      r.out,
    );
    // the request out there would have said its {{secret_token}} has no value, had it been read
    assert.doesNotMatch(r.out, /secret_token/);
  });

  it('test: refused before anything is sent (exit 2), the request of a link out as much as ../', async () => {
    at.caseFile('up.cases.yaml', '../../outside/secret.prompt.yaml');
    at.caseFile('link.cases.yaml', '../prompts/linked.prompt.yaml');
    at.caseFile('fine.cases.yaml', '../prompts/ask.prompt.yaml');
    const r = await runCli(fake, ['test', 'up.cases.yaml', 'link.cases.yaml', 'fine.cases.yaml'], {
      cwd: path.join(at.repo, 'cases'),
      env: { ...process.env, ...cliEnv(fake) },
    });
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /^up\.cases\.yaml:1:10: error path-outside-repository: /m);
    assert.match(r.err, /^link\.cases\.yaml:1:10: error path-outside-repository: /m);
    assert.match(r.err, /nothing sent: 2 errors/);
    assert.equal(fake.requests.length, 0);
    assertPrompt(r);
    const fine = await cli(['test', 'fine.cases.yaml']);
    assert.equal(fine.code, 0, fine.err);
  });

  it('a dataset out of the repository: check says so at `dataset`, test sends nothing, nothing is read', async () => {
    fs.writeFileSync(path.join(at.outside, 'rows.csv'), 'secret_column\nsecret value\n');
    fs.writeFileSync(
      path.join(at.repo, 'cases', 'rows.cases.yaml'),
      'request: ../prompts/ask.prompt.yaml\ndataset: ../../outside/rows.csv\nassert: [{ contains: x }]\n',
    );
    const check = await cli(['check', 'rows.cases.yaml']);
    assert.equal(check.code, 1, check.err);
    assert.match(
      check.out,
      /^rows\.cases\.yaml:2:10: error path-outside-repository: The dataset "\.\.\/\.\.\/outside/m,
    );
    // read, the file would have said its column is not used and {{question}} has no column
    assert.doesNotMatch(check.out, /secret_column|question/);
    const r = await cli(['test', 'rows.cases.yaml']);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /^rows\.cases\.yaml:2:10: error path-outside-repository: /m);
    assert.equal(fake.requests.length, 0);
  });

  it('the language server publishes the same error as check, at the same place', async () => {
    const file = at.caseFile('up.cases.yaml', '../../outside/secret.prompt.yaml');
    const check = runCliSync(['check', '--format', 'json', file], { cwd: at.repo, env: { PATH: process.env.PATH } });
    const want = (JSON.parse(check.stdout) as CheckRecord[]).map(r => [r.line, r.column, r.code, r.message]);
    assert.deepEqual(
      want.map(w => w[2]),
      ['path-outside-repository'],
    );
    const client = new LspClient();
    try {
      await client.initialize(at.repo, { promptwright: { validation: { debounceMs: 0 } } });
      const uri = client.open(file, fs.readFileSync(file, 'utf8'));
      await client.waitFor(
        n =>
          n.method === 'textDocument/publishDiagnostics' &&
          n.params.uri === uri &&
          JSON.stringify(n.params).includes('path-outside-repository'),
        'the case file’s problem',
      );
      const got = client
        .diagnostics(uri)!
        .diagnostics.map(d => [d.range.start.line + 1, d.range.start.character + 1, d.code, d.message]);
      assert.deepEqual(got, want);
      assert.equal(await client.stop(), 0);
    } finally {
      client.child.kill();
    }
  });
});
