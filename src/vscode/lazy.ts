// Parts of the extension built as separate bundles next to dist/extension.js and loaded on first use.
// `require` of a sibling file keeps them out of the activation bundle (esbuild leaves these paths alone).
import type * as ValidatorModule from '../validator';

let validatorModule: typeof ValidatorModule | undefined;

/** The request validator (dist/validator.js). */
export function validator(): typeof ValidatorModule {
  return (validatorModule ??= require('./validator.js') as typeof ValidatorModule);
}
