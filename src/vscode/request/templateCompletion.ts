import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { formatOf } from '../../core/request/types';
import type { Slot, Template } from '../../core/request/templates';
import { Config, isRequestFile } from '../platform/config';
import { validator } from '../platform/lazy';

const SLOT_LABEL: Record<Slot, string> = {
  message: 'message',
  content: 'content block',
  tool: 'tool',
  system: 'system block',
};

/**
 * Element templates (`pw-user`, `pw-text`, `pw-web_search`, …) in request files, only where such an element
 * can be inserted. Registered for every JSON and YAML document (the patterns are settings), it answers
 * nothing for other files, and nothing inside a string or at a key.
 */
export class TemplateCompletion implements vscode.CompletionItemProvider {
  private templates: Template[] | undefined;

  constructor(
    private readonly config: Config,
    private readonly templatesFile: string,
  ) {}

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    if (!isRequestFile(doc, this.config)) return undefined;
    const format = formatOf(doc.fileName);
    const { slotAt, renderTemplate } = validator();
    const at = slotAt(doc.getText(), doc.offsetAt(position), format);
    if (!at) return undefined;
    this.templates ??= JSON.parse(fs.readFileSync(this.templatesFile, 'utf8')) as Template[];
    const range = new vscode.Range(doc.positionAt(at.start), doc.positionAt(at.end));
    return this.templates
      .filter(t => t.slot === at.slot)
      .map((t, i) => {
        const item = new vscode.CompletionItem(t.name, vscode.CompletionItemKind.Snippet);
        item.sortText = `pw-${String(i).padStart(3, '0')}`; // the templates' own order: pw-user before pw-assistant
        item.detail = `Promptwright: ${SLOT_LABEL[t.slot]}`;
        item.documentation = new vscode.MarkdownString(t.description);
        item.insertText = new vscode.SnippetString(renderTemplate(t, format, at));
        item.range = range;
        item.filterText = `${at.lead}${t.name}`;
        if (at.commaAt !== undefined) {
          item.additionalTextEdits = [vscode.TextEdit.insert(doc.positionAt(at.commaAt), ',')];
        }
        return item;
      });
  }
}
