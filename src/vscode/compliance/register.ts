// Compliance at activation: the Compliance view (its tree loads with the features), its commands, and the
// Activity Feed panel VS Code restores after a reload.
import * as vscode from 'vscode';
import { ACTIVITY_VIEW_TYPE } from '../../protocol/activity';
import { textOf, type Activation } from '../platform/activation';
import { LazyTree } from '../platform/lazyTree';
import type { ActivityPanel } from './activityPanel';
import type { ComplianceCommands } from './complianceCommands';
import type { ComplianceNode, ComplianceTree } from './complianceTree';

interface ComplianceFeatures {
  complianceTree: ComplianceTree;
  compliance: ComplianceCommands;
  activity: ActivityPanel;
}

export function registerCompliance(a: Activation<ComplianceFeatures>): void {
  const { lazy, features } = a;
  const tree = new LazyTree(async () => (await features()).complianceTree);
  const node = (n: unknown) => n as ComplianceNode | undefined;
  a.context.subscriptions.push(
    tree,
    vscode.window.registerTreeDataProvider('promptwright.compliance', tree),
    vscode.window.registerWebviewPanelSerializer(ACTIVITY_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => (await features()).activity.adopt(panel, state),
    }),
    lazy('promptwright.openActivityFeed', f => f.activity.open()),
    lazy('promptwright.refreshCompliance', f => f.complianceTree.refresh()),
    lazy('promptwright.showUserChats', f => f.compliance.showChats()),
    lazy('promptwright.showProjectAttachments', (f, id) => f.compliance.showProject(textOf(id))),
    lazy('promptwright.removeComplianceQuery', (f, n) => f.compliance.removeQuery(node(n))),
    lazy('promptwright.openComplianceJson', (f, n) => f.compliance.openJson(node(n))),
    lazy('promptwright.deleteChat', (f, n) => f.compliance.deleteChat(node(n))),
    lazy('promptwright.deleteProject', (f, n) => f.compliance.deleteProject(node(n))),
    lazy('promptwright.deleteFile', (f, n) => f.compliance.deleteFile(node(n))),
  );
}
