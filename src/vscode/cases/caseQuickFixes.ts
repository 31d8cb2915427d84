import * as vscode from 'vscode';
import { coreBundle } from '../platform/lazy';
import { codeActions } from '../request/quickFixes';
import { formatOf, isCaseFile } from '../../core/fileNames';

/** Quick fixes of a case file's problems (core/language/fixActions.ts: caseFixActions). */
export class CaseQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    ctx: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const ours = ctx.diagnostics.filter(d => d.source === 'Promptwright');
    if (!ours.length || !isCaseFile(doc.fileName)) return [];
    const text = doc.getText();
    const format = formatOf(doc.fileName);
    return ours.flatMap(d => {
      const at = { start: doc.offsetAt(d.range.start), end: doc.offsetAt(d.range.end), message: d.message };
      return codeActions(doc, d, coreBundle().caseFixActions(text, format, at));
    });
  }
}
