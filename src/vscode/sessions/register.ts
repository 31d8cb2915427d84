// Session resources at activation: the view (its tree loads with the features), its commands, and the documents
// a resource opens as.
import * as vscode from 'vscode';
import { textOf, type Activation } from '../platform/activation';
import { LazyTree } from '../platform/lazyTree';
import { ResourceDocuments } from './resourceDocuments';
import type { SessionNode, SessionsTree } from './sessionsTree';

interface SessionsFeatures {
  sessions: SessionsTree;
  resourceDocs: ResourceDocuments;
}

/** Registers the view and its commands; returns the view (its features reveal what they add). */
export function registerSessions(a: Activation<SessionsFeatures>): vscode.TreeView<SessionNode> {
  const { lazy, features } = a;
  const tree = new LazyTree(async () => (await features()).sessions);
  const view = vscode.window.createTreeView('promptwright.sessions', { treeDataProvider: tree });
  const node = (n: unknown) => n as SessionNode;
  a.context.subscriptions.push(
    tree,
    view,
    vscode.workspace.registerTextDocumentContentProvider(ResourceDocuments.scheme, {
      provideTextDocumentContent: async uri => (await features()).resourceDocs.provideTextDocumentContent(uri),
    }),
    lazy('promptwright.addSession', (f, id) => f.sessions.addSession(textOf(id))),
    lazy('promptwright.removeSession', (f, n) => f.sessions.removeSession(node(n))),
    lazy('promptwright.refreshSessions', (f, n) => f.sessions.refresh(node(n))),
    lazy('promptwright.attachFile', (f, n) => f.sessions.attachFile(node(n))),
    lazy('promptwright.openResource', (f, n) => f.resourceDocs.open(node(n))),
  );
  return view;
}
