// Everything beyond checking and counting the open request file, as a bundle of its own
// (dist/features.js) that the extension loads on first use: the response panel and its runs, the
// session resources and rate limits views, the token breakdown.
import type * as vscode from 'vscode';
import type { Api } from './vscode/api';
import type { Config } from './vscode/config';
import type { Log } from './vscode/log';
import type { RequestDiagnostics } from './vscode/requestDiagnostics';
import { ResponsePanel } from './vscode/responsePanel';
import { Runner } from './vscode/runner';
import type { Keys } from './vscode/secrets';
import { RateLimitsTree, ResourceDocuments, SessionsTree } from './vscode/sessionsTree';
import { TokenBreakdown } from './vscode/tokenBreakdown';

/** What the activation bundle hands over: the services both bundles share. */
export interface Host {
  context: vscode.ExtensionContext;
  log: Log;
  config: Config;
  keys: Keys;
  api: Api;
  diagnostics: RequestDiagnostics;
}

export interface Features {
  panel: ResponsePanel;
  runner: Runner;
  breakdown: TokenBreakdown;
  sessions: SessionsTree;
  resourceDocs: ResourceDocuments;
  rateLimits: RateLimitsTree;
}

export function createFeatures(host: Host): Features {
  const { context, log, config, keys, api, diagnostics } = host;
  const panel = new ResponsePanel(context.extensionUri);
  const runner = new Runner(config, api, diagnostics, panel, log);
  const breakdown = new TokenBreakdown(config, api, diagnostics);
  const sessions = new SessionsTree(context.workspaceState, api, () => config.resourcePageSize);
  const resourceDocs = new ResourceDocuments(api);
  const rateLimits = new RateLimitsTree(context.workspaceState, api, keys);
  context.subscriptions.push(panel, runner, breakdown, sessions, rateLimits);
  return { panel, runner, breakdown, sessions, resourceDocs, rateLimits };
}
