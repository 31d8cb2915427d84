import * as vscode from 'vscode';
import { validator } from '../platform/lazy';
import type { RequestDiagnostics } from './requestDiagnostics';

/** Code actions for the problems that carry fixes (computed in core as plain text edits). */
export class QuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  constructor(private readonly diagnostics: RequestDiagnostics) {}

  provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    ctx: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const state = this.diagnostics.current(doc);
    if (!state) return [];
    const actions: vscode.CodeAction[] = [];
    const text = doc.getText();
    for (const d of ctx.diagnostics) {
      const problem = [...state.problems].find(
        ([diag]) => diag.message === d.message && diag.range.isEqual(d.range),
      )?.[1];
      for (const fix of problem?.fixes ?? []) {
        if (fix.kind === 'add-beta') {
          const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
          action.command = { command: 'promptwright.addBeta', title: fix.title, arguments: [fix.beta] };
          action.diagnostics = [d];
          actions.push(action);
          continue;
        }
        const edit = new vscode.WorkspaceEdit();
        for (const e of validator().fixEdits(text, state.validation.parsed.format, state.validation.parsed, fix)) {
          edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.newText);
        }
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.edit = edit;
        action.diagnostics = [d];
        action.isPreferred = problem?.fixes?.length === 1;
        actions.push(action);
      }
    }
    return actions;
  }
}
