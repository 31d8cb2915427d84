// The change against git in the real extension host: a folder of the workspace made a git repository
// (with the git executable, as a person would), a request file committed and then edited. The status bar
// shows "+N vs HEAD" with both counts in its tooltip (the base counted once), "new file" for a file git
// does not have, nothing outside git; the Token Breakdown's lenses say each part's change; and Compare runs
// three columns (two models, two versions) side by side, diffs two of them, samples again, and cancels.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import type { Fake } from '../fake/server';
import { gitIn, gitRepo } from '../support/tempRepo';
import { api, scripted, useFake, waitFor, workspaceUri } from './helpers';

const run = promisify(execFile);
const OPUS = 'model-opus-4-7';
const HAIKU = 'model-haiku-4-5';

const request = (content: string, system?: string) => {
  const body = { model: OPUS, max_tokens: 100, ...(system ? { system } : {}), messages: [{ role: 'user', content }] };
  return `${JSON.stringify(body, null, 2)}\n`;
};

describe('compare against git (real extension host)', function () {
  this.timeout(60_000);
  const env = useFake({ apiKey: 'sk-compare-test' }, { 'tokenCount.debounceMs': 300 });
  let fake: Fake;
  let repo: vscode.Uri;
  // git as the tests' author, in the repository the suite makes (test/support/tempRepo.ts)
  const git = (...args: string[]) => gitIn(repo.fsPath)(...args);
  const write = (name: string, text: string) => fs.writeFileSync(path.join(repo.fsPath, name), text);
  const counts = (content: string) =>
    fake.requests.filter(
      r =>
        r.path === '/v1/messages/count_tokens' &&
        JSON.stringify((r.body as { messages: unknown }).messages).includes(content),
    ).length;

  before(async () => {
    fake = env.fake;
    repo = workspaceUri('compare-repo');
    fs.mkdirSync(repo.fsPath, { recursive: true });
    gitRepo(repo.fsPath);
    write('tracked.prompt.json', request('Hello from the base version'));
    write('breakdown.prompt.json', request('Same question', 'You are terse.'));
    write('columns.prompt.json', request('The base question'));
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    // the working copies differ from HEAD
    write('breakdown.prompt.json', request('Same question', 'You are terse, polite and exact in every answer.'));
    write('columns.prompt.json', request('The working question'));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(repo.fsPath, { recursive: true, force: true });
  });

  it('the status bar: "+N vs HEAD", both counts in the tooltip, the base counted once', async () => {
    const a = await api();
    const uri = vscode.Uri.joinPath(repo, 'tracked.prompt.json');
    const ed = await vscode.window.showTextDocument(uri);
    // the committed text first: the same as HEAD
    const same = await waitFor('the count and its base', () =>
      a.tokens.state.kind === 'count' && a.tokens.baseCount?.kind === 'count' ? a.tokens.baseCount : undefined,
    );
    assert.match(a.tokens.item.text, /^\$\(symbol-number\) \d+ tokens · ±0 vs HEAD$/);
    const base = same.tokens;
    // an edit that adds words
    const at = ed.document.getText().indexOf('version');
    await ed.edit(e => e.insert(ed.document.positionAt(at), 'longer and much more detailed '));
    const now = await waitFor('a count of the edit', () =>
      a.tokens.state.kind === 'count' && a.tokens.state.tokens > base ? a.tokens.state.tokens : undefined,
    );
    await waitFor('the delta', () => a.tokens.item.text.endsWith(` · +${now - base} vs HEAD`), 10_000);
    const tip = (a.tokens.item.tooltip as vscode.MarkdownString).value;
    assert.ok(
      tip.includes(`\`HEAD\`: **${base}** input tokens · now **${now}** (+${now - base}, +`),
      `the tooltip gives both counts:\n${tip}`,
    );
    // more edits: the base is never counted again (its body's count is cached like every count)
    await ed.edit(e => e.insert(ed.document.positionAt(at), 'even '));
    await waitFor('another count', () => a.tokens.state.kind === 'count' && a.tokens.state.tokens > now);
    await vscode.workspace.save(uri);
    await new Promise(r => setTimeout(r, 1000));
    assert.equal(counts('Hello from the base version'), 1, 'one call for the base, once');
  });

  it('the status bar: "new file" for a file git does not have, nothing outside git', async () => {
    const a = await api();
    write('untracked.prompt.json', request('Not committed yet'));
    await vscode.window.showTextDocument(vscode.Uri.joinPath(repo, 'untracked.prompt.json'));
    await waitFor('new file', () => a.tokens.state.kind === 'count' && a.tokens.baseCount?.kind === 'new');
    await waitFor('the text says it', () => / · new file$/.test(a.tokens.item.text));
    assert.match((a.tokens.item.tooltip as vscode.MarkdownString).value, /Not in `HEAD`: a new file\./);
    // the workspace's own files are in no repository
    const outside = workspaceUri('hello.prompt.json');
    await assert.rejects(run('git', ['rev-parse', '--show-toplevel'], { cwd: path.dirname(outside.fsPath) }));
    await vscode.window.showTextDocument(outside);
    await waitFor(
      'a count outside git',
      () => a.tokens.state.kind === 'count' && vscode.window.activeTextEditor?.document.uri.fsPath === outside.fsPath,
    );
    await new Promise(r => setTimeout(r, 1500)); // the base lookup has had its time
    assert.equal(a.tokens.baseCount, undefined);
    assert.doesNotMatch(a.tokens.item.text, /vs |new file/);
    assert.doesNotMatch((a.tokens.item.tooltip as vscode.MarkdownString).value, /HEAD/);
  });

  it('the Token Breakdown: each part with its change against HEAD', async () => {
    const a = await api();
    const f = await a.features();
    const uri = vscode.Uri.joinPath(repo, 'breakdown.prompt.json');
    await vscode.window.showTextDocument(uri);
    await waitFor('checked', () => a.diagnostics.current(vscode.window.activeTextEditor!.document));
    const parts = await f.breakdown.run();
    assert.ok(parts?.length);
    const lenses = await waitFor('the lenses', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10);
      const titles = l.map(x => x.command?.title ?? '').filter(t => t.includes('token'));
      return titles.length === parts.length ? titles : undefined;
    });
    assert.ok(
      lenses.some(t => /^\d+ tokens · \+\d+ vs HEAD$/.test(t)),
      lenses.join('\n'),
    );
    assert.ok(
      lenses.some(t => / · same as HEAD$/.test(t)),
      lenses.join('\n'),
    );
  });

  it('Compare: three columns (two models, two versions) stream side by side; a diff of two of them', async () => {
    const a = await api();
    const f = await a.features();
    const uri = vscode.Uri.joinPath(repo, 'columns.prompt.json');
    const before = fake.requests.length;
    await f.compare.compare(uri, [
      { model: OPUS, version: { kind: 'working' } },
      { model: OPUS, version: { kind: 'ref', ref: 'HEAD' } },
      { model: HAIKU, version: { kind: 'working' } },
    ]);
    const view = f.compare.view()!;
    assert.equal(view.file, 'columns.prompt.json');
    assert.deepEqual(
      view.columns.map(c => [c.version, c.model, c.status]),
      [
        ['working copy', OPUS, 'done'],
        ['HEAD', OPUS, 'done'],
        ['working copy', HAIKU, 'done'],
      ],
    );
    const text = (i: number) =>
      view.columns[i]!.message!.content.map(b => (b.type === 'text' ? String(b.text) : '')).join('');
    assert.equal(text(0), 'Hello! You said: The working question');
    assert.equal(text(1), 'Hello! You said: The base question');
    assert.equal(view.columns[2]!.message!.model, HAIKU);
    for (const c of view.columns) {
      assert.match(c.requestId!, /^req_fake_/);
      assert.ok(c.latencyMs! >= 0);
      assert.ok(c.message!.usage.input_tokens! > 0);
    }
    const sent = fake.requests.slice(before).filter(r => r.path === '/v1/messages');
    assert.deepEqual(sent.map(r => (r.body as { model: string }).model).sort(), [HAIKU, OPUS, OPUS]);
    assert.equal(f.compare.panel?.title, 'Compare · columns.prompt.json');

    const diff = f.compare.diff(1, 0)!;
    assert.deepEqual(
      diff.parts.filter(p => p.kind !== 'same'),
      [
        { kind: 'removed', text: 'base' },
        { kind: 'added', text: 'working' },
      ],
    );
    // the page asks for the same through its message
    await f.compare.handle({ type: 'diff', a: 0, b: 2 });

    // Run Again: every column once more; the fake answers the same, and each column says so
    await f.compare.handle({ type: 'run-again' });
    const again = f.compare.view()!;
    assert.deepEqual(
      again.columns.map(c => [c.sample, c.differs]),
      [
        [2, []],
        [2, []],
        [2, []],
      ],
    );
  });

  it('Compare: Cancel stops every column and keeps what arrived', async () => {
    const a = await api();
    const f = await a.features();
    write('slow.prompt.json', request('Go on #long=400 #slow=15'));
    git('add', 'slow.prompt.json');
    git('commit', '-q', '-m', 'slow');
    const uri = vscode.Uri.joinPath(repo, 'slow.prompt.json');
    const running = f.compare.compare(uri, [
      { model: OPUS, version: { kind: 'working' } },
      { model: HAIKU, version: { kind: 'ref', ref: 'HEAD' } },
    ]);
    await waitFor('text in both columns', () => {
      const v = f.compare.view();
      return v?.columns.every(c => (c.message?.content[0]?.text as string | undefined)?.startsWith('w0 w1 w2'));
    });
    await f.compare.handle({ type: 'cancel' });
    await running;
    const v = f.compare.view()!;
    assert.deepEqual(
      v.columns.map(c => c.status),
      ['cancelled', 'cancelled'],
    );
    for (const c of v.columns) {
      const kept = String(c.message!.content[0]!.text);
      assert.ok(kept.startsWith('w0 ') && kept.split(' ').length < 400, 'a partial reply, kept');
    }
    assert.equal(v.running, false);
  });

  it('"Compare…" from the palette: the working copy against HEAD; a version git lacks is not sent', async () => {
    const a = await api();
    const f = await a.features();
    const seen: string[] = [];
    f.compare.prompts = scripted(['$(git-compare) Working copy vs HEAD'], seen);
    write('untracked.prompt.json', request('Not committed yet'));
    await vscode.window.showTextDocument(vscode.Uri.joinPath(repo, 'untracked.prompt.json'));
    const before = fake.requests.length;
    await vscode.commands.executeCommand('promptwright.compare');
    await f.compare.idle();
    assert.match(seen[0]!, /^pick: Compare: \$\(git-compare\) Working copy vs HEAD\|\$\(add\) Choose columns…$/);
    const v = f.compare.view()!;
    assert.deepEqual(
      v.columns.map(c => [c.version, c.model, c.status]),
      [
        ['working copy', OPUS, 'done'],
        ['HEAD', OPUS, 'not-sent'],
      ],
    );
    assert.match(v.columns[1]!.problems![0]!, /untracked\.prompt\.json is not in HEAD: it is new since/);
    assert.equal(fake.requests.slice(before).filter(r => r.path === '/v1/messages').length, 1);
  });
});
