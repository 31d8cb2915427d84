import * as vscode from 'vscode';
import { nameProblem, parseGeos, residencyProblem, roleProblem, tagProblems } from '../../core/admin/rules';
import {
  ASSIGNABLE_ROLES,
  WORKSPACE_DEFAULTS,
  type DataResidency,
  type Invite,
  type User,
  type Workspace,
  type WorkspaceUpdate,
} from '../../core/admin/types';
import { allowedText } from '../../core/admin/view';
import type { Api } from '../platform/api';
import type { JsonDocuments } from '../platform/jsonDocuments';
import { vscodePrompts, type Prompts } from '../platform/prompts';
import type { RateLimitsTree } from '../rateLimits/rateLimitsTree';
import type { AdminNode, Group, OrgTree } from './orgTree';

const KNOWN_GEOS = ['us', 'eu', 'global'];

/** `key=value, key=value` as workspace tags (the input box form). */
function parseTags(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const part of text
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0) return `"${part}" is not key=value.`;
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

const tagsText = (t: Record<string, string>) =>
  Object.entries(t)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');

/**
 * The Organization view's actions. Each checks what the spec says the service refuses before sending,
 * asks for a modal confirmation before anything destructive (cancel sends nothing), and shows the
 * service's error.type, message and request-id when it fails.
 */
export class AdminCommands {
  /** replaced by extension-host tests to answer the dialogs */
  prompts: Prompts = vscodePrompts;

  constructor(
    private readonly api: Api,
    private readonly tree: OrgTree,
    private readonly json: JsonDocuments,
    private readonly rateLimits: RateLimitsTree,
    private readonly revealRateLimits: (workspaceId: string) => Promise<void>,
    /** reveals a created workspace or invite in the Organization view */
    private readonly showCreated: (group: 'workspaces' | 'invites', item: Workspace | Invite) => Promise<void>,
  ) {}

  /**
   * Runs one call to the service; on failure shows what it said. Returns undefined on failure. The tree
   * shows the outcome: the group reloaded, or (`show`) what was created, revealed in it.
   */
  private async call<T>(
    what: string,
    run: () => Promise<T>,
    group?: Group,
    show?: (result: T) => Promise<void>,
  ): Promise<T | undefined> {
    let r: T;
    try {
      r = await run();
    } catch (e) {
      await this.api.showError(e, what);
      return undefined;
    }
    if (!show) this.tree.refresh(group);
    else await show(r).catch(() => this.tree.refresh(group)); // a reveal that fails still shows the list
    return r;
  }

  // ---- workspaces --------------------------------------------------------------------------------------

  /** New Workspace: name, workspace geo, allowed geos, default geo, tags (the defaults are the service's). */
  async newWorkspace(): Promise<Workspace | undefined> {
    const title = (n: number) => `New Workspace (${n}/5)`;
    const name = await this.prompts.input({
      title: title(1),
      prompt: 'Name of the workspace',
      ignoreFocusOut: true,
      validateInput: v => nameProblem(v),
    });
    if (name === undefined) return undefined;
    const geo = await this.pickGeo(title(2), 'Workspace geo: where its data lives. It cannot be changed later.', [
      WORKSPACE_DEFAULTS.workspace_geo,
    ]);
    if (geo === undefined) return undefined;
    const allowedText = await this.prompts.input({
      title: title(3),
      prompt: 'Allowed inference geos: a comma-separated list, or unrestricted',
      value: 'unrestricted',
      placeHolder: 'unrestricted (default)',
      ignoreFocusOut: true,
      validateInput: v =>
        parseGeos(v) === 'unrestricted' || parseGeos(v).length ? undefined : 'Give geos, or unrestricted.',
    });
    if (allowedText === undefined) return undefined;
    const allowed = parseGeos(allowedText);
    const dflt = await this.pickGeo(
      title(4),
      'Default inference geo (used when a request names none)',
      allowed === 'unrestricted' ? [WORKSPACE_DEFAULTS.default_inference_geo] : allowed,
      allowed === 'unrestricted' ? undefined : allowed,
    );
    if (dflt === undefined) return undefined;
    const tags = await this.askTags(title(5), {});
    if (tags === undefined) return undefined;
    const data_residency: DataResidency = {
      workspace_geo: geo,
      allowed_inference_geos: allowed,
      default_inference_geo: dflt,
    };
    const created = await this.call(
      `Could not create workspace "${name}"`,
      async () => (await this.api.admin()).createWorkspace({ name: name.trim(), data_residency, tags }),
      'workspaces',
      w => this.showCreated('workspaces', w),
    );
    if (created) void vscode.window.showInformationMessage(`Workspace "${created.name}" created (${created.id}).`);
    return created;
  }

  /** A geo from a list (the first is the default) or typed in; `only` limits the choice. */
  private async pickGeo(
    title: string,
    placeHolder: string,
    defaults: string[],
    only?: string[],
  ): Promise<string | undefined> {
    const choices = only ?? [...new Set([...defaults, ...KNOWN_GEOS])];
    const items: (vscode.QuickPickItem & { geo?: string })[] = choices.map((g, i) => ({
      label: g,
      geo: g,
      ...(i === 0 && !only ? { description: 'default' } : {}),
    }));
    if (!only) items.push({ label: 'Other…', description: 'type a geo' });
    const pick = await this.prompts.pick(items, { title, placeHolder, ignoreFocusOut: true });
    if (!pick) return undefined;
    if (pick.geo) return pick.geo;
    return (
      (
        await this.prompts.input({
          title,
          prompt: placeHolder,
          ignoreFocusOut: true,
          validateInput: v => (v.trim() ? undefined : 'Give a geo.'),
        })
      )?.trim() ?? undefined
    );
  }

  private async askTags(title: string, current: Record<string, string>): Promise<Record<string, string> | undefined> {
    const text = await this.prompts.input({
      title,
      prompt: 'Tags as key=value, comma-separated (keys may not begin with "vendor"); empty for none',
      value: tagsText(current),
      ignoreFocusOut: true,
      validateInput: v => {
        const t = parseTags(v);
        return typeof t === 'string' ? t : tagProblems(t)[0];
      },
    });
    if (text === undefined) return undefined;
    const t = parseTags(text);
    return typeof t === 'string' ? undefined : t;
  }

  /** Edit: name, tags, allowed and default geos. The workspace geo is shown, and said to be fixed. */
  async editWorkspace(n?: AdminNode): Promise<Workspace | undefined> {
    if (n?.kind !== 'workspace') return undefined;
    const w = n.workspace;
    const r = w.data_residency;
    type Field = vscode.QuickPickItem & { field?: 'name' | 'tags' | 'allowed' | 'default' };
    const items: Field[] = [
      { label: 'Name', description: w.name, field: 'name' },
      { label: 'Tags', description: tagsText(w.tags) || 'none', field: 'tags' },
      { label: 'Allowed inference geos', description: allowedText(r.allowed_inference_geos), field: 'allowed' },
      { label: 'Default inference geo', description: r.default_inference_geo, field: 'default' },
      {
        label: `Workspace geo ${r.workspace_geo}: cannot be changed after creation`,
        kind: vscode.QuickPickItemKind.Separator,
      },
    ];
    const pick = await this.prompts.pick(items, { title: `Edit workspace ${w.name}`, placeHolder: 'What to change' });
    if (!pick?.field) return undefined;
    let body: WorkspaceUpdate | undefined;
    if (pick.field === 'name') {
      const name = await this.prompts.input({ title: 'Name', value: w.name, validateInput: v => nameProblem(v) });
      if (name !== undefined) body = { name: name.trim() };
    } else if (pick.field === 'tags') {
      const tags = await this.askTags('Tags', w.tags);
      if (tags !== undefined) body = { tags };
    } else if (pick.field === 'allowed') {
      const text = await this.prompts.input({
        title: 'Allowed inference geos',
        prompt: 'A comma-separated list, or unrestricted',
        value: allowedText(r.allowed_inference_geos),
        validateInput: v =>
          residencyProblem({ allowed_inference_geos: parseGeos(v), default_inference_geo: r.default_inference_geo }),
      });
      if (text !== undefined) body = { data_residency: { allowed_inference_geos: parseGeos(text) } };
    } else {
      const allowed = r.allowed_inference_geos;
      const dflt = await this.pickGeo(
        'Default inference geo',
        'One of the allowed geos',
        [r.default_inference_geo],
        allowed === 'unrestricted' ? undefined : allowed,
      );
      if (dflt !== undefined) body = { data_residency: { default_inference_geo: dflt } };
    }
    if (!body) return undefined;
    return this.call(
      `Could not update workspace ${w.name}`,
      async () => (await this.api.admin()).updateWorkspace(w.id, body),
      'workspaces',
    );
  }

  async archiveWorkspace(n?: AdminNode): Promise<Workspace | undefined> {
    if (n?.kind !== 'workspace') return undefined;
    const w = n.workspace;
    const ok = await this.prompts.confirm(
      `Archive workspace "${w.name}"?`,
      `${w.id} stops taking requests; archived workspaces stay listed under "Show Archived".`,
      'Archive',
    );
    if (!ok) return undefined;
    return this.call(
      `Could not archive workspace ${w.name}`,
      async () => (await this.api.admin()).archiveWorkspace(w.id),
      'workspaces',
    );
  }

  async openJson(n?: AdminNode): Promise<void> {
    if (!n) return;
    if (n.kind === 'workspace') await this.json.open(n.workspace.id, n.workspace);
    else if (n.kind === 'user') await this.json.open(n.user.id, n.user);
    else if (n.kind === 'invite') await this.json.open(n.invite.id, n.invite);
    else if (n.kind === 'org') await this.json.open(n.org.id, n.org);
  }

  async showRateLimits(n?: AdminNode): Promise<void> {
    if (n?.kind !== 'workspace') return;
    await this.rateLimits.addWorkspace(n.workspace.id);
    await this.revealRateLimits(n.workspace.id);
  }

  // ---- users -------------------------------------------------------------------------------------------

  async filterUsers(): Promise<void> {
    const email = await this.prompts.input({
      title: 'Filter users by e-mail',
      prompt: 'The exact e-mail address (empty to show everyone)',
      value: this.tree.userFilter ?? '',
    });
    if (email !== undefined) await this.tree.setUserFilter(email);
  }

  async changeRole(n?: AdminNode): Promise<User | undefined> {
    if (n?.kind !== 'user') return undefined;
    const u = n.user;
    // `admin` is never offered: the interface cannot give it (doc2 §4.2)
    const items = ASSIGNABLE_ROLES.map(role => ({
      label: role,
      ...(role === u.role ? { description: 'current' } : {}),
    }));
    const pick = await this.prompts.pick(items, { title: `Change the role of ${u.name} (${u.email})` });
    if (!pick || pick.label === u.role) return undefined;
    const problem = roleProblem(pick.label);
    if (problem) {
      void this.api.showError(problem);
      return undefined;
    }
    return this.call(
      `Could not change the role of ${u.name}`,
      async () => (await this.api.admin()).setRole(u.id, pick.label),
      'users',
    );
  }

  async removeUser(n?: AdminNode): Promise<boolean> {
    if (n?.kind !== 'user') return false;
    const u = n.user;
    const ok = await this.prompts.confirm(
      `Remove ${u.name} (${u.email}) from the organization?`,
      `${u.id} loses access to the organization and its workspaces at once.`,
      'Remove',
    );
    if (!ok) return false;
    return !!(await this.call(
      `Could not remove ${u.name}`,
      async () => (await this.api.admin()).removeUser(u.id),
      'users',
    ));
  }

  // ---- invites -----------------------------------------------------------------------------------------

  async invite(): Promise<Invite | undefined> {
    const email = await this.prompts.input({
      title: 'Invite (1/2)',
      prompt: 'E-mail address to invite',
      ignoreFocusOut: true,
      validateInput: v => (v.trim() ? undefined : 'Give an e-mail address.'),
    });
    if (email === undefined) return undefined;
    const pick = await this.prompts.pick(
      ASSIGNABLE_ROLES.map(role => ({ label: role })),
      { title: 'Invite (2/2)', placeHolder: `Role of ${email.trim()}` },
    );
    if (!pick) return undefined;
    const created = await this.call(
      `Could not invite ${email.trim()}`,
      async () => (await this.api.admin()).createInvite(email.trim(), pick.label),
      'invites',
      i => this.showCreated('invites', i),
    );
    if (created) void vscode.window.showInformationMessage(`Invited ${created.email} as ${created.role}.`);
    return created;
  }

  async deleteInvite(n?: AdminNode): Promise<boolean> {
    if (n?.kind !== 'invite') return false;
    const i = n.invite;
    const ok = await this.prompts.confirm(
      `Delete the invite of ${i.email}?`,
      `${i.id} (${i.role}, ${i.status}) can no longer be accepted.`,
      'Delete',
    );
    if (!ok) return false;
    return !!(await this.call(
      `Could not delete the invite of ${i.email}`,
      async () => (await this.api.admin()).deleteInvite(i.id),
      'invites',
    ));
  }
}
