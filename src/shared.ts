// The modules dist/features.js takes from dist/extension.js instead of carrying a copy of its own. Both run in
// the same extension host, and the activation bundle is loaded first: one copy means one module state, one
// class for `instanceof`, and a smaller .vsix. The build (scripts/bundles.mjs) reads the list below: in the
// features bundle, an import of one of these files becomes a lookup here. Each is one the activation bundle
// already uses nearly whole, so listing it costs activation nothing (test/unit/architecture.test.ts checks).
import * as accumulator from './core/api/accumulator';
import * as errors from './core/api/errors';
import * as http from './core/api/http';
import * as paging from './core/api/paging';
import * as retry from './core/api/retry';
import * as text from './core/text';
import * as scheduler from './core/tokens/scheduler';
import * as config from './vscode/platform/config';
import * as jsonDocuments from './vscode/platform/jsonDocuments';
import * as lazy from './vscode/platform/lazy';
import * as prompts from './vscode/platform/prompts';

/** Each shared module by its path under src/, without the extension. */
export const shared: Record<string, unknown> = {
  'core/api/accumulator': accumulator,
  'core/api/errors': errors,
  'core/api/http': http,
  'core/api/paging': paging,
  'core/api/retry': retry,
  'core/text': text,
  'core/tokens/scheduler': scheduler,
  'vscode/platform/config': config,
  'vscode/platform/jsonDocuments': jsonDocuments,
  'vscode/platform/lazy': lazy,
  'vscode/platform/prompts': prompts,
};
