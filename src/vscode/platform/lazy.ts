// Parts of the extension built as separate bundles next to dist/extension.js and loaded on first use.
// `require` of a sibling file keeps them out of the activation bundle (esbuild leaves these paths alone).
import type * as ValidatorModule from '../../validator';

let validatorModule: typeof ValidatorModule | undefined;
let report: (line: string) => void = () => {};

/** Where the first load of a bundle is said (the log: what a session has paid for, and when). */
export function reportLoads(to: (line: string) => void): void {
  report = to;
}

/** The request validator (dist/validator.js), loaded by the first check of a request or case file. */
export function validator(): typeof ValidatorModule {
  if (!validatorModule) {
    const t0 = Date.now();
    validatorModule = require('./validator.js') as typeof ValidatorModule;
    report(`the validator loaded (dist/validator.js) in ${Date.now() - t0} ms`);
  }
  return validatorModule;
}
