// What a request file needs in the editor, as a bundle of its own (dist/editor.js): its diagnostics, the token
// count in the status bar, the cache breakpoints' lenses and the API client they call. VS Code activates
// Promptwright for every JSON and YAML file; this loads when the first request file is seen, or a command or
// the features bundle needs it (extension.ts), so a workspace without request files never pays for it.
import type * as vscode from 'vscode';
import { CacheBreakpoints } from './vscode/cache/cacheBreakpoints';
import { GitBase } from './vscode/git/gitBase';
import { Api } from './vscode/platform/api';
import type { Config } from './vscode/platform/config';
import type { Log } from './vscode/platform/log';
import type { Recent } from './vscode/platform/recent';
import type { Keys } from './vscode/platform/secrets';
import { RequestDiagnostics } from './vscode/request/requestDiagnostics';
import { TokenStatus } from './vscode/tokens/tokenStatus';

// for dist/features.js, which takes these modules from this bundle instead of carrying copies (src/editorShared.ts)
export { shared } from './editorShared';

/** What the activation bundle hands over. */
export interface EditorHost {
  context: vscode.ExtensionContext;
  log: Log;
  config: Config;
  keys: Keys;
  recent: Recent;
}

export interface Editor {
  diagnostics: RequestDiagnostics;
  api: Api;
  tokens: TokenStatus;
  cache: CacheBreakpoints;
  /** files at a git revision, read with the git executable when first asked */
  git: GitBase;
}

export function createEditor(host: EditorHost): Editor {
  const { context, log, config, keys, recent } = host;
  const diagnostics = new RequestDiagnostics(config, log);
  const api = new Api(config, keys, log);
  const git = new GitBase(log);
  const tokens = new TokenStatus(config, keys, api, diagnostics, log, recent, git);
  const cache = new CacheBreakpoints(config, keys, api, diagnostics, log);
  context.subscriptions.push(diagnostics, api, tokens, cache);
  return { diagnostics, api, tokens, cache, git };
}
