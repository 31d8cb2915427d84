// The Compliance view and its deletes in the real extension host, against the fake service (doc3). Dialogs
// are answered by a script through the commands' Prompts seam; every delete is cancelled once first, to
// show that cancelling sends nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ComplianceNode } from '../../src/vscode/compliance/complianceTree';
import { vscodePrompts } from '../../src/vscode/platform/prompts';
import type { Fake } from '../fake/server';
import {
  api,
  closeEditors,
  errorsDuring,
  restoreKeysAfterEach,
  scripted,
  setKey,
  setSetting,
  useFake,
  waitFor,
} from './helpers';

const FULL = 'sk-vendor-api01-full';
const READONLY = 'sk-vendor-api01-readonly';

async function features() {
  return (await api()).features();
}
async function children(n?: ComplianceNode): Promise<ComplianceNode[]> {
  return (await features()).complianceTree.getChildren(n);
}
async function rootOf(kind: 'organizations' | 'chats' | 'projects'): Promise<ComplianceNode> {
  return (await children()).find(n => n.kind === kind)!;
}
const deletesIn = (fake: Fake, re: RegExp) =>
  fake.requests.filter(r => r.method === 'DELETE' && re.test(r.path)).length;

/** Mocha hooks: the lists a test asks the view for, and the script answering its questions, go after it. */
function forgetListsAfterEach(): void {
  afterEach(async () => {
    const f = await features();
    for (const l of [...f.complianceTree.queries, ...f.complianceTree.projects]) await f.complianceTree.remove(l);
    f.compliance.prompts = vscodePrompts;
    await closeEditors();
  });
}

/** The chats of one user, listed in the view with their first page loaded, as "Show Chats" does. */
async function chatsOf(user: string) {
  return (await features()).complianceTree.addChatQuery([user]);
}

describe('Compliance view (real extension host)', () => {
  const holder = useFake({});
  let restorePageSize: () => Promise<void>;
  const deletes = (re: RegExp) => deletesIn(holder.fake, re);

  before(async () => {
    restorePageSize = await setSetting('compliance.pageSize', 8);
    await setKey('compliance', FULL);
  });
  after(async () => {
    await restorePageSize();
  });
  restoreKeysAfterEach();
  beforeEach(() => holder.fake.clear());
  forgetListsAfterEach();

  it('an Admin key alone shows the Activity Feed and says what else needs a Compliance Access Key', async () => {
    await setKey('compliance', undefined);
    await setKey('admin', holder.fake.adminKey);
    assert.deepEqual(
      (await children()).map(n => n.kind),
      ['feed', 'needsKey'],
    );
    await setKey('admin', undefined);
    await setKey('compliance', FULL);
    assert.deepEqual(
      (await children()).map(n => n.kind),
      ['feed', 'organizations', 'chats', 'projects'],
    );
  });

  it('the linked organizations as the tree they form, through the window’s one client', async () => {
    const f = await features();
    const a = (await api()).api;
    const shared = await a.client();
    const built = a.created;
    const roots = await children(await rootOf('organizations'));
    assert.equal(roots.length, 1);
    const top = roots[0]!;
    assert.equal(top.kind, 'org');
    const linked = await children(top);
    assert.equal(linked.length, 3);
    assert.match(f.complianceTree.getTreeItem(top).description as string, /3 linked organizations/);
    const all = holder.fake.compliance.organizations;
    assert.ok(linked.every(n => n.kind === 'org' && n.org.parent_id === all[0]!.id));
    // the compliance calls build no client of their own; they still wait on the window's rate limiter
    assert.equal(a.created, built, 'no client built for the compliance calls');
    assert.equal(await a.client(), shared);
    const { client } = await f.access.client();
    assert.equal((client as unknown as { http: unknown }).http, shared.http, 'the shared transport');
    const before = f.access.limiter.inWindow();
    await client.organizations();
    assert.equal(f.access.limiter.inWindow(), before + 1, 'the call waited on the limiter');
  });

  it('chats of a user, a page at a time; chats the user soft-deleted are dimmed and marked', async () => {
    const f = await features();
    f.compliance.prompts = scripted(['user_01', '']);
    await vscode.commands.executeCommand('promptwright.showUserChats');
    const [query] = await children(await rootOf('chats'));
    assert.equal(query!.kind, 'query');
    let list = await children(query);
    assert.equal(list.filter(n => n.kind === 'chat').length, 8);
    const more = list.at(-1)!;
    assert.equal(more.kind, 'more');
    await vscode.commands.executeCommand('promptwright.compliance.loadMore', more);
    list = await children(query);
    assert.equal(list.filter(n => n.kind === 'chat').length, 16);
    const asked = holder.fake.requests.filter(r => r.path.endsWith('/apps/chats'));
    assert.equal(asked.length, 2);
    assert.deepEqual(asked[0]!.params.getAll('user_ids[]'), ['user_01']);
    assert.equal(asked[1]!.params.get('after_id'), await firstPageLastId('user_01'));
    const deleted = list.find(n => n.kind === 'chat' && n.chat.deleted_at)!;
    const item = f.complianceTree.getTreeItem(deleted);
    assert.equal(item.resourceUri?.query, 'dim');
    assert.equal(item.contextValue, 'chat.deleted');
    assert.match(item.description as string, /^deleted by its user \d{4}-\d\d-\d\d/);
    assert.match(f.complianceTree.getTreeItem(query!).description as string, /16 chats loaded/);
  });

  async function firstPageLastId(user: string): Promise<string> {
    const { client } = await (await features()).access.client();
    const page = (await client.chats([user], [], { pageSize: 8 }).next()).value!;
    return page.last_id!;
  }

  it('project attachments by page token; project documents are not offered as files', async () => {
    const f = await features();
    await vscode.commands.executeCommand('promptwright.showProjectAttachments', 'model_proj_01');
    const project = (await children(await rootOf('projects'))).find(
      n => n.kind === 'project' && n.project.id === 'model_proj_01',
    )!;
    let list = await children(project);
    assert.equal(list.filter(n => n.kind === 'attachment').length, 20);
    await vscode.commands.executeCommand('promptwright.loadMore', list.at(-1));
    list = await children(project);
    assert.equal(list.filter(n => n.kind === 'attachment').length, 40);
    const asked = holder.fake.requests.filter(r => r.path.endsWith('/attachments'));
    assert.equal(asked[0]!.params.get('page'), null);
    assert.ok(asked[1]!.params.get('page'));
    const contexts = new Set(
      list.filter(n => n.kind === 'attachment').map(n => f.complianceTree.getTreeItem(n).contextValue),
    );
    assert.deepEqual([...contexts].sort(), ['attachment', 'file']);
  });

  it('Delete chat asks, saying it is immediate and permanent: cancel sends nothing; confirm deletes', async () => {
    const f = await features();
    const query = await chatsOf('user_01');
    const chat = query.pager.items.find(c => !c.project_id)!;
    const node: ComplianceNode = { kind: 'chat', chat, query };
    const seen: string[] = [];
    f.compliance.prompts = scripted([false], seen);
    await vscode.commands.executeCommand('promptwright.deleteChat', node);
    assert.equal(deletes(/\/apps\/chats\//), 0);
    assert.match(seen[0]!, /confirm: Delete the chat ".*" permanently\? \[Delete Permanently\]/);
    f.compliance.prompts = {
      ...scripted([true]),
      confirm: (_m, detail) => {
        assert.match(detail, /immediate and permanent/);
        return Promise.resolve(true);
      },
    };
    assert.equal(await vscode.commands.executeCommand('promptwright.deleteChat', node), true);
    assert.equal(deletes(/\/apps\/chats\//), 1);
    assert.ok(!holder.fake.compliance.chats.some(c => c.id === chat.id));
    assert.ok(!query.pager.items.some(c => c.id === chat.id), 'it left the list');
  });

  it('a read-only key: the delete is refused with what the key lacks, and delete is no longer offered', async () => {
    const f = await features();
    const query = await chatsOf('user_01');
    await setKey('compliance', READONLY);
    try {
      await query.pager.load();
      const chat = query.pager.items.find(c => !c.project_id)!;
      f.compliance.prompts = scripted([true]);
      let result: unknown;
      const shown = await errorsDuring(async () => {
        result = await vscode.commands.executeCommand('promptwright.deleteChat', {
          kind: 'chat',
          chat,
          query,
        });
      });
      assert.equal(result, false);
      assert.equal(shown.length, 1);
      assert.match(shown[0]!, /This key cannot delete: it lacks delete:compliance_user_data/);
      assert.match(shown[0]!, /permission_error/);
      assert.match(shown[0]!, /request-id/);
      assert.ok(
        holder.fake.compliance.chats.some(c => c.id === chat.id),
        'nothing was deleted',
      );
      assert.equal(f.access.allows('delete:compliance_user_data'), false);
      assert.equal(f.access.allows('read:compliance_user_data'), true);
    } finally {
      await setKey('compliance', FULL);
    }
    assert.equal(f.access.allows('delete:compliance_user_data'), true, 'a new key is asked afresh');
  });

  it('deletes a project file, and a project without chats at once', async () => {
    const f = await features();
    const project = await f.complianceTree.addProject('model_proj_02');
    const list = await children({ kind: 'project', project });
    const file = list.find(n => n.kind === 'attachment' && n.attachment.type === 'file')!;
    f.compliance.prompts = scripted([true]);
    assert.equal(await vscode.commands.executeCommand('promptwright.deleteFile', file), true);
    assert.equal(deletes(/\/apps\/files\//), 1);
    f.compliance.prompts = scripted([true]);
    const node: ComplianceNode = { kind: 'project', project };
    assert.equal(await vscode.commands.executeCommand('promptwright.deleteProject', node), true);
    assert.ok(!holder.fake.compliance.projects.some(p => p.id === 'model_proj_02'));
  });

  it('a standard API key where the Compliance key goes: the view says it is the wrong kind of key', async () => {
    const f = await features();
    await setKey('compliance', holder.fake.apiKey);
    const [error] = await waitFor('the organizations error', async () => {
      const got = await children(await rootOf('organizations'));
      return got[0]?.kind === 'error' ? got : undefined;
    });
    assert.match(
      f.complianceTree.getTreeItem(error!).label as string,
      /needs a Compliance Access Key \(sk-vendor-api01…\), not a standard API key/,
    );
    assert.equal(f.complianceTree.getTreeItem(error!).command?.command, 'promptwright.setComplianceKey');
  });
});

// A suite of its own: deleting model_proj_01 would take from the view tests the project whose attachments they page
describe('Compliance view: deleting a project that has chats (real extension host)', () => {
  const holder = useFake({});
  let fake: Fake;
  const deletes = (re: RegExp) => deletesIn(fake, re);
  before(async () => {
    fake = holder.fake;
    await setKey('compliance', FULL);
  });
  beforeEach(() => fake.clear());
  forgetListsAfterEach();

  it("a project with chats: the 409, then 'Delete its N chats, then the project' (declined, then agreed)", async () => {
    const f = await features();
    // no chats listed: the command has to ask whose chats they are
    for (const q of [...f.complianceTree.queries]) await f.complianceTree.remove(q);
    const project = await f.complianceTree.addProject('model_proj_01');
    const node: ComplianceNode = { kind: 'project', project };
    const inProject = fake.compliance.chats.filter(c => c.project_id === 'model_proj_01');
    assert.equal(inProject.length, 4);
    const users = [...new Set(inProject.map(c => c.user_id))].join(' ');

    let seen: string[] = [];
    f.compliance.prompts = scripted([true, users, false], seen);
    assert.equal(await vscode.commands.executeCommand('promptwright.deleteProject', node), false);
    assert.equal(deletes(/\/apps\/projects\//), 1, 'the first attempt, answered 409');
    assert.equal(deletes(/\/apps\/chats\//), 0, 'declined: no chat deleted');
    assert.match(seen[1]!, /input: Chats of project model_proj_01/);
    assert.match(
      seen[2]!,
      /confirm: The project model_proj_01 still has 4 chats attached\. Delete its 4 chats, then the project\? \[Delete 4 Chats, Then the Project\]/,
    );

    fake.clear();
    seen = [];
    let detail = '';
    const script = scripted([true, users, true], seen);
    f.compliance.prompts = {
      ...script,
      confirm: (m, d, action) => {
        detail = d;
        return script.confirm(m, d, action);
      },
    };
    assert.equal(await vscode.commands.executeCommand('promptwright.deleteProject', node), true);
    for (const c of inProject) assert.match(detail, new RegExp(c.id));
    assert.equal(deletes(/\/apps\/chats\//), 4);
    assert.equal(deletes(/\/apps\/projects\//), 2, 'the 409, then the project once its chats were gone');
    assert.ok(!fake.compliance.projects.some(p => p.id === 'model_proj_01'));
    assert.ok(!f.complianceTree.projects.includes(project), 'it left the view');
  });
});

describe('Compliance view: more than 1,000 linked organizations', () => {
  useFake({ organizationsCount: 1001 });
  before(async () => setKey('compliance', FULL));

  it('says the list is over the cap instead of showing part of it', async () => {
    const f = await features();
    f.complianceTree.refresh();
    const [error] = await children(await rootOf('organizations'));
    assert.equal(error!.kind, 'error');
    const item = f.complianceTree.getTreeItem(error!);
    assert.match(item.label as string, /at most 1,000 linked organizations/);
    assert.match(item.tooltip as string, /api_error/);
  });
});
