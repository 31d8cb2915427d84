// Parts of the extension built as separate bundles next to dist/extension.js and loaded on first use.
// `require` of a sibling file keeps them out of the activation bundle (esbuild leaves these paths alone).
import type * as CoreBundleModule from '../../core';

/**
 * What the core bundle holds (src/core.ts): the parsers (zod, yaml, jsonc-parser) and the core work that reads
 * files with them: request and case checks, the language features, the case and compare engines, cost, the model
 * catalog and git: dist/core.js.
 */
export type CoreBundle = typeof CoreBundleModule;

let loaded: CoreBundle | undefined;
let report: (line: string) => void = () => {};

/** Where the first load of a bundle is said (the log: what a session has paid for, and when). */
export function reportLoads(to: (line: string) => void): void {
  report = to;
}

/** The core bundle (dist/core.js), loaded by the first check of a request or case file. */
export function coreBundle(): CoreBundle {
  if (!loaded) {
    const t0 = Date.now();
    loaded = require('./core.js') as CoreBundle;
    // the words the activation test (test/ui/activation.test.mjs) looks for in the log
    report(`the core bundle loaded (dist/core.js) in ${Date.now() - t0} ms`);
  }
  return loaded;
}
