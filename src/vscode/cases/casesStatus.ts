import * as vscode from 'vscode';
import { markdownText } from '../../core/text';
import { progressSummary, type CellView } from '../../protocol/cases';

/**
 * The status bar summary of the Cases grid, drawn from one state: while cases run, a spinner and how far
 * they are ("Cases: 4/6 · 1 failed"); once done, the verdict, in the error colours when a cell did not pass.
 * A click shows the grid. Hidden while no grid is open.
 */
export class CasesStatus implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('promptwright.cases', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Promptwright Cases';
    this.item.command = 'promptwright.showCases';
  }

  show(caseFile: string, cells: readonly CellView[], running: boolean): void {
    const summary = progressSummary(cells);
    const bad = cells.some(c => c.status === 'failed' || c.status === 'error');
    const icon = running ? '$(loading~spin)' : bad ? '$(error)' : '$(pass)';
    this.item.text = `${icon} Cases: ${summary}`;
    this.item.backgroundColor = !running && bad ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    // trusted with its two commands: the case file's name is set in as text
    const tip = new vscode.MarkdownString(
      `**${markdownText(caseFile)}**: ${running ? 'running' : 'done'} · ${summary}\n\n` +
        (running ? '[Cancel All](command:promptwright.cancelCases) · ' : '') +
        '[Show the Cases grid](command:promptwright.showCases)',
    );
    tip.isTrusted = { enabledCommands: ['promptwright.cancelCases', 'promptwright.showCases'] };
    this.item.tooltip = tip;
    this.item.show();
  }

  hide(): void {
    this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
