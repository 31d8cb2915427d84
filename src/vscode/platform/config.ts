import * as vscode from 'vscode';
import { COUNT_FILE_PATTERNS } from '../../core/request/count';
import type { Endpoint } from '../../core/request/validate';

export const SECTION = 'promptwright';
const DEFAULT_PATTERNS = ['**/*.prompt.json', '**/*.prompt.yaml', '**/*.prompt.yml'];

/** Typed access to the extension's settings (read fresh each time, so changes apply at once). */
export class Config {
  /** while the offline demo runs (demo.ts): its address, for this window only, never written to settings */
  demoBaseUrl: string | undefined;

  private get c(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
  }
  private strings(key: string, fallback: string[]): string[] {
    const v = this.c.get<unknown>(key);
    return Array.isArray(v) && v.every(x => typeof x === 'string') ? v : fallback;
  }
  private num(key: string, fallback: number, min: number, max: number): number {
    const v = this.c.get<unknown>(key);
    return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
  }
  get requestFilePatterns(): string[] {
    const v = this.strings('requestFilePatterns', DEFAULT_PATTERNS);
    return v.length ? v : DEFAULT_PATTERNS;
  }
  /** files that hold a count_tokens body: checked for that endpoint, counted, never sent */
  get countTokensFilePatterns(): string[] {
    return this.strings('countTokensFilePatterns', [...COUNT_FILE_PATTERNS]);
  }
  get betas(): string[] {
    return this.strings('betas', [])
      .map(s => s.trim())
      .filter(Boolean);
  }
  get validationDebounceMs(): number {
    return this.num('validation.debounceMs', 250, 0, 5000);
  }
  get baseUrl(): string {
    if (this.demoBaseUrl) return this.demoBaseUrl;
    return String(this.c.get('baseUrl') ?? '')
      .trim()
      .replace(/\/+$/, '');
  }
  get apiVersion(): string {
    return String(this.c.get('apiVersion') ?? '2023-06-01').trim() || '2023-06-01';
  }
  get maxRetries(): number {
    return this.num('maxRetries', 2, 0, 10);
  }
  get streamIdleTimeoutSeconds(): number {
    return this.num('streamIdleTimeoutSeconds', 60, 1, 3600);
  }
  get tokenCountLive(): boolean {
    return this.c.get<boolean>('tokenCount.live') !== false;
  }
  get tokenDebounceMs(): number {
    return this.num('tokenCount.debounceMs', 800, 100, 10000);
  }
  /** `promptwright.cache.minimumTokens`: model id → the minimum cacheable prefix, over the documented table */
  get cacheMinimumTokens(): Record<string, unknown> {
    const v = this.c.get<unknown>('cache.minimumTokens');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }
  get resourcePageSize(): number {
    return Math.round(this.num('sessions.pageSize', 100, 1, 1000));
  }
  get adminPageSize(): number {
    return Math.round(this.num('admin.pageSize', 20, 1, 1000));
  }
  get compliancePageSize(): number {
    return Math.round(this.num('compliance.pageSize', 100, 1, 1000));
  }
  /** cells of the Cases grid in flight at once */
  get casesConcurrency(): number {
    return Math.round(this.num('cases.concurrency', 4, 1, 16));
  }
  /** the judge of rubric assertions when a case file names none ('' : none) */
  get casesJudgeModel(): string {
    return String(this.c.get('cases.judgeModel') ?? '').trim();
  }
  /** `promptwright.prices`: a person's prices per model, over the built-in table (parsed by core/cost/prices.ts) */
  get prices(): unknown {
    return this.c.get<unknown>('prices') ?? {};
  }
  /** results of case files in the repository's `.promptwright/results/` (else in the workspace storage) */
  get casesResultsInRepository(): boolean {
    return this.c.get<boolean>('cases.resultsInRepository') === true;
  }

  /** the git revision the status bar, the Token Breakdown and Compare set the working copy against */
  get compareBase(): string {
    return String(this.c.get('compare.base') ?? 'HEAD').trim();
  }
  get transcriptFolder(): string {
    return String(this.c.get('transcripts.folder') ?? '').trim();
  }
  /** True when the event changes any of the named settings. */
  static affects(e: vscode.ConfigurationChangeEvent, ...keys: string[]): boolean {
    return keys.some(k => e.affectsConfiguration(`${SECTION}.${k}`));
  }
}

/**
 * The endpoint a document's body is for, by the configured glob patterns: `messages` for a request file,
 * `count_tokens` for a count file (those patterns win where both match), undefined for any other file.
 */
export function endpointOf(doc: vscode.TextDocument, config: Config): Endpoint | undefined {
  if (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'vscode-remote' && doc.uri.scheme !== 'untitled')
    return undefined;
  const matches = (patterns: string[]) => patterns.some(pattern => vscode.languages.match({ pattern }, doc) > 0);
  if (matches(config.countTokensFilePatterns)) return 'count_tokens';
  return matches(config.requestFilePatterns) ? 'messages' : undefined;
}

/** Whether a document is checked and counted: a message-request file or a count_tokens file. */
export function isRequestFile(doc: vscode.TextDocument, config: Config): boolean {
  return endpointOf(doc, config) !== undefined;
}
