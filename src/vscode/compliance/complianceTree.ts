import * as vscode from 'vscode';
import { DimmedItems } from '../platform/dimmedItems';
import { ApiError, describeError } from '../../core/api/errors';
import { firstPage } from '../../core/api/pager';
import { SCOPES } from '../../core/compliance/scopes';
import type { Attachment, Chat, ComplianceOrganization } from '../../core/compliance/types';
import {
  attachmentView,
  chatView,
  isFile,
  organizationTree,
  organizationView,
  type OrganizationTree,
} from '../../core/compliance/view';
import { count } from '../../core/text';
import type { Config } from '../platform/config';
import { PagedTree, type ErrorView, type ErrorRow, type MoreRow, type PagedList } from '../platform/pagedTree';
import type { Keys } from '../platform/secrets';
import type { ComplianceAccess } from './access';
import { Disposable } from '../platform/lifecycle';

/** A list of chats the person asked for: chats are listed per user (doc3 §4: `user_ids[]` is required). */
export interface ChatQuery {
  users: string[];
  projects: string[];
  pager: PagedList<Chat, ComplianceNode>;
}

/** A project whose attachments the person asked for (there is no list of projects in the spec). */
export interface ProjectEntry {
  id: string;
  pager: PagedList<Attachment, ComplianceNode>;
}

export type ComplianceNode =
  | { kind: 'feed' }
  | { kind: 'needsKey' }
  | { kind: 'organizations' }
  | { kind: 'org'; org: ComplianceOrganization; children: ComplianceOrganization[] }
  | { kind: 'chats' }
  | { kind: 'projects' }
  | { kind: 'query'; query: ChatQuery }
  | { kind: 'project'; project: ProjectEntry }
  | { kind: 'chat'; chat: Chat; query: ChatQuery }
  | { kind: 'attachment'; attachment: Attachment; project: ProjectEntry }
  | { kind: 'hint'; label: string; command?: vscode.Command }
  | MoreRow<ComplianceNode>
  | ErrorRow<ComplianceNode>;

/** Dimmed labels (chats their users soft-deleted) come from a decoration on this URI scheme. */
const DIM_SCHEME = 'promptwright-compliance';
const QUERIES_STATE = 'promptwright.compliance.chatQueries';
const PROJECTS_STATE = 'promptwright.compliance.projects';

const queryKey = (users: readonly string[], projects: readonly string[]) => `${users.join(',')}|${projects.join(',')}`;

/**
 * The "Compliance" view: the Activity Feed (a panel of its own), the linked organizations, chats of the
 * users asked for, and the attachments of the projects asked for, each list a page at a time. What is
 * shown follows the key: an Admin key reads the Activity Feed only (doc3 §5 rule 4), and a 403 that names
 * the key's scopes hides what it cannot do. The lists asked for are remembered per workspace.
 */
export class ComplianceTree extends Disposable implements vscode.TreeDataProvider<ComplianceNode> {
  private readonly changed = this.register(new vscode.EventEmitter<ComplianceNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly dimmed = new DimmedItems(DIM_SCHEME);
  private readonly pages = new PagedTree<ComplianceNode>({
    viewId: 'promptwright.compliance',
    changed: this.changed,
    // what the failure means for this key (compliance/access.ts), when that is known
    explain: async e => explain(e, await this.access.explain(e), 'a list'),
    retry: 'promptwright.refreshCompliance',
  });
  private organizations: Promise<OrganizationTree> | undefined;
  /** the organizations as the last successful load left them (org nodes find their children here) */
  private organizationsLoaded: OrganizationTree | undefined;
  readonly queries: ChatQuery[] = [];
  readonly projects: ProjectEntry[] = [];
  private readonly groups = {
    organizations: { kind: 'organizations' } as ComplianceNode,
    chats: { kind: 'chats' } as ComplianceNode,
    projects: { kind: 'projects' } as ComplianceNode,
  };

  constructor(
    private readonly access: ComplianceAccess,
    private readonly keys: Keys,
    private readonly config: Config,
    private readonly state: vscode.Memento,
  ) {
    super();
    for (const q of state.get<{ users: string[]; projects: string[] }[]>(QUERIES_STATE, []))
      this.queries.push(this.newQuery(q.users, q.projects));
    for (const id of state.get<string[]>(PROJECTS_STATE, [])) this.projects.push(this.newProject(id));
    this.register(
      keys.onDidChange(k => {
        if (k === 'compliance' || k === 'admin') this.refresh();
      }),
      this.dimmed,
      // a 403 told what the key may do: the groups say what it lacks
      access.onDidLearnScopes(() => this.changed.fire(undefined)),
    );
  }

  /** Forgets what was loaded (every list keeps its place in the view) and asks the view to ask again. */
  refresh(): void {
    this.organizations = undefined;
    for (const l of [...this.queries, ...this.projects]) l.pager.reset();
    this.changed.fire(undefined);
  }

  /** The linked organizations again (after an organization membership activity, doc3 §6 rule 2). */
  refreshOrganizations(): void {
    this.organizations = undefined;
    this.changed.fire(this.groups.organizations);
  }

  /** Shows the chats of these users (in these projects), or the list already showing them. */
  async addChatQuery(users: string[], projects: string[] = []): Promise<ChatQuery> {
    const key = queryKey(users, projects);
    let q = this.queries.find(x => queryKey(x.users, x.projects) === key);
    if (!q) {
      q = this.newQuery(users, projects);
      this.queries.push(q);
      await this.save();
      await this.firstPage(q);
    }
    this.changed.fire(this.groups.chats);
    return q;
  }

  async addProject(id: string): Promise<ProjectEntry> {
    let p = this.projects.find(x => x.id === id);
    if (!p) {
      p = this.newProject(id);
      this.projects.push(p);
      await this.save();
      await this.firstPage(p);
    }
    this.changed.fire(this.groups.projects);
    return p;
  }

  /**
   * A list the person just added loads its first page before it shows, so its row says at once how many
   * records it holds. A list's row is never repainted from inside its own children's fetch: VS Code drops
   * the children it is still fetching when their parent changes, and their rows' actions would then reach
   * the commands without their node (seen as a Delete that did nothing).
   */
  private async firstPage(list: ChatQuery | ProjectEntry): Promise<void> {
    await list.pager.fetchMore();
  }

  async remove(list: ChatQuery | ProjectEntry): Promise<void> {
    const i = this.queries.indexOf(list as ChatQuery);
    if (i >= 0) this.queries.splice(i, 1);
    const j = this.projects.indexOf(list as ProjectEntry);
    if (j >= 0) this.projects.splice(j, 1);
    await this.save();
    this.changed.fire(i >= 0 ? this.groups.chats : this.groups.projects);
  }

  /** After a delete: the record leaves every list that shows it, without asking the service again. */
  forget(id: string): void {
    for (const l of [...this.queries, ...this.projects]) {
      const i = l.pager.items.findIndex(x => x.id === id);
      if (i >= 0) l.pager.items.splice(i, 1);
    }
    const p = this.projects.findIndex(x => x.id === id);
    if (p >= 0) {
      this.projects.splice(p, 1);
      void this.save();
    }
    this.changed.fire(undefined);
  }

  /** Chats loaded so far that belong to a project, and the users of every list asked for. */
  known(projectId: string): { chats: Chat[]; users: string[] } {
    const chats = this.queries.flatMap(q => q.pager.items).filter(c => c.project_id === projectId);
    const owners = chats.map(c => c.user_id).filter((u): u is string => typeof u === 'string');
    const users = [...new Set([...this.queries.flatMap(q => q.users), ...owners])];
    return { chats: [...new Map(chats.map(c => [c.id, c])).values()], users };
  }

  private async save(): Promise<void> {
    await this.state.update(
      QUERIES_STATE,
      this.queries.map(q => ({ users: q.users, projects: q.projects })),
    );
    await this.state.update(
      PROJECTS_STATE,
      this.projects.map(p => p.id),
    );
  }

  private newQuery(users: string[], projects: string[]): ChatQuery {
    const query: ChatQuery = {
      users,
      projects,
      pager: this.pages.list(
        () => this.listNode(query),
        async cursor => {
          const { client } = await this.access.client();
          const o = { pageSize: this.config.compliancePageSize, ...(cursor ? { after: cursor } : {}) };
          return firstPage(client.chats(users, projects, o));
        },
      ),
    };
    return query;
  }

  private newProject(id: string): ProjectEntry {
    const project: ProjectEntry = {
      id,
      pager: this.pages.list(
        () => this.listNode(project),
        async cursor => firstPage((await this.access.client()).client.attachments(id, cursor ? { page: cursor } : {})),
      ),
    };
    return project;
  }

  /** Loaded once; a failure is kept too (shown with Retry) rather than asked again on every repaint. */
  private loadOrganizations(): Promise<OrganizationTree> {
    this.organizations ??= this.access
      .client()
      .then(({ client }) => client.organizations())
      .then(list => (this.organizationsLoaded = organizationTree(list)));
    return this.organizations;
  }

  async getChildren(n?: ComplianceNode): Promise<ComplianceNode[]> {
    if (!n) return this.roots();
    switch (n.kind) {
      case 'organizations':
        try {
          return (await this.loadOrganizations()).roots.map(org => this.orgNode(org));
        } catch (e) {
          return [this.pages.errorRow(e, explain(e, await this.access.explain(e), 'organizations'))];
        }
      case 'org':
        return n.children.map(org => this.orgNode(org));
      case 'chats':
        return this.queries.length
          ? this.queries.map(query => this.listNode(query))
          : [hint('Show the chats of one or more users…', 'promptwright.showUserChats')];
      case 'projects':
        return this.projects.length
          ? this.projects.map(project => this.listNode(project))
          : [hint('Show the attachments of a project…', 'promptwright.showProjectAttachments')];
      case 'query':
        return this.listChildren(n.query, 'No chats', chat => ({ kind: 'chat', chat, query: n.query }));
      case 'project':
        return this.listChildren(n.project, 'No attachments', attachment => ({
          kind: 'attachment',
          attachment,
          project: n.project,
        }));
      default:
        return [];
    }
  }

  /** One node object per list: the view finds a row to repaint by the object it was given. */
  private readonly listNodes = new WeakMap<ChatQuery | ProjectEntry, ComplianceNode>();
  private listNode(list: ChatQuery | ProjectEntry): ComplianceNode {
    let node = this.listNodes.get(list);
    if (!node) {
      node = 'users' in list ? { kind: 'query', query: list } : { kind: 'project', project: list };
      this.listNodes.set(list, node);
    }
    return node;
  }

  private orgNode(org: ComplianceOrganization): ComplianceNode {
    return { kind: 'org', org, children: this.organizationsLoaded?.children.get(org.id) ?? [] };
  }

  private async roots(): Promise<ComplianceNode[]> {
    const kind = await this.access.kind();
    if (!kind) return []; // the view's welcome text says how to add a key
    const feed: ComplianceNode = { kind: 'feed' };
    if (kind === 'admin') return [feed, { kind: 'needsKey' }];
    return [feed, this.groups.organizations, this.groups.chats, this.groups.projects];
  }

  private async listChildren<T extends Chat | Attachment>(
    list: ChatQuery | ProjectEntry,
    none: string,
    node: (x: T) => ComplianceNode,
  ): Promise<ComplianceNode[]> {
    const pager = list.pager as PagedList<T, ComplianceNode>;
    // a list restored from the workspace state loads when it is first expanded; its row shows the count at
    // its next repaint (see firstPage for why not now)
    const rows = await pager.rows(node);
    if (pager.done && !pager.items.length) rows.push({ kind: 'hint', label: none });
    return rows;
  }

  getTreeItem(n: ComplianceNode): vscode.TreeItem {
    switch (n.kind) {
      case 'feed': {
        const it = new vscode.TreeItem('Activity Feed');
        it.iconPath = new vscode.ThemeIcon('pulse');
        it.description = 'filter, browse, export';
        it.contextValue = 'feed';
        it.command = { command: 'promptwright.openActivityFeed', title: 'Open Activity Feed' };
        return it;
      }
      case 'needsKey': {
        const it = new vscode.TreeItem('Organizations, chats and projects need a Compliance Access Key');
        it.iconPath = new vscode.ThemeIcon('info');
        it.tooltip = 'An Admin API key reads the Activity Feed only (it carries read:compliance_activities alone).';
        it.command = { command: 'promptwright.setComplianceKey', title: 'Set Compliance Key' };
        return it;
      }
      case 'organizations':
      case 'chats':
      case 'projects':
        return this.groupItem(n.kind);
      case 'org': {
        const it = this.dimmed.item(organizationView(n.org, n.children.length), `org/${n.org.id}`);
        if (n.children.length) it.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
        it.iconPath = new vscode.ThemeIcon('organization');
        it.contextValue = 'org';
        return it;
      }
      case 'query': {
        const { users, projects, pager } = n.query;
        const it = new vscode.TreeItem(`Chats of ${users.join(', ')}`, vscode.TreeItemCollapsibleState.Collapsed);
        it.id = `query:${queryKey(users, projects)}`;
        it.description = [projects.length ? `in ${projects.join(', ')}` : '', loadedText(pager)]
          .filter(Boolean)
          .join(' · ');
        it.iconPath = new vscode.ThemeIcon('comment-discussion');
        it.contextValue = 'query.chats';
        return it;
      }
      case 'project': {
        const it = new vscode.TreeItem(n.project.id, vscode.TreeItemCollapsibleState.Collapsed);
        it.id = `project:${n.project.id}`;
        it.description = loadedText(n.project.pager, 'attachment');
        it.iconPath = new vscode.ThemeIcon('project');
        it.contextValue = 'query.project';
        return it;
      }
      case 'chat': {
        const view = chatView(n.chat);
        const it = this.dimmed.item(view, `chat/${n.chat.id}`);
        it.id = `query:${queryKey(n.query.users, n.query.projects)}/chat:${n.chat.id}`;
        it.iconPath = new vscode.ThemeIcon(view.dim ? 'comment-unresolved' : 'comment');
        it.contextValue = view.dim ? 'chat.deleted' : 'chat';
        return it;
      }
      case 'attachment': {
        const it = this.dimmed.item(attachmentView(n.attachment), `attachment/${n.attachment.id}`);
        it.id = `project:${n.project.id}/attachment:${n.attachment.id}`;
        const file = isFile(n.attachment);
        it.iconPath = new vscode.ThemeIcon(file ? 'file' : 'file-text');
        it.contextValue = file ? 'file' : 'attachment';
        return it;
      }
      case 'hint': {
        const it = new vscode.TreeItem(n.label);
        it.iconPath = new vscode.ThemeIcon(n.command ? 'add' : 'circle-slash');
        if (n.command) it.command = n.command;
        return it;
      }
      case 'more':
      case 'error':
        return this.pages.item(n);
    }
  }

  private groupItem(group: 'organizations' | 'chats' | 'projects'): vscode.TreeItem {
    const label = { organizations: 'Organizations', chats: 'Chats', projects: 'Projects' }[group];
    const it = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
    it.id = `group:${group}`;
    it.contextValue = `group.${group}`;
    it.iconPath = new vscode.ThemeIcon(
      { organizations: 'organization', chats: 'comment-discussion', projects: 'project' }[group],
    );
    const scope = group === 'organizations' ? SCOPES.orgData : SCOPES.userData;
    if (!this.access.allows(scope)) it.description = `this key lacks ${scope}`;
    else if (group === 'organizations') it.description = 'linked, up to 1,000';
    else if (group === 'chats') it.description = 'per user';
    return it;
  }
}

function hint(label: string, command: string): ComplianceNode {
  return { kind: 'hint', label, command: { command, title: label } };
}

function loadedText(pager: PagedList<unknown, ComplianceNode>, noun = 'chat'): string {
  if (pager.cursor === undefined) return '';
  return pager.done ? count(pager.items.length, noun) : `${count(pager.items.length, noun)} loaded`;
}

function errorLabel(e: unknown): string {
  if (e instanceof ApiError) return `${e.type}: ${e.message}`;
  return describeError(e);
}

/**
 * A failure of a list or of the organizations, with `why`, what it means for this key, when that is known.
 * A 500 of the organizations list is its cap: the service lists at most 1,000 linked organizations.
 */
function explain(e: unknown, why: string | undefined, what: 'organizations' | 'a list'): ErrorView {
  const overCap = what === 'organizations' && e instanceof ApiError && e.status === 500;
  const label = overCap
    ? 'The organizations list failed: the service lists at most 1,000 linked organizations in one call'
    : (why ?? errorLabel(e));
  const tooltip = [
    describeError(e),
    overCap ? 'A 500 here usually means the tree of linked organizations is over that cap.' : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const fix =
    e instanceof ApiError && e.status === 401
      ? { command: 'promptwright.setComplianceKey', title: 'Set Compliance Key' }
      : undefined;
  return { label, tooltip, ...(fix ? { fix } : {}) };
}
