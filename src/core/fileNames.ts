// Which files are case files, in every form a caller needs: a name test, one glob, the glob's patterns. Kept
// apart from the case-file parser (caseFile.ts: zod, yaml) so that activation can import it for nothing.

import type { Format } from './request/types';

const EXTENSIONS = ['yaml', 'yml', 'json'];

/** Where case files are looked for in a workspace or a folder argument. */
export const CASE_FILE_GLOB = `**/*.cases.{${EXTENSIONS.join(',')}}`;

/** The same files, one pattern each (the CLI's `--changed` list). */
export const CASE_FILE_PATTERNS = EXTENSIONS.map(ext => `**/*.cases.${ext}`);

/** Folders never searched for case files. */
export const CASE_FILE_EXCLUDE = '**/{node_modules,.git}/**';

/** Whether a file is a case file by its name (`*.cases.yaml`, `*.cases.yml`, `*.cases.json`). */
export function isCaseFile(fileName: string): boolean {
  return /\.cases\.(ya?ml|json)$/i.test(fileName);
}

/** A request file's format by its name: `.yaml`/`.yml` are YAML, everything else JSON. */
export function formatOf(fileName: string): Format {
  return /\.ya?ml$/i.test(fileName) ? 'yaml' : 'json';
}
