import * as vscode from 'vscode';
import { formatOf, isCaseFile } from '../../core/fileNames';
import { Config, endpointOf } from '../platform/config';
import { completionItem, hover } from '../platform/language';
import { coreBundle } from '../platform/lazy';

/**
 * Completion and hover in request, count and case files, JSON and YAML: the fields of the object at the cursor,
 * the values a field takes, and each field's description, from the zod schema (core/language/schemaAssist.ts, in
 * the core bundle, loaded on first use), as the language server gives them to other editors. The files are ours
 * by the `promptwright.*FilePatterns` settings, not by a fixed `*.prompt.json`.
 */
export class SchemaAssist implements vscode.CompletionItemProvider, vscode.HoverProvider {
  static readonly selector: vscode.DocumentSelector = [
    { language: 'json' },
    { language: 'jsonc' },
    { language: 'yaml' },
  ];
  /** typed after `key:` (YAML) or `"key": ` it offers the field's values; a `"` opens a key or a string */
  static readonly triggers = [' ', '"'];

  /** `elsewhere`: a place another provider answers for (a request's `model` line: the model catalog). */
  constructor(
    private readonly config: Config,
    private readonly elsewhere: (doc: vscode.TextDocument, position: vscode.Position) => boolean,
  ) {}

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    const kind = this.kindOf(doc, position);
    if (!kind) return undefined;
    const found = coreBundle().schemaCompletions(doc.getText(), doc.offsetAt(position), kind, formatOf(doc.fileName));
    return found?.map(c => completionItem(doc, c));
  }

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const kind = this.kindOf(doc, position);
    if (!kind) return undefined;
    const found = coreBundle().schemaHover(doc.getText(), doc.offsetAt(position), kind, formatOf(doc.fileName));
    return found && hover(doc, found);
  }

  /** What a file of ours holds (undefined: not ours, or a place another provider answers for). */
  private kindOf(doc: vscode.TextDocument, position: vscode.Position) {
    if (isCaseFile(doc.fileName)) return 'cases';
    return this.elsewhere(doc, position) ? undefined : endpointOf(doc, this.config);
  }
}
