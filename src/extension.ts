import * as vscode from 'vscode';
import { Log } from './vscode/log';
import { Config } from './vscode/config';
import { RequestDiagnostics } from './vscode/requestDiagnostics';
import { QuickFixes } from './vscode/quickFixes';
import { addBeta, newRequestFile } from './vscode/commands';
import { Keys } from './vscode/secrets';
import { Api } from './vscode/api';
import { TokenStatus } from './vscode/tokenStatus';
import { TokenBreakdown } from './vscode/tokenBreakdown';
import { ResponsePanel } from './vscode/responsePanel';
import { Runner } from './vscode/runner';
import { RateLimitsTree, ResourceDocuments, SessionsTree, type TreeNode } from './vscode/sessionsTree';

/** What activate() returns: a small surface the integration tests use to observe the extension. */
export interface PromptwrightApi {
  readonly log: Log;
  readonly config: Config;
  readonly diagnostics: RequestDiagnostics;
  readonly keys: Keys;
  readonly api: Api;
  readonly tokens: TokenStatus;
  readonly breakdown: TokenBreakdown;
  readonly runner: Runner;
  readonly sessions: SessionsTree;
  readonly rateLimits: RateLimitsTree;
  /** where the log channel's file is written */
  readonly logUri: vscode.Uri;
}

export function activate(context: vscode.ExtensionContext): PromptwrightApi {
  const log = new Log();
  const config = new Config();
  const diagnostics = new RequestDiagnostics(config, log);
  const keys = new Keys(context.secrets, log);
  const api = new Api(config, keys, log);
  const tokens = new TokenStatus(config, keys, api, diagnostics, log);
  const breakdown = new TokenBreakdown(config, api, diagnostics);
  const panel = new ResponsePanel(context.extensionUri);
  const runner = new Runner(config, api, diagnostics, panel, log);
  const sessions = new SessionsTree(context.workspaceState, api, () => config.resourcePageSize);
  const resourceDocs = new ResourceDocuments(api);
  const rateLimits = new RateLimitsTree(context.workspaceState, api, keys);
  const selector: vscode.DocumentSelector = [{ language: 'json' }, { language: 'yaml' }, { language: 'jsonc' }];
  context.subscriptions.push(
    log,
    diagnostics,
    vscode.languages.registerCodeActionsProvider(selector, new QuickFixes(diagnostics), { providedCodeActionKinds: QuickFixes.kinds }),
    vscode.commands.registerCommand('promptwright.showLog', () => log.show()),
    vscode.commands.registerCommand('promptwright.newRequestFile', () => newRequestFile()),
    vscode.commands.registerCommand('promptwright.addBeta', (beta?: string) => addBeta(typeof beta === 'string' ? beta : undefined)),
    keys,
    vscode.commands.registerCommand('promptwright.setApiKey', () => keys.prompt('api')),
    vscode.commands.registerCommand('promptwright.clearApiKey', () => keys.clear('api')),
    vscode.commands.registerCommand('promptwright.setAdminApiKey', () => keys.prompt('admin')),
    vscode.commands.registerCommand('promptwright.clearAdminApiKey', () => keys.clear('admin')),
    tokens,
    vscode.commands.registerCommand('promptwright.countTokens', () => tokens.countNow()),
    breakdown,
    vscode.commands.registerCommand('promptwright.tokenBreakdown', () => breakdown.run()),
    panel,
    runner,
    vscode.commands.registerCommand('promptwright.sendRequest', (uri?: vscode.Uri) => runner.send(uri instanceof vscode.Uri ? uri : undefined)),
    vscode.commands.registerCommand('promptwright.cancelRequest', () => runner.cancel()),
    vscode.commands.registerCommand('promptwright.rerunRequest', () => runner.rerun()),
    vscode.commands.registerCommand('promptwright.continueRequest', () => runner.continueRun()),
    vscode.commands.registerCommand('promptwright.appendReply', () => runner.append()),
    vscode.commands.registerCommand('promptwright.copyReplyText', () => runner.copyText()),
    vscode.commands.registerCommand('promptwright.copyAsCurl', () => runner.copyCurl()),
    vscode.commands.registerCommand('promptwright.saveTranscript', () => runner.saveTranscript()),
    sessions,
    rateLimits,
    vscode.workspace.registerTextDocumentContentProvider(ResourceDocuments.scheme, resourceDocs),
    vscode.commands.registerCommand('promptwright.addSession', (id?: string) => sessions.addSession(typeof id === 'string' ? id : undefined)),
    vscode.commands.registerCommand('promptwright.removeSession', (n?: TreeNode) => sessions.removeSession(n)),
    vscode.commands.registerCommand('promptwright.refreshSessions', (n?: TreeNode) => sessions.refresh(n)),
    vscode.commands.registerCommand('promptwright.loadMoreResources', (n?: TreeNode) => sessions.loadMore(n)),
    vscode.commands.registerCommand('promptwright.loadAllResources', (n?: TreeNode) => sessions.loadMore(n, true)),
    vscode.commands.registerCommand('promptwright.attachFile', (n?: TreeNode) => sessions.attachFile(n)),
    vscode.commands.registerCommand('promptwright.openResource', (n: TreeNode) => resourceDocs.open(n)),
    vscode.commands.registerCommand('promptwright.addRateLimitWorkspace', (id?: string) => rateLimits.addWorkspace(typeof id === 'string' ? id : undefined)),
    vscode.commands.registerCommand('promptwright.removeRateLimitWorkspace', (n?: TreeNode) => rateLimits.removeWorkspace(n)),
    vscode.commands.registerCommand('promptwright.refreshRateLimits', () => rateLimits.refresh()),
  );
  log.info(`Promptwright ${context.extension.packageJSON.version as string} activated`);
  return { log, config, diagnostics, keys, api, tokens, breakdown, runner, sessions, rateLimits, logUri: context.logUri };
}

export function deactivate(): void {
  // everything is disposed through context.subscriptions
}
