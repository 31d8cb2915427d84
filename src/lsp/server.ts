// The language server for request, count and case files: the same checks, completion, hover and quick fixes
// as the VS Code extension (both are front ends over core/language), for any editor with an LSP client.
// Every handler answers for one document and catches what it throws: one bad document never costs the others,
// and a request the client cancelled is answered as cancelled.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  ErrorCodes,
  LSPErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type Connection,
  type Diagnostic,
  type InitializeParams,
  type InitializeResult,
  type Position,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ConfigError } from '../core/api/errors';
import { varsCompletions, placeholderHover } from '../core/language/caseAssist';
import { caseFixActions, fixActions, problemAt } from '../core/language/fixActions';
import { modelCompletions, modelHover, modelValueAt, type LoadedModels } from '../core/language/modelAssist';
import { schemaCompletions, schemaHover, type FileKind } from '../core/language/schemaAssist';
import { templateCompletions } from '../core/language/templateCompletion';
import type { CompletionData, HoverData } from '../core/language/types';
import { builtinEntries, type ModelCatalog } from '../core/models/catalog';
import { loadModelsFile } from '../core/models/file';
import { requestTemplates } from '../core/request/requestTemplates';
import type { Template } from '../core/request/templates';
import { formatOf } from '../core/fileNames';
import { Checks } from './checks';
import { ServerConfig } from './config';
import { ADD_BETA, codeAction, completionItem, COUNT_TOKENS, hover } from './convert';
import { Files, pathOf } from './files';
import { Lenses } from './lenses';
import { Log } from './log';

type Endpoint = 'messages' | 'count_tokens';
const isRequestKind = (k: FileKind | undefined): k is Endpoint => k === 'messages' || k === 'count_tokens';

export class Server {
  private readonly documents = new TextDocuments(TextDocument);
  private readonly config: ServerConfig;
  private readonly files: Files;
  private readonly log: Log;
  private readonly checks: Checks;
  private readonly lenses: Lenses;
  private templates: Template[] | undefined;
  private snippets = false;
  private pullsConfiguration = false;
  /** the last word on where counts go (logService) */
  private saidService = '';
  private models: { file: string; mtime: number; loaded: LoadedModels } | undefined;

  constructor(
    private readonly connection: Connection,
    env: NodeJS.ProcessEnv,
  ) {
    this.config = new ServerConfig(env);
    this.files = new Files(this.config.settings);
    this.log = new Log(connection, () => this.config.secrets);
    this.checks = new Checks(
      connection,
      this.documents,
      this.config,
      this.files,
      () => this.loaded().catalog,
      this.log,
    );
    this.lenses = new Lenses(connection, this.config, this.log);
    this.checks.counts = (uri, state) => this.lenses.counts(state, uri);
    this.lenses.onCounted = uri => this.checks.republish(uri);
    this.checks.onChecked = (doc, state) => this.lenses.checked(doc, state);
    this.register();
  }

  listen(): void {
    this.documents.listen(this.connection);
    this.connection.listen();
  }

  private register(): void {
    const c = this.connection;
    c.onInitialize(p => this.initialize(p));
    c.onInitialized(() => void this.initialized());
    c.onDidChangeConfiguration(p => void this.configurationChanged(p.settings));
    c.onShutdown(() => {
      this.checks.dispose();
      this.lenses.dispose();
    });
    // an open is checked at once; the change event that follows it for the same text is not a change
    const opened = new Set<string>();
    this.documents.onDidOpen(e => {
      opened.add(e.document.uri);
      this.checks.schedule(e.document.uri, 0);
    });
    this.documents.onDidChangeContent(e => {
      if (!opened.delete(e.document.uri)) this.checks.schedule(e.document.uri);
    });
    this.documents.onDidClose(e => {
      this.lenses.forget(e.document.uri);
      this.checks.closed(e.document.uri);
    });
    c.onCompletion((p, token) => this.guard('completion', token, () => this.complete(p.textDocument.uri, p.position)));
    c.onHover((p, token) => this.guard('hover', token, () => this.hover(p.textDocument.uri, p.position)));
    c.onCodeAction((p, token) =>
      this.guard('code actions', token, () => this.codeActions(p.textDocument.uri, p.context.diagnostics)),
    );
    c.onCodeLens((p, token) => this.guard('code lenses', token, () => this.codeLenses(p.textDocument.uri)));
    c.onExecuteCommand((p, token) =>
      this.guard('command', token, () => this.execute(p.command, p.arguments ?? [], token)),
    );
  }

  private initialize(p: InitializeParams): InitializeResult {
    this.config.setInitial(p.initializationOptions);
    const roots = p.workspaceFolders?.map(f => f.uri) ?? (p.rootUri ? [p.rootUri] : []);
    this.files.roots = roots.filter(u => u.startsWith('file:')).map(pathOf);
    this.snippets = !!p.capabilities.textDocument?.completion?.completionItem?.snippetSupport;
    this.pullsConfiguration = !!p.capabilities.workspace?.configuration;
    this.lenses.refreshSupport = !!p.capabilities.workspace?.codeLens?.refreshSupport;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        // after `key: ` a YAML field's values, after `"` a JSON key or value
        completionProvider: { triggerCharacters: [' ', '"', ':', '-'] },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        codeLensProvider: { resolveProvider: false },
        executeCommandProvider: { commands: [ADD_BETA, COUNT_TOKENS] },
      },
      serverInfo: {
        name: 'promptwright',
        version: typeof PROMPTWRIGHT_VERSION === 'string' ? PROMPTWRIGHT_VERSION : 'dev',
      },
    };
  }

  private async initialized(): Promise<void> {
    if (this.pullsConfiguration) {
      void this.connection.client.register(DidChangeConfigurationNotification.type, { section: 'promptwright' });
      await this.pullConfiguration();
    }
    this.logService();
    this.log.info(`Promptwright language server: request files ${this.config.settings.requestFilePatterns.join(', ')}`);
    await this.checks.scan(this.files.roots);
  }

  /** Where counts go now, said when it changes: the address in use, or why nothing is sent. */
  private logService(): void {
    const { baseUrl, apiKey, refused } = this.config.service;
    const said = this.config.live
      ? `counting with count_tokens at ${baseUrl}`
      : `estimating tokens (≈)${refused ? `: ${refused}` : !apiKey || !baseUrl ? ': no service address or key' : ''}`;
    if (said !== this.saidService) this.log.info(`Promptwright language server: ${said}`);
    this.saidService = said;
  }

  private async pullConfiguration(): Promise<void> {
    try {
      const [section] = (await this.connection.workspace.getConfiguration([{ section: 'promptwright' }])) as unknown[];
      if (section !== null && typeof section === 'object') this.config.setCurrent(section);
    } catch (e) {
      this.log.warn(`the client's configuration could not be read: ${String(e)}`);
    }
  }

  private async configurationChanged(settings: unknown): Promise<void> {
    const pushed = settings !== null && typeof settings === 'object' && 'promptwright' in settings;
    if (pushed) this.config.setCurrent(settings);
    else if (this.pullsConfiguration) await this.pullConfiguration();
    this.logService();
    this.lenses.settingsChanged();
    this.checks.recheckAll();
  }

  /**
   * Runs a handler: a request the client has cancelled is answered as cancelled, and a failure of ours is
   * logged and answered with nothing, so one document never takes the server down.
   */
  private async guard<T>(what: string, token: CancellationToken, run: () => T | Promise<T>): Promise<T | null> {
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
    try {
      const result = await run();
      if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
      return result;
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      this.log.error(`${what} failed: ${e instanceof Error && e.stack ? e.stack : String(e)}`);
      return null;
    }
  }

  /** The model list: a saved one (`modelsFile`, PROMPTWRIGHT_MODELS), read again when it changes, or the table. */
  private loaded(): LoadedModels {
    const file = this.config.modelsFile;
    if (!file) return { source: 'builtin' };
    const abs = path.resolve(this.files.roots[0] ?? process.cwd(), file);
    let mtime = -1;
    try {
      mtime = fs.statSync(abs).mtimeMs;
    } catch {
      /* loadModelsFile says what is wrong */
    }
    if (this.models?.file === abs && this.models.mtime === mtime) return this.models.loaded;
    let loaded: LoadedModels;
    try {
      const catalog: ModelCatalog = loadModelsFile(abs, this.files.roots[0] ?? process.cwd());
      loaded = { catalog, source: 'file', file };
    } catch (e) {
      const why = e instanceof ConfigError ? e.message : String(e);
      this.log.show('warning', `Promptwright: the model list is not used (${why}); checking with the built-in table.`);
      loaded = { source: 'builtin', problem: why };
    }
    this.models = { file: abs, mtime, loaded };
    return loaded;
  }

  /** A document of ours at a position: its text, the offset, its format and kind. */
  private at(uri: string, position: Position) {
    const doc = this.documents.get(uri);
    const kind = this.files.kindOf(uri);
    if (!doc || !kind) return undefined;
    return { doc, kind, text: doc.getText(), offset: doc.offsetAt(position), format: formatOf(pathOf(uri)) };
  }

  private complete(uri: string, position: Position) {
    const here = this.at(uri, position);
    if (!here) return null;
    const { doc, kind, text, offset, format } = here;
    const schema = () => schemaCompletions(text, offset, kind, format);
    let items: CompletionData[] | undefined;
    if (kind === 'cases') {
      const request = this.checks.cases.get(uri)?.check;
      const vars =
        request?.requestText !== undefined && request.request
          ? varsCompletions(text, offset, position, format === 'yaml', {
              text: request.requestText,
              name: path.basename(request.request.path),
            })
          : undefined;
      items = vars ?? schema();
    } else {
      const parsed = this.checks.requestState(doc)?.validation.parsed;
      const at = modelValueAt(text, offset, format, parsed);
      if (at) {
        const loaded = this.loaded();
        items = modelCompletions(at, loaded.catalog?.entries() ?? builtinEntries(), loaded, format);
      } else {
        this.templates ??= requestTemplates();
        items = [...(templateCompletions(text, offset, format, this.templates) ?? []), ...(schema() ?? [])];
      }
    }
    return items?.length ? items.map(c => completionItem(doc, c, this.snippets)) : null;
  }

  private hover(uri: string, position: Position) {
    const here = this.at(uri, position);
    if (!here) return null;
    const { doc, kind, text, offset, format } = here;
    const schema = () => schemaHover(text, offset, kind, format);
    let found: HoverData | undefined;
    if (isRequestKind(kind)) {
      const state = this.checks.requestState(doc);
      const at = modelValueAt(text, offset, format, state?.validation.parsed);
      const caseFiles = this.checks.cases
        .forRequest(uri)
        .flatMap(({ key, entry }) =>
          entry.check.file ? [{ name: path.basename(pathOf(key)), file: entry.check.file }] : [],
        );
      found =
        (at && modelHover(at, this.loaded())) ??
        (state && this.lenses.hover(state, uri, offset)) ??
        placeholderHover(text, offset, caseFiles) ??
        schema();
    } else found = schema();
    return found ? hover(doc, found) : null;
  }

  private codeActions(uri: string, diagnostics: Diagnostic[]) {
    const doc = this.documents.get(uri);
    const kind = this.files.kindOf(uri);
    const ours = diagnostics.filter(d => d.source === 'Promptwright');
    if (!doc || !kind || !ours.length) return null;
    const text = doc.getText();
    const format = formatOf(pathOf(uri));
    const state = isRequestKind(kind) ? this.checks.requestState(doc) : undefined;
    return ours.flatMap(d => {
      if (typeof d.message !== 'string') return [];
      const at = { start: doc.offsetAt(d.range.start), end: doc.offsetAt(d.range.end), message: d.message };
      if (kind === 'cases') return caseFixActions(text, format, at).map(f => codeAction(uri, doc, d, f));
      const problem = state && problemAt(state.validation.problems, at);
      if (!state || !problem?.fixes) return [];
      return fixActions(text, format, state.validation.parsed, problem.fixes).map(f => codeAction(uri, doc, d, f));
    });
  }

  private codeLenses(uri: string) {
    const doc = this.documents.get(uri);
    const kind = this.files.kindOf(uri);
    if (!doc || !isRequestKind(kind)) return null;
    const state = this.checks.requestState(doc);
    return state ? this.lenses.lenses(doc, state) : null;
  }

  private async execute(command: string, args: unknown[], token: CancellationToken): Promise<null> {
    if (command === ADD_BETA && typeof args[0] === 'string') {
      this.config.addBeta(args[0]);
      this.checks.recheckAll();
      this.log.show(
        'info',
        `Promptwright: ${args[0]} is taken as sent for this session; add it to the "betas" setting to keep it.`,
      );
      return null;
    }
    if (command === COUNT_TOKENS && typeof args[0] === 'string') {
      const doc = this.documents.get(args[0]);
      const kind = this.files.kindOf(args[0]);
      if (!doc || !isRequestKind(kind)) return null;
      const service = this.config.service;
      if (!service.baseUrl || !service.apiKey) {
        this.log.show(
          'info',
          service.refused
            ? `Promptwright: the figures are local estimates (≈): ${service.refused}.`
            : 'Promptwright: the figures are local estimates (≈). To count with the service, set ' +
                'PROMPTWRIGHT_BASE_URL and PROMPTWRIGHT_API_KEY (or "baseUrl" and "apiKey" in the initialization ' +
                'options).',
        );
        return null;
      }
      const state = this.checks.requestState(doc);
      if (!state) return null;
      const counted = this.lenses.count(doc, state, true);
      token.onCancellationRequested(() => this.lenses.forget(doc.uri));
      await counted;
      return null;
    }
    throw new ResponseError(ErrorCodes.InvalidParams, `unknown command ${command}`);
  }
}

declare const PROMPTWRIGHT_VERSION: string | undefined;
