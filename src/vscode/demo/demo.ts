import * as vscode from 'vscode';
import { DEMO_KEYS, DEMO_SESSION, DEMO_WORKSPACE, startDemoServer, type DemoServer } from '../../core/demo/server';
import { SAMPLE_NAME, SAMPLE_REQUEST } from '../../core/demo/sample';
import type { Config } from '../platform/config';
import type { Log } from '../platform/log';
import type { Keys } from '../platform/secrets';
import type { RateLimitsTree } from '../rateLimits/rateLimitsTree';
import type { SessionsTree } from '../sessions/sessionsTree';

/** The views that show the demo's own session and workspace while it runs. */
export interface DemoViews {
  sessions: SessionsTree;
  rateLimits: RateLimitsTree;
}

/**
 * The offline demo for a first look without an account: a local server that answers every call the
 * extension makes (core/demo/server.ts), with sample data. While it runs, the base URL and the three keys
 * point at it for this window only, and its session and workspace show in the side bar; nothing is written
 * to the settings or the secret storage.
 */
export class DemoBackend implements vscode.Disposable {
  private server: DemoServer | undefined;
  private item: vscode.StatusBarItem | undefined;

  constructor(
    private readonly config: Config,
    private readonly keys: Keys,
    private readonly log: Log,
    private readonly views: DemoViews,
  ) {}

  get url(): string | undefined {
    return this.server?.url;
  }

  /** Starts the demo (once); `quiet` skips the notification (when the person already chose it in place). */
  async start(o: { quiet?: boolean } = {}): Promise<void> {
    if (!this.server) {
      this.server = await startDemoServer();
      this.config.demoBaseUrl = this.server.url;
      this.keys.setTemporary('api', DEMO_KEYS.api);
      this.keys.setTemporary('admin', DEMO_KEYS.admin);
      this.keys.setTemporary('compliance', DEMO_KEYS.compliance);
      this.views.sessions.showDemoSession(DEMO_SESSION);
      this.views.rateLimits.showDemoWorkspace(DEMO_WORKSPACE);
      await vscode.commands.executeCommand('setContext', 'promptwright.demoActive', true);
      this.item = vscode.window.createStatusBarItem('promptwright.demo', vscode.StatusBarAlignment.Left, 0);
      this.item.name = 'Promptwright Offline Demo';
      this.item.text = '$(beaker) Offline demo';
      this.item.tooltip =
        'Promptwright is talking to its offline demo (no model runs; sample sessions, limits, organization ' +
        'and compliance data). Click to stop it.';
      this.item.command = 'promptwright.stopDemo';
      this.item.show();
      this.log.info(`offline demo at ${this.server.url}`);
    }
    if (o.quiet) return;
    const open = 'Open a Sample Request';
    const pick = await vscode.window.showInformationMessage(
      'Promptwright is using its offline demo: no model runs, and the side bar shows sample sessions, rate ' +
        'limits, an organization and compliance data. It changes nothing in your settings or keys; ' +
        '"Stop Offline Demo" ends it.',
      open,
    );
    if (pick === open) await openSample();
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    const server = this.server;
    this.server = undefined;
    this.config.demoBaseUrl = undefined;
    this.keys.setTemporary('api', undefined);
    this.keys.setTemporary('admin', undefined);
    this.keys.setTemporary('compliance', undefined);
    this.views.sessions.showDemoSession(undefined);
    this.views.rateLimits.showDemoWorkspace(undefined);
    this.item?.dispose();
    this.item = undefined;
    await vscode.commands.executeCommand('setContext', 'promptwright.demoActive', false);
    await server.close();
    this.log.info('offline demo stopped');
  }

  dispose(): void {
    void this.stop();
  }
}

/**
 * Opens the sample request as an untitled file named like a request file (so it is checked and counted),
 * beside the workspace's first folder: nothing is written until the person saves it.
 */
export async function openSample(): Promise<vscode.TextEditor> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const path = folder ? vscode.Uri.joinPath(folder, SAMPLE_NAME).path : `/${SAMPLE_NAME}`;
  const uri = vscode.Uri.from({ scheme: 'untitled', path });
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc);
  if (!doc.getText()) await editor.edit(e => e.insert(new vscode.Position(0, 0), SAMPLE_REQUEST));
  return editor;
}
