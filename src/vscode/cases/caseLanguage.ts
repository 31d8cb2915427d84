import * as vscode from 'vscode';
import { findPlaceholders } from '../../core/cases/placeholders';
import type { VarValue } from '../../core/cases/types';
import { count } from '../../core/text';
import { validator } from '../platform/lazy';
import type { CaseDiagnostics, CaseEntry } from './caseDiagnostics';
import { isCaseFileName } from './caseFiles';
import { CaseQuickFixes } from './caseQuickFixes';
import { flowVarsContext, yamlVarsContext } from '../../core/cases/varsContext';

const SELECTOR: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }, { language: 'yaml' }];
const CASE_FILES: vscode.DocumentSelector = [{ pattern: '**/*.cases.{yaml,yml,json}' }];

/** A value in a hover's table: long ones shortened, line breaks shown, Markdown read as text. */
const MAX_VALUE_CHARS = 160;

const fileName = (uri: vscode.Uri) => uri.path.split('/').pop() ?? uri.path;

/** Text that Markdown shows as it is (a case's value is data: no emphasis, links or HTML from it). */
function markdownText(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, c => `\\${c}`).replace(/\r?\n/g, ' ↵ ');
}

function shown(value: VarValue | undefined): string {
  if (value === undefined) return '*no value: sent as written*';
  const text = String(value);
  const short = text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
  return short ? markdownText(short) : '*empty*';
}

/**
 * The editor side of case files beyond their diagnostics: a "Run Cases" CodeLens at the top of a case file
 * and of each request file a case file names, a hover on `{{name}}` in a request file with its value in each
 * case, and completion of the request's placeholder names at the keys of a case's `vars`. Completion and
 * hover of the case file's own fields come from dist/cases.schema.json (package.json jsonValidation).
 */
export class CaseLanguage implements vscode.CodeLensProvider, vscode.HoverProvider, vscode.CompletionItemProvider {
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly disposables: vscode.Disposable[] = [this.lensesChanged];

  constructor(private readonly cases: CaseDiagnostics) {
    this.disposables.push(
      cases.onDidCheck(() => this.lensesChanged.fire()),
      vscode.languages.registerCodeLensProvider(SELECTOR, this),
      vscode.languages.registerHoverProvider(SELECTOR, this),
      vscode.languages.registerCompletionItemProvider(CASE_FILES, this, '\n', ' ', '"'),
      vscode.languages.registerCodeActionsProvider(CASE_FILES, new CaseQuickFixes(), {
        providedCodeActionKinds: CaseQuickFixes.kinds,
      }),
    );
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    if (isCaseFileName(doc.fileName)) {
      const file = this.cases.get(doc.uri)?.file;
      const size = file ? ` (${count(file.cases.length, 'case')} × ${count(file.models?.length ?? 1, 'model')})` : '';
      return [
        new vscode.CodeLens(top, {
          title: `$(run-all) Run Cases${size}`,
          tooltip: 'Run every case on every model and show the Cases grid',
          command: 'promptwright.runCases',
          arguments: [doc.uri],
        }),
      ];
    }
    return this.cases.forRequest(doc.uri).map(
      e =>
        new vscode.CodeLens(top, {
          title: `$(run-all) Run Cases: ${fileName(e.uri)}`,
          tooltip: `Run the cases of ${vscode.workspace.asRelativePath(e.uri)} on this request`,
          command: 'promptwright.runCases',
          arguments: [e.uri],
        }),
    );
  }

  /** `{{name}}` in a request file: its value in each case of each case file that names the request. */
  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const entries = this.cases.forRequest(doc.uri).filter(e => e.file);
    if (!entries.length) return undefined;
    const line = doc.lineAt(pos.line).text;
    const at = findPlaceholders(line).find(p => p.start <= pos.character && pos.character <= p.end);
    if (!at) return undefined;
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**\`{{${at.name}}}\`** in ${count(entries.length, 'case file')}\n\n`);
    for (const e of entries) md.appendMarkdown(valuesTable(e, at.name));
    return new vscode.Hover(md, new vscode.Range(pos.line, at.start, pos.line, at.end));
  }

  /** The request's placeholder names at the keys of a `vars` map, those the map has not got yet. */
  provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position): vscode.CompletionItem[] | undefined {
    const entry = this.cases.get(doc.uri);
    if (!entry?.requestText || !entry.requestUri) return undefined;
    const yaml = /\.ya?ml$/i.test(doc.fileName);
    const text = doc.getText();
    const flow = flowVarsContext(text, doc.offsetAt(pos));
    const context = flow ?? (yaml ? yamlVarsContext(text.split(/\r?\n/), pos.line, pos.character) : undefined);
    if (!context) return undefined;
    // a key in a YAML flow map is written as in a block one; a JSON key is quoted
    const quoted = !yaml;
    const names = [...new Set(findPlaceholders(entry.requestText).map(p => p.name))].filter(
      n => !context.existing.has(n),
    );
    const typed = typedKeyRange(doc.lineAt(pos.line).text, pos, quoted);
    return names.map(name => {
      const item = new vscode.CompletionItem(name, vscode.CompletionItemKind.Variable);
      item.detail = `{{${name}}} in ${fileName(entry.requestUri!)}`;
      item.insertText = quoted ? `"${name}": ` : `${name}: `;
      item.filterText = quoted ? `"${name}"` : name;
      item.range = typed;
      item.sortText = `0${name}`;
      return item;
    });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * What the completion replaces: the part of the key typed before the cursor (with its opening quote in JSON)
 * and, in JSON, the closing quote right after it. Read from the line, since a word pattern that may match
 * nothing (a key not begun) is one VS Code refuses.
 */
function typedKeyRange(line: string, pos: vscode.Position, quoted: boolean): vscode.Range {
  const before = (quoted ? /"?[A-Za-z0-9_.-]*$/ : /[A-Za-z0-9_.-]*$/).exec(line.slice(0, pos.character))![0];
  const after = quoted && before.startsWith('"') ? /^[A-Za-z0-9_.-]*"?/.exec(line.slice(pos.character))![0] : '';
  return new vscode.Range(pos.line, pos.character - before.length, pos.line, pos.character + after.length);
}

function valuesTable(e: CaseEntry, name: string): string {
  const rows = validator()
    .valuesByCase(e.file!, name)
    .map(v => `| ${markdownText(v.caseName) || '*unnamed*'} | ${shown(v.value)} |`);
  return [`*${markdownText(fileName(e.uri))}*`, '', '| Case | Value |', '| --- | --- |', ...rows, '', ''].join('\n');
}
