// What activation hands each feature folder's register function (src/vscode/<feature>/register.ts): the shared
// services, and the two bundles loaded on first use. A folder names only the parts of a bundle it uses, so it
// imports their types and nothing loads at activation.
import * as vscode from 'vscode';
import type { Config } from './config';
import type { Keys } from './secrets';
import type { Log } from './log';

export interface Activation<F = unknown, E = unknown> {
  readonly context: vscode.ExtensionContext;
  readonly log: Log;
  readonly config: Config;
  readonly keys: Keys;
  /** the request-file features (dist/editor.js): loaded on the first call */
  readonly editor: () => E;
  /** everything else (dist/features.js): loaded on the first call */
  readonly features: () => Promise<F>;
  /** the features when they are loaded already: nothing loads */
  readonly loaded: () => F | undefined;
  /** A command whose implementation lives in the features bundle. */
  readonly lazy: (id: string, run: (f: F, ...args: unknown[]) => unknown) => vscode.Disposable;
}

/** The file a command was given: a URI (the explorer, a CodeLens) or a node of the Prompts view. */
export function uriOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const uri = (arg as { uri?: unknown } | undefined)?.uri;
  return uri instanceof vscode.Uri ? uri : undefined;
}

/** A command's argument when it is a string (an id or an answer given by a test or a link), else undefined. */
export const textOf = (arg: unknown): string | undefined => (typeof arg === 'string' ? arg : undefined);
