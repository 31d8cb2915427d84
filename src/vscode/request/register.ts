// Request files at activation: quick fixes, templates and the schema's completion and hover (cheap, from the
// activation bundle; a request file's diagnostics load with the editor bundle), New Request File, Add Beta, and
// what the active editor holds, for the editor title's Send button and its key binding.
import * as vscode from 'vscode';
import type { Activation } from '../platform/activation';
import type { Api } from '../platform/api';
import { Config, endpointOf, isRequestFile, onModelLine, REQUEST_LANGUAGES } from '../platform/config';
import { QuickFixes } from './quickFixes';
import { addBeta, newRequestFile } from './requestCommands';
import type { RequestDiagnostics } from './requestDiagnostics';
import { SchemaAssist } from './schemaAssist';
import { TemplateCompletion } from './templateCompletion';

interface RequestEditor {
  diagnostics: RequestDiagnostics;
  api: Api;
}

export function registerRequest(a: Activation<unknown, RequestEditor>): void {
  const { config } = a;
  // what the active editor holds: a count_tokens file (promptwright.countTokensFilePatterns) is counted, never sent
  const setActiveFile = () => {
    const doc = vscode.window.activeTextEditor?.document;
    const endpoint = doc && endpointOf(doc, config);
    const kind = endpoint === 'messages' ? 'request' : endpoint === 'count_tokens' ? 'count' : '';
    void vscode.commands.executeCommand('setContext', 'promptwright.activeFile', kind);
  };
  setActiveFile();
  const schemaAssist = new SchemaAssist(config, (d, p) => onModelLine(d, p, config));
  a.context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider(
      REQUEST_LANGUAGES,
      new QuickFixes({ current: d => (isRequestFile(d, config) ? a.editor().diagnostics.current(d) : undefined) }),
      {
        providedCodeActionKinds: QuickFixes.kinds,
      },
    ),
    vscode.languages.registerCompletionItemProvider(REQUEST_LANGUAGES, new TemplateCompletion(config)),
    // request, count and case files, JSON and YAML: completion and hover from the schema
    vscode.languages.registerCompletionItemProvider(SchemaAssist.selector, schemaAssist, ...SchemaAssist.triggers),
    vscode.languages.registerHoverProvider(SchemaAssist.selector, schemaAssist),
    vscode.window.onDidChangeActiveTextEditor(setActiveFile),
    vscode.workspace.onDidChangeConfiguration(e => {
      if (Config.affects(e, 'requestFilePatterns', 'countTokensFilePatterns')) setActiveFile();
    }),
    vscode.commands.registerCommand('promptwright.newRequestFile', () => newRequestFile(a.editor().api)),
    vscode.commands.registerCommand('promptwright.addBeta', (beta?: string) =>
      addBeta(typeof beta === 'string' ? beta : undefined),
    ),
  );
}
