import * as vscode from 'vscode';
import type { Schema } from '../../core/request/schemaPath';
import { isCaseFileName } from '../cases/caseFiles';
import { Config, endpointOf } from '../platform/config';
import { validator } from '../platform/lazy';

/** The YAML extension: with it installed, it reads our JSON Schema (package.json yamlValidation) instead. */
const YAML_EXTENSION = 'redhat.vscode-yaml';

/**
 * Completion and hover in YAML request, count and case files when no YAML extension is there to read the
 * schema: the fields of the mapping at the cursor, the values a field takes, and each field's description,
 * from the zod schema (core/request/yamlAssist.ts, in the validator bundle, loaded on first use).
 */
export class YamlAssist implements vscode.CompletionItemProvider, vscode.HoverProvider {
  static readonly selector: vscode.DocumentSelector = [{ language: 'yaml' }];
  /** typed after `key:` it offers the field's values */
  static readonly triggers = [' '];

  constructor(private readonly config: Config) {}

  provideCompletionItems(doc: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    const root = this.schemaOf(doc);
    if (!root) return undefined;
    const v = validator();
    const found = v.yamlCompletions(doc.getText(), doc.offsetAt(position), root, v.requestValueHints);
    if (!found) return undefined;
    const range = new vscode.Range(doc.positionAt(found.start), doc.positionAt(found.end));
    return found.items.map((it, i) => {
      const kind = it.kind === 'field' ? vscode.CompletionItemKind.Property : vscode.CompletionItemKind.Value;
      const item = new vscode.CompletionItem(it.label, kind);
      item.range = range;
      item.insertText = it.insertText;
      // the text is indented for its place already
      item.keepWhitespace = true;
      // required fields first, then the schema's own order
      item.sortText = `${it.required ? 0 : 1}${String(i).padStart(3, '0')}`;
      if (it.required) item.detail = 'required';
      if (it.documentation) item.documentation = new vscode.MarkdownString(it.documentation);
      if (it.retrigger) item.command = { command: 'editor.action.triggerSuggest', title: 'Suggest' };
      return item;
    });
  }

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const root = this.schemaOf(doc);
    if (!root) return undefined;
    const found = validator().yamlHover(doc.getText(), doc.offsetAt(position), root);
    if (!found) return undefined;
    const range = new vscode.Range(doc.positionAt(found.start), doc.positionAt(found.end));
    return new vscode.Hover(new vscode.MarkdownString(found.markdown), range);
  }

  /** The schema of a YAML file of ours, when nothing else serves it. */
  private schemaOf(doc: vscode.TextDocument): Schema | undefined {
    if (doc.languageId !== 'yaml' || vscode.extensions.getExtension(YAML_EXTENSION)) return undefined;
    const kind = isCaseFileName(doc.fileName) ? 'cases' : endpointOf(doc, this.config);
    if (!kind) return undefined;
    const v = validator();
    return kind === 'cases' ? v.CaseFileSchema : kind === 'count_tokens' ? v.CountTokensBody : v.RequestBody;
  }
}
