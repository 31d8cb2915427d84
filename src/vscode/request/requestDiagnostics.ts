import * as vscode from 'vscode';
import { ruleUrl } from '../../core/request/catalog';
import type { ModelFacts } from '../../core/models/table';
import type { checkRequestText, PrefixCounts, RequestCheck } from '../../core/language/diagnostics';
import { checkDelay } from '../../core/language/workspace';
import type { Problem, Severity } from '../../core/request/types';
import { Config, endpointOf, isRequestFile } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import type { Log } from '../platform/log';
import { Disposable } from '../platform/lifecycle';

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};
/** Syntax problems VS Code's own JSON language features already report in `json` documents. */
const BUILTIN_JSON_CODES = new Set(['json-syntax', 'json-comment', 'json-trailing-comma']);

export interface DocumentState extends RequestCheck {
  version: number;
  /** the problem behind each diagnostic (for quick fixes) */
  problems: Map<vscode.Diagnostic, Problem>;
}

/**
 * Validates request files on open and as the author types (debounced; stale runs are dropped), and shows what
 * `promptwright check` and the language server say of them (core/language/diagnostics.ts): the validator's problems
 * and the cache breakpoints under the model's minimum, from the service's counts where the cache breakpoints have
 * them (`counts`), else the local estimate.
 */
export class RequestDiagnostics extends Disposable {
  readonly collection = this.register(vscode.languages.createDiagnosticCollection('promptwright'));
  private readonly states = new Map<string, DocumentState>();
  /** the version of each document whose check threw: asked again, it is not checked again (see current) */
  private readonly failed = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly changed = new vscode.EventEmitter<vscode.TextDocument>();
  /** fires after a document's diagnostics were updated */
  readonly onDidValidate = this.changed.event;

  constructor(
    private readonly config: Config,
    private readonly log: Log,
  ) {
    super();
    this.register(
      this.changed,
      vscode.workspace.onDidOpenTextDocument(d => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument(e => {
        if (e.contentChanges.length) this.schedule(e.document);
      }),
      vscode.workspace.onDidCloseTextDocument(d => this.forget(d.uri)),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (Config.affects(e, 'requestFilePatterns', 'countTokensFilePatterns', 'betas', 'cache')) this.revalidateAll();
      }),
    );
    this.revalidateAll();
  }

  state(doc: vscode.TextDocument): DocumentState | undefined {
    const s = this.states.get(doc.uri.toString());
    return s && s.version === doc.version ? s : undefined;
  }

  /** The validation of the document as it is now: the stored one if current, else validated now. */
  current(doc: vscode.TextDocument): DocumentState | undefined {
    // a version whose check threw stays unchecked: a listener of onDidValidate that asks for the current
    // state would otherwise check, fail and notify again, round and round
    if (this.failed.get(doc.uri.toString()) === doc.version) return undefined;
    return this.state(doc) ?? this.validateNow(doc);
  }

  /** the service's model list over the built-in table, once loaded (vscode/models); absent: the table */
  models: ModelFacts | undefined;

  /** Checks every request file again against another model list (or the built-in table alone). */
  setModels(models: ModelFacts | undefined): void {
    this.models = models;
    this.revalidateAll();
  }

  /** The validator; integration tests replace it to prove that a failing check cannot take the extension down. */
  validator: typeof checkRequestText = (text, fileName, settings) =>
    coreBundle().checkRequestText(text, fileName, settings);

  /** What the service counted of a document's cache prefixes (the cache breakpoints say); undefined: estimates. */
  counts: (doc: vscode.TextDocument) => PrefixCounts | undefined = () => undefined;

  /** Validates now (used by commands and tests) and returns the state. Never throws. */
  validateNow(doc: vscode.TextDocument): DocumentState | undefined {
    if (!isRequestFile(doc, this.config)) {
      this.forget(doc.uri);
      return undefined;
    }
    try {
      return this.validateUnguarded(doc);
    } catch (e) {
      // one diagnostic and a log line: the file keeps a visible state, the extension keeps running
      const message = e instanceof Error ? e.message : String(e);
      this.log.error(`validation failed for ${doc.uri.fsPath}: ${e instanceof Error && e.stack ? e.stack : message}`);
      const d = new vscode.Diagnostic(
        new vscode.Range(0, 0, 0, 1),
        `Promptwright could not check this file (${message}); ` + 'see "Promptwright: Show Log".',
        vscode.DiagnosticSeverity.Warning,
      );
      d.source = 'Promptwright';
      d.code = { value: 'internal-error', target: vscode.Uri.parse(ruleUrl('internal-error')) };
      this.collection.set(doc.uri, [d]);
      this.states.delete(doc.uri.toString());
      this.failed.set(doc.uri.toString(), doc.version);
      this.changed.fire(doc);
      return undefined;
    }
  }

  private validateUnguarded(doc: vscode.TextDocument): DocumentState {
    const t0 = Date.now();
    const check = this.validator(doc.getText(), doc.fileName, {
      betas: this.config.betas,
      endpoint: endpointOf(doc, this.config) ?? 'messages',
      cacheMinimumTokens: this.config.cacheMinimumTokens,
      ...(this.models ? { models: this.models } : {}),
    });
    const state: DocumentState = { version: doc.version, ...check, problems: new Map() };
    this.publish(doc, state);
    this.failed.delete(doc.uri.toString());
    this.states.set(doc.uri.toString(), state);
    const ms = Date.now() - t0;
    if (ms > 200) this.log.debug(`validated ${doc.uri.fsPath} (${doc.getText().length} chars) in ${ms} ms`);
    this.changed.fire(doc);
    return state;
  }

  /** Shows the document's diagnostics again, its checked text unchanged: what the service counted changed. */
  republish(doc: vscode.TextDocument): void {
    const state = this.state(doc);
    if (state) this.publish(doc, state);
  }

  private publish(doc: vscode.TextDocument, state: DocumentState): void {
    const builtinJson = doc.languageId === 'json' && !!vscode.extensions.getExtension('vscode.json-language-features');
    const problems = new Map<vscode.Diagnostic, Problem>();
    const diags: vscode.Diagnostic[] = [];
    for (const p of coreBundle().requestProblems(state, this.counts(doc))) {
      if (builtinJson && BUILTIN_JSON_CODES.has(p.code)) continue;
      const d = new vscode.Diagnostic(
        new vscode.Range(doc.positionAt(p.start), doc.positionAt(p.end)),
        p.message,
        SEVERITY[p.severity],
      );
      d.source = 'Promptwright';
      d.code = { value: p.code, target: vscode.Uri.parse(ruleUrl(p.code)) };
      diags.push(d);
      problems.set(d, p);
    }
    this.collection.set(doc.uri, diags);
    state.problems = problems;
  }

  private schedule(doc: vscode.TextDocument, delay?: number): void {
    if (!isRequestFile(doc, this.config)) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    const wait = delay ?? checkDelay(this.config, doc.getText().length);
    const version = doc.version;
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (doc.isClosed || doc.version !== version) return; // a newer edit has its own timer
        this.validateNow(doc);
      }, wait),
    );
  }

  private revalidateAll(): void {
    for (const doc of vscode.workspace.textDocuments) {
      if (isRequestFile(doc, this.config)) this.schedule(doc, 0);
      else this.forget(doc.uri);
    }
  }

  private forget(uri: vscode.Uri): void {
    this.collection.delete(uri);
    this.states.delete(uri.toString());
    this.failed.delete(uri.toString());
  }

  override dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    super.dispose();
  }
}
