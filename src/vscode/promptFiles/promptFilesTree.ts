import * as vscode from 'vscode';
import { count, markdownText } from '../../core/text';
import { CASE_FILE_EXCLUDE, CASE_FILE_GLOB } from '../../core/fileNames';
import { Config } from '../platform/config';
import type { Recent } from '../platform/recent';
import { Disposable } from '../platform/lifecycle';

type FileKind = 'request' | 'count' | 'cases';

export interface PromptFileNode {
  uri: vscode.Uri;
  kind: FileKind;
}

const ICON: Record<FileKind, string> = { request: 'comment-discussion', count: 'symbol-number', cases: 'beaker' };
/** the most files listed: a workspace with more is better searched than scrolled */
const MAX_FILES = 1000;

/**
 * The "Prompts" view: the workspace's request, count and case files, each with its last count and the
 * outcome of its last run, so the daily work is one click away. A click opens the file; Send and Run Cases
 * are inline.
 */
export class PromptFilesTree extends Disposable implements vscode.TreeDataProvider<PromptFileNode> {
  private readonly changed = this.register(new vscode.EventEmitter<PromptFileNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private files: Promise<PromptFileNode[]> | undefined;

  constructor(
    private readonly config: Config,
    private readonly recent: Recent,
  ) {
    super();
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.{prompt,count,cases}.{json,yaml,yml}');
    this.register(
      watcher,
      watcher.onDidCreate(() => this.refresh()),
      watcher.onDidDelete(() => this.refresh()),
      recent.onDidChange(() => this.changed.fire(undefined)),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (Config.affects(e, 'requestFilePatterns', 'countTokensFilePatterns')) this.refresh();
      }),
    );
  }

  refresh(): void {
    this.files = undefined;
    this.changed.fire(undefined);
  }

  async getChildren(n?: PromptFileNode): Promise<PromptFileNode[]> {
    if (n) return [];
    this.files ??= this.find();
    return this.files;
  }

  private async find(): Promise<PromptFileNode[]> {
    const exclude = CASE_FILE_EXCLUDE;
    const search = (patterns: readonly string[], kind: FileKind) =>
      Promise.all(patterns.map(p => vscode.workspace.findFiles(p, exclude, MAX_FILES))).then(found =>
        found.flat().map(uri => ({ uri, kind })),
      );
    const [counts, requests, cases] = await Promise.all([
      search(this.config.countTokensFilePatterns, 'count'),
      search(this.config.requestFilePatterns, 'request'),
      search([CASE_FILE_GLOB], 'cases'),
    ]);
    // a file both kinds of pattern match is a count file, as everywhere else
    const byUri = new Map<string, PromptFileNode>();
    for (const f of [...requests, ...counts, ...cases]) byUri.set(f.uri.toString(), f);
    return [...byUri.values()]
      .sort((a, b) => vscode.workspace.asRelativePath(a.uri).localeCompare(vscode.workspace.asRelativePath(b.uri)))
      .slice(0, MAX_FILES);
  }

  getTreeItem(n: PromptFileNode): vscode.TreeItem {
    const it = new vscode.TreeItem(n.uri);
    const record = this.recent.get(n.uri);
    const parts: string[] = [];
    if (record?.tokens !== undefined) parts.push(count(record.tokens, 'token'));
    if (n.kind === 'cases' && record?.cases) parts.push(`${record.cases.failed ? '✗' : '✓'} ${record.cases.summary}`);
    else if (record?.run) parts.push(runText(record.run));
    it.description = parts.join(' · ');
    it.iconPath = new vscode.ThemeIcon(ICON[n.kind]);
    it.contextValue = `promptFile.${n.kind}`;
    it.command = { command: 'vscode.open', title: 'Open', arguments: [n.uri] };
    // the file's path and its last reply's stop reason are data: set in as text
    const tip = new vscode.MarkdownString(`**${markdownText(vscode.workspace.asRelativePath(n.uri))}**`);
    const what: Record<FileKind, string> = {
      request: 'A request file: the body of POST /v1/messages.',
      count: 'A count file: the body of POST /v1/messages/count_tokens (counted, not sent).',
      cases: 'A case file: its cases run on its models in the Cases grid.',
    };
    tip.appendMarkdown(`\n\n${what[n.kind]}`);
    if (record?.countedAt) tip.appendMarkdown(`\n\nCounted ${new Date(record.countedAt).toLocaleString()}.`);
    if (record?.run)
      tip.appendMarkdown(
        `\n\nLast run: ${markdownText(runText(record.run))}, ${new Date(record.run.at).toLocaleString()}.`,
      );
    if (record?.cases)
      tip.appendMarkdown(`\n\nLast cases run: ${record.cases.summary}, ${new Date(record.cases.at).toLocaleString()}.`);
    it.tooltip = tip;
    return it;
  }
}

function runText(run: NonNullable<ReturnType<Recent['get']>>['run'] & object): string {
  if (run.outcome === 'done') return `✓ ${run.stopReason ?? 'done'}`;
  return run.outcome === 'cancelled' ? 'cancelled' : '✗ failed';
}
