// The Organization view and its actions in the real extension host, against the fake service. Dialogs
// (confirmations, picks, inputs) are answered by a script through the commands' Prompts seam; every
// destructive action is also cancelled once, to show that cancelling sends nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Invite, User, Workspace } from '../../src/core/admin/types';
import type { AdminNode } from '../../src/vscode/admin/orgTree';
import { vscodePrompts } from '../../src/vscode/platform/prompts';
import { api, closeEditors, restoreKeysAfterEach, scripted, setKey, setSetting, useFake, waitFor } from './helpers';

describe('Organization view (real extension host)', () => {
  const holder = useFake({});

  let shown: { archived: boolean; userFilter: string | undefined };
  before(async () => {
    await setKey('admin', holder.fake.adminKey);
    const { org } = await features();
    shown = { archived: org.showArchived, userFilter: org.userFilter };
  });
  restoreKeysAfterEach();
  // each test starts from the tree as a person first sees it: nothing loaded, nothing created in this window
  beforeEach(async () => {
    holder.fake.clear();
    (await features()).org.refresh();
  });
  afterEach(async () => {
    const f = await features();
    f.admin.prompts = vscodePrompts;
    await f.org.setShowArchived(shown.archived);
    await f.org.setUserFilter(shown.userFilter);
    f.org.refresh();
    await closeEditors();
  });

  async function features() {
    const a = await api();
    return a.features();
  }
  async function children(n?: AdminNode): Promise<AdminNode[]> {
    return (await features()).org.getChildren(n);
  }
  async function group(name: 'workspaces' | 'users' | 'invites'): Promise<AdminNode> {
    const root = await children();
    return root.find(n => n.kind === 'group' && n.group === name)!;
  }
  const requestsTo = (method: string, re: RegExp) =>
    holder.fake.requests.filter(r => r.method === method && re.test(r.path)).length;

  it('shows the organization, then workspaces, users and invites; users page by "Load more"', async () => {
    const f = await features();
    const root = await children();
    assert.equal(root[0]!.kind, 'org');
    assert.equal(f.org.getTreeItem(root[0]!).label, holder.fake.admin.organization.name);
    assert.deepEqual(
      root.slice(1).map(n => f.org.getTreeItem(n).label),
      ['Workspaces', 'Users', 'Invites'],
    );
    const users = await group('users');
    let kids = await children(users);
    assert.equal(kids.filter(k => k.kind === 'user').length, 20);
    const more = kids.at(-1)!;
    assert.equal(more.kind, 'more');
    assert.match(f.org.getTreeItem(more).label as string, /Load more… \(20 loaded\)/);
    await vscode.commands.executeCommand('promptwright.admin.loadMore', more);
    kids = await children(users);
    assert.equal(kids.filter(k => k.kind === 'user').length, 40);
    await vscode.commands.executeCommand('promptwright.admin.loadMore', kids.at(-1));
    kids = await children(users);
    assert.equal(kids.filter(k => k.kind === 'user').length, holder.fake.admin.users.length);
    assert.ok(!kids.some(k => k.kind === 'more'));
    const pages = holder.fake.requests.filter(r => r.path === '/v1/organizations/users');
    assert.deepEqual(
      pages.map(r => r.query.limit),
      ['20', '20', '20'],
    );
  });

  it('archived workspaces show only on request, dimmed; New Workspace takes the spec defaults', async () => {
    const f = await features();
    await f.org.setShowArchived(false);
    const active = (await children(await group('workspaces'))).filter(k => k.kind === 'workspace');
    assert.ok(active.every(k => k.kind === 'workspace' && !k.workspace.archived_at));
    await f.org.setShowArchived(true);
    const all = (await children(await group('workspaces'))).filter(k => k.kind === 'workspace');
    const archived = all.find(k => k.kind === 'workspace' && k.workspace.archived_at)!;
    assert.equal(f.org.getTreeItem(archived).resourceUri?.query, 'dim');
    assert.equal(f.org.getTreeItem(archived).contextValue, 'workspace.archived');
    const seen: string[] = [];
    f.admin.prompts = scripted(['Research', 'us', 'unrestricted', 'global', 'team=ml'], seen);
    const created = await vscode.commands.executeCommand<Workspace>('promptwright.newWorkspace');
    assert.deepEqual(created.data_residency, {
      workspace_geo: 'us',
      allowed_inference_geos: 'unrestricted',
      default_inference_geo: 'global',
    });
    assert.deepEqual(created.tags, { team: 'ml' });
    assert.match(seen[1]!, /pick: New Workspace \(2\/5\): us\|eu\|global\|Other…/);
  });

  it('Edit renames; the workspace geo is shown as fixed; a vendor tag key is refused by the input box', async () => {
    const f = await features();
    const w = holder.fake.admin.workspaces.find(x => !x.archived_at && x.id !== 'wrkspc_demo')!;
    const node: AdminNode = { kind: 'workspace', workspace: w };
    const seen: string[] = [];
    f.admin.prompts = scripted(['Name', 'Renamed'], seen);
    const edited = await vscode.commands.executeCommand<Workspace>('promptwright.editWorkspace', node);
    assert.equal(edited.name, 'Renamed');
    assert.match(seen[0]!, /Workspace geo \w+: cannot be changed after creation/);
    f.admin.prompts = scripted(['Tags', 'vendor_team=x']);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('promptwright.editWorkspace', node)),
      /begins with "vendor"/,
    );
  });

  it('Archive asks first: cancel sends nothing; confirm archives', async () => {
    const f = await features();
    const w = holder.fake.admin.workspaces.find(x => !x.archived_at && x.id !== 'wrkspc_demo')!;
    const node: AdminNode = { kind: 'workspace', workspace: w };
    const seen: string[] = [];
    f.admin.prompts = scripted([false], seen);
    await vscode.commands.executeCommand('promptwright.archiveWorkspace', node);
    assert.equal(requestsTo('POST', /\/archive$/), 0);
    assert.match(seen[0]!, /confirm: Archive workspace ".*"\? \[Archive\]/);
    f.admin.prompts = scripted([true]);
    const done = await vscode.commands.executeCommand<Workspace>('promptwright.archiveWorkspace', node);
    assert.ok(done?.archived_at);
    assert.equal(requestsTo('POST', /\/archive$/), 1);
  });

  it('Open as JSON shows the object read-only; Show Rate Limits reveals the workspace', async () => {
    const f = await features();
    const w: Workspace = holder.fake.admin.workspaces.find(x => x.id === 'wrkspc_demo')!;
    await vscode.commands.executeCommand('promptwright.openOrganizationJson', { kind: 'workspace', workspace: w });
    const doc = await waitFor('the JSON document', () =>
      vscode.workspace.textDocuments.find(
        d => d.uri.scheme === 'promptwright-json' && d.uri.path === '/wrkspc_demo.json',
      ),
    );
    assert.deepEqual(JSON.parse(doc.getText()), w);
    const listed = f.rateLimits.workspaces.includes('wrkspc_demo');
    try {
      await vscode.commands.executeCommand('promptwright.showWorkspaceRateLimits', { kind: 'workspace', workspace: w });
      assert.ok(f.rateLimits.workspaces.includes('wrkspc_demo'));
      // the Rate Limits view shows, with the workspace's node selected
      const view = (await api()).rateLimitsView;
      await waitFor('the workspace selected in Rate Limits', () =>
        view.visible && view.selection.some(n => (n as { id?: string }).id === 'wrkspc_demo') ? true : undefined,
      );
    } finally {
      if (!listed) await f.rateLimits.removeWorkspace({ kind: 'workspace', id: 'wrkspc_demo' });
    }
  });

  it('users: the e-mail filter; Change Role never offers admin; Remove asks, naming the person', async () => {
    const f = await features();
    const u: User = holder.fake.admin.users.find(x => x.role === 'user')!;
    f.admin.prompts = scripted([u.email]);
    await vscode.commands.executeCommand('promptwright.filterUsers');
    const filtered = (await children(await group('users'))).filter(k => k.kind === 'user');
    assert.deepEqual(
      filtered.map(k => k.kind === 'user' && k.user.id),
      [u.id],
    );
    assert.match(f.org.getTreeItem(await group('users')).description as string, /filter: /);
    await vscode.commands.executeCommand('promptwright.clearUserFilter');
    const seen: string[] = [];
    f.admin.prompts = scripted(['developer'], seen);
    const changed = await vscode.commands.executeCommand<User>('promptwright.changeUserRole', {
      kind: 'user',
      user: u,
    });
    assert.equal(changed?.role, 'developer');
    assert.match(seen[0]!, /pick: .*: user\|developer\|billing\|model_code_user$/);
    assert.ok(!seen[0]!.includes('admin|') && !seen[0]!.endsWith('|admin'));
    f.admin.prompts = scripted([false], seen);
    assert.equal(await vscode.commands.executeCommand('promptwright.removeUser', { kind: 'user', user: u }), false);
    assert.equal(requestsTo('DELETE', /\/users\//), 0);
    assert.ok(seen.at(-1)!.includes(`Remove ${u.name} (${u.email}) from the organization?`));
    f.admin.prompts = scripted([true]);
    assert.equal(await vscode.commands.executeCommand('promptwright.removeUser', { kind: 'user', user: u }), true);
    assert.ok(!holder.fake.admin.users.some(x => x.id === u.id));
  });

  it('invites: Invite with a role; Delete asks first; expired invites are dimmed', async () => {
    const f = await features();
    f.admin.prompts = scripted(['new.hire@example.com', 'billing']);
    const inv = await vscode.commands.executeCommand<Invite>('promptwright.inviteUser');
    assert.equal(inv?.role, 'billing');
    f.admin.prompts = scripted([false]);
    await vscode.commands.executeCommand('promptwright.deleteInvite', { kind: 'invite', invite: inv });
    assert.equal(requestsTo('DELETE', /\/invites\//), 0);
    f.admin.prompts = scripted([true]);
    assert.equal(
      await vscode.commands.executeCommand('promptwright.deleteInvite', { kind: 'invite', invite: inv }),
      true,
    );
    const kids = (await children(await group('invites'))).filter(k => k.kind === 'invite');
    const expired = kids.find(k => k.kind === 'invite' && k.invite.status === 'expired')!;
    assert.equal(f.org.getTreeItem(expired).resourceUri?.query, 'dim');
  });

  it('a workspace created or an invite sent is shown: first in its group, revealed and selected', async () => {
    const a = await api();
    const f = await a.features();
    // two a page: what is created sorts last, on a page not loaded yet
    const restore = await setSetting('admin.pageSize', 2);
    try {
      f.org.refresh();
      const selected = () => (a.orgView.selection as AdminNode[]).map(n => JSON.stringify(n));
      f.admin.prompts = scripted(['Shown at once', 'us', 'unrestricted', 'global', '']);
      const w = await vscode.commands.executeCommand<Workspace>('promptwright.newWorkspace');
      assert.ok(a.orgView.visible, 'the Organization view is shown');
      // the view reports its selection back a moment after the reveal
      const workspaceSelected = [JSON.stringify({ kind: 'workspace', workspace: w })];
      await waitFor('the new workspace selected', () => selected().join() === workspaceSelected.join());
      assert.deepEqual(selected(), workspaceSelected);
      const workspaces = await children(await group('workspaces'));
      const first = workspaces[0]!;
      assert.equal(first.kind === 'workspace' && first.workspace.id, w.id);
      assert.equal(workspaces.filter(k => k.kind === 'workspace' && k.workspace.id === w.id).length, 1);
      assert.equal(workspaces.at(-1)!.kind, 'more', 'the list itself still pages');
      f.admin.prompts = scripted(['shown@example.com', 'developer']);
      const inv = await vscode.commands.executeCommand<Invite>('promptwright.inviteUser');
      const inviteSelected = [JSON.stringify({ kind: 'invite', invite: inv })];
      await waitFor('the new invite selected', () => selected().join() === inviteSelected.join());
      assert.deepEqual(selected(), inviteSelected);
      // loading the page that has it shows it once, where the service put it no more
      let invites = await children(await group('invites'));
      while (invites.at(-1)!.kind === 'more') {
        await vscode.commands.executeCommand('promptwright.admin.loadMore', invites.at(-1));
        invites = await children(await group('invites'));
      }
      assert.equal(invites.filter(k => k.kind === 'invite' && k.invite.id === inv.id).length, 1);
      const top = invites[0]!;
      assert.equal(top.kind === 'invite' && top.invite.id, inv.id);
    } finally {
      await restore();
    }
  });

  it('a key that is not an Admin key gets one clear message, not an error per list', async () => {
    await setKey('admin', holder.fake.apiKey);
    const f = await features();
    f.org.refresh();
    const root = await children();
    assert.equal(root.length, 1);
    assert.equal(root[0]!.kind, 'error');
    const item = f.org.getTreeItem(root[0]!);
    assert.match(item.label as string, /cannot use the administration interface .* needs an Admin API key/);
    assert.equal(item.command?.command, 'promptwright.setAdminApiKey');
  });
});
