import * as vscode from 'vscode';
import type { FixAction } from '../../core/language/types';
import { workspaceEdit } from '../platform/language';
import { coreBundle } from '../platform/lazy';
import type { RequestDiagnostics } from './requestDiagnostics';

/** Code actions for the problems that carry fixes (core/language/fixActions.ts). */
export class QuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  constructor(private readonly diagnostics: Pick<RequestDiagnostics, 'current'>) {}

  provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    ctx: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const state = this.diagnostics.current(doc);
    if (!state) return [];
    const { parsed } = state.validation;
    const text = doc.getText();
    return ctx.diagnostics.flatMap(d => {
      const problem = [...state.problems].find(
        ([diag]) => diag.message === d.message && diag.range.isEqual(d.range),
      )?.[1];
      if (!problem?.fixes) return [];
      return codeActions(doc, d, coreBundle().fixActions(text, parsed.format, parsed, problem.fixes));
    });
  }
}

/**
 * One diagnostic's fixes as code actions: each an undoable WorkspaceEdit, or for a beta the command that adds it
 * to the setting.
 */
export function codeActions(doc: vscode.TextDocument, d: vscode.Diagnostic, fixes: FixAction[]): vscode.CodeAction[] {
  return fixes.map(fix => {
    const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
    action.diagnostics = [d];
    if ('beta' in fix) {
      action.command = { command: 'promptwright.addBeta', title: fix.title, arguments: [fix.beta] };
      return action;
    }
    action.edit = workspaceEdit(doc, fix.edits);
    action.isPreferred = fix.preferred;
    return action;
  });
}
