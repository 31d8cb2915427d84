// The Prompts view at activation: its tree loads with the features.
import * as vscode from 'vscode';
import type { Activation } from '../platform/activation';
import { LazyTree } from '../platform/lazyTree';
import type { PromptFilesTree } from './promptFilesTree';

export function registerPromptFiles(a: Activation<{ promptFiles: PromptFilesTree }>): void {
  const { lazy, features } = a;
  const tree = new LazyTree(async () => (await features()).promptFiles);
  a.context.subscriptions.push(
    vscode.window.registerTreeDataProvider('promptwright.prompts', tree),
    tree,
    lazy('promptwright.refreshPrompts', f => f.promptFiles.refresh()),
  );
}
