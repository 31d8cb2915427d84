import * as vscode from 'vscode';
import { isCaseFile } from '../../core/cases/fileNames';
import { Config, endpointOf } from '../platform/config';
import { completionItem, hover } from '../platform/language';
import { coreBundle } from '../platform/lazy';

/** The YAML extension: with it installed, it reads our JSON Schema (package.json yamlValidation) instead. */
const YAML_EXTENSION = 'redhat.vscode-yaml';

/**
 * Completion and hover in YAML request, count and case files when no YAML extension is there to read the
 * schema: the fields of the mapping at the cursor, the values a field takes, and each field's description,
 * from the zod schema (core/language/schemaAssist.ts, in the core bundle, loaded on first use).
 */
export class YamlAssist implements vscode.CompletionItemProvider, vscode.HoverProvider {
  static readonly selector: vscode.DocumentSelector = [{ language: 'yaml' }];
  /** typed after `key:` it offers the field's values */
  static readonly triggers = [' '];

  constructor(private readonly config: Config) {}

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    const kind = this.kindOf(doc);
    if (!kind) return undefined;
    const found = coreBundle().yamlSchemaCompletions(doc.getText(), doc.offsetAt(position), kind);
    return found?.map(c => completionItem(doc, c));
  }

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const kind = this.kindOf(doc);
    if (!kind) return undefined;
    const found = coreBundle().yamlSchemaHover(doc.getText(), doc.offsetAt(position), kind);
    return found && hover(doc, found);
  }

  /** What a YAML file of ours holds, when nothing else serves its schema. */
  private kindOf(doc: vscode.TextDocument) {
    if (doc.languageId !== 'yaml' || vscode.extensions.getExtension(YAML_EXTENSION)) return undefined;
    return isCaseFile(doc.fileName) ? 'cases' : endpointOf(doc, this.config);
  }
}
