// The language features' answers (core/language, in offsets) as VS Code's types.
import * as vscode from 'vscode';
import type { CompletionData, CompletionKind, HoverData } from '../../core/language/types';
import type { TextEdit } from '../../core/request/fixes';

const KIND: Record<CompletionKind, vscode.CompletionItemKind> = {
  snippet: vscode.CompletionItemKind.Snippet,
  field: vscode.CompletionItemKind.Property,
  value: vscode.CompletionItemKind.Value,
  variable: vscode.CompletionItemKind.Variable,
};

/** Markdown with VS Code's `$(icon)` syntax (a model's status) shown as icons. */
const markdown = (text: string) => new vscode.MarkdownString(text, true);

export function completionItem(doc: vscode.TextDocument, c: CompletionData): vscode.CompletionItem {
  const label = c.description ? { label: c.label, description: c.description } : c.label;
  const item = new vscode.CompletionItem(label, KIND[c.kind]);
  item.range = new vscode.Range(doc.positionAt(c.start), doc.positionAt(c.end));
  item.insertText = c.snippet ? new vscode.SnippetString(c.insertText) : c.insertText;
  if (c.detail) item.detail = c.detail;
  if (c.documentation) item.documentation = markdown(c.documentation);
  if (c.filterText !== undefined) item.filterText = c.filterText;
  if (c.sortText !== undefined) item.sortText = c.sortText;
  if (c.keepWhitespace) item.keepWhitespace = true;
  if (c.retrigger) item.command = { command: 'editor.action.triggerSuggest', title: 'Suggest' };
  if (c.additionalEdits?.length)
    item.additionalTextEdits = c.additionalEdits.map(
      e => new vscode.TextEdit(new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.newText),
    );
  return item;
}

export function hover(doc: vscode.TextDocument, h: HoverData): vscode.Hover {
  return new vscode.Hover(markdown(h.markdown), new vscode.Range(doc.positionAt(h.start), doc.positionAt(h.end)));
}

/** Core's edits of a document (offsets) as one WorkspaceEdit: applied, one undoable step. */
export function workspaceEdit(doc: vscode.TextDocument, edits: readonly TextEdit[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const e of edits)
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.newText);
  return edit;
}
