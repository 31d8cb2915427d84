// Diagnostics: each request, count and case file the client opens is checked as `promptwright check` checks it
// (core/language/diagnostics.ts, core/language/caseCheck.ts), after a pause in typing, and its problems published
// with the same code, severity, range and message (where the service counted a cache prefix, its count is used).
// A case file also speaks about the request file it names (a placeholder some case gives no value): those problems
// join the request file's own, each said once. A check that fails is one problem at the top of its file; the other
// files are checked as usual.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection, Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocuments } from 'vscode-languageserver/node';
import { isCaseFile } from '../core/fileNames';
import { walk } from '../core/files';
import { checkCaseText, couldNotCheck, type CaseCheck } from '../core/language/caseCheck';
import type { ModelFacts } from '../core/models/table';
import { checkRequestText, requestProblems, type PrefixCounts, type RequestCheck } from '../core/language/diagnostics';
import { CaseIndex, checkDelay } from '../core/language/workspace';
import type { Problem } from '../core/request/types';
import type { ServerConfig } from './config';
import { datasetDiagnostic, diagnostic, positionsOf, type Positions } from './convert';
import { pathOf, uriOf, type Files } from './files';
import type { Log } from './log';

/** What a request or count file's last check found, for the version of the text it checked. */
export interface RequestState extends RequestCheck {
  version: number;
}

/** A case file's last check: of the client's text (a version) or of the file on disk. */
export interface CaseState {
  version?: number;
  check: CaseCheck<string>;
}

/** Case files looked for in the workspace folders at most, and files walked to find them. */
const SCAN_LIMIT = { caseFiles: 1000, files: 50_000 };

export class Checks {
  readonly requests = new Map<string, RequestState>();
  readonly cases = new CaseIndex<string, CaseState>(
    uri => uri,
    c => ({
      request: c.check.request?.key,
      files: [c.check.request?.key, c.check.judgePrompt?.key, c.check.dataset?.key],
    }),
  );
  /** each document's check to come: after a pause (a timer), or at once (an immediate) */
  private readonly timers = new Map<string, { cancel(): void }>();
  /** documents that have diagnostics published, so they are cleared when nothing speaks of them any more */
  private readonly shown = new Set<string>();
  /** called after a request file was checked (its lenses count what it now holds) */
  onChecked: (doc: TextDocument, state: RequestState) => void = () => {};
  /** what the service counted of a file's cache prefixes (with a key), or undefined: the local estimate */
  counts: (uri: string, state: RequestState) => PrefixCounts | undefined = () => undefined;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly config: ServerConfig,
    private readonly files: Files,
    private readonly models: () => ModelFacts | undefined,
    private readonly log: Log,
  ) {}

  /** Checks a document after `delay` ms (the settings' pause after typing when not given). */
  schedule(uri: string, delay?: number): void {
    this.timers.get(uri)?.cancel();
    const doc = this.documents.get(uri);
    const wait = delay ?? checkDelay(this.config.settings, doc?.getText().length ?? 0);
    const run = () => {
      this.timers.delete(uri);
      void this.check(uri);
    };
    // no pause: after the messages already read (the rest of a burst of edits), without a timer's millisecond
    if (wait === 0) {
      const immediate = setImmediate(run);
      this.timers.set(uri, { cancel: () => clearImmediate(immediate) });
    } else {
      const timer = setTimeout(run, wait);
      this.timers.set(uri, { cancel: () => clearTimeout(timer) });
    }
  }

  /** Every open document again (the settings or the model list changed). */
  recheckAll(): void {
    for (const doc of this.documents.all()) this.schedule(doc.uri, 0);
    for (const { key: uri } of this.cases.all()) if (!this.documents.get(uri)) void this.checkCaseFromDisk(uri);
  }

  /** A document closed: a case file is read from disk again (what the client held unsaved is gone). */
  closed(uri: string): void {
    this.timers.get(uri)?.cancel();
    this.timers.delete(uri);
    this.requests.delete(uri);
    if (this.cases.get(uri)) void this.checkCaseFromDisk(uri);
    else this.publishRequest(uri);
    // the case files that name it read it from disk now
    for (const caseUri of this.cases.readers(uri)) this.schedule(caseUri, 0);
  }

  /** The check of a request document as it is now: the last one if current, else one made now. */
  requestState(doc: TextDocument): RequestState | undefined {
    const s = this.requests.get(doc.uri);
    if (s && s.version === doc.version) return s;
    const kind = this.files.kindOf(doc.uri);
    if (kind !== 'messages' && kind !== 'count_tokens') return undefined;
    return this.checkRequest(doc, kind);
  }

  private async check(uri: string): Promise<void> {
    const doc = this.documents.get(uri);
    if (!doc) {
      if (this.cases.get(uri)) await this.checkCaseFromDisk(uri);
      return;
    }
    const kind = this.files.kindOf(uri);
    try {
      if (kind === 'cases') await this.checkCase(uri, doc.getText(), doc.version);
      else if (kind) this.checkRequest(doc, kind);
      else {
        this.requests.delete(uri);
        this.publishRequest(uri);
      }
    } catch (e) {
      // one problem at the top of the file and a line in the log: the other files are checked as usual
      this.log.error(`checking ${pathOf(uri)} failed: ${e instanceof Error && e.stack ? e.stack : String(e)}`);
      const problem = couldNotCheck(kind === 'cases' ? 'case file' : 'file', e, "the language server's log");
      this.publish(uri, [diagnostic(problem, positionsOf(doc.getText()))]);
    }
    // case files that name this one check it as it is now
    for (const caseUri of this.cases.readers(uri)) if (caseUri !== uri) this.schedule(caseUri, 0);
  }

  private checkRequest(doc: TextDocument, kind: 'messages' | 'count_tokens'): RequestState {
    const t0 = Date.now();
    const models = this.models();
    this.requests.delete(doc.uri);
    const check = checkRequestText(doc.getText(), pathOf(doc.uri), {
      betas: this.config.betas,
      endpoint: kind,
      cacheMinimumTokens: this.config.settings.cacheMinimumTokens,
      ...(models ? { models } : {}),
    });
    const state = { version: doc.version, ...check };
    this.requests.set(doc.uri, state);
    this.publishRequest(doc.uri);
    const ms = Date.now() - t0;
    if (ms > 500) this.log.info(`checked ${pathOf(doc.uri)} (${doc.getText().length} characters) in ${ms} ms`);
    this.onChecked(doc, state);
    return state;
  }

  /** Publishes a request file's diagnostics again (its counts came). */
  republish(uri: string): void {
    this.publishRequest(uri);
  }

  /** A case file read from disk (not open in the client): found in the workspace, or closed. */
  private async checkCaseFromDisk(uri: string): Promise<void> {
    const text = await readFile(pathOf(uri));
    if (text === undefined || this.documents.get(uri)) {
      if (text === undefined) this.forgetCase(uri);
      return;
    }
    try {
      await this.checkCase(uri, text, undefined);
    } catch (e) {
      this.log.error(`checking ${pathOf(uri)} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async checkCase(uri: string, text: string, version: number | undefined): Promise<void> {
    const latest = this.cases.begin(uri);
    const file = pathOf(uri);
    const check = await checkCaseText<string>(
      text,
      file,
      request => {
        if (!uri.startsWith('file:')) return undefined;
        const target = path.resolve(path.dirname(file), request.replace(/\\/g, '/'));
        return { key: uriOf(target), path: target };
      },
      key => this.documents.get(key)?.getText() ?? readFile(pathOf(key)),
      uri.startsWith('file:') ? file : undefined,
      key => {
        // the client's text when it holds the dataset, else the file, streamed
        const open = this.documents.get(key);
        if (open) return [open.getText()];
        const p = pathOf(key);
        return key.startsWith('file:') && fs.existsSync(p) && fs.statSync(p).isFile()
          ? fs.createReadStream(p, { highWaterMark: 65_536 })
          : undefined;
      },
    );
    if (!latest()) return; // a newer check is under way
    const before = this.cases.set(uri, { ...(version !== undefined ? { version } : {}), check });
    const at = positionsOf(text);
    this.publish(
      uri,
      check.caseProblems.map(p => diagnostic(p, at)),
    );
    if (before && before !== check.request?.key) this.publishRequest(before);
    if (check.request) this.publishRequest(check.request.key);
    // a dataset hears after every check of a case file naming it, even that it is clean
    if (check.dataset) this.publish(check.dataset.key, check.datasetProblems.map(datasetDiagnostic), true);
  }

  private forgetCase(uri: string): void {
    const request = this.cases.forget(uri)?.check.request?.key;
    this.publish(uri, []);
    if (request) this.publishRequest(request);
  }

  /**
   * A request file's diagnostics: its own (when the client holds it and it is a request or count file), and what
   * every case file naming it says, each problem once (as `check` says each once).
   */
  private publishRequest(uri: string): void {
    const doc = this.documents.get(uri);
    const own = doc && this.requests.get(uri);
    const caseStates = this.cases.forRequest(uri).flatMap(c => (c.entry.check.requestText ? [c.entry] : []));
    const text = doc?.getText() ?? caseStates[0]?.check.requestText;
    if (text === undefined) {
      this.publish(uri, []);
      return;
    }
    const at: Positions = doc ?? positionsOf(text);
    const seen = new Set<string>();
    const out: Diagnostic[] = [];
    const add = (p: Problem) => {
      const d = diagnostic(p, at);
      const key = JSON.stringify([d.range.start, d.code, d.message]);
      if (seen.has(key)) return;
      seen.add(key);
      out.push(d);
    };
    if (own) requestProblems(own, this.counts(uri, own)).forEach(add);
    // a case file read against another version of the request than the client's holds its problems back
    for (const c of caseStates) if (c.check.requestText === text) c.check.requestProblems.forEach(add);
    this.publish(uri, out);
  }

  private publish(uri: string, diagnostics: Diagnostic[], always = false): void {
    const version = this.documents.get(uri)?.version;
    // an open file of ours hears after every check, even that it is clean; any other only when it changes
    const ours = always || (version !== undefined && this.files.kindOf(uri) !== undefined);
    if (!diagnostics.length && !this.shown.has(uri) && !ours) return;
    if (diagnostics.length) this.shown.add(uri);
    else this.shown.delete(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics, ...(version !== undefined ? { version } : {}) });
  }

  /** The case files of the workspace folders, checked from disk (their placeholders speak in request files). */
  async scan(roots: readonly string[]): Promise<void> {
    let walked = 0;
    const found: string[] = [];
    for (const root of roots) {
      for (const f of walk(root)) {
        if (++walked > SCAN_LIMIT.files || found.length >= SCAN_LIMIT.caseFiles) break;
        if (isCaseFile(f)) found.push(f);
      }
    }
    if (walked > SCAN_LIMIT.files)
      this.log.info(`case files: stopped looking after ${SCAN_LIMIT.files} files; open a case file to check it`);
    for (const f of found) {
      const uri = uriOf(f);
      if (!this.documents.get(uri) && !this.cases.get(uri)) await this.checkCaseFromDisk(uri);
    }
  }

  dispose(): void {
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }
}

async function readFile(file: string): Promise<string | undefined> {
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
