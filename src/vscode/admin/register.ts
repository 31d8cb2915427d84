// Administration at activation: the Organization view (its tree loads with the features) and its commands.
import * as vscode from 'vscode';
import type { Activation } from '../platform/activation';
import { LazyTree } from '../platform/lazyTree';
import type { AdminCommands } from './adminCommands';
import type { AdminNode, OrgTree } from './orgTree';

/** Registers the view and its commands; returns the view (what is created is revealed in it). */
export function registerAdmin(a: Activation<{ org: OrgTree; admin: AdminCommands }>): vscode.TreeView<AdminNode> {
  const { lazy, features } = a;
  const tree = new LazyTree(async () => (await features()).org);
  const view = vscode.window.createTreeView('promptwright.organization', { treeDataProvider: tree });
  const node = (n: unknown) => n as AdminNode | undefined;
  a.context.subscriptions.push(
    tree,
    view,
    lazy('promptwright.refreshOrganization', f => f.org.refresh()),
    lazy('promptwright.showArchivedWorkspaces', f => f.org.setShowArchived(true)),
    lazy('promptwright.hideArchivedWorkspaces', f => f.org.setShowArchived(false)),
    lazy('promptwright.newWorkspace', f => f.admin.newWorkspace()),
    lazy('promptwright.editWorkspace', (f, n) => f.admin.editWorkspace(node(n))),
    lazy('promptwright.archiveWorkspace', (f, n) => f.admin.archiveWorkspace(node(n))),
    lazy('promptwright.openOrganizationJson', (f, n) => f.admin.openJson(node(n))),
    lazy('promptwright.showWorkspaceRateLimits', (f, n) => f.admin.showRateLimits(node(n))),
    lazy('promptwright.filterUsers', f => f.admin.filterUsers()),
    lazy('promptwright.clearUserFilter', f => f.org.setUserFilter(undefined)),
    lazy('promptwright.changeUserRole', (f, n) => f.admin.changeRole(node(n))),
    lazy('promptwright.removeUser', (f, n) => f.admin.removeUser(node(n))),
    lazy('promptwright.inviteUser', f => f.admin.invite()),
    lazy('promptwright.deleteInvite', (f, n) => f.admin.deleteInvite(node(n))),
  );
  return view;
}
