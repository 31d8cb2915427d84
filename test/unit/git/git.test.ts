// Reading through the git executable: the repository of a folder (none outside one), a revision's commit,
// files as they were at it (bytes exactly, names with spaces and non-ASCII letters, a `*` taken literally),
// and every kind of change since: added, modified, renamed, deleted, and files git does not track yet.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitError, GitRepo, runGit } from '../../../src/core/git/git';
import { caseFileAt, textsAt } from '../../../src/core/cases/versions';
import { tempRepo, type TempRepo } from '../../support/tempRepo';

describe('compare: git', function () {
  this.timeout(20_000);
  let r: TempRepo;
  let first: string;
  beforeEach(() => {
    r = tempRepo();
    r.write('a.prompt.json', 'A1\n');
    r.write('dir/with space/b ü.prompt.yaml', 'B1 ü\n');
    r.write('star*.prompt.json', 'STAR\n');
    r.write('gone.prompt.json', 'GONE\n');
    r.write('old name.prompt.json', 'MOVED\n');
    r.write('.gitignore', 'ignored.prompt.json\n');
    first = r.commit('first');
  });
  afterEach(() => r.dispose());

  it('opens the repository of a folder inside it; none for a folder outside every repository', async () => {
    const repo = await GitRepo.open(path.join(r.dir, 'dir', 'with space'));
    assert.equal(repo?.root, r.dir);
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-nogit-'));
    try {
      assert.equal(await GitRepo.open(outside), undefined);
    } finally {
      fs.rmSync(outside, { recursive: true });
    }
  });

  it('without git: an error that says so', async () => {
    await assert.rejects(
      GitRepo.open(r.dir, { gitPath: path.join(r.dir, 'no-such-git') }),
      (e: unknown) => e instanceof GitError && e.reason === 'no-git' && /git was not found/.test(e.message),
    );
  });

  it('names the commit of HEAD, a branch and a sha; an unknown name or an option is an unknown revision', async () => {
    const repo = (await GitRepo.open(r.dir))!;
    assert.equal(await repo.commit('HEAD'), first);
    assert.equal(await repo.commit('main'), first);
    assert.equal(await repo.commit(first.slice(0, 8)), first);
    for (const bad of ['no-such-branch', '--all', '', 'HEAD~5'])
      await assert.rejects(repo.commit(bad), (e: unknown) => e instanceof GitError && e.reason === 'unknown-revision');
  });

  it('reads files as they were at a commit; a path not there is undefined', async () => {
    const repo = (await GitRepo.open(r.dir))!;
    r.write('a.prompt.json', 'A2\n');
    const second = r.commit('second');
    const paths = ['a.prompt.json', 'dir/with space/b ü.prompt.yaml', 'star*.prompt.json', 'nope.json', 'dir'];
    const atFirst = await repo.readAt(first, paths);
    assert.equal(atFirst.get('a.prompt.json')?.toString(), 'A1\n');
    assert.equal(atFirst.get('dir/with space/b ü.prompt.yaml')?.toString(), 'B1 ü\n');
    assert.equal(atFirst.get('star*.prompt.json')?.toString(), 'STAR\n');
    assert.equal(atFirst.get('nope.json'), undefined);
    assert.equal(atFirst.get('dir'), undefined, 'a folder is not a file');
    assert.equal((await repo.readAt(second, ['a.prompt.json'])).get('a.prompt.json')?.toString(), 'A2\n');
    // a `*` in a name is that character, not a glob: the other names are not read as matches
    r.write('starX.prompt.json', 'X\n');
    r.commit('third');
    const literal = await repo.readAt('HEAD', ['star*.prompt.json']);
    assert.deepEqual([...literal.keys()], ['star*.prompt.json']);
    assert.equal(literal.get('star*.prompt.json')?.toString(), 'STAR\n');
  });

  it('lists every change since a commit: modified, added, renamed, deleted, untracked (not ignored)', async () => {
    const repo = (await GitRepo.open(r.dir))!;
    r.write('a.prompt.json', 'A2\n'); // modified, not staged
    r.write('staged.prompt.json', 'S\n');
    r.git('add', 'staged.prompt.json'); // added (staged)
    r.git('mv', 'old name.prompt.json', 'new name.prompt.json'); // renamed
    r.remove('gone.prompt.json'); // deleted
    r.write('fresh/untracked.prompt.yaml', 'U\n'); // not tracked yet
    r.write('ignored.prompt.json', 'I\n'); // ignored
    const changes = await repo.changes(first);
    assert.deepEqual(changes, [
      { kind: 'modified', path: 'a.prompt.json' },
      { kind: 'added', path: 'fresh/untracked.prompt.yaml' },
      { kind: 'deleted', path: 'gone.prompt.json' },
      { kind: 'renamed', path: 'new name.prompt.json', from: 'old name.prompt.json' },
      { kind: 'added', path: 'staged.prompt.json' },
    ]);
    // against a commit that is the working tree: nothing
    r.write('ignored.prompt.json', 'still ignored\n');
    assert.deepEqual(await repo.changes(r.commit('all in')), []);
  });

  it('paths on disk and in the repository, deleted files and symbolic links included', async () => {
    const repo = (await GitRepo.open(r.dir))!;
    assert.equal(
      repo.repoPath(path.join(r.dir, 'dir', 'with space', 'b ü.prompt.yaml')),
      'dir/with space/b ü.prompt.yaml',
    );
    assert.equal(repo.repoPath(path.join(r.dir, 'gone', 'never.prompt.json')), 'gone/never.prompt.json');
    assert.equal(repo.repoPath(path.join(os.tmpdir(), 'elsewhere.json')), undefined);
    const link = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-link-')), 'repo');
    fs.symlinkSync(r.dir, link);
    try {
      assert.equal(repo.repoPath(path.join(link, 'a.prompt.json')), 'a.prompt.json');
    } finally {
      fs.rmSync(path.dirname(link), { recursive: true });
    }
    assert.equal(repo.absPath('dir/with space/x.json'), path.join(r.dir, 'dir', 'with space', 'x.json'));
  });

  it('a case file at a commit brings the request it named then, resolved where the case file was', async () => {
    r.write('cases/s.cases.yaml', 'request: ../prompts/old.prompt.yaml\ncases:\n  - name: a\n');
    r.write('prompts/old.prompt.yaml', 'model: m\n');
    const sha = r.commit('cases');
    r.write('cases/s.cases.yaml', 'request: ../prompts/new.prompt.yaml\ncases:\n  - name: a\n');
    r.write('prompts/old.prompt.yaml', 'model: changed since\n');
    const repo = (await GitRepo.open(r.dir))!;
    const texts = await caseFileAt(repo, sha, ['cases/s.cases.yaml', 'cases/missing.cases.yaml']);
    assert.match(texts.get(path.join(r.dir, 'cases', 's.cases.yaml')) as string, /old\.prompt\.yaml/);
    assert.equal(texts.get(path.join(r.dir, 'prompts', 'old.prompt.yaml')), 'model: m\n');
    assert.ok(!texts.has(path.join(r.dir, 'prompts', 'new.prompt.yaml')));
    assert.equal(texts.get(path.join(r.dir, 'cases', 'missing.cases.yaml')), undefined);
  });

  it('bytes that are not UTF-8 are said to be so, not decoded into replacement characters', async () => {
    fs.writeFileSync(path.join(r.dir, 'bad.prompt.json'), Buffer.from([0x7b, 0xff, 0x7d]));
    const sha = r.commit('bad');
    const repo = (await GitRepo.open(r.dir))!;
    const texts = await textsAt(repo, sha, ['bad.prompt.json']);
    assert.deepEqual(texts.get(path.join(r.dir, 'bad.prompt.json')), { invalidUtf8: true });
  });

  it('a cancel kills the process and rejects', async () => {
    const ctl = new AbortController();
    const pending = runGit(r.dir, ['cat-file', '--batch'], { signal: ctl.signal, input: '' });
    ctl.abort();
    await assert.rejects(pending, /Cancelled/);
    await assert.rejects(runGit(r.dir, ['status'], { signal: ctl.signal }), /Cancelled/);
  });
});
