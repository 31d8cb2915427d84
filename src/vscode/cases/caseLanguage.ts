import * as vscode from 'vscode';
import { completionItem, hover } from '../platform/language';
import { coreBundle } from '../platform/lazy';
import type { CaseDiagnostics } from './caseDiagnostics';
import { CASE_FILE_GLOB, isCaseFile } from '../../core/fileNames';
import { CaseQuickFixes } from './caseQuickFixes';
import { Disposable } from '../platform/lifecycle';

const SELECTOR: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }, { language: 'yaml' }];
const CASE_FILES: vscode.DocumentSelector = [{ pattern: CASE_FILE_GLOB }];

const fileName = (uri: vscode.Uri) => uri.path.split('/').pop() ?? uri.path;

/**
 * The editor side of case files beyond their diagnostics: a "Run Cases" CodeLens at the top of a case file
 * and of each request file a case file names, a hover on `{{name}}` in a request file with its value in each
 * case, and completion of the request's placeholder names at the keys of a case's `vars`. Completion and
 * hover of the case file's own fields come from the zod schema (vscode/request/schemaAssist.ts).
 */
export class CaseLanguage
  extends Disposable
  implements vscode.CodeLensProvider, vscode.HoverProvider, vscode.CompletionItemProvider
{
  private readonly lensesChanged = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  constructor(private readonly cases: CaseDiagnostics) {
    super();
    this.register(
      cases.onDidCheck(() => this.lensesChanged.fire()),
      vscode.languages.registerCodeLensProvider(SELECTOR, this),
      vscode.languages.registerHoverProvider(SELECTOR, this),
      vscode.languages.registerCompletionItemProvider(CASE_FILES, this, '\n', ' ', '"'),
      vscode.languages.registerCodeActionsProvider(CASE_FILES, new CaseQuickFixes(), {
        providedCodeActionKinds: CaseQuickFixes.kinds,
      }),
    );
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    if (isCaseFile(doc.fileName)) {
      const size = coreBundle().caseFileSize(this.cases.get(doc.uri)?.file);
      return [
        new vscode.CodeLens(top, {
          title: `$(run-all) Run Cases${size}`,
          tooltip: 'Run every case on every model and show the Cases grid',
          command: 'promptwright.runCases',
          arguments: [doc.uri],
        }),
      ];
    }
    return this.cases.forRequest(doc.uri).map(
      e =>
        new vscode.CodeLens(top, {
          title: `$(run-all) Run Cases: ${fileName(e.uri)}`,
          tooltip: `Run the cases of ${vscode.workspace.asRelativePath(e.uri)} on this request`,
          command: 'promptwright.runCases',
          arguments: [e.uri],
        }),
    );
  }

  /** `{{name}}` in a request file: its value in each case of each case file that names the request. */
  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const caseFiles = this.cases
      .forRequest(doc.uri)
      .flatMap(e => (e.file ? [{ name: fileName(e.uri), file: e.file }] : []));
    if (!caseFiles.length) return undefined;
    const found = coreBundle().placeholderHover(doc.getText(), doc.offsetAt(pos), caseFiles);
    return found && hover(doc, found);
  }

  /** The request's placeholder names at the keys of a `vars` map, those the map has not got yet. */
  provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position): vscode.CompletionItem[] | undefined {
    const entry = this.cases.get(doc.uri);
    if (!entry?.requestText || !entry.requestUri) return undefined;
    const yaml = /\.ya?ml$/i.test(doc.fileName);
    const request = { text: entry.requestText, name: fileName(entry.requestUri) };
    const found = coreBundle().varsCompletions(doc.getText(), doc.offsetAt(pos), pos, yaml, request);
    return found?.map(c => completionItem(doc, c));
  }
}
