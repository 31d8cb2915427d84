import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { FileSource } from '../../core/cases/load';
import type { CaseFile } from '../../core/cases/types';
import type { ToolsSpec } from '../../core/tools/answers';
import type { Locate } from '../../core/request/parse';
import { ruleUrl } from '../../core/request/catalog';
import type { Problem, Severity } from '../../core/request/types';
import type { Config } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import type { Log } from '../platform/log';
import { CASE_FILE_EXCLUDE, CASE_FILE_GLOB, isCaseFile } from '../../core/fileNames';
import { LineIndex } from '../../core/text';
import { Disposable } from '../platform/lifecycle';
import { CaseIndex } from '../../core/language/workspace';

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** What is known of one case file: its parse, the request it names, and what checking the two found. */
export interface CaseEntry {
  uri: vscode.Uri;
  text: string;
  /** undefined when the file does not parse into a case file */
  file: CaseFile | undefined;
  locate: Locate;
  /** the request file it names, resolved against the case file's folder */
  requestUri: vscode.Uri | undefined;
  /** the request file's text (the editor's, when it is open), or undefined when it cannot be read */
  requestText: string | undefined;
  /** the request's own model: what the cases run on when the case file names no `models` */
  requestModel?: string;
  /** the judge prompt file `judge.prompt` names, checked with the case file */
  judgePromptUri?: vscode.Uri;
  caseDiagnostics: vscode.Diagnostic[];
  /** what this case file says about its request file (undefined placeholders) */
  requestDiagnostics: vscode.Diagnostic[];
  /** the dataset `dataset` names, and its problems (a ragged row, a column no placeholder uses…) */
  datasetUri?: vscode.Uri;
  datasetDiagnostics: vscode.Diagnostic[];
}

const key = (uri: vscode.Uri) => uri.toString();

/**
 * Knows every case file of the workspace (and any open elsewhere) and checks each with the request file it
 * names: the case file's own problems (schema, vars no placeholder uses, placeholders no case defines) and, in
 * the request file, its placeholders that no case defines. Both land in a collection of their own
 * (`promptwright-cases`), so a request file's own diagnostics stay exactly as they are. Checks are debounced
 * as you type, re-run when either file changes (in the editor or on disk), never throw, and one file that
 * cannot be checked never costs the others.
 */
export class CaseDiagnostics extends Disposable {
  readonly collection = this.register(vscode.languages.createDiagnosticCollection('promptwright-cases'));
  private readonly index = new CaseIndex<vscode.Uri, CaseEntry>(key, e => ({
    request: e.requestUri,
    files: [e.requestUri, e.judgePromptUri, e.datasetUri],
  }));
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /**
   * request files and datasets that hold diagnostics of ours, so they are cleared when no case file names them any
   * more
   */
  private readonly requestsShown = new Set<string>();
  private readonly changed = this.register(new vscode.EventEmitter<CaseEntry | undefined>());
  /** fires after a case file was checked (undefined: one was forgotten) */
  readonly onDidCheck = this.changed.event;
  /** resolves once the workspace's case files have been found and checked the first time */
  readonly ready: Promise<void>;

  constructor(
    private readonly config: Config,
    private readonly log: Log,
  ) {
    super();
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.{json,yaml,yml,csv,tsv,jsonl}');
    this.register(
      watcher,
      watcher.onDidCreate(uri => this.onDisk(uri)),
      watcher.onDidChange(uri => this.onDisk(uri)),
      watcher.onDidDelete(uri => this.onDisk(uri, true)),
      vscode.workspace.onDidOpenTextDocument(d => this.onText(d, 0)),
      vscode.workspace.onDidChangeTextDocument(e => {
        if (e.contentChanges.length) this.onText(e.document);
      }),
      // a closed file is read from disk again: what the editor held unsaved is gone
      vscode.workspace.onDidCloseTextDocument(d => this.onText(d, 0)),
    );
    this.ready = this.scan();
  }

  /** Every case file known, checked. */
  all(): CaseEntry[] {
    return this.index.all().map(e => e.entry);
  }

  get(uri: vscode.Uri): CaseEntry | undefined {
    return this.index.get(uri);
  }

  /** The case files that name a request file. */
  forRequest(uri: vscode.Uri): CaseEntry[] {
    return this.index.forRequest(uri).map(e => e.entry);
  }

  /** Checks a case file now (commands and tests); resolves with what is known of it. */
  async checkNow(uri: vscode.Uri): Promise<CaseEntry | undefined> {
    clearTimeout(this.timers.get(key(uri)));
    this.timers.delete(key(uri));
    return this.check(uri);
  }

  private async scan(): Promise<void> {
    try {
      const found = await vscode.workspace.findFiles(CASE_FILE_GLOB, CASE_FILE_EXCLUDE);
      const open = vscode.workspace.textDocuments.filter(d => isCaseFile(d.fileName)).map(d => d.uri);
      const unique = new Map([...found, ...open].map(u => [key(u), u]));
      await Promise.all([...unique.values()].map(u => this.check(u)));
    } catch (e) {
      this.log.error(`case files: could not list the workspace's case files: ${String(e)}`);
    }
  }

  /** An edit, or a file opened or closed: a case file is checked again, and so is every one naming a request. */
  private onText(doc: vscode.TextDocument, delay?: number): void {
    for (const u of this.index.changed(doc.uri, isCaseFile(doc.fileName), { kind: 'text' }).check)
      this.schedule(u, delay);
  }

  /** A file changed on disk (another program, a save, a git checkout). */
  private onDisk(uri: vscode.Uri, deleted = false): void {
    const open = vscode.workspace.textDocuments.some(d => key(d.uri) === key(uri));
    const work = this.index.changed(uri, isCaseFile(uri.path), { kind: 'disk', deleted, open });
    if (work.forget) this.forget(work.forget);
    for (const u of work.check) this.schedule(u, 0);
  }

  private schedule(uri: vscode.Uri, delay?: number): void {
    const k = key(uri);
    clearTimeout(this.timers.get(k));
    const wait = delay ?? this.config.validationDebounceMs;
    this.timers.set(
      k,
      setTimeout(() => {
        this.timers.delete(k);
        void this.check(uri);
      }, wait),
    );
  }

  /** Reads and checks one case file and its request file. Never throws. */
  private async check(uri: vscode.Uri): Promise<CaseEntry | undefined> {
    const latest = this.index.begin(uri);
    try {
      const text = await readText(uri);
      if (text === undefined) {
        this.forget(uri);
        return undefined;
      }
      const entry = await this.checkText(uri, text);
      if (!latest()) return this.index.get(uri); // a newer check is under way
      this.index.set(uri, entry);
      this.publish(entry);
      this.changed.fire(entry);
      return entry;
    } catch (e) {
      // one diagnostic and a log line: the file keeps a visible state, the others are checked as usual
      const message = e instanceof Error ? e.message : String(e);
      this.log.error(`case file check failed for ${uri.fsPath}: ${e instanceof Error && e.stack ? e.stack : message}`);
      if (!latest()) return undefined;
      const problem = coreBundle().couldNotCheck('case file', e, '"Promptwright: Show Log"');
      this.collection.set(uri, [diagnostic(problem, new LineIndex(' '))]);
      return undefined;
    }
  }

  private async checkText(uri: vscode.Uri, text: string): Promise<CaseEntry> {
    const lines = new LineIndex(text);
    const checked = await coreBundle().checkCaseText(
      text,
      uri.path,
      request => {
        const key = requestUriOf(uri, request);
        return key && { key, path: key.path };
      },
      readText,
      uri.scheme === 'file' ? uri.fsPath : undefined,
      openDataset,
    );
    const entry: CaseEntry = {
      uri,
      text,
      file: checked.file,
      locate: checked.locate,
      requestUri: checked.request?.key,
      requestText: checked.requestText,
      caseDiagnostics: checked.caseProblems.map(p => diagnostic(p, lines)),
      requestDiagnostics: [],
      ...(checked.dataset ? { datasetUri: checked.dataset.key } : {}),
      datasetDiagnostics: checked.datasetProblems.map(p =>
        ours(p, new vscode.Range(p.line - 1, p.column - 1, p.line - 1, (p.endColumn ?? p.column + 1) - 1)),
      ),
      ...(checked.requestModel ? { requestModel: checked.requestModel } : {}),
      ...(checked.judgePrompt ? { judgePromptUri: checked.judgePrompt.key } : {}),
    };
    if (checked.requestText === undefined) return entry;
    const requestLines = new LineIndex(checked.requestText);
    const where = checked.locate(['request']);
    entry.requestDiagnostics = checked.requestProblems.map(p => {
      const d = diagnostic(p, requestLines);
      // the case file that says so, one click away
      if (where)
        d.relatedInformation = [
          new vscode.DiagnosticRelatedInformation(
            new vscode.Location(uri, range(lines, where.start, where.end)),
            `named by ${uri.path.split('/').pop()}`,
          ),
        ];
      return d;
    });
    return entry;
  }

  /** Puts an entry's diagnostics in place, and those of every request file it names or used to. */
  private publish(entry: CaseEntry): void {
    this.collection.set(entry.uri, entry.caseDiagnostics);
    this.publishRequests();
  }

  /** A request file (or a dataset) shows what every case file naming it says, each problem once. */
  private publishRequests(): void {
    const byRequest = new Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[]; seen: Set<string> }>();
    const named = (e: CaseEntry) => [
      ...(e.requestUri ? [{ uri: e.requestUri, diagnostics: e.requestDiagnostics }] : []),
      ...(e.datasetUri ? [{ uri: e.datasetUri, diagnostics: e.datasetDiagnostics }] : []),
    ];
    for (const { entry: e } of this.index.all())
      for (const n of named(e)) {
        const k = key(n.uri);
        const slot = byRequest.get(k) ?? { uri: n.uri, diagnostics: [], seen: new Set<string>() };
        byRequest.set(k, slot);
        for (const d of n.diagnostics) {
          const { start, end } = d.range;
          const id = `${start.line}:${start.character}:${end.line}:${end.character}:${d.message}`;
          if (slot.seen.has(id)) continue;
          slot.seen.add(id);
          slot.diagnostics.push(d);
        }
      }
    for (const k of this.requestsShown) if (!byRequest.has(k)) this.collection.delete(vscode.Uri.parse(k));
    this.requestsShown.clear();
    for (const [k, slot] of byRequest) {
      this.collection.set(slot.uri, slot.diagnostics);
      this.requestsShown.add(k);
    }
  }

  private forget(uri: vscode.Uri): void {
    const known = this.index.forget(uri);
    this.collection.delete(uri);
    if (!known) return;
    this.publishRequests();
    this.changed.fire(undefined);
  }

  override dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    super.dispose();
  }
}

/** The request file a case file names: relative to the case file's folder (or absolute). */
export function requestUriOf(caseUri: vscode.Uri, request: string): vscode.Uri | undefined {
  if (!request) return undefined;
  if (/^([A-Za-z]:[\\/]|\/)/.test(request)) return vscode.Uri.file(request);
  if (caseUri.scheme === 'untitled') return undefined;
  return vscode.Uri.joinPath(caseUri, '..', request.replace(/\\/g, '/'));
}

/**
 * A dataset's text in chunks: the editor's when it is open (what is typed is checked), else the file on disk, read
 * 64 KB at a time (a dataset may be far larger than anything the editor should hold).
 */
export function openDataset(uri: vscode.Uri): Iterable<string> | AsyncIterable<Uint8Array> | undefined {
  const doc = vscode.workspace.textDocuments.find(d => key(d.uri) === key(uri));
  if (doc) return [doc.getText()];
  if (uri.scheme !== 'file' || !fs.statSync(uri.fsPath, { throwIfNoEntry: false })?.isFile()) return undefined;
  return fs.createReadStream(uri.fsPath, { highWaterMark: 65_536 });
}

/** The answers NAME.fixtures.yaml beside a case file records, none when there is no such file, or its error. */
export async function readFixtures(caseUri: vscode.Uri): Promise<ToolsSpec | string | undefined> {
  const uri = caseUri.with({ path: coreBundle().fixturesPathOf(caseUri.path) });
  const text = await readText(uri);
  if (text === undefined) return undefined;
  const read = coreBundle().parseFixtures(text, uri.path.split('/').pop() ?? uri.path);
  const error = read.records.find(r => r.severity === 'error');
  if (error) return `${error.file}:${error.line}:${error.column}: ${error.message}; nothing was sent.`;
  return read.tools;
}

/**
 * The files as the editor has them, for the shared loader (core/cases/load.ts): an open document's text (unsaved
 * edits count), else the file on disk (UTF-8 checked); undefined when there is no such file.
 */
export function editorSource(): FileSource {
  const open = new Map(vscode.workspace.textDocuments.filter(d => d.uri.scheme === 'file').map(d => [d.uri.fsPath, d]));
  return (abs, display) => {
    const doc = open.get(abs);
    if (doc) return { text: doc.getText() };
    return fs.statSync(abs, { throwIfNoEntry: false })?.isFile() ? coreBundle().readText(abs, display) : undefined;
  };
}

/** A file's text: the editor's when it is open (unsaved edits count), else what is on disk. */
async function readText(uri: vscode.Uri): Promise<string | undefined> {
  const doc = vscode.workspace.textDocuments.find(d => key(d.uri) === key(uri));
  if (doc) return doc.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

function range(lines: LineIndex, start: number, end: number): vscode.Range {
  const a = lines.position(start);
  const b = lines.position(end);
  return new vscode.Range(a.line, a.character, b.line, b.character);
}

function diagnostic(p: Problem, lines: LineIndex): vscode.Diagnostic {
  return ours(p, range(lines, p.start, p.end));
}

/** A problem at a range, with our source and its rule's code. */
function ours(p: Pick<Problem, 'code' | 'message' | 'severity'>, where: vscode.Range): vscode.Diagnostic {
  const d = new vscode.Diagnostic(where, p.message, SEVERITY[p.severity]);
  d.source = 'Promptwright';
  d.code = { value: p.code, target: vscode.Uri.parse(ruleUrl(p.code)) };
  return d;
}
