import * as vscode from 'vscode';

export const SECTION = 'promptwright';
export const DEFAULT_PATTERNS = ['**/*.prompt.json', '**/*.prompt.yaml', '**/*.prompt.yml'];

/** Typed access to the extension's settings. */
export class Config {
  private get c(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
  }
  get requestFilePatterns(): string[] {
    const v = this.c.get<unknown>('requestFilePatterns');
    return Array.isArray(v) && v.every(x => typeof x === 'string') && v.length ? v : DEFAULT_PATTERNS;
  }
  /** True when the event changes any of the named settings. */
  static affects(e: vscode.ConfigurationChangeEvent, ...keys: string[]): boolean {
    return keys.some(k => e.affectsConfiguration(`${SECTION}.${k}`));
  }
}

/** Whether a document is a message-request file by the configured glob patterns. */
export function isRequestFile(doc: vscode.TextDocument, config: Config): boolean {
  if (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'untitled' && doc.uri.scheme !== 'vscode-remote') return false;
  return config.requestFilePatterns.some(pattern => vscode.languages.match({ pattern }, doc) > 0);
}
