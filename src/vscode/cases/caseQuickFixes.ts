import * as vscode from 'vscode';
import { formatOf } from '../../core/request/types';
import { validator } from '../platform/lazy';
import { fixActions } from '../request/quickFixes';
import { isCaseFileName } from './caseFiles';

/**
 * Quick fixes of a case file's problems (a stop_reason or an assertion the spec does not know): the file is
 * read again as it is now, and each diagnostic gets the fixes of the problem at its range.
 */
export class CaseQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    ctx: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const ours = ctx.diagnostics.filter(d => d.source === 'Promptwright');
    if (!ours.length || !isCaseFileName(doc.fileName)) return [];
    const format = formatOf(doc.fileName);
    const parsed = validator().parseCaseFile(doc.getText(), format);
    return ours.flatMap(d => {
      const start = doc.offsetAt(d.range.start);
      const end = doc.offsetAt(d.range.end);
      const problem = parsed.problems.find(p => p.start === start && p.end === end && p.message === d.message);
      return problem?.fixes ? fixActions(doc, d, problem.fixes, format, parsed) : [];
    });
  }
}
