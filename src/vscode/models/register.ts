// Models from the service at activation: completion and hover on a request file's `model` line, Refresh Models
// and Choose Model…; the list itself comes with the features bundle, on first need.
import * as vscode from 'vscode';
import type { Activation } from '../platform/activation';
import { onModelLine, REQUEST_LANGUAGES } from '../platform/config';
import type { ModelEditing } from './modelEditing';
import type { Models } from './models';

/**
 * Whether the model list is needed now: a request file whose model the built-in table does not know, or a list
 * an earlier window kept.
 */
export function modelsWanted(
  context: vscode.ExtensionContext,
  v: { problems: { code: string }[] } | undefined,
): boolean {
  return (
    !!v?.problems.some(p => p.code === 'unknown-model' || p.code === 'dated-model') ||
    context.globalState.keys().some(k => k.startsWith('promptwright.models.'))
  );
}

export function registerModels(a: Activation<{ models: Models; modelEditing: ModelEditing }>): void {
  const { config, lazy, features } = a;
  a.context.subscriptions.push(
    vscode.languages.registerCompletionItemProvider(
      REQUEST_LANGUAGES,
      {
        provideCompletionItems: async (d, p, t) =>
          onModelLine(d, p, config) ? (await features()).modelEditing.complete(d, p, t) : undefined,
      },
      '"',
    ),
    vscode.languages.registerHoverProvider(REQUEST_LANGUAGES, {
      provideHover: async (d, p, t) =>
        onModelLine(d, p, config) ? (await features()).modelEditing.hover(d, p, t) : undefined,
    }),
    lazy('promptwright.refreshModels', f => f.models.refresh()),
    lazy('promptwright.chooseModel', f => f.modelEditing.choose()),
  );
}
