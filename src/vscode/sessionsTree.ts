import * as vscode from 'vscode';
import { ApiError, describeError, type PromptwrightError } from '../core/api/errors';
import type { Page, SessionResource } from '../core/api/types';
import { checkAttachInput, defaultMountPath, describeResource, ResourcePager } from '../core/sessions/resources';
import {
  isDefaultWorkspace,
  limiterText,
  organizationView,
  workspaceView,
  type GroupView,
} from '../core/sessions/limits';
import type { Api } from './api';
import type { Keys } from './secrets';

const SESSIONS_KEY = 'promptwright.sessions';
const WORKSPACES_KEY = 'promptwright.rateLimitWorkspaces';

type Node =
  | { kind: 'session'; id: string }
  | { kind: 'resource'; sessionId: string; resource: SessionResource }
  | { kind: 'more'; sessionId: string; loaded: number }
  | { kind: 'error'; sessionId?: string; workspaceId?: string; error: unknown }
  | { kind: 'empty'; text: string }
  | { kind: 'org' }
  | { kind: 'workspace'; id: string }
  | { kind: 'group'; owner: string; group: GroupView }
  | { kind: 'limiter'; label: string; description: string };

/** The "Session Resources" view: session ids the author added, their resources a page at a time. */
export class SessionsTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly pagers = new Map<string, ResourcePager>();
  private readonly nodes = new Map<string, Node>();
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly state: vscode.Memento,
    private readonly api: Api,
    private readonly limit: () => number,
    private readonly view?: vscode.TreeView<Node>,
  ) {}

  get sessions(): string[] {
    return this.state.get<string[]>(SESSIONS_KEY, []);
  }

  async addSession(id?: string): Promise<void> {
    const value =
      id ??
      (await vscode.window.showInputBox({
        title: 'Add session',
        prompt: 'A session id (listing sessions is not part of the API, so paste the id).',
        placeHolder: 'ses_…',
        ignoreFocusOut: true,
        validateInput: v =>
          !v.trim()
            ? 'Enter a session id.'
            : /[\s/?#]/.test(v.trim())
              ? 'A session id has no spaces, slashes, ? or #.'
              : this.sessions.includes(v.trim())
                ? 'Already in the list.'
                : undefined,
      }));
    if (!value?.trim()) return;
    await this.state.update(SESSIONS_KEY, [...this.sessions, value.trim()]);
    this.changed.fire(undefined);
    // added at the end of a list that may be long and scrolled: show it, selected, with its first page
    await this.view?.reveal(this.sessionNode(value.trim()), { select: true, focus: true, expand: true });
  }

  /** Sessions are the roots (reveal asks). */
  getParent(n: Node): Node | undefined {
    return n.kind === 'resource' || n.kind === 'more' ? this.sessionNode(n.sessionId) : undefined;
  }

  async removeSession(node?: Node): Promise<void> {
    if (node?.kind !== 'session') return;
    this.pagers.delete(node.id);
    await this.state.update(
      SESSIONS_KEY,
      this.sessions.filter(s => s !== node.id),
    );
    this.changed.fire(undefined);
  }

  refresh(node?: Node): void {
    if (node?.kind === 'session') this.pagers.delete(node.id);
    else this.pagers.clear();
    this.changed.fire(node?.kind === 'session' ? this.sessionNode(node.id) : undefined);
  }

  private sessionNode(id: string): Node {
    const k = `s:${id}`;
    let n = this.nodes.get(k);
    if (!n) {
      n = { kind: 'session', id };
      this.nodes.set(k, n);
    }
    return n;
  }

  private pager(sessionId: string): ResourcePager {
    let p = this.pagers.get(sessionId);
    if (!p) {
      p = new ResourcePager(async cursor => {
        const client = await this.api.client();
        const it = client.resourcePages(sessionId, { limit: this.limit(), ...(cursor ? { page: cursor } : {}) });
        try {
          const r = await it.next();
          return (r.value as Page<SessionResource> | undefined) ?? { data: [], next_page: null };
        } finally {
          await it.return(undefined);
        }
      });
      this.pagers.set(sessionId, p);
    }
    return p;
  }

  async loadMore(node?: Node, all = false): Promise<void> {
    const id = node && 'sessionId' in node ? node.sessionId : undefined;
    if (!id) return;
    const p = this.pager(id);
    await vscode.window.withProgress({ location: { viewId: 'promptwright.sessions' } }, () =>
      all ? p.loadAll() : p.loadMore(),
    );
    this.changed.fire(this.sessionNode(id));
  }

  async attachFile(node?: Node): Promise<SessionResource | undefined> {
    const sessionId =
      node?.kind === 'session'
        ? node.id
        : await vscode.window.showQuickPick(this.sessions, { title: 'Attach a file to which session?' });
    if (!sessionId) return undefined;
    const fileId = await vscode.window.showInputBox({
      title: `Attach File to ${sessionId} (1/2)`,
      prompt: 'The file_id of a previously uploaded file',
      placeHolder: 'file_…',
      ignoreFocusOut: true,
      validateInput: v => checkAttachInput(v, ''),
    });
    if (!fileId) return undefined;
    const mount = await vscode.window.showInputBox({
      title: `Attach File to ${sessionId} (2/2)`,
      prompt: `Mount path (optional; Enter for the default ${defaultMountPath(fileId.trim())})`,
      placeHolder: defaultMountPath(fileId.trim()),
      ignoreFocusOut: true,
      validateInput: v => checkAttachInput(fileId, v),
    });
    if (mount === undefined) return undefined;
    try {
      const r = await (await this.api.client()).attachFile(sessionId, fileId.trim(), mount.trim() || undefined);
      void vscode.window.showInformationMessage(
        `Attached ${fileId.trim()} to ${sessionId} at ${String(r.mount_path)}.`,
      );
      this.refresh(this.sessionNode(sessionId));
      return r;
    } catch (e) {
      await this.api.showError(e, 'Attach File failed');
      return undefined;
    }
  }

  getTreeItem(n: Node): vscode.TreeItem {
    switch (n.kind) {
      case 'session': {
        const p = this.pagers.get(n.id);
        const it = new vscode.TreeItem(n.id, vscode.TreeItemCollapsibleState.Collapsed);
        it.iconPath = new vscode.ThemeIcon('server-environment');
        it.contextValue = 'session';
        it.description = p?.items.length ? `${p.items.length}${p.done ? '' : '+'} resources` : '';
        it.tooltip = `Session ${n.id}`;
        return it;
      }
      case 'resource': {
        const v = describeResource(n.resource);
        const it = new vscode.TreeItem(v.label, vscode.TreeItemCollapsibleState.None);
        it.description = v.description;
        it.iconPath = new vscode.ThemeIcon(v.icon);
        it.contextValue = `resource.${n.resource.type}`;
        const escape = (text: string) => text.replace(/[\\`*_[\]<>]/g, c => `\\${c}`);
        const fields = v.fields.map(([k, val]) => `- \`${k}\`: ${escape(val)}`).join('\n');
        const md = new vscode.MarkdownString(`**${n.resource.type}**\n\n${fields}`);
        it.tooltip = md;
        it.command = { command: 'promptwright.openResource', title: 'Open details', arguments: [n] };
        return it;
      }
      case 'more': {
        const it = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
        it.description = `${n.loaded} loaded · Load all from the context menu`;
        it.iconPath = new vscode.ThemeIcon('ellipsis');
        it.contextValue = 'more';
        it.command = { command: 'promptwright.loadMoreResources', title: 'Load more', arguments: [n] };
        return it;
      }
      case 'error': {
        const e = n.error as PromptwrightError;
        const it = new vscode.TreeItem(describeError(n.error), vscode.TreeItemCollapsibleState.None);
        it.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
        const todo =
          e?.action === 'set-api-key' || (e instanceof ApiError && e.status === 401)
            ? 'Run "Promptwright: Set API Key".'
            : e instanceof ApiError && e.status === 403
              ? 'The key lacks the scope this needs, or this needs an Admin API key.'
              : 'Click to retry.';
        it.tooltip = `${describeError(n.error)}\n\n${todo}`;
        it.contextValue = 'error';
        it.command =
          e?.action === 'set-api-key' || (e instanceof ApiError && e.status === 401)
            ? { command: 'promptwright.setApiKey', title: 'Set API Key' }
            : e?.action === 'set-admin-key' || (e instanceof ApiError && e.status === 403 && !n.sessionId)
              ? { command: 'promptwright.setAdminApiKey', title: 'Set Admin API Key' }
              : { command: 'promptwright.loadMoreResources', title: 'Retry', arguments: [n] };
        return it;
      }
      case 'empty': {
        const it = new vscode.TreeItem(n.text, vscode.TreeItemCollapsibleState.None);
        it.iconPath = new vscode.ThemeIcon('info');
        return it;
      }
      default:
        return new vscode.TreeItem('');
    }
  }

  async getChildren(n?: Node): Promise<Node[]> {
    if (!n) return this.sessions.map(id => this.sessionNode(id));
    if (n.kind !== 'session') return [];
    const p = this.pager(n.id);
    if (p.cursor === undefined && !p.error) await p.loadMore();
    const out: Node[] = p.items.map(resource => ({ kind: 'resource', sessionId: n.id, resource }));
    if (p.error) out.push({ kind: 'error', sessionId: n.id, error: p.error });
    else if (!p.done) out.push({ kind: 'more', sessionId: n.id, loaded: p.items.length });
    if (!out.length) out.push({ kind: 'empty', text: 'No resources attached.' });
    return out;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** Read-only JSON documents of resource details (GET …/resources/{id}). */
export class ResourceDocuments implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'promptwright-resource';
  private readonly cache = new Map<string, string>();
  constructor(private readonly api: Api) {}

  async open(node: Node): Promise<vscode.TextDocument | undefined> {
    if (node.kind !== 'resource') return undefined;
    const r = node.resource;
    const name = r.id ?? (typeof r.memory_store_id === 'string' ? r.memory_store_id : 'resource');
    const uri = vscode.Uri.from({ scheme: ResourceDocuments.scheme, path: `/${node.sessionId}/${name}.json` });
    try {
      // the memory_store variant has no id in its documented shape: show what the list returned
      const full = r.id ? await (await this.api.client()).getResource(node.sessionId, r.id) : r;
      this.cache.set(uri.toString(), `${JSON.stringify(full, null, 2)}\n`);
    } catch (e) {
      await this.api.showError(e, `Could not read ${name}`);
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.cache.get(uri.toString()) ?? '';
  }
}

/** The "Rate Limits" view (Admin key): the organization's limits and workspace overrides. */
export class RateLimitsTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private org: Promise<import('../core/api/types').RateLimitEntry[]> | undefined;

  constructor(
    private readonly state: vscode.Memento,
    private readonly api: Api,
    private readonly keys: Keys,
  ) {
    this.disposables.push(
      keys.onDidChange(k => {
        if (k === 'admin') this.refresh();
      }),
    );
  }

  get workspaces(): string[] {
    return this.state.get<string[]>(WORKSPACES_KEY, []);
  }

  refresh(): void {
    this.org = undefined;
    this.changed.fire(undefined);
  }

  async addWorkspace(id?: string): Promise<void> {
    const value =
      id ??
      (await vscode.window.showInputBox({
        title: "Show a workspace's rate-limit overrides",
        placeHolder: 'wrkspc_…',
        ignoreFocusOut: true,
        validateInput: v =>
          !v.trim()
            ? 'Enter a workspace id.'
            : isDefaultWorkspace(v)
              ? "The default workspace cannot have overrides: its limits are the organization's."
              : /[\s/?#]/.test(v.trim())
                ? 'A workspace id has no spaces, slashes, ? or #.'
                : undefined,
      }));
    if (!value?.trim() || this.workspaces.includes(value.trim())) return;
    await this.state.update(WORKSPACES_KEY, [...this.workspaces, value.trim()]);
    this.changed.fire(undefined);
  }

  async removeWorkspace(n?: Node): Promise<void> {
    if (n?.kind !== 'workspace') return;
    await this.state.update(
      WORKSPACES_KEY,
      this.workspaces.filter(w => w !== n.id),
    );
    this.changed.fire(undefined);
  }

  private orgLimits() {
    this.org ??= this.api.client().then(c => c.rateLimits());
    const p = this.org;
    p.catch(() => {
      if (this.org === p) this.org = undefined;
    });
    return p;
  }

  /** Organization and workspace nodes are at the root (reveal needs to know). */
  getParent(): Node | undefined {
    return undefined;
  }

  /** Shows a workspace's overrides in the view (from the Organization view's "Show Rate Limits"). */
  async reveal(view: vscode.TreeView<Node>, workspaceId: string): Promise<void> {
    await view.reveal({ kind: 'workspace', id: workspaceId }, { select: true, focus: true, expand: true });
  }

  getTreeItem(n: Node): vscode.TreeItem {
    switch (n.kind) {
      case 'org': {
        const it = new vscode.TreeItem('Organization', vscode.TreeItemCollapsibleState.Expanded);
        it.iconPath = new vscode.ThemeIcon('organization');
        return it;
      }
      case 'workspace': {
        const it = new vscode.TreeItem(`Workspace ${n.id}`, vscode.TreeItemCollapsibleState.Collapsed);
        it.id = `workspace:${n.id}`;
        it.iconPath = new vscode.ThemeIcon('folder-library');
        it.contextValue = 'workspace';
        it.tooltip =
          "Overrides of this workspace; groups and limiters without an override inherit the organization's values.";
        return it;
      }
      case 'group': {
        const g = n.group;
        const it = new vscode.TreeItem(g.groupType, vscode.TreeItemCollapsibleState.Expanded);
        it.description = [g.models?.join(', '), g.inherited ? "inherits the organization's limits" : '']
          .filter(Boolean)
          .join(' · ');
        it.iconPath = new vscode.ThemeIcon(g.inherited ? 'arrow-up' : 'dashboard');
        return it;
      }
      case 'limiter': {
        const it = new vscode.TreeItem(n.label);
        it.description = n.description;
        it.iconPath = new vscode.ThemeIcon('symbol-number');
        return it;
      }
      case 'error': {
        const it = new vscode.TreeItem(describeError(n.error));
        it.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
        const e = n.error as PromptwrightError;
        it.command =
          e?.action === 'set-admin-key' || (e instanceof ApiError && (e.status === 401 || e.status === 403))
            ? { command: 'promptwright.setAdminApiKey', title: 'Set Admin API Key' }
            : { command: 'promptwright.refreshRateLimits', title: 'Retry' };
        return it;
      }
      case 'empty': {
        const it = new vscode.TreeItem(n.text);
        it.iconPath = new vscode.ThemeIcon('info');
        return it;
      }
      default:
        return new vscode.TreeItem('');
    }
  }

  async getChildren(n?: Node): Promise<Node[]> {
    if (!n) {
      if (!(await this.keys.get('admin'))) return []; // the view's welcome text says how to add a key
      return [{ kind: 'org' }, ...this.workspaces.map(id => ({ kind: 'workspace' as const, id }))];
    }
    try {
      if (n.kind === 'org') {
        const groups = organizationView(await this.orgLimits());
        return groups.length
          ? groups.map(group => ({ kind: 'group' as const, owner: 'org', group }))
          : [{ kind: 'empty', text: 'No rate limits configured.' }];
      }
      if (n.kind === 'workspace') {
        const [org, ws] = await Promise.all([
          this.orgLimits(),
          this.api.client().then(c => c.workspaceRateLimits(n.id)),
        ]);
        return workspaceView(org, ws).map(group => ({ kind: 'group' as const, owner: n.id, group }));
      }
    } catch (e) {
      return [{ kind: 'error', error: e, ...(n.kind === 'workspace' ? { workspaceId: n.id } : {}) }];
    }
    if (n.kind === 'group') return n.group.limiters.map(l => ({ kind: 'limiter' as const, ...limiterText(l) }));
    return [];
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

export type { Node as TreeNode };
