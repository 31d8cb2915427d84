// What activation needs to know about case files, kept apart from the rest of the feature so that
// extension.ts can import it without loading the case-file parser: the names, the view type, the glob.

/** The Cases grid's webview type (its serializer is registered at activation). */

/** Where case files are looked for in the workspace. */
export const CASE_FILE_GLOB = '**/*.cases.{yaml,yml,json}';

/** Folders never searched for case files. */
export const CASE_FILE_EXCLUDE = '**/{node_modules,.git}/**';

/**
 * Whether a file is a case file by its name (`*.cases.yaml`, `*.cases.yml`, `*.cases.json`). The core's
 * isCaseFile says the same, but lives beside the parser (zod, yaml): this one costs activation nothing.
 */
export function isCaseFileName(fileName: string): boolean {
  return /\.cases\.(ya?ml|json)$/i.test(fileName);
}
