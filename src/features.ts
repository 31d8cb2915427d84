// Everything beyond checking and counting the open request file, as a bundle of its own
// (dist/features.js) that the extension loads on first use: the response panel and its runs, the
// session resources and rate limits views, the token breakdown, prompt test cases (checked here too: the
// activation bundle loads this one as soon as the workspace has a case file), generated cases and improved
// prompts.
import * as vscode from 'vscode';
import { AdminCommands } from './vscode/admin/adminCommands';
import { BatchesView } from './vscode/batches/batchesView';
import { OrgTree, type AdminNode } from './vscode/admin/orgTree';
import type { Api } from './vscode/platform/api';
import { CaseDiagnostics } from './vscode/cases/caseDiagnostics';
import { CaseLanguage } from './vscode/cases/caseLanguage';
import { CasesPanel } from './vscode/cases/casesPanel';
import type { CasesTestController } from './vscode/cases/casesTestController';
import { CasesTests } from './vscode/cases/casesTests';
import { Coauthor } from './vscode/coauthor/coauthor';
import { ComparePanel } from './vscode/compare/comparePanel';
import type { GitBase } from './vscode/git/gitBase';
import { ActivityPanel } from './vscode/compliance/activityPanel';
import { ComplianceAccess } from './vscode/compliance/access';
import { ComplianceCommands } from './vscode/compliance/complianceCommands';
import { ComplianceTree } from './vscode/compliance/complianceTree';
import type { Config } from './vscode/platform/config';
import { DemoBackend, openSample } from './vscode/demo/demo';
import { JsonDocuments } from './vscode/platform/jsonDocuments';
import { loadMore } from './vscode/platform/pagedTree';
import { ModelEditing } from './vscode/models/modelEditing';
import { Models } from './vscode/models/models';
import type { Log } from './vscode/platform/log';
import type { RequestDiagnostics } from './vscode/request/requestDiagnostics';
import { ResponsePanel } from './vscode/run/responsePanel';
import type { Recent } from './vscode/platform/recent';
import { PromptFilesTree } from './vscode/promptFiles/promptFilesTree';
import { Runner } from './vscode/run/runner';
import type { Keys } from './vscode/platform/secrets';
import { RateLimitsTree, type RateLimitNode } from './vscode/rateLimits/rateLimitsTree';
import { ResourceDocuments } from './vscode/sessions/resourceDocuments';
import { SessionsTree, type SessionNode } from './vscode/sessions/sessionsTree';
import { TokenBreakdown } from './vscode/tokens/tokenBreakdown';
import { McpTools } from './vscode/tools/mcpServers';

/** What the activation bundle hands over: the services both bundles share. */
export interface Host {
  context: vscode.ExtensionContext;
  log: Log;
  config: Config;
  keys: Keys;
  api: Api;
  diagnostics: RequestDiagnostics;
  /** views created at activation (their providers load with this bundle) */
  rateLimitsView: vscode.TreeView<RateLimitNode>;
  sessionsView: vscode.TreeView<SessionNode>;
  /** what was last counted and run, per file (the Prompts view shows it) */
  recent: Recent;
  orgView: vscode.TreeView<AdminNode>;
  /** the Test Explorer's controller of case files, made at activation (its items come with this bundle) */
  casesTesting: CasesTestController;
  /** files at a git revision (the status bar's delta, the breakdown's, Compare's columns) */
  git: GitBase;
}

export interface Features {
  panel: ResponsePanel;
  batches: BatchesView;
  runner: Runner;
  breakdown: TokenBreakdown;
  sessions: SessionsTree;
  resourceDocs: ResourceDocuments;
  rateLimits: RateLimitsTree;
  json: JsonDocuments;
  org: OrgTree;
  admin: AdminCommands;
  access: ComplianceAccess;
  activity: ActivityPanel;
  complianceTree: ComplianceTree;
  compliance: ComplianceCommands;
  demo: DemoBackend;
  openSample: typeof openSample;
  /** the command of every paged tree's "Load more…" row (and of Load All) */
  loadMore: typeof loadMore;
  caseDiagnostics: CaseDiagnostics;
  caseLanguage: CaseLanguage;
  cases: CasesPanel;
  casesTests: CasesTests;
  promptFiles: PromptFilesTree;
  models: Models;
  modelEditing: ModelEditing;
  compare: ComparePanel;
  coauthor: Coauthor;
  mcpTools: McpTools;
}

export function createFeatures(host: Host): Features {
  const { context, log, config, keys, api, diagnostics } = host;
  const panel = new ResponsePanel(context.extensionUri, log);
  const caseDiagnostics = new CaseDiagnostics(config, log);
  const runner = new Runner(config, api, diagnostics, panel, log, caseDiagnostics, host.recent);
  const breakdown = new TokenBreakdown(config, api, diagnostics, host.git);
  const sessions = new SessionsTree(context.workspaceState, api, () => config.resourcePageSize, host.sessionsView);
  const resourceDocs = new ResourceDocuments(api);
  const rateLimits = new RateLimitsTree(context.workspaceState, api, keys);
  const json = new JsonDocuments();
  const org = new OrgTree(api, keys, config);
  const admin = new AdminCommands(
    api,
    org,
    json,
    rateLimits,
    id => rateLimits.reveal(host.rateLimitsView, id),
    (group, item) => org.showCreated(host.orgView, group, item),
  );
  const access = new ComplianceAccess(api, keys);
  const complianceTree = new ComplianceTree(access, keys, config, context.workspaceState);
  const activity = new ActivityPanel(context.extensionUri, access, json, log, config, () => complianceTree.refresh());
  const compliance = new ComplianceCommands(access, complianceTree, json, log);
  const demo = new DemoBackend(config, keys, log, { sessions, rateLimits });
  const caseLanguage = new CaseLanguage(caseDiagnostics);
  const storage = { workspace: context.storageUri, global: context.globalStorageUri };
  const cases = new CasesPanel(context.extensionUri, config, api, caseDiagnostics, log, storage, host.git, host.recent);
  const casesTests = new CasesTests(host.casesTesting, caseDiagnostics, cases.runner, log);
  const promptFiles = new PromptFilesTree(config, host.recent);
  const models = new Models(context.globalState, config, keys, api, diagnostics, log);
  const modelEditing = new ModelEditing(models, config, diagnostics);
  const compare = new ComparePanel(context.extensionUri, config, api, host.git, log);
  const coauthor = new Coauthor(config, api, caseDiagnostics, cases, log);
  const batches = new BatchesView(
    api,
    log,
    context.globalState,
    vscode.Uri.joinPath(context.globalStorageUri, 'batches').fsPath,
  );
  // batch runs keep their batches where the Batches view polls them; it collects a batch whose run is gone
  cases.runner.batches = batches;
  batches.collector = cases.runner;
  context.subscriptions.push(
    panel,
    runner,
    breakdown,
    sessions,
    rateLimits,
    org,
    access,
    activity,
    complianceTree,
    demo,
    caseDiagnostics,
    caseLanguage,
    cases,
    casesTests,
    promptFiles,
    models,
    compare,
    coauthor,
    batches,
  );
  return {
    ...{ panel, runner, breakdown, sessions, resourceDocs, rateLimits, json, org, admin },
    ...{ access, activity, complianceTree, compliance, demo, openSample, caseDiagnostics, caseLanguage, cases },
    ...{ casesTests, promptFiles, models, modelEditing, compare, loadMore, coauthor, batches },
    mcpTools: new McpTools(diagnostics, api),
  };
}
