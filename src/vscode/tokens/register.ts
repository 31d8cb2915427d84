// Token counts at activation: Count Tokens (the status bar, with the editor bundle) and the breakdown's lenses.
import * as vscode from 'vscode';
import type { Activation } from '../platform/activation';
import type { TokenBreakdown } from './tokenBreakdown';
import type { TokenStatus } from './tokenStatus';

export function registerTokens(a: Activation<{ breakdown: TokenBreakdown }, { tokens: TokenStatus }>): void {
  const { lazy } = a;
  a.context.subscriptions.push(
    vscode.commands.registerCommand('promptwright.countTokens', () => a.editor().tokens.countNow()),
    lazy('promptwright.tokenBreakdown', f => f.breakdown.run()),
  );
}
