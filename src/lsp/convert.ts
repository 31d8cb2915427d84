// The language features' answers (core/language, in offsets) as the protocol's types, and back.
import type { DatasetProblem } from '../core/cases/suite';
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  InsertTextFormat,
  InsertTextMode,
  MarkupKind,
  type CodeAction,
  type CompletionItem,
  type Diagnostic,
  type Hover,
  type Range,
} from 'vscode-languageserver/node';
import type { CompletionData, CompletionKind, FixAction, HoverData } from '../core/language/types';
import { ruleUrl } from '../core/request/catalog';
import type { Problem, Severity } from '../core/request/types';
import { LineIndex } from '../core/text';

/** Offsets to positions, in a document the client holds or a file read from disk. */
export interface Positions {
  positionAt(offset: number): { line: number; character: number };
}

/** Positions in a text no client holds (a request file named by a case file, read from disk). */
export function positionsOf(text: string): Positions {
  const lines = new LineIndex(text);
  return { positionAt: offset => lines.position(offset) };
}

const range = (at: Positions, start: number, end: number): Range => ({
  start: at.positionAt(start),
  end: at.positionAt(end),
});

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** A problem as `check` reports it: the rule's name as its code, linked to its section of RULES.md. */
export function diagnostic(p: Problem, at: Positions): Diagnostic {
  return {
    range: range(at, p.start, p.end),
    severity: SEVERITY[p.severity],
    code: p.code,
    codeDescription: { href: ruleUrl(p.code) },
    source: 'Promptwright',
    message: p.message,
  };
}

/** A dataset's problem, placed by its line and column (the dataset is not held as text). */
export function datasetDiagnostic(p: DatasetProblem): Diagnostic {
  const line = p.line - 1;
  return {
    range: { start: { line, character: p.column - 1 }, end: { line, character: (p.endColumn ?? p.column + 1) - 1 } },
    severity: SEVERITY[p.severity],
    code: p.code,
    codeDescription: { href: ruleUrl(p.code) },
    source: 'Promptwright',
    message: p.message,
  };
}

/** VS Code's `$(icon)` in the core's Markdown (a model's status) as a character every client shows. */
function markdown(text: string): string {
  return text.replace(/\$\(([\w-]+)\)/g, (_m, icon: string) =>
    icon === 'error' ? '✗' : icon === 'warning' ? '⚠' : '',
  );
}

export function hover(at: Positions, h: HoverData): Hover {
  return { contents: { kind: MarkupKind.Markdown, value: markdown(h.markdown) }, range: range(at, h.start, h.end) };
}

const KIND: Record<CompletionKind, CompletionItemKind> = {
  snippet: CompletionItemKind.Snippet,
  field: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  variable: CompletionItemKind.Variable,
};

/** A completion item; `snippets`: the client takes snippet syntax (else the placeholders are left out). */
export function completionItem(at: Positions, c: CompletionData, snippets: boolean): CompletionItem {
  const snippet = c.snippet && snippets;
  const text = c.snippet && !snippets ? plain(c.insertText) : c.insertText;
  return {
    label: c.label,
    kind: KIND[c.kind],
    ...(c.description ? { labelDetails: { description: c.description } } : {}),
    ...(c.detail ? { detail: c.detail } : {}),
    ...(c.documentation ? { documentation: { kind: MarkupKind.Markdown, value: markdown(c.documentation) } } : {}),
    textEdit: { range: range(at, c.start, c.end), newText: text },
    insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
    ...(c.keepWhitespace ? { insertTextMode: InsertTextMode.asIs } : {}),
    ...(c.filterText !== undefined ? { filterText: c.filterText } : {}),
    ...(c.sortText !== undefined ? { sortText: c.sortText } : {}),
    ...(c.additionalEdits?.length
      ? { additionalTextEdits: c.additionalEdits.map(e => ({ range: range(at, e.start, e.end), newText: e.newText })) }
      : {}),
  };
}

/** A snippet's text without its tab stops: `${1:text}` as `text`, `$1` as nothing. */
function plain(snippet: string): string {
  return snippet.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\d+/g, '');
}

/** A quick fix: a WorkspaceEdit of the document, or the server's command that adds a beta. */
export function codeAction(uri: string, at: Positions, d: Diagnostic, fix: FixAction): CodeAction {
  const action: CodeAction = { title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [d] };
  if ('beta' in fix) {
    action.command = { title: fix.title, command: ADD_BETA, arguments: [fix.beta] };
    return action;
  }
  action.edit = { changes: { [uri]: fix.edits.map(e => ({ range: range(at, e.start, e.end), newText: e.newText })) } };
  action.isPreferred = fix.preferred;
  return action;
}

/** The server's commands (workspace/executeCommand). */
export const ADD_BETA = 'promptwright.addBeta';
export const COUNT_TOKENS = 'promptwright.countTokens';
