import * as vscode from 'vscode';
import type { Parsed } from '../../core/request/parse';
import type { FixData, Format } from '../../core/request/types';
import { validator } from '../platform/lazy';
import type { RequestDiagnostics } from './requestDiagnostics';

/** Code actions for the problems that carry fixes (computed in core as plain text edits). */
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
    return ctx.diagnostics.flatMap(d => {
      const problem = [...state.problems].find(
        ([diag]) => diag.message === d.message && diag.range.isEqual(d.range),
      )?.[1];
      return fixActions(doc, d, problem?.fixes ?? [], parsed.format, parsed);
    });
  }
}

/**
 * The code actions of one diagnostic's fixes: each an undoable WorkspaceEdit (or, for a beta, the command
 * that adds it to the setting). Preferred: the one the fix marks clearly right, or a problem's only fix.
 */
export function fixActions(
  doc: vscode.TextDocument,
  d: vscode.Diagnostic,
  fixes: readonly FixData[],
  format: Format,
  parsed: Pick<Parsed, 'locate'>,
): vscode.CodeAction[] {
  const text = doc.getText();
  return fixes.map(fix => {
    const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
    action.diagnostics = [d];
    if (fix.kind === 'add-beta') {
      action.command = { command: 'promptwright.addBeta', title: fix.title, arguments: [fix.beta] };
      return action;
    }
    const edit = new vscode.WorkspaceEdit();
    for (const e of validator().fixEdits(text, format, parsed, fix))
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.newText);
    action.edit = edit;
    action.isPreferred = ('preferred' in fix && fix.preferred === true) || fixes.length === 1;
    return action;
  });
}
