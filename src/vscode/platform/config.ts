import * as vscode from 'vscode';
import type { Endpoint } from '../../core/request/validate';
import {
  endpointByPatterns,
  RESTRICTED_SETTINGS,
  Settings,
  SETTINGS_SECTION,
  USER_ONLY_SETTINGS,
} from '../../core/settings';

export const SECTION = SETTINGS_SECTION;

const USER_ONLY = new Set(USER_ONLY_SETTINGS);
const RESTRICTED = new Set(RESTRICTED_SETTINGS);

/**
 * A setting as the extension reads it, the one place every setting is read: the service's address from the
 * person's own settings only (a workspace's `.vscode/settings.json` cannot send a key elsewhere, trusted or not);
 * where files are written, from the user's settings in Restricted Mode; every other setting as VS Code merges it.
 */
function read(key: string): unknown {
  const settings = vscode.workspace.getConfiguration(SECTION);
  if (USER_ONLY.has(key) || (RESTRICTED.has(key) && !vscode.workspace.isTrusted))
    return settings.inspect(key)?.globalValue;
  return settings.get(key);
}

/** Typed access to the extension's settings (core/settings.ts), read fresh each time, so changes apply at once. */
export class Config extends Settings {
  /** while the offline demo runs (demo.ts): its address, for this window only, never written to settings */
  demoBaseUrl: string | undefined;

  constructor() {
    super(read);
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

/** JSON, YAML and JSONC: the languages a request file is written in. */
export const REQUEST_LANGUAGES: vscode.DocumentSelector = [
  { language: 'json' },
  { language: 'yaml' },
  { language: 'jsonc' },
];

/** Whether the position is on a request file's `model` line (completion and hover of the model list). */
export function onModelLine(d: vscode.TextDocument, p: vscode.Position, config: Config): boolean {
  return isRequestFile(d, config) && /(^|")model["']?\s*:/.test(d.lineAt(p.line).text);
}
