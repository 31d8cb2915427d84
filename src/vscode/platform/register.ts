// What every feature shares at activation: the log, the keys (their commands and the context keys the menus and
// the walkthrough read), every paged tree's "Load more…", and the read-only JSON documents.
import * as vscode from 'vscode';
import type { Activation } from './activation';
import { JsonDocuments } from './jsonDocuments';
import type { loadMore } from './pagedTree';

interface PlatformFeatures {
  /** the offline demo, which a real key ends */
  demo: { stop(): Promise<unknown> };
  loadMore: typeof loadMore;
  json: JsonDocuments;
}

export function registerPlatform(a: Activation<PlatformFeatures>): void {
  const { keys, log, lazy, features } = a;
  const updateKeyContext = async () => {
    const [api, admin, compliance] = await Promise.all([keys.get('api'), keys.get('admin'), keys.get('compliance')]);
    const set = (key: string, value: boolean) => vscode.commands.executeCommand('setContext', key, value);
    await Promise.all([
      // the walkthrough's first step completes on it (the offline demo's temporary key counts)
      set('promptwright.hasApiKey', !!api),
      set('promptwright.hasAdminKey', !!admin),
      set('promptwright.hasComplianceKey', !!compliance),
      // an Admin key reads the Activity Feed (doc3 §5 rule 4)
      set('promptwright.hasComplianceAccess', !!(admin || compliance)),
      // until a 403 says which scopes the new key has, the service decides (compliance/access.ts)
      set('promptwright.compliance.canDelete', !!compliance),
    ]);
  };
  void updateKeyContext();
  a.context.subscriptions.push(
    keys.onDidChange(() => void updateKeyContext()),
    vscode.workspace.registerTextDocumentContentProvider(JsonDocuments.scheme, {
      provideTextDocumentContent: async uri => (await features()).json.provideTextDocumentContent(uri),
    }),
    vscode.commands.registerCommand('promptwright.showLog', () => log.show()),
    // a real key ends the offline demo, whose temporary keys would otherwise stand in front of it
    vscode.commands.registerCommand('promptwright.setApiKey', async () => {
      await a.loaded()?.demo.stop();
      return keys.prompt('api');
    }),
    vscode.commands.registerCommand('promptwright.clearApiKey', () => keys.clear('api')),
    vscode.commands.registerCommand('promptwright.setAdminApiKey', async () => {
      await a.loaded()?.demo.stop();
      return keys.prompt('admin');
    }),
    vscode.commands.registerCommand('promptwright.clearAdminApiKey', () => keys.clear('admin')),
    vscode.commands.registerCommand('promptwright.setComplianceKey', async () => {
      await a.loaded()?.demo.stop();
      return keys.prompt('compliance');
    }),
    vscode.commands.registerCommand('promptwright.clearComplianceKey', () => keys.clear('compliance')),
    vscode.commands.registerCommand('promptwright.connectKey', async () => {
      const pick = await vscode.window.showQuickPick(
        [
          {
            label: 'Admin API key',
            description: 'sk-vendor-admin…',
            detail: 'Rate limits, the organization (workspaces, users, invites), and the Activity Feed',
            command: 'promptwright.setAdminApiKey',
          },
          {
            label: 'Compliance Access Key',
            description: 'sk-vendor-api01…',
            detail: 'The Activity Feed, linked organizations, chats, project attachments, and deletes',
            command: 'promptwright.setComplianceKey',
          },
        ],
        { title: 'Connect an Admin or Compliance key', placeHolder: 'Which key? It is kept in the secret storage.' },
      );
      if (pick) await vscode.commands.executeCommand(pick.command);
    }),
    // every paged tree's "Load more…" and Load All (vscode/platform/pagedTree.ts)
    lazy('promptwright.loadMore', (f, n) => f.loadMore(n)),
    lazy('promptwright.loadAll', (f, n) => f.loadMore(n, true)),
  );
}
