import * as vscode from 'vscode';
import { formatOf } from '../../core/fileNames';
import { Config, isRequestFile } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import { completionItem } from '../platform/language';

/**
 * Element templates (`pw-user`, `pw-text`, `pw-web_search`, …) in request files, only where such an element
 * can be inserted (core/language/templateCompletion.ts). Registered for every JSON and YAML document (the
 * patterns are settings), it answers nothing for other files.
 */
export class TemplateCompletion implements vscode.CompletionItemProvider {
  constructor(private readonly config: Config) {}

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    if (!isRequestFile(doc, this.config)) return undefined;
    const core = coreBundle();
    // computed when the core bundle is built (scripts/bundles.mjs)
    const templates = core.requestTemplates();
    const found = core.templateCompletions(doc.getText(), doc.offsetAt(position), formatOf(doc.fileName), templates);
    return found?.map(c => completionItem(doc, c));
  }
}
