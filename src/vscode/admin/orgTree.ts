import * as vscode from 'vscode';
import { DimmedItems } from '../platform/dimmedItems';
import { colorIcon, inviteView, userView, workspaceView } from '../../core/admin/view';
import type { Invite, Organization, User, Workspace } from '../../core/admin/types';
import { ApiError, describeError } from '../../core/api/errors';
import { firstPage } from '../../core/api/pager';
import type { Api } from '../platform/api';
import type { Config } from '../platform/config';
import { PagedTree, type ErrorView, type ErrorRow, type MoreRow, type PagedList } from '../platform/pagedTree';
import type { Keys } from '../platform/secrets';
import { Disposable } from '../platform/lifecycle';

export type Group = 'workspaces' | 'users' | 'invites';

export type AdminNode =
  | { kind: 'org'; org: Organization }
  | { kind: 'group'; group: Group }
  | { kind: 'workspace'; workspace: Workspace }
  | { kind: 'user'; user: User }
  | { kind: 'invite'; invite: Invite }
  | MoreRow<AdminNode>
  | ErrorRow<AdminNode>;

/** Dimmed labels (archived workspaces, expired invites) come from a decoration on this URI scheme. */
const DIM_SCHEME = 'promptwright-admin';

const GROUP_LABEL: Record<Group, string> = { workspaces: 'Workspaces', users: 'Users', invites: 'Invites' };
const GROUP_ICON: Record<Group, string> = { workspaces: 'folder-library', users: 'person', invites: 'mail' };

/**
 * The "Organization" view (Admin key): the organization, then its workspaces, users and invites, each a
 * page at a time with "Load more". A key that cannot use the interface gets one message, not one per list.
 */
export class OrgTree extends Disposable implements vscode.TreeDataProvider<AdminNode> {
  private readonly changed = this.register(new vscode.EventEmitter<AdminNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly dimmed = new DimmedItems(DIM_SCHEME);
  private org: Promise<Organization> | undefined;
  private readonly pages = new PagedTree<AdminNode>({
    viewId: 'promptwright.organization',
    changed: this.changed,
    explain,
    retry: 'promptwright.refreshOrganization',
  });
  private readonly pagers = new Map<Group, PagedList<Workspace | User | Invite, AdminNode>>();
  private readonly groupNodes = new Map<Group, AdminNode>();
  /**
   * What was created in this window (a workspace, an invite), newest first: shown at the top of its group
   * until the next full refresh, so that it can be revealed even when the list's order puts it on a page
   * not loaded yet.
   */
  private readonly created = new Map<Group, (Workspace | Invite)[]>();
  showArchived = false;
  userFilter: string | undefined;

  constructor(
    private readonly api: Api,
    private readonly keys: Keys,
    private readonly config: Config,
  ) {
    super();
    this.register(
      keys.onDidChange(k => {
        if (k === 'admin') this.refresh();
      }),
      this.dimmed,
    );
  }

  /** Forgets what was loaded (all, or one list) and asks the view to ask again. */
  refresh(group?: Group): void {
    if (group) {
      this.pagers.delete(group);
      this.changed.fire(this.groupNodes.get(group));
      return;
    }
    this.org = undefined;
    this.pagers.clear();
    this.created.clear();
    this.changed.fire(undefined);
  }

  /** Shows what was just created at the top of its group, selected, with the group expanded. */
  async showCreated(view: vscode.TreeView<AdminNode>, group: 'workspaces' | 'invites', item: Workspace | Invite) {
    this.created.set(group, [item, ...(this.created.get(group) ?? []).filter(x => x.id !== item.id)]);
    this.refresh(group);
    await view.reveal(this.itemNode(group, item), { select: true, focus: true, expand: true });
  }

  /** The group an item sits in (reveal walks up with it). */
  getParent(n: AdminNode): AdminNode | undefined {
    if (n.kind === 'workspace') return this.groupNode('workspaces');
    if (n.kind === 'user') return this.groupNode('users');
    if (n.kind === 'invite') return this.groupNode('invites');
    return n.kind === 'more' || n.kind === 'error' ? n.list?.parent() : undefined;
  }

  async setShowArchived(show: boolean): Promise<void> {
    this.showArchived = show;
    await vscode.commands.executeCommand('setContext', 'promptwright.admin.showArchived', show);
    this.refresh('workspaces');
  }

  async setUserFilter(email: string | undefined): Promise<void> {
    this.userFilter = email?.trim() || undefined;
    await vscode.commands.executeCommand('setContext', 'promptwright.admin.userFilter', !!this.userFilter);
    this.refresh('users');
  }

  /** The objects loaded so far (tests and commands read them). */
  loaded(group: Group): readonly (Workspace | User | Invite)[] {
    return this.pagers.get(group)?.items ?? [];
  }

  private pager(group: Group): PagedList<Workspace | User | Invite, AdminNode> {
    let p = this.pagers.get(group);
    if (!p) {
      const pageSize = this.config.adminPageSize;
      p = this.pages.list<Workspace | User | Invite>(
        () => this.groupNode(group),
        async cursor => {
          const admin = await this.api.admin();
          const o = { pageSize, ...(cursor ? { after: cursor } : {}) };
          if (group === 'workspaces') return firstPage(admin.workspaces({ ...o, includeArchived: this.showArchived }));
          if (group === 'users')
            return firstPage(admin.users({ ...o, ...(this.userFilter ? { email: this.userFilter } : {}) }));
          return firstPage(admin.invites(o));
        },
      );
      this.pagers.set(group, p);
    }
    return p;
  }

  private organization(): Promise<Organization> {
    this.org ??= this.api.admin().then(a => a.org());
    const p = this.org;
    p.catch(() => {
      if (this.org === p) this.org = undefined;
    });
    return p;
  }

  async getChildren(n?: AdminNode): Promise<AdminNode[]> {
    if (!n) {
      if (!(await this.keys.get('admin'))) return []; // the view's welcome text says how to add a key
      try {
        const org = await this.organization();
        return [{ kind: 'org', org }, ...(['workspaces', 'users', 'invites'] as const).map(g => this.groupNode(g))];
      } catch (e) {
        return [this.pages.errorRow(e, explain(e))];
      }
    }
    if (n.kind !== 'group') return [];
    const group = n.group;
    const created = this.created.get(group) ?? [];
    const createdIds = new Set(created.map(x => x.id));
    // what this window created first: the service's version of it where the loaded pages have it
    const order = (items: readonly (Workspace | User | Invite)[]) => [
      ...created.map(x => items.find(y => y.id === x.id) ?? x),
      ...items.filter(x => !createdIds.has(x.id)),
    ];
    return this.pager(group).rows(x => this.itemNode(group, x), order);
  }

  private itemNode(group: Group, x: Workspace | User | Invite): AdminNode {
    if (group === 'workspaces') return { kind: 'workspace', workspace: x as Workspace };
    if (group === 'users') return { kind: 'user', user: x as User };
    return { kind: 'invite', invite: x as Invite };
  }

  private groupNode(group: Group): AdminNode {
    let node = this.groupNodes.get(group);
    if (!node) this.groupNodes.set(group, (node = { kind: 'group', group }));
    return node;
  }

  getTreeItem(n: AdminNode): vscode.TreeItem {
    switch (n.kind) {
      case 'org': {
        const it = new vscode.TreeItem(n.org.name);
        it.description = n.org.id;
        it.iconPath = new vscode.ThemeIcon('organization');
        it.contextValue = 'org';
        it.tooltip = `Organization ${n.org.name} (${n.org.id})`;
        return it;
      }
      case 'group': {
        const it = new vscode.TreeItem(GROUP_LABEL[n.group], vscode.TreeItemCollapsibleState.Collapsed);
        it.id = `group:${n.group}`;
        it.iconPath = new vscode.ThemeIcon(GROUP_ICON[n.group]);
        it.contextValue = `group.${n.group}`;
        if (n.group === 'workspaces') it.description = this.showArchived ? 'active and archived' : 'active';
        if (n.group === 'users' && this.userFilter) it.description = `filter: ${this.userFilter}`;
        return it;
      }
      case 'workspace': {
        const it = this.dimmed.item(workspaceView(n.workspace), `workspace/${n.workspace.id}`);
        it.id = `workspace:${n.workspace.id}`;
        const icon = colorIcon(n.workspace.display_color);
        it.iconPath = icon ? vscode.Uri.parse(icon) : new vscode.ThemeIcon('folder-library');
        it.contextValue = n.workspace.archived_at ? 'workspace.archived' : 'workspace';
        return it;
      }
      case 'user': {
        const it = this.dimmed.item(userView(n.user), `user/${n.user.id}`);
        it.id = `user:${n.user.id}`;
        it.iconPath = new vscode.ThemeIcon(n.user.role === 'admin' ? 'shield' : 'account');
        it.contextValue = n.user.role === 'admin' ? 'user.admin' : 'user';
        return it;
      }
      case 'invite': {
        const view = inviteView(n.invite, new Date());
        const it = this.dimmed.item(view, `invite/${n.invite.id}`);
        it.id = `invite:${n.invite.id}`;
        it.iconPath = new vscode.ThemeIcon(view.dim ? 'circle-slash' : 'mail');
        it.contextValue = `invite.${n.invite.status}`;
        return it;
      }
      case 'more':
      case 'error':
        return this.pages.item(n);
    }
  }
}

/** The key cannot use the administration interface at all (not an Admin key, or not a valid one). */
function notAdmin(e: unknown): boolean {
  return e instanceof ApiError && (e.status === 401 || e.status === 403);
}

function errorLabel(e: unknown): string {
  if (e instanceof ApiError && e.status === 403) {
    return `This key cannot use the administration interface (${e.type}: ${e.message}); it needs an Admin API key.`;
  }
  if (e instanceof ApiError && e.status === 401) return `The Admin API key was refused (${e.type}: ${e.message}).`;
  return describeError(e);
}

/** A failure of the organization or of a page of a list: a key that cannot use the interface is told so. */
function explain(e: unknown): ErrorView {
  const fix = notAdmin(e) ? { command: 'promptwright.setAdminApiKey', title: 'Set Admin API Key' } : undefined;
  return { label: errorLabel(e), tooltip: describeError(e), ...(fix ? { fix } : {}) };
}
