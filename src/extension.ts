import * as vscode from 'vscode';
import { Log } from './vscode/log';
import { Config } from './vscode/config';

/** What activate() returns: a small surface the integration tests use to observe the extension. */
export interface PromptwrightApi {
  readonly log: Log;
  readonly config: Config;
}

export function activate(context: vscode.ExtensionContext): PromptwrightApi {
  const log = new Log();
  const config = new Config();
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand('promptwright.showLog', () => log.show()),
  );
  log.info(`Promptwright ${context.extension.packageJSON.version as string} activated`);
  return { log, config };
}

export function deactivate(): void {
  // everything is disposed through context.subscriptions
}
