import * as vscode from 'vscode';
import type { Endpoint } from '../../core/request/validate';
import { endpointByPatterns, Settings, SETTINGS_SECTION } from '../../core/settings';

export const SECTION = SETTINGS_SECTION;

/** Typed access to the extension's settings (core/settings.ts), read fresh each time, so changes apply at once. */
export class Config extends Settings {
  /** while the offline demo runs (demo.ts): its address, for this window only, never written to settings */
  demoBaseUrl: string | undefined;

  constructor() {
    super(key => vscode.workspace.getConfiguration(SECTION).get(key));
  }

  override get baseUrl(): string {
    return this.demoBaseUrl || super.baseUrl;
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
  return endpointByPatterns(config, patterns => patterns.some(pattern => vscode.languages.match({ pattern }, doc) > 0));
}

/** Whether a document is checked and counted: a message-request file or a count_tokens file. */
export function isRequestFile(doc: vscode.TextDocument, config: Config): boolean {
  return endpointOf(doc, config) !== undefined;
}
