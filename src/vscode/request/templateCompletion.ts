import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { formatOf } from '../../core/request/types';
import type { Template } from '../../core/request/templates';
import { Config, isRequestFile } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import { completionItem } from '../platform/language';

/**
 * Element templates (`pw-user`, `pw-text`, `pw-web_search`, …) in request files, only where such an element
 * can be inserted (core/language/templateCompletion.ts). Registered for every JSON and YAML document (the
 * patterns are settings), it answers nothing for other files.
 */
export class TemplateCompletion implements vscode.CompletionItemProvider {
  private templates: Template[] | undefined;

  constructor(
    private readonly config: Config,
    private readonly templatesFile: string,
  ) {}

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    if (!isRequestFile(doc, this.config)) return undefined;
    this.templates ??= JSON.parse(fs.readFileSync(this.templatesFile, 'utf8')) as Template[];
    const found = coreBundle().templateCompletions(
      doc.getText(),
      doc.offsetAt(position),
      formatOf(doc.fileName),
      this.templates,
    );
    return found?.map(c => completionItem(doc, c));
  }
}
