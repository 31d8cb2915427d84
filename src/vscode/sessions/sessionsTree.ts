import * as vscode from 'vscode';
import { markdownCode, markdownText } from '../../core/text';
import { ApiError, describeError, type PromptwrightError } from '../../core/api/errors';
import { firstPage } from '../../core/api/pager';
import type { SessionResource } from '../../core/api/types';
import { checkAttachInput, defaultMountPath, describeResource } from '../../core/sessions/resources';
import type { Api } from '../platform/api';
import { PagedTree, type ErrorView, type ErrorRow, type MoreRow, type PagedList } from '../platform/pagedTree';
import { Disposable } from '../platform/lifecycle';

const SESSIONS_KEY = 'promptwright.sessions';

export type SessionNode =
  | { kind: 'session'; id: string }
  | { kind: 'resource'; sessionId: string; resource: SessionResource }
  | MoreRow<SessionNode>
  | ErrorRow<SessionNode>
  | { kind: 'empty'; text: string };
type Node = SessionNode;

/** The "Session Resources" view: session ids the author added, their resources a page at a time. */
export class SessionsTree extends Disposable implements vscode.TreeDataProvider<Node> {
  private readonly changed = this.register(new vscode.EventEmitter<Node | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly pages = new PagedTree<Node>({ viewId: 'promptwright.sessions', changed: this.changed, explain });
  private readonly pagers = new Map<string, PagedList<SessionResource, Node>>();
  private readonly nodes = new Map<string, Node>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly api: Api,
    private readonly limit: () => number,
    private readonly view?: vscode.TreeView<Node>,
  ) {
    super();
  }

  /** the offline demo's session while the demo runs: shown first, never saved */
  private demoSession: string | undefined;

  get sessions(): string[] {
    const saved = this.state.get<string[]>(SESSIONS_KEY, []);
    return this.demoSession && !saved.includes(this.demoSession) ? [this.demoSession, ...saved] : saved;
  }

  /** Shows (or, with undefined, hides) the offline demo's session. */
  showDemoSession(id: string | undefined): void {
    this.demoSession = id;
    this.pagers.clear();
    this.changed.fire(undefined);
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
    await this.state.update(SESSIONS_KEY, [...this.state.get<string[]>(SESSIONS_KEY, []), value.trim()]);
    this.changed.fire(undefined);
    // added at the end of a list that may be long and scrolled: show it, selected, with its first page
    await this.view?.reveal(this.sessionNode(value.trim()), { select: true, focus: true, expand: true });
  }

  /** Sessions are the roots (reveal asks). */
  getParent(n: Node): Node | undefined {
    if (n.kind === 'resource') return this.sessionNode(n.sessionId);
    return n.kind === 'more' || n.kind === 'error' ? n.list?.parent() : undefined;
  }

  async removeSession(node?: Node): Promise<void> {
    if (node?.kind !== 'session') return;
    this.pagers.delete(node.id);
    await this.state.update(
      SESSIONS_KEY,
      this.state.get<string[]>(SESSIONS_KEY, []).filter(s => s !== node.id),
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

  private pager(sessionId: string): PagedList<SessionResource, Node> {
    let p = this.pagers.get(sessionId);
    if (!p) {
      p = this.pages.list(
        () => this.sessionNode(sessionId),
        async cursor => {
          const client = await this.api.client();
          return firstPage(
            client.resourcePages(sessionId, { limit: this.limit(), ...(cursor ? { page: cursor } : {}) }),
          );
        },
      );
      this.pagers.set(sessionId, p);
    }
    return p;
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
        // every field is the service's: set in as code and text
        const fields = v.fields.map(([k, val]) => `- ${markdownCode(k)}: ${markdownText(val)}`).join('\n');
        const md = new vscode.MarkdownString(`**${markdownText(n.resource.type)}**\n\n${fields}`);
        it.tooltip = md;
        it.command = { command: 'promptwright.openResource', title: 'Open details', arguments: [n] };
        return it;
      }
      case 'more':
      case 'error':
        return this.pages.item(n);
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
    // a view can still ask for a session just removed: it is not loaded again
    if (n.kind !== 'session' || !this.sessions.includes(n.id)) return [];
    const out: Node[] = await this.pager(n.id).rows(resource => ({ kind: 'resource', sessionId: n.id, resource }));
    if (!out.length) out.push({ kind: 'empty', text: 'No resources attached.' });
    return out;
  }
}

/** A failed page of resources: what failed, and the key to set when that is what it needs. */
function explain(e: unknown): ErrorView {
  const action = (e as PromptwrightError)?.action;
  const apiKey = action === 'set-api-key' || (e instanceof ApiError && e.status === 401);
  const todo = apiKey
    ? 'Run "Promptwright: Set API Key".'
    : e instanceof ApiError && e.status === 403
      ? 'The key lacks the scope this needs, or this needs an Admin API key.'
      : 'Click to retry.';
  const fix = apiKey
    ? { command: 'promptwright.setApiKey', title: 'Set API Key' }
    : action === 'set-admin-key'
      ? { command: 'promptwright.setAdminApiKey', title: 'Set Admin API Key' }
      : undefined;
  return { label: describeError(e), tooltip: `${describeError(e)}\n\n${todo}`, ...(fix ? { fix } : {}) };
}
