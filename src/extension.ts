// The composition root. Activation registers every command, view and provider and returns: what a request file
// needs (its diagnostics, token count, cache lenses and the API client: dist/editor.js) loads when the first
// request file is seen, the core bundle (dist/core.js) on the first check, and everything else
// (dist/features.js) on first use of a command or view, so opening an unrelated JSON file costs almost nothing.
import * as vscode from 'vscode';
import type { Editor } from './editor';
import type { Features, Host } from './features';
import type { Api } from './vscode/platform/api';
import type { CacheBreakpoints } from './vscode/cache/cacheBreakpoints';
import { ACTIVITY_VIEW_TYPE } from './protocol/activity';
import { CASES_VIEW_TYPE } from './protocol/cases';
import { COMPARE_VIEW_TYPE } from './protocol/compare';
import { RESPONSE_VIEW_TYPE } from './protocol/response';
import { CASE_FILE_EXCLUDE, CASE_FILE_GLOB, isCaseFile } from './core/fileNames';
import { createCasesTestController } from './vscode/cases/casesTestController';
import { addBeta, newRequestFile } from './vscode/request/requestCommands';
import { Config, endpointOf, isRequestFile } from './vscode/platform/config';
import type { AdminNode } from './vscode/admin/orgTree';
import type { BatchNode } from './vscode/batches/batchesView';
import type { ComplianceNode } from './vscode/compliance/complianceTree';
import { JsonDocuments } from './vscode/platform/jsonDocuments';
import { FORMER_COMMAND_IDS } from './vscode/platform/formerCommands';
import { loadBundle, reportLoads } from './vscode/platform/lazy';
import { Recent } from './vscode/platform/recent';
import { LazyTree } from './vscode/platform/lazyTree';
import { Log } from './vscode/platform/log';
import { QuickFixes } from './vscode/request/quickFixes';
import type { RequestDiagnostics } from './vscode/request/requestDiagnostics';
import { Keys } from './vscode/platform/secrets';
import type { RateLimitNode } from './vscode/rateLimits/rateLimitsTree';
import { ResourceDocuments } from './vscode/sessions/resourceDocuments';
import type { SessionNode } from './vscode/sessions/sessionsTree';
import { TemplateCompletion } from './vscode/request/templateCompletion';
import { SchemaAssist } from './vscode/request/schemaAssist';
import type { TokenStatus } from './vscode/tokens/tokenStatus';
import { PENDING_BATCHES_KEY } from './vscode/batches/pending';

// for dist/features.js, which takes these modules from this bundle instead of carrying copies (src/shared.ts)
export { shared } from './shared';

/** What activate() returns: a small surface the integration tests use to observe the extension. */
export interface PromptwrightApi {
  readonly log: Log;
  readonly config: Config;
  readonly diagnostics: RequestDiagnostics;
  readonly keys: Keys;
  readonly api: Api;
  readonly tokens: TokenStatus;
  readonly cache: CacheBreakpoints;
  /** the lazily loaded features (loads them) */
  features(): Promise<Features>;
  /** where the log channel's file is written */
  readonly logUri: vscode.Uri;
  /** the views that reveal what they show or add (what they show selected, for tests) */
  readonly rateLimitsView: vscode.TreeView<unknown>;
  readonly sessionsView: vscode.TreeView<unknown>;
  readonly orgView: vscode.TreeView<unknown>;
}

export function activate(context: vscode.ExtensionContext): PromptwrightApi {
  const log = new Log();
  reportLoads(line => log.info(line));
  const config = new Config();
  const keys = new Keys(context.secrets, log);
  const recent = new Recent(context.workspaceState);
  let edited: Editor | undefined;
  /** The request-file features (dist/editor.js), loaded when the first request file is seen or asked for. */
  const editor = (): Editor => {
    if (!edited) {
      const t0 = Date.now();
      const mod = loadBundle<typeof import('./editor')>('editor');
      const e = (edited = mod.createEditor({ context, log, config, keys, recent }));
      e.api.startDemo = async () => (await features()).demo.start({ quiet: true });
      context.subscriptions.push(
        e.diagnostics.onDidValidate(d => {
          if (!loaded && modelsWanted(e.diagnostics.state(d)?.validation)) void features();
        }),
      );
      log.info(`the request-file features started in ${Date.now() - t0} ms`);
    }
    return edited;
  };
  const promptFilesTree = new LazyTree(async () => (await features()).promptFiles);
  const sessionsTree = new LazyTree(async () => (await features()).sessions);
  const rateLimitsTree = new LazyTree(async () => (await features()).rateLimits);
  const orgTree = new LazyTree(async () => (await features()).org);
  const complianceTree = new LazyTree(async () => (await features()).complianceTree);
  const batchesTree = new LazyTree(async () => (await features()).batches);
  const rateLimitsView = vscode.window.createTreeView('promptwright.rateLimits', { treeDataProvider: rateLimitsTree });
  // views whose features reveal what they add (a session, a workspace, an invite)
  const sessionsView = vscode.window.createTreeView('promptwright.sessions', { treeDataProvider: sessionsTree });
  const orgView = vscode.window.createTreeView('promptwright.organization', { treeDataProvider: orgTree });
  // the Test Explorer lists case files from the start; it asks for them (and the features load) when shown
  const casesTesting = createCasesTestController(async () => (await features()).casesTests);
  const views = { rateLimitsView, sessionsView, orgView };
  let loaded: Features | undefined;
  const features = (): Promise<Features> => {
    if (!loaded) {
      const { api, diagnostics, git } = editor();
      const host: Host = { context, log, config, keys, api, diagnostics, ...views, recent, casesTesting, git };
      const t0 = Date.now();
      loaded = loadBundle<typeof import('./features')>('features').createFeatures(host);
      log.info(`the features started in ${Date.now() - t0} ms`);
    }
    return Promise.resolve(loaded);
  };
  /** A command whose implementation lives in the features bundle. */
  const lazy = (id: string, run: (f: Features, ...args: unknown[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => run(await features(), ...args));
  /** Whether a document is a request file, whose features (dist/editor.js) a provider may then load. */
  const requestFile = (d: vscode.TextDocument) => isRequestFile(d, config);
  const node = (n: unknown) => n as SessionNode;
  const rateLimitNode = (n: unknown) => n as RateLimitNode;
  const adminNode = (n: unknown) => n as AdminNode | undefined;
  const complianceNode = (n: unknown) => n as ComplianceNode | undefined;
  const batchNode = (n: unknown) => n as BatchNode | undefined;
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
  // case files are checked by the features bundle: it loads when one is opened, or when a request file is
  // and the workspace has a case file (its CodeLens and its placeholders' diagnostics come from there). The
  // workspace is searched then, once, not at activation: JSON and YAML files of any kind activate us.
  let searchedForCaseFiles = false;
  const loadForFile = (doc: vscode.TextDocument) => {
    if (!edited && requestFile(doc)) editor();
    if (loaded) return;
    if (isCaseFile(doc.fileName)) void features();
    else if (!searchedForCaseFiles && isRequestFile(doc, config)) {
      searchedForCaseFiles = true;
      void vscode.workspace.findFiles(CASE_FILE_GLOB, CASE_FILE_EXCLUDE, 1).then(found => {
        if (found.length) void features();
      });
    }
  };
  // the files open now are looked at once activation has returned
  const opened = setTimeout(() => vscode.workspace.textDocuments.forEach(loadForFile), 0);
  // the service's model list comes with the features bundle, on first need (vscode/models): a request file whose
  // model the built-in table does not know, or a list an earlier window kept; completion and hover on `model`
  const modelsWanted = (v: { problems: { code: string }[] } | undefined) =>
    v?.problems.some(p => p.code === 'unknown-model' || p.code === 'dated-model') ||
    context.globalState.keys().some(k => k.startsWith('promptwright.models.'));
  const onModelLine = (d: vscode.TextDocument, p: vscode.Position) =>
    isRequestFile(d, config) && /(^|")model["']?\s*:/.test(d.lineAt(p.line).text);
  // what the active editor holds, for the editor title's Send button and its key binding: a count_tokens
  // file (promptwright.countTokensFilePatterns) is counted, never sent
  const setActiveFile = () => {
    const doc = vscode.window.activeTextEditor?.document;
    const endpoint = doc && endpointOf(doc, config);
    const kind = endpoint === 'messages' ? 'request' : endpoint === 'count_tokens' ? 'count' : '';
    void vscode.commands.executeCommand('setContext', 'promptwright.activeFile', kind);
  };
  setActiveFile();
  const selector: vscode.DocumentSelector = [{ language: 'json' }, { language: 'yaml' }, { language: 'jsonc' }];
  const schemaAssist = new SchemaAssist(config, onModelLine);
  context.subscriptions.push(
    log,
    keys,
    { dispose: () => clearTimeout(opened) },
    sessionsTree,
    rateLimitsTree,
    orgTree,
    complianceTree,
    batchesTree,
    rateLimitsView,
    sessionsView,
    orgView,
    casesTesting,
    keys.onDidChange(() => void updateKeyContext()),
    vscode.languages.registerCodeActionsProvider(
      selector,
      new QuickFixes({ current: d => (requestFile(d) ? editor().diagnostics.current(d) : undefined) }),
      {
        providedCodeActionKinds: QuickFixes.kinds,
      },
    ),
    vscode.languages.registerCompletionItemProvider(selector, new TemplateCompletion(config)),
    // request, count and case files, JSON and YAML: completion and hover from the schema
    vscode.languages.registerCompletionItemProvider(SchemaAssist.selector, schemaAssist, ...SchemaAssist.triggers),
    vscode.languages.registerHoverProvider(SchemaAssist.selector, schemaAssist),
    vscode.window.registerTreeDataProvider('promptwright.compliance', complianceTree),
    vscode.window.registerTreeDataProvider('promptwright.batches', batchesTree),
    vscode.window.registerTreeDataProvider('promptwright.prompts', promptFilesTree),
    promptFilesTree,
    recent,
    vscode.workspace.registerTextDocumentContentProvider(JsonDocuments.scheme, {
      provideTextDocumentContent: async uri => (await features()).json.provideTextDocumentContent(uri),
    }),
    vscode.window.registerWebviewPanelSerializer(RESPONSE_VIEW_TYPE, {
      deserializeWebviewPanel: async panel => (await features()).panel.adopt(panel),
    }),
    vscode.window.registerWebviewPanelSerializer(ACTIVITY_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => (await features()).activity.adopt(panel, state),
    }),
    vscode.window.registerWebviewPanelSerializer(CASES_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => (await features()).cases.adopt(panel, state),
    }),
    vscode.window.registerWebviewPanelSerializer(COMPARE_VIEW_TYPE, {
      deserializeWebviewPanel: async panel => (await features()).compare.adopt(panel),
    }),
    vscode.workspace.onDidOpenTextDocument(loadForFile),
    vscode.languages.registerCompletionItemProvider(
      selector,
      {
        provideCompletionItems: async (d, p, t) =>
          onModelLine(d, p) ? (await features()).modelEditing.complete(d, p, t) : undefined,
      },
      '"',
    ),
    vscode.languages.registerHoverProvider(selector, {
      provideHover: async (d, p, t) => (onModelLine(d, p) ? (await features()).modelEditing.hover(d, p, t) : undefined),
    }),
    vscode.window.onDidChangeActiveTextEditor(setActiveFile),
    vscode.workspace.onDidChangeConfiguration(e => {
      if (Config.affects(e, 'requestFilePatterns', 'countTokensFilePatterns')) setActiveFile();
    }),
    vscode.workspace.registerTextDocumentContentProvider(ResourceDocuments.scheme, {
      provideTextDocumentContent: async uri => (await features()).resourceDocs.provideTextDocumentContent(uri),
    }),
    vscode.commands.registerCommand('promptwright.showLog', () => log.show()),
    vscode.commands.registerCommand('promptwright.newRequestFile', () => newRequestFile(editor().api)),
    vscode.commands.registerCommand('promptwright.addBeta', (beta?: string) =>
      addBeta(typeof beta === 'string' ? beta : undefined),
    ),
    // a real key ends the offline demo, whose temporary keys would otherwise stand in front of it
    vscode.commands.registerCommand('promptwright.setApiKey', async () => {
      await loaded?.demo.stop();
      return keys.prompt('api');
    }),
    vscode.commands.registerCommand('promptwright.clearApiKey', () => keys.clear('api')),
    vscode.commands.registerCommand('promptwright.setAdminApiKey', async () => {
      await loaded?.demo.stop();
      return keys.prompt('admin');
    }),
    vscode.commands.registerCommand('promptwright.clearAdminApiKey', () => keys.clear('admin')),
    vscode.commands.registerCommand('promptwright.setComplianceKey', async () => {
      await loaded?.demo.stop();
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
    vscode.commands.registerCommand('promptwright.countTokens', () => editor().tokens.countNow()),
    vscode.commands.registerCommand('promptwright.countCacheBreakpoints', (arg?: unknown) =>
      editor().cache.countNow(uriOf(arg)),
    ),
    lazy('promptwright.tokenBreakdown', f => f.breakdown.run()),
    lazy('promptwright.sendRequest', (f, arg) => f.runner.send(uriOf(arg))),
    lazy('promptwright.cancelRequest', f => f.runner.cancel()),
    lazy('promptwright.rerunRequest', f => f.runner.rerun()),
    lazy('promptwright.continueRequest', f => f.runner.continueRun()),
    lazy('promptwright.appendReply', f => f.runner.append()),
    lazy('promptwright.copyReplyText', f => f.runner.copyText()),
    lazy('promptwright.copyAsCurl', f => f.runner.copyCurl()),
    lazy('promptwright.saveTranscript', f => f.runner.saveTranscript()),
    lazy('promptwright.addSession', (f, id) => f.sessions.addSession(typeof id === 'string' ? id : undefined)),
    lazy('promptwright.removeSession', (f, n) => f.sessions.removeSession(node(n))),
    lazy('promptwright.refreshSessions', (f, n) => f.sessions.refresh(node(n))),
    // every paged tree's "Load more…" and Load All (vscode/platform/pagedTree.ts)
    lazy('promptwright.loadMore', (f, n) => f.loadMore(n)),
    lazy('promptwright.loadAll', (f, n) => f.loadMore(n, true)),
    lazy('promptwright.attachFile', (f, n) => f.sessions.attachFile(node(n))),
    lazy('promptwright.openResource', (f, n) => f.resourceDocs.open(node(n))),
    lazy('promptwright.addRateLimitWorkspace', (f, id) =>
      f.rateLimits.addWorkspace(typeof id === 'string' ? id : undefined),
    ),
    lazy('promptwright.removeRateLimitWorkspace', (f, n) => f.rateLimits.removeWorkspace(rateLimitNode(n))),
    lazy('promptwright.refreshRateLimits', f => f.rateLimits.refresh()),
    lazy('promptwright.refreshOrganization', f => f.org.refresh()),
    lazy('promptwright.showArchivedWorkspaces', f => f.org.setShowArchived(true)),
    lazy('promptwright.hideArchivedWorkspaces', f => f.org.setShowArchived(false)),
    lazy('promptwright.newWorkspace', f => f.admin.newWorkspace()),
    lazy('promptwright.editWorkspace', (f, n) => f.admin.editWorkspace(adminNode(n))),
    lazy('promptwright.archiveWorkspace', (f, n) => f.admin.archiveWorkspace(adminNode(n))),
    lazy('promptwright.openOrganizationJson', (f, n) => f.admin.openJson(adminNode(n))),
    lazy('promptwright.showWorkspaceRateLimits', (f, n) => f.admin.showRateLimits(adminNode(n))),
    lazy('promptwright.filterUsers', f => f.admin.filterUsers()),
    lazy('promptwright.clearUserFilter', f => f.org.setUserFilter(undefined)),
    lazy('promptwright.changeUserRole', (f, n) => f.admin.changeRole(adminNode(n))),
    lazy('promptwright.removeUser', (f, n) => f.admin.removeUser(adminNode(n))),
    lazy('promptwright.inviteUser', f => f.admin.invite()),
    lazy('promptwright.deleteInvite', (f, n) => f.admin.deleteInvite(adminNode(n))),
    lazy('promptwright.tryDemo', f => f.demo.start()),
    lazy('promptwright.stopDemo', f => f.demo.stop()),
    lazy('promptwright.openSample', f => f.openSample()),
    lazy('promptwright.openActivityFeed', f => f.activity.open()),
    lazy('promptwright.refreshCompliance', f => f.complianceTree.refresh()),
    lazy('promptwright.showUserChats', f => f.compliance.showChats()),
    lazy('promptwright.showProjectAttachments', (f, id) =>
      f.compliance.showProject(typeof id === 'string' ? id : undefined),
    ),
    lazy('promptwright.removeComplianceQuery', (f, n) => f.compliance.removeQuery(complianceNode(n))),
    lazy('promptwright.openComplianceJson', (f, n) => f.compliance.openJson(complianceNode(n))),
    lazy('promptwright.deleteChat', (f, n) => f.compliance.deleteChat(complianceNode(n))),
    lazy('promptwright.deleteProject', (f, n) => f.compliance.deleteProject(complianceNode(n))),
    lazy('promptwright.deleteFile', (f, n) => f.compliance.deleteFile(complianceNode(n))),
    lazy('promptwright.refreshBatches', f => f.batches.refresh()),
    lazy('promptwright.cancelBatch', (f, n) => f.batches.cancel(batchNode(n))),
    lazy('promptwright.collectBatch', (f, n) => f.batches.collect(batchNode(n))),
    lazy('promptwright.runCases', (f, arg) => f.cases.runCases(uriOf(arg))),
    // from the palette (the active case file or the grid's) or the grid's toolbar; a string argument answers N
    lazy('promptwright.runCasesSample', (f, arg, answer) =>
      f.cases.runSample(uriOf(arg), typeof answer === 'string' ? answer : undefined),
    ),
    // from the editor's title (its file), the palette (the active case file or the grid's) or the grid's toolbar
    lazy('promptwright.compareCases', (f, arg, ref) =>
      f.cases.compareCases(uriOf(arg), typeof ref === 'string' ? ref : undefined),
    ),
    lazy('promptwright.refreshPrompts', f => f.promptFiles.refresh()),
    // from the editor's title (its file) or the palette (the active file)
    lazy('promptwright.generateCases', (f, arg) => f.coauthor.generateCases(uriOf(arg))),
    // the walkthrough's link improves the sample request
    lazy('promptwright.improvePrompt', (f, arg) => f.coauthor.improvePrompt(arg === 'sample' ? arg : uriOf(arg))),
    lazy('promptwright.acceptProposal', f => f.coauthor.proposals.accept()),
    lazy('promptwright.declineProposal', f => f.coauthor.proposals.decline()),
    lazy('promptwright.compareImprovedPrompt', f => f.coauthor.compareImproved()),
    lazy('promptwright.cancelCases', f => f.cases.cancel()),
    lazy('promptwright.showCases', (f, arg) => f.cases.show(uriOf(arg))),
    lazy('promptwright.refreshModels', f => f.models.refresh()),
    lazy('promptwright.chooseModel', f => f.modelEditing.choose()),
    // from the editor's title (its file), the palette (the active file) or the response panel (its run's file)
    lazy('promptwright.compare', (f, arg) => f.compare.compare(uriOf(arg), undefined, f.runner.current?.uri)),
    // the ids commands had before they took one scheme: each runs its command, so no keybinding breaks
    ...Object.entries(FORMER_COMMAND_IDS).map(([former, id]) =>
      vscode.commands.registerCommand(former, (...args: unknown[]) => vscode.commands.executeCommand(id, ...args)),
    ),
  );
  log.info(`Promptwright ${(context.extension.packageJSON as { version: string }).version} activated`);
  // batches submitted before a reload that have not ended: polled again from the start (vscode/batches)
  if (context.globalState.get<number>(PENDING_BATCHES_KEY, 0) > 0) void features().then(f => f.batches.reload());
  // `npm start` without a service of its own: the offline demo from the start, as the walkthrough offers it
  if (process.env.PROMPTWRIGHT_DEMO === '1' && !config.baseUrl)
    void features().then(f => f.demo.start({ quiet: true }));
  return {
    log,
    config,
    keys,
    get diagnostics() {
      return editor().diagnostics;
    },
    get api() {
      return editor().api;
    },
    get tokens() {
      return editor().tokens;
    },
    get cache() {
      return editor().cache;
    },
    features,
    logUri: context.logUri,
    ...views,
  };
}

export function deactivate(): void {
  // everything is disposed through context.subscriptions
}

/** The file a command was given: a URI (the explorer, a CodeLens) or a node of the Prompts view. */
function uriOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const uri = (arg as { uri?: unknown } | undefined)?.uri;
  return uri instanceof vscode.Uri ? uri : undefined;
}
