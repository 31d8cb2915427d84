import * as vscode from 'vscode';
import { DEMO_KEY, startDemoServer, type DemoServer } from '../../core/demo/server';
import { SAMPLE_NAME, SAMPLE_REQUEST } from '../../core/demo/sample';
import type { Config } from '../platform/config';
import type { Log } from '../platform/log';
import type { Keys } from '../platform/secrets';

/**
 * The offline demo backend for a first look without an account: a local server with canned replies
 * (core/demo/server.ts). While it runs, the base URL and the API key point at it for this window only;
 * nothing is written to the settings or the secret storage, and stopping it puts everything back.
 */
export class DemoBackend implements vscode.Disposable {
  private server: DemoServer | undefined;
  private item: vscode.StatusBarItem | undefined;

  constructor(
    private readonly config: Config,
    private readonly keys: Keys,
    private readonly log: Log,
  ) {}

  get url(): string | undefined {
    return this.server?.url;
  }

  async start(): Promise<void> {
    if (!this.server) {
      this.server = await startDemoServer();
      this.config.demoBaseUrl = this.server.url;
      this.keys.setTemporary('api', DEMO_KEY);
      await vscode.commands.executeCommand('setContext', 'promptwright.demoActive', true);
      this.item = vscode.window.createStatusBarItem('promptwright.demo', vscode.StatusBarAlignment.Left, 0);
      this.item.name = 'Promptwright Offline Demo';
      this.item.text = '$(beaker) Offline demo';
      this.item.tooltip =
        'Promptwright is talking to its offline demo backend (canned replies, no model). Click to stop.';
      this.item.command = 'promptwright.stopDemo';
      this.item.show();
      this.log.info(`offline demo backend at ${this.server.url}`);
    }
    const open = 'Open a Sample Request';
    const pick = await vscode.window.showInformationMessage(
      'Promptwright is using its offline demo backend: replies are canned and no model runs. ' +
        'Nothing was saved to your settings; "Stop Offline Demo" puts them back.',
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
    this.item?.dispose();
    this.item = undefined;
    await vscode.commands.executeCommand('setContext', 'promptwright.demoActive', false);
    await server.close();
    this.log.info('offline demo backend stopped');
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
