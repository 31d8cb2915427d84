// Compare at activation: the command, and the panel VS Code restores after a reload.
import * as vscode from 'vscode';
import { COMPARE_VIEW_TYPE } from '../../protocol/compare';
import { uriOf, type Activation } from '../platform/activation';
import type { Runner } from '../run/runner';
import type { ComparePanel } from './comparePanel';

export function registerCompare(a: Activation<{ compare: ComparePanel; runner: Runner }>): void {
  const { lazy, features } = a;
  a.context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(COMPARE_VIEW_TYPE, {
      deserializeWebviewPanel: async panel => (await features()).compare.adopt(panel),
    }),
    // from the editor's title (its file), the palette (the active file) or the response panel (its run's file)
    lazy('promptwright.compare', (f, arg) => f.compare.compare(uriOf(arg), undefined, f.runner.current?.uri)),
  );
}
