// The Cases grid's "Compare with…" in the real extension host, against the fake service (it answers "Hello!
// You said: <the question>", so every verdict is known): a folder of the workspace made a git repository (with
// the git executable, as a person would), a case file and its request committed, then the request changed so
// that one case breaks and one is fixed, a case added and one removed. Compare against HEAD pairs every cell
// with its side there; cancelling keeps what came; only the working copy's results are saved; outside git
// the command says so and nothing runs. The grid is driven through `handle`, the entry every webview message
// goes through (test/ui/casesCompare.test.mjs clicks in the webview).
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import type { Features } from '../../src/features';
import type { ComparedCell, GridView } from '../../src/protocol/cases';
import type { FakeRequest } from '../fake/server';
import { gitIn, gitRepo } from '../support/tempRepo';
import { api, scripted, useFake, waitFor, workspaceUri } from './helpers';

const run = promisify(execFile);
const HAIKU = 'model-haiku-4-5';
const REPO = 'cases-compare-repo';

const request = (prefix: string) =>
  `${JSON.stringify(
    { model: HAIKU, max_tokens: 100, messages: [{ role: 'user', content: `${prefix}: {{question}}` }] },
    null,
    2,
  )}\n`;

/** A case file of cases `[name, question, the word the reply must contain]`. */
const caseFile = (cases: [string, string, string][]) =>
  [
    'request: greet.prompt.json',
    'cases:',
    ...cases.map(
      ([name, question, word]) =>
        `  - name: ${name}\n    vars: { question: "${question}" }\n` + `    assert:\n      - contains: "${word}"`,
    ),
    '',
  ].join('\n');

const messages = (requests: FakeRequest[]) => requests.filter(r => r.method === 'POST' && r.path === '/v1/messages');
const said = (r: FakeRequest) => JSON.stringify((r.body as { messages: unknown }).messages);

async function features(): Promise<Features> {
  return (await api()).features();
}

/** Each pair as `case: before → after (change)`. */
function pairs(grid: GridView | undefined): string[] {
  assert.ok(grid?.compare, 'the grid is in compare mode');
  const now = (p: ComparedCell) =>
    p.inCurrent ? (grid.cells.find(c => c.caseName === p.caseName && c.model === p.model)?.status ?? '?') : '—';
  return grid.compare.cells.map(p => `${p.caseName}: ${p.base?.status ?? '—'} → ${now(p)} (${p.change ?? '-'})`);
}

describe('Cases grid: Compare with… a git revision (real extension host)', function () {
  this.timeout(60_000);
  const env = useFake({}, { 'cases.concurrency': 1 });
  const repo = workspaceUri(REPO);
  const greet = vscode.Uri.joinPath(repo, 'greet.cases.yaml');
  const slow = vscode.Uri.joinPath(repo, 'slow.cases.yaml');
  // git as the tests' author, in the repository the suite makes (test/support/tempRepo.ts)
  const git = (...args: string[]) => gitIn(repo.fsPath)(...args);
  const write = (name: string, text: string) => fs.writeFileSync(path.join(repo.fsPath, name), text);
  let prompts: Features['cases']['prompts'];

  before(async () => {
    fs.mkdirSync(repo.fsPath, { recursive: true });
    gitRepo(repo.fsPath);
    write('greet.prompt.json', request('Q'));
    write(
      'greet.cases.yaml',
      caseFile([
        ['keeps', 'hi', 'hi'],
        ['breaks', 'hi', 'Q:'],
        ['fixed', 'hi', 'A:'],
        ['gone', 'bye', 'bye'],
      ]),
    );
    const slowCases = [1, 2, 3].map((i): [string, string, string] => [`slow ${i}`, `#slow=150 number ${i}`, 'number']);
    write('slow.cases.yaml', caseFile(slowCases));
    git('add', '-A');
    git('commit', '-q', '-m', 'the cases as they were');
    git('branch', 'before-change');
    // the working copy: the request's prefix changed (one case breaks, one is fixed), a case added, one removed
    write('greet.prompt.json', request('A'));
    write(
      'greet.cases.yaml',
      caseFile([
        ['keeps', 'hi', 'hi'],
        ['breaks', 'hi', 'Q:'],
        ['fixed', 'hi', 'A:'],
        ['fresh', 'new', 'new'],
      ]),
    );
    prompts = (await features()).cases.prompts;
  });

  afterEach(async () => {
    const f = await features();
    f.cases.prompts = prompts;
    f.cases.cancel();
    await f.cases.idle();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(repo.fsPath, { recursive: true, force: true });
  });

  it('each cell paired with its side at HEAD: same, broke, fixed, new, removed; the diff of the replies', async () => {
    const f = await features();
    const fake = env.fake;
    fake.clear();
    const seen: string[] = [];
    f.cases.prompts = scripted(['$(git-commit) HEAD'], seen);
    await vscode.commands.executeCommand('promptwright.compareCases', greet);
    // asked which revision: HEAD first, the branches listed
    assert.equal(seen.length, 1);
    assert.match(seen[0]!, /^pick: Compare greet\.cases\.yaml with…: \$\(git-commit\) HEAD\|/);
    assert.match(seen[0]!, /\$\(git-branch\) before-change/);

    const grid = f.cases.grid();
    assert.equal(grid?.compare?.ref, 'HEAD');
    assert.equal(grid?.compare?.sha, git('rev-parse', 'HEAD').trim());
    assert.deepEqual(pairs(grid), [
      'keeps: passed → passed (same)',
      'breaks: passed → failed (broke)',
      'fixed: failed → passed (fixed)',
      'fresh: — → passed (new)',
      'gone: passed → — (removed)',
    ]);
    // the rows of both versions; the working copy's own cells stay its own
    assert.deepEqual(grid?.cases, ['keeps', 'breaks', 'fixed', 'fresh', 'gone']);
    assert.deepEqual(
      grid?.cells.map(c => c.caseName),
      ['keeps', 'breaks', 'fixed', 'fresh'],
    );
    const breaks = grid?.compare?.cells.find(p => p.caseName === 'breaks');
    assert.equal(breaks?.base?.text, 'Hello! You said: Q: hi');
    assert.deepEqual(breaks?.diff, [
      { kind: 'same', text: 'Hello! You said: ' },
      { kind: 'removed', text: 'Q' },
      { kind: 'added', text: 'A' },
      { kind: 'same', text: ': hi' },
    ]);
    assert.equal(grid?.compare?.cells.find(p => p.caseName === 'gone')?.diff, undefined);
    // both versions were sent: each its own request of its time
    const sent = messages(fake.requests).map(said);
    assert.equal(sent.length, 8);
    assert.equal(sent.filter(s => s.includes('Q: hi')).length, 3, 'HEAD: keeps, breaks, fixed');
    assert.equal(sent.filter(s => s.includes('A: hi')).length, 3, 'the working copy: keeps, breaks, fixed');
    assert.ok(sent.some(s => s.includes('Q: bye')) && sent.some(s => s.includes('A: new')));
    assert.equal(grid?.running, false);

    // only the working copy's results were saved: read back, they are its verdicts, without the removed case
    f.cases.runner.current = undefined;
    await f.cases.runner.restore(greet);
    const restored = f.cases.grid();
    assert.equal(restored?.compare, undefined);
    assert.deepEqual(
      restored?.cells.map(c => `${c.caseName}: ${c.status}`),
      ['keeps: passed', 'breaks: failed', 'fixed: passed', 'fresh: passed'],
    );
  });

  it('a re-run in compare mode runs both sides again; Leave Compare goes back to the working copy alone', async () => {
    const f = await features();
    const fake = env.fake;
    await vscode.commands.executeCommand('promptwright.compareCases', greet, 'before-change');
    assert.equal(f.cases.grid()?.compare?.ref, 'before-change');
    fake.clear();
    await f.cases.handle({ type: 'rerun', target: { scope: 'cell', caseName: 'breaks', model: HAIKU } });
    const sent = messages(fake.requests).map(said);
    assert.deepEqual(
      sent.map(s => (s.includes('Q: hi') ? 'before-change' : s.includes('A: hi') ? 'working copy' : s)).sort(),
      ['before-change', 'working copy'],
    );
    const grid = f.cases.grid();
    assert.deepEqual(pairs(grid), [
      'keeps: passed → passed (same)',
      'breaks: passed → failed (broke)',
      'fixed: failed → passed (fixed)',
      'fresh: — → passed (new)',
      'gone: passed → — (removed)',
    ]);
    await f.cases.handle({ type: 'leave-compare' });
    const alone = f.cases.grid();
    assert.equal(alone?.compare, undefined);
    assert.deepEqual(alone?.cases, ['keeps', 'breaks', 'fixed', 'fresh']);
    assert.deepEqual(
      alone?.cells.map(c => `${c.caseName}: ${c.status}`),
      ['keeps: passed', 'breaks: failed', 'fixed: passed', 'fresh: passed'],
    );
  });

  it('cancelling keeps what came: the settled pairs stay, nothing more is sent', async () => {
    const f = await features();
    const fake = env.fake;
    fake.clear();
    const done = vscode.commands.executeCommand('promptwright.compareCases', slow, 'HEAD');
    // one cell at a time: the first case's two sides end, then the next one starts
    await waitFor('the first pair settled', () => f.cases.grid()?.compare?.cells[0]?.change, 20_000);
    await waitFor('the next request', () => messages(fake.requests).length >= 3);
    await vscode.commands.executeCommand('promptwright.cancelCases');
    await done;
    const grid = f.cases.grid();
    const [first, ...rest] = grid?.compare?.cells ?? [];
    assert.equal(first?.change, 'same');
    assert.match(first?.base?.text ?? '', /^Hello! You said: Q: +number 1$/);
    assert.ok(rest.length === 2 && rest.every(p => p.change === undefined), 'a cancelled side says nothing');
    assert.ok(
      grid?.cells.slice(1).every(c => c.status === 'cancelled'),
      grid?.cells.map(c => c.status).join(),
    );
    const count = messages(fake.requests).length;
    await waitFor('the aborted request closed', () => messages(fake.requests).every(r => r.closedAt !== undefined));
    await new Promise(r => setTimeout(r, 500));
    assert.equal(messages(fake.requests).length, count, 'nothing sent after Cancel All');
    assert.equal(grid?.running, false);
  });

  it('outside git: says so at once, asks nothing and runs nothing', async () => {
    const f = await features();
    const fake = env.fake;
    const outside = workspaceUri('cases-compare-outside');
    fs.mkdirSync(outside.fsPath, { recursive: true });
    try {
      fs.writeFileSync(path.join(outside.fsPath, 'greet.prompt.json'), request('Q'));
      fs.writeFileSync(path.join(outside.fsPath, 'alone.cases.yaml'), caseFile([['one', 'hi', 'hi']]));
      await assert.rejects(run('git', ['rev-parse', '--show-toplevel'], { cwd: outside.fsPath }));
      fake.clear();
      const shown = f.cases.grid();
      // nothing may be asked: the script has no answers
      f.cases.prompts = scripted([]);
      const why = await f.cases.compareCases(vscode.Uri.joinPath(outside, 'alone.cases.yaml'));
      assert.equal(why, 'alone.cases.yaml is not in a git repository: there is no revision to compare it with.');
      assert.equal(messages(fake.requests).length, 0);
      assert.deepEqual(f.cases.grid(), shown, 'the grid is as it was');
    } finally {
      fs.rmSync(outside.fsPath, { recursive: true, force: true });
    }
  });
});
