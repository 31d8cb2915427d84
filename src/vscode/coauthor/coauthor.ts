// The model as a co-author in the editor: **Generate Test Cases…** (on a request file or a case file) and
// **Improve Prompt…** (on a request file). Each asks what it needs, asks the model through the extension's client
// (key, address, retry rules) under a progress notification with Cancel, and shows the result as a diff against
// the file, with what was said of it; Accept applies it as one undoable edit (proposals.ts). Cases for a request
// that no case file names open as a new untitled case file beside it, saved when the author keeps them. The core
// (core/coauthor/) builds the prompts, reads the answers and makes the edits; nothing is written twice.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AbortedError } from '../../core/api/errors';
import { tokensInOut } from '../../core/api/usage';
import type { Answer } from '../../core/coauthor/answer';
import type { RequestFile } from '../../core/coauthor/coauthor';
import type { Change } from '../../core/coauthor/improve';
import { deltaLine } from '../../core/tokens/deltas';
import { count, notificationText } from '../../core/text';
import { formatOf, isCaseFile } from '../../core/fileNames';
import type { CaseDiagnostics } from '../cases/caseDiagnostics';
import type { CasesPanel } from '../cases/casesPanel';
import type { Api } from '../platform/api';
import type { Config } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import { pricesOf } from '../platform/prices';
import type { Log } from '../platform/log';
import { vscodePrompts, type Prompts } from '../platform/prompts';
import { openSample } from '../demo/demo';
import { Proposals, type Outcome } from './proposals';

/** How a command ended, for the tests: the proposal's outcome, a new untitled case file, or nothing done. */
export type Ended = Outcome | 'new-file' | 'unchanged' | 'cancelled' | 'failed' | undefined;

const name = (uri: vscode.Uri) => path.basename(uri.path);

/** The usage of an answer in a few words, priced: `model-x · 1,204 in · 310 out · $0.0081 · request-id req_…`. */
function answerWords(a: Answer, config: Config, log: Log): string {
  const core = coreBundle();
  const cost = core.costWords(core.costOf(a.usage, a.model, pricesOf(config, log)));
  return [a.model, tokensInOut(a.usage), cost, ...(a.requestId ? [`request-id ${a.requestId}`] : [])].join(' · ');
}

/** The notification's button (and the diff's title bar command) that runs the cases on the improved prompt. */
const COMPARE = 'Compare with the Improved Prompt';

/** Set while the proposal shown is an improved prompt whose request a case file names. */
const COMPARE_KEY = 'promptwright.proposalCanCompare';

export class Coauthor implements vscode.Disposable {
  prompts: Prompts = vscodePrompts;
  readonly proposals: Proposals;
  /** the improved prompt shown, and the case files that name its request (Compare with the Improved Prompt) */
  private improving: { request: vscode.TextDocument; text: string; caseFiles: vscode.Uri[] } | undefined;

  constructor(
    private readonly config: Config,
    private readonly api: Api,
    private readonly cases: CaseDiagnostics,
    private readonly grid: CasesPanel,
    private readonly log: Log,
  ) {
    this.proposals = new Proposals((e, what) => api.showError(e, what));
  }

  /**
   * The document a command is for: the one given (the editor title's, the explorer's), the sample request (the
   * walkthrough's link), else the active one.
   */
  private async documentOf(arg: unknown, what: string): Promise<vscode.TextDocument | undefined> {
    if (arg === 'sample') return (await openSample()).document;
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme === Proposals.scheme) {
      void vscode.window.showInformationMessage(
        `Promptwright: open a request file (*.prompt.yaml, *.prompt.json) to ${what}.`,
      );
      return undefined;
    }
    return vscode.workspace.openTextDocument(uri);
  }

  /** A case file's request file, opened; or why it cannot be (said). */
  private async requestOfCaseFile(
    caseDoc: vscode.TextDocument,
    what: string,
  ): Promise<vscode.TextDocument | undefined> {
    const parsed = coreBundle().parseCaseFile(caseDoc.getText(), formatOf(caseDoc.fileName));
    const request = parsed.file?.request;
    if (!request) {
      void this.api.showError(`${name(caseDoc.uri)} names no request file ("request").`, what);
      return undefined;
    }
    const uri = vscode.Uri.joinPath(caseDoc.uri, '..', request);
    try {
      return await vscode.workspace.openTextDocument(uri);
    } catch {
      void this.api.showError(`${name(caseDoc.uri)} names ${request}, which cannot be read.`, what);
      return undefined;
    }
  }

  private fileOf(doc: vscode.TextDocument): RequestFile {
    return { name: name(doc.uri), text: doc.getText(), format: formatOf(doc.fileName) };
  }

  /** Asks the model under a progress notification with Cancel; undefined when cancelled or failed (said). */
  private async withModel<T>(
    title: string,
    what: string,
    run: (signal: AbortSignal) => Promise<T>,
  ): Promise<T | 'cancelled' | 'failed'> {
    const controller = new AbortController();
    try {
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (_progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          return run(controller.signal);
        },
      );
    } catch (e) {
      if (controller.signal.aborted || e instanceof AbortedError) return 'cancelled';
      await this.api.showError(e, what);
      return 'failed';
    }
  }

  /**
   * Generate Test Cases…: for the request file given or active (or the request of a case file), cases the model
   * writes for its placeholders; shown as a diff against the case file that names the request (a pick when
   * several do), or as a new untitled case file beside it.
   */
  async generateCases(arg?: unknown): Promise<Ended> {
    const what = 'Generate Test Cases';
    const doc = await this.documentOf(arg, 'generate test cases for it');
    if (!doc) return undefined;
    const fromCaseFile = isCaseFile(doc.fileName);
    const requestDoc = fromCaseFile ? await this.requestOfCaseFile(doc, what) : doc;
    if (!requestDoc) return undefined;
    const core = coreBundle();
    const file = this.fileOf(requestDoc);
    let placeholders: string[];
    try {
      placeholders = core.casesRequest(file, { count: 1, rubrics: false }).placeholders;
    } catch (e) {
      await this.api.showError(e, what);
      return 'failed';
    }
    const caseDoc = fromCaseFile ? doc : await this.chooseCaseFile(requestDoc.uri);
    if (caseDoc === null) return undefined;
    const countText = await this.prompts.input({
      title: what,
      prompt: `How many cases for ${placeholders.map(p => `{{${p}}}`).join(', ')}? (1 to ${core.MAX_CASES})`,
      value: String(core.DEFAULT_CASES),
      validateInput: v =>
        /^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= core.MAX_CASES
          ? undefined
          : `A whole number from 1 to ${core.MAX_CASES}.`,
    });
    if (!countText) return undefined;
    const kind = await this.prompts.pick(
      [
        { label: 'Cases', detail: 'A value for every placeholder', rubrics: false },
        {
          label: 'Cases with rubrics',
          detail: 'And one or two rubric assertions each, graded by a judge model when the cases run',
          rubrics: true,
        },
      ],
      { title: what, placeHolder: 'With assertions?' },
    );
    if (!kind) return undefined;
    if (!(await this.api.ready(what))) return undefined;
    const n = Number(countText);
    const existing = caseDoc
      ? (core.parseCaseFile(caseDoc.getText(), formatOf(caseDoc.fileName)).file?.cases ?? [])
      : [];
    const model = this.config.coauthorModel;
    const client = await this.api.client();
    const generated = await this.withModel(`Promptwright: generating ${count(n, 'test case')}…`, what, signal =>
      core.generateCases(client, file, {
        count: n,
        rubrics: kind.rubrics,
        existing,
        signal,
        ...(model ? { model } : {}),
      }),
    );
    if (generated === 'cancelled' || generated === 'failed') return generated;
    const { cases, notes, answer } = generated;
    const words = answerWords(answer, this.config, this.log);
    this.log.info(`${what}: ${count(cases.length, 'case')} for ${file.name} (${words})`);
    const said = notes.length ? ` ${notes.join('; ')}.` : '';
    const request = { abs: requestDoc.uri.fsPath, text: requestDoc.getText() };
    try {
      if (caseDoc) {
        const version = caseDoc.version;
        const target = { abs: caseDoc.uri.fsPath, format: formatOf(caseDoc.fileName), text: caseDoc.getText() };
        const { edit } = core.withCases(target, request, cases, answer);
        return await this.proposals.offer({
          doc: caseDoc,
          edit,
          version,
          title: `${name(caseDoc.uri)} ↔ ${count(cases.length, 'generated case')}`,
          message: `Promptwright: ${count(cases.length, 'new case')} for ${file.name} (${words}).${said}`,
        });
      }
      const uri = await this.newCaseFileUri(requestDoc.uri);
      const { text } = core.withCases({ abs: uri.fsPath, format: 'yaml' }, request, cases, answer);
      const created = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(created, { preview: false });
      await editor.edit(e => e.insert(new vscode.Position(0, 0), text));
      void vscode.window.showInformationMessage(
        notificationText(
          `Promptwright: ${count(cases.length, 'test case')} for ${file.name} in a new case file: save it to keep ` +
            `them (${words}).${said}`,
        ),
      );
      return 'new-file';
    } catch (e) {
      await this.api.showError(e, what);
      return 'failed';
    }
  }

  /** The case file that gets the cases: the one naming the request, a pick of several; undefined: a new one. */
  private async chooseCaseFile(requestUri: vscode.Uri): Promise<vscode.TextDocument | undefined | null> {
    await this.cases.ready;
    const naming = this.cases.forRequest(requestUri);
    if (!naming.length) return undefined;
    let uri = naming[0]!.uri;
    if (naming.length > 1) {
      const items = [
        ...naming.map(e => ({ label: name(e.uri), description: vscode.workspace.asRelativePath(e.uri), uri: e.uri })),
        { label: 'A new case file', description: 'untitled, beside the request', uri: undefined },
      ];
      const pick = await this.prompts.pick(items, { title: 'Generate Test Cases', placeHolder: 'Add them to…' });
      if (!pick) return null;
      if (!pick.uri) return undefined;
      uri = pick.uri;
    }
    return vscode.workspace.openTextDocument(uri);
  }

  /** `support.cases.yaml` beside `support.prompt.yaml` (with a number when that name is taken), untitled. */
  private async newCaseFileUri(requestUri: vscode.Uri): Promise<vscode.Uri> {
    const base = name(requestUri).replace(/(\.prompt)?\.(json|ya?ml)$/i, '');
    for (let n = 1; ; n++) {
      const file = vscode.Uri.joinPath(requestUri, '..', `${base}${n > 1 ? `-${n}` : ''}.cases.yaml`);
      const taken = await vscode.workspace.fs.stat(file).then(
        () => true,
        () => false,
      );
      if (!taken) return file.with({ scheme: 'untitled' });
    }
  }

  /**
   * Improve Prompt…: asks for an optional goal, and the model rewrites the request's system prompt (and its
   * template turns); shown as a diff beside the file with what changed and why.
   */
  async improvePrompt(arg?: unknown): Promise<Ended> {
    const what = 'Improve Prompt';
    const doc = await this.documentOf(arg, 'improve its prompt');
    if (!doc) return undefined;
    const requestDoc = isCaseFile(doc.fileName) ? await this.requestOfCaseFile(doc, what) : doc;
    if (!requestDoc) return undefined;
    const core = coreBundle();
    const file = this.fileOf(requestDoc);
    try {
      core.improvementRequest(file, {});
    } catch (e) {
      await this.api.showError(e, what);
      return 'failed';
    }
    const goal = await this.prompts.input({
      title: `${what}: ${file.name}`,
      prompt: 'A goal, if you have one: "shorter", "answers in JSON", "handles refunds politely". Empty: no goal.',
      placeHolder: 'Optional: what the prompt should do better',
    });
    if (goal === undefined) return undefined;
    if (!(await this.api.ready(what))) return undefined;
    const version = requestDoc.version;
    const model = this.config.coauthorModel;
    const client = await this.api.client();
    const improved = await this.withModel(`Promptwright: improving ${file.name}…`, what, signal =>
      core.improvePrompt(client, file, {
        betas: this.config.betas,
        signal,
        ...(goal.trim() ? { goal: goal.trim() } : {}),
        ...(model ? { model } : {}),
      }),
    );
    if (improved === 'cancelled' || improved === 'failed') return improved;
    const words = answerWords(improved.answer, this.config, this.log);
    this.log.info(`${what}: ${file.name}, ${count(improved.changed, 'text')} changed (${words})`);
    for (const c of improved.changes) this.log.info(`  ${c.change}: ${c.reason}`);
    if (!improved.changed) {
      void vscode.window.showInformationMessage(`Promptwright: the model left ${file.name} as it was (${words}).`);
      return 'unchanged';
    }
    await this.cases.ready;
    const caseFiles = this.cases.forRequest(requestDoc.uri).map(e => e.uri);
    this.improving = { request: requestDoc, text: improved.text, caseFiles };
    await vscode.commands.executeCommand('setContext', COMPARE_KEY, caseFiles.length > 0);
    try {
      let outcome = await this.proposals.offer({
        doc: requestDoc,
        edit: improved.edit,
        version,
        title: `${file.name} ↔ Improved by ${improved.answer.model}`,
        message:
          `Promptwright: ${file.name} improved (${words}` +
          `${improved.tokens ? `; input tokens ${deltaLine(improved.tokens)}` : ''}). ` +
          changesWords(improved.changes),
        ...(caseFiles.length ? { actions: [COMPARE] } : {}),
      });
      // the comparison runs in the Cases grid while the proposal stays open, to be accepted or declined
      while (typeof outcome === 'object') {
        void this.compareImproved();
        outcome = await this.proposals.again();
      }
      return outcome;
    } finally {
      this.improving = undefined;
      await vscode.commands.executeCommand('setContext', COMPARE_KEY, false);
    }
  }

  /**
   * Compare with the Improved Prompt: the cases of a case file that names the request (a pick when several do)
   * run in the Cases grid's compare mode on the improved prompt, with the working copy as the base; nothing is
   * saved as the case file's results. Resolves when the run ends.
   */
  async compareImproved(): Promise<void> {
    const shown = this.improving;
    if (!shown?.caseFiles.length) return;
    let caseUri = shown.caseFiles[0]!;
    if (shown.caseFiles.length > 1) {
      const items = shown.caseFiles.map(uri => ({
        label: name(uri),
        description: vscode.workspace.asRelativePath(uri),
        uri,
      }));
      const pick = await this.prompts.pick(items, { title: COMPARE, placeHolder: 'Run the cases of…' });
      if (!pick) return;
      caseUri = pick.uri;
    }
    const value = coreBundle().validateText(shown.text, formatOf(shown.request.fileName)).parsed.value;
    await this.grid.runner.run(caseUri, { scope: 'all' }, { improved: value as Record<string, unknown> });
  }

  dispose(): void {
    this.proposals.dispose();
  }
}

/** What changed and why, as one paragraph: `1. Shorter: less to read. 2. …` */
function changesWords(changes: readonly Change[]): string {
  if (!changes.length) return 'The model listed no change.';
  return changes.map((c, i) => `${i + 1}. ${c.change}${c.reason ? `: ${c.reason}` : ''}`).join(' ');
}
