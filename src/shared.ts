// The modules dist/editor.js and dist/features.js take from dist/extension.js instead of carrying a copy of their
// own. They run in the same extension host, and the activation bundle is loaded first: one copy means one
// module state, one class for `instanceof`, and a smaller .vsix. The build (scripts/bundles.mjs) reads the list
// below: in the other bundles, an import of one of these files becomes a lookup here. Each is one the activation
// bundle already uses nearly whole, so listing it costs activation nothing (test/unit/architecture.test.ts
// checks). What the features bundle takes from the editor bundle is listed in src/editorShared.ts.
import * as caseFileNames from './core/fileNames';
import * as redact from './core/redact';
import * as config from './vscode/platform/config';
import * as jsonDocuments from './vscode/platform/jsonDocuments';
import * as language from './vscode/platform/language';
import * as lazy from './vscode/platform/lazy';
import * as prompts from './vscode/platform/prompts';
import * as quickFixes from './vscode/request/quickFixes';
import * as resourceDocuments from './vscode/sessions/resourceDocuments';

/** Each shared module by its path under src/, without the extension. */
export const shared: Record<string, unknown> = {
  'core/fileNames': caseFileNames,
  'core/redact': redact,
  'vscode/platform/config': config,
  'vscode/platform/jsonDocuments': jsonDocuments,
  'vscode/platform/language': language,
  'vscode/platform/lazy': lazy,
  'vscode/platform/prompts': prompts,
  'vscode/request/quickFixes': quickFixes,
  'vscode/sessions/resourceDocuments': resourceDocuments,
};
