import * as vscode from 'vscode';
import { markdownCode, markdownText } from '../../core/text';
import { ApiError, describeError, type PromptwrightError } from '../../core/api/errors';
import type { RateLimitEntry } from '../../core/api/types';
import {
  groupSummary,
  groupText,
  isDefaultWorkspace,
  limiterText,
  organizationView,
  workspaceView,
  type GroupView,
} from '../../core/rateLimits/limits';
import type { Api } from '../platform/api';
import type { Keys } from '../platform/secrets';
import { Disposable } from '../platform/lifecycle';

const WORKSPACES_KEY = 'promptwright.rateLimitWorkspaces';

export type RateLimitNode =
  | { kind: 'org' }
  | { kind: 'workspace'; id: string }
  | { kind: 'group'; owner: string; group: GroupView }
  | { kind: 'limiter'; label: string; description: string }
  | { kind: 'error'; workspaceId?: string; error: unknown }
  | { kind: 'empty'; text: string };
type Node = RateLimitNode;

/** The "Rate Limits" view (Admin key): the organization's limits and workspace overrides. */
export class RateLimitsTree extends Disposable implements vscode.TreeDataProvider<Node> {
  private readonly changed = this.register(new vscode.EventEmitter<Node | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private org: Promise<RateLimitEntry[]> | undefined;

  constructor(
    private readonly state: vscode.Memento,
    private readonly api: Api,
    private readonly keys: Keys,
  ) {
    super();
    this.register(
      keys.onDidChange(k => {
        if (k === 'admin') this.refresh();
      }),
    );
  }

  /** the offline demo's workspace while the demo runs: shown first, never saved */
  private demoWorkspace: string | undefined;

  get workspaces(): string[] {
    const saved = this.state.get<string[]>(WORKSPACES_KEY, []);
    return this.demoWorkspace && !saved.includes(this.demoWorkspace) ? [this.demoWorkspace, ...saved] : saved;
  }

  /** Shows (or, with undefined, hides) the offline demo's workspace and its overrides. */
  showDemoWorkspace(id: string | undefined): void {
    this.demoWorkspace = id;
    this.refresh();
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
    await this.state.update(WORKSPACES_KEY, [...this.state.get<string[]>(WORKSPACES_KEY, []), value.trim()]);
    this.changed.fire(undefined);
  }

  async removeWorkspace(n?: Node): Promise<void> {
    if (n?.kind !== 'workspace') return;
    await this.state.update(
      WORKSPACES_KEY,
      this.state.get<string[]>(WORKSPACES_KEY, []).filter(w => w !== n.id),
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
        // in words, short enough for a narrow side bar; the models and the raw names are in the tooltip
        const g = n.group;
        const it = new vscode.TreeItem(groupText(g), vscode.TreeItemCollapsibleState.Expanded);
        it.description = g.inherited ? 'inherited' : '';
        it.iconPath = new vscode.ThemeIcon(g.inherited ? 'arrow-up' : 'dashboard');
        // the names, models and limiters are the service's: set in as text and code
        const tip = new vscode.MarkdownString(
          `**${markdownText(groupText(g))}** (${markdownCode(g.groupType)}): ${markdownText(groupSummary(g))}`,
        );
        if (g.inherited) tip.appendMarkdown("\n\nNo override: the workspace has the organization's limits.");
        if (g.models?.length) tip.appendMarkdown(`\n\nModels: ${g.models.map(m => markdownCode(m)).join(', ')}`);
        const limiters = g.limiters.map(l => `- ${markdownText(limiterText(l).label)} (${markdownCode(l.type)})`);
        tip.appendMarkdown(`\n\n${limiters.join('\n')}`);
        it.tooltip = tip;
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
}
