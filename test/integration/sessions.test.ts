import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Fake } from '../fake/server';
import { api, closeEditors, restoreKeysAfterEach, setKey, useFake, waitFor } from './helpers';

async function features() {
  return (await api()).features();
}

/** Adds a session to the view as "Add Session…" does, loading it afresh when the view already had it. */
async function addSession(id: string): Promise<void> {
  const f = await features();
  if (f.sessions.sessions.includes(id)) await f.sessions.removeSession({ kind: 'session', id });
  await vscode.commands.executeCommand('promptwright.addSession', id);
}

describe('session resources and rate limits views (real extension host)', () => {
  const env = useFake(
    { apiKey: 'sk-sessions-test', adminKey: 'sk-vendor-admin-sessions' },
    { 'sessions.pageSize': 1000 },
  );
  let fake: Fake;
  let listed: { sessions: string[]; workspaces: string[] };
  before(async () => {
    fake = env.fake;
    const f = await features();
    listed = { sessions: [...f.sessions.sessions], workspaces: [...f.rateLimits.workspaces] };
  });
  restoreKeysAfterEach();
  beforeEach(() => fake.clear());
  // what a test added to the views leaves them again
  afterEach(async () => {
    const f = await features();
    for (const id of f.sessions.sessions.filter(s => !listed.sessions.includes(s)))
      await f.sessions.removeSession({ kind: 'session', id });
    for (const id of f.rateLimits.workspaces.filter(w => !listed.workspaces.includes(w)))
      await f.rateLimits.removeWorkspace({ kind: 'workspace', id });
    await closeEditors();
  });

  it("lists a session's resources with icons and descriptions; Load more pages through 2,500", async () => {
    const a = await api();
    const f = await a.features();
    await addSession('ses_big');
    const roots = await f.sessions.getChildren();
    const big = roots.find(r => r.kind === 'session' && r.id === 'ses_big')!;
    let kids = await f.sessions.getChildren(big);
    assert.equal(kids.filter(k => k.kind === 'resource').length, 1000);
    assert.equal(kids.at(-1)!.kind, 'more');
    const item = f.sessions.getTreeItem(kids[0]!);
    assert.equal(item.label, 'file_0');
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'file');
    assert.equal(f.sessions.getTreeItem(kids[1]!).description, 'branch main · /workspace/repo-1');
    assert.equal(f.sessions.getTreeItem(kids[4]!).description, 'commit aaaaaaaaaaaa · /workspace/repo-4');
    await vscode.commands.executeCommand('promptwright.loadMoreResources', kids.at(-1));
    kids = await f.sessions.getChildren(big);
    assert.equal(kids.filter(k => k.kind === 'resource').length, 2000);
    await vscode.commands.executeCommand('promptwright.loadAllResources', kids.at(-1));
    kids = await f.sessions.getChildren(big);
    assert.equal(kids.filter(k => k.kind === 'resource').length, 2500);
    assert.equal(
      kids.some(k => k.kind === 'more'),
      false,
    );
    const pages = fake.requests.filter(r => r.path === '/v1/sessions/ses_big/resources');
    assert.equal(pages.length, 3);
    assert.equal(pages[0]!.headers['vendor-beta'], 'managed-agents-2026-04-01');
  });

  it('a failed page is a row of its own, whose click asks for the same page again, keeping what came', async () => {
    const f = await features();
    await addSession('ses_big');
    const big = (await f.sessions.getChildren()).find(r => r.kind === 'session' && r.id === 'ses_big')!;
    let kids = await f.sessions.getChildren(big);
    const more = f.sessions.getTreeItem(kids.at(-1)!);
    assert.equal(more.label, 'Load more… (1,000 loaded)');
    assert.equal(more.command?.command, 'promptwright.loadMore');
    fake.clear();
    fake.fail({ path: '/v1/sessions/ses_big/resources', status: 400, message: 'injected' });
    await vscode.commands.executeCommand(more.command.command, ...(more.command.arguments ?? []));
    kids = await f.sessions.getChildren(big);
    assert.equal(kids.filter(k => k.kind === 'resource').length, 1000);
    const failed = f.sessions.getTreeItem(kids.at(-1)!);
    assert.equal(kids.at(-1)!.kind, 'error');
    assert.match(failed.label as string, /^invalid_request_error \(400\): injected \[request-id req_fake_/);
    assert.equal(failed.command?.command, 'promptwright.loadMore');
    await vscode.commands.executeCommand(failed.command.command, ...(failed.command.arguments ?? []));
    kids = await f.sessions.getChildren(big);
    assert.equal(kids.filter(k => k.kind === 'resource').length, 2000);
    const pages = fake.requests.map(r => r.query.page);
    assert.equal(pages.length, 2);
    assert.ok(pages[0], 'the second page, by its token');
    assert.equal(pages[1], pages[0], 'the same page again');
  });

  it('Add Session… shows the new session: revealed at the end of a long list, selected and expanded', async () => {
    const a = await api();
    const f = await a.features();
    await addSession('ses_big');
    const big = (await f.sessions.getChildren()).find(r => r.kind === 'session' && r.id === 'ses_big')!;
    assert.ok((await f.sessions.getChildren(big)).length >= 1000, 'the big session is loaded');
    await addSession('ses_demo');
    const selected = () => (a.sessionsView.selection as { kind: string; id?: string }[]).map(n => `${n.kind}:${n.id}`);
    // the view reports its selection back a moment after the reveal
    await waitFor('ses_demo selected', () => selected().join() === 'session:ses_demo');
    assert.deepEqual(selected(), ['session:ses_demo']);
    assert.ok(a.sessionsView.visible, 'the view is shown');
    // expanded: its first page was asked for
    assert.ok(fake.requests.some(r => r.path === '/v1/sessions/ses_demo/resources'));
    const demo = (await f.sessions.getChildren()).find(r => r.kind === 'session' && r.id === 'ses_demo')!;
    await vscode.commands.executeCommand('promptwright.removeSession', demo);
  });

  it("opens a resource's details as read-only JSON", async () => {
    const f = await features();
    await addSession('ses_big');
    const big = (await f.sessions.getChildren()).find(r => r.kind === 'session' && r.id === 'ses_big')!;
    const first = (await f.sessions.getChildren(big))[0]!;
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('promptwright.openResource', first);
    assert.equal(doc.uri.scheme, 'promptwright-resource');
    assert.equal(JSON.parse(doc.getText()).id, 'sesrsc_big_0');
    assert.equal(doc.languageId, 'json');
  });

  it('an error becomes a node with type, message and request-id', async () => {
    const a = await api();
    const f = await a.features();
    await addSession('ses_missing');
    const node = (await f.sessions.getChildren()).find(r => r.kind === 'session' && r.id === 'ses_missing')!;
    const kids = await f.sessions.getChildren(node);
    assert.equal(kids[0]!.kind, 'error');
    assert.match(
      f.sessions.getTreeItem(kids[0]!).label as string,
      /not_found_error \(404\): session ses_missing not found \[request-id req_fake_/,
    );
    await vscode.commands.executeCommand('promptwright.removeSession', node);
    assert.equal(
      (await f.sessions.getChildren()).some(r => r.kind === 'session' && r.id === 'ses_missing'),
      false,
    );
  });

  it("rate limits: nothing without an Admin key; with one, the organization's limits and a workspace's", async () => {
    const a = await api();
    const f = await a.features();
    await setKey('admin', undefined);
    assert.deepEqual(await f.rateLimits.getChildren(), []);
    await setKey('admin', fake.adminKey);
    await vscode.commands.executeCommand('promptwright.addRateLimitWorkspace', 'wrkspc_demo');
    const [org, ws] = await f.rateLimits.getChildren();
    const groups = await f.rateLimits.getChildren(org);
    assert.deepEqual(
      groups.map(g => f.rateLimits.getTreeItem(g).label),
      ['Opus models', 'Sonnet models', 'Batches', 'Token counting'],
    );
    const wsGroups = await f.rateLimits.getChildren(ws);
    const first = await f.rateLimits.getChildren(wsGroups[0]);
    assert.deepEqual(
      first.map(l => [f.rateLimits.getTreeItem(l).label, f.rateLimits.getTreeItem(l).description]),
      [
        ['1,000 requests/min', 'override · organization: 4,000'],
        ['2,000,000 input tokens/min', 'inherited'],
        ['400,000 output tokens/min', 'inherited'],
      ],
    );
    assert.match(String(f.rateLimits.getTreeItem(wsGroups[1]!).description), /^inherited$/);
  });
});
