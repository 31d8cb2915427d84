// The composition root. Activation makes the shared services and hands them to each feature folder's register
// function (src/vscode/<feature>/register.ts), which registers its commands, views and providers and returns:
// what a request file needs (its diagnostics, token count, cache lenses and the API client: dist/editor.js) loads
// when the first request file is seen, the core bundle (dist/core.js) on the first check, and everything else
// (dist/features.js) on first use of a command or view, so opening an unrelated JSON file costs almost nothing.
import * as vscode from 'vscode';
import type { Editor, EditorHost } from './editor';
import type { Features, Host } from './features';
import type { Api } from './vscode/platform/api';
import type { CacheBreakpoints } from './vscode/cache/cacheBreakpoints';
import { CASE_FILE_EXCLUDE, CASE_FILE_GLOB, isCaseFile } from './core/fileNames';
import { registerAdmin } from './vscode/admin/register';
import { registerBatches } from './vscode/batches/register';
import { registerCache } from './vscode/cache/register';
import { registerCases } from './vscode/cases/register';
import { registerCoauthor } from './vscode/coauthor/register';
import { registerCompare } from './vscode/compare/register';
import { registerCompliance } from './vscode/compliance/register';
import { registerDemo } from './vscode/demo/register';
import { modelsWanted, registerModels } from './vscode/models/register';
import type { Activation } from './vscode/platform/activation';
import { Config, isRequestFile } from './vscode/platform/config';
import { FORMER_COMMAND_IDS } from './vscode/platform/formerCommands';
import { loadBundle, reportLoads } from './vscode/platform/lazy';
import { Log } from './vscode/platform/log';
import { Recent } from './vscode/platform/recent';
import { registerPlatform } from './vscode/platform/register';
import { Keys } from './vscode/platform/secrets';
import { registerPromptFiles } from './vscode/promptFiles/register';
import { registerRateLimits } from './vscode/rateLimits/register';
import { registerRequest } from './vscode/request/register';
import type { RequestDiagnostics } from './vscode/request/requestDiagnostics';
import { registerRun } from './vscode/run/register';
import { registerSessions } from './vscode/sessions/register';
import { registerTokens } from './vscode/tokens/register';
import type { TokenStatus } from './vscode/tokens/tokenStatus';

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
  context.subscriptions.push(log, keys, recent);
  const a = bundles({ context, log, config, keys, recent }, () => ({ ...views, casesTesting }));
  // views whose features reveal what they add (a session, a workspace, an invite)
  const views = { rateLimitsView: registerRateLimits(a), sessionsView: registerSessions(a), orgView: registerAdmin(a) };
  const casesTesting = registerCases(a);
  for (const register of [registerPlatform, registerRequest, registerTokens, registerCache, registerRun]) register(a);
  for (const register of [registerCompliance, registerPromptFiles, registerCoauthor, registerModels, registerCompare])
    register(a);
  loadForOpenedFiles(a);
  context.subscriptions.push(
    // the ids commands had before they took one scheme: each runs its command, so no keybinding breaks
    ...Object.entries(FORMER_COMMAND_IDS).map(([former, id]) =>
      vscode.commands.registerCommand(former, (...args: unknown[]) => vscode.commands.executeCommand(id, ...args)),
    ),
  );
  log.info(`Promptwright ${(context.extension.packageJSON as { version: string }).version} activated`);
  registerBatches(a);
  registerDemo(a);
  return {
    log,
    config,
    keys,
    features: a.features,
    logUri: context.logUri,
    ...views,
    get diagnostics() {
      return a.editor().diagnostics;
    },
    get api() {
      return a.editor().api;
    },
    get tokens() {
      return a.editor().tokens;
    },
    get cache() {
      return a.editor().cache;
    },
  };
}

/**
 * The two bundles loaded on first use: the request-file features (dist/editor.js), when the first request file is
 * seen or asked for, and everything else (dist/features.js), which takes what activation made (`made`).
 */
function bundles(
  host: EditorHost,
  made: () => Pick<Host, 'rateLimitsView' | 'sessionsView' | 'orgView' | 'casesTesting'>,
): Activation<Features, Editor> {
  const { context, log } = host;
  let edited: Editor | undefined;
  let loaded: Features | undefined;
  const a: Activation<Features, Editor> = {
    ...host,
    editor: () => {
      if (edited) return edited;
      const t0 = Date.now();
      const e = (edited = loadBundle<typeof import('./editor')>('editor').createEditor(host));
      e.api.startDemo = async () => (await a.features()).demo.start({ quiet: true });
      context.subscriptions.push(
        e.diagnostics.onDidValidate(d => {
          if (!loaded && modelsWanted(context, e.diagnostics.state(d)?.validation)) void a.features();
        }),
      );
      log.info(`the request-file features started in ${Date.now() - t0} ms`);
      return e;
    },
    features: () => {
      if (!loaded) {
        const { api, diagnostics, git } = a.editor();
        const t0 = Date.now();
        const features = loadBundle<typeof import('./features')>('features');
        loaded = features.createFeatures({ ...host, api, diagnostics, git, ...made() });
        log.info(`the features started in ${Date.now() - t0} ms`);
      }
      return Promise.resolve(loaded);
    },
    loaded: () => loaded,
    lazy: (id, run) =>
      vscode.commands.registerCommand(id, async (...args: unknown[]) => run(await a.features(), ...args)),
  };
  return a;
}

/**
 * Case files are checked by the features bundle: it loads when one is opened, or when a request file is and the
 * workspace has a case file (its CodeLens and its placeholders' diagnostics come from there). The workspace is
 * searched then, once, not at activation: JSON and YAML files of any kind activate us. The files open now are
 * looked at once activation has returned.
 */
function loadForOpenedFiles(a: Activation<Features, Editor>): void {
  let searchedForCaseFiles = false;
  const loadForFile = (doc: vscode.TextDocument) => {
    if (isRequestFile(doc, a.config)) a.editor();
    if (a.loaded()) return;
    if (isCaseFile(doc.fileName)) void a.features();
    else if (!searchedForCaseFiles && isRequestFile(doc, a.config)) {
      searchedForCaseFiles = true;
      void vscode.workspace.findFiles(CASE_FILE_GLOB, CASE_FILE_EXCLUDE, 1).then(found => {
        if (found.length) void a.features();
      });
    }
  };
  const opened = setTimeout(() => vscode.workspace.textDocuments.forEach(loadForFile), 0);
  a.context.subscriptions.push(
    { dispose: () => clearTimeout(opened) },
    vscode.workspace.onDidOpenTextDocument(loadForFile),
  );
}

export function deactivate(): void {
  // everything is disposed through context.subscriptions
}
