/**
 * Files that hold a count_tokens body rather than a create-message one: checked as that endpoint takes
 * them (no max_tokens needed), counted, never sent. The editor's setting promptwright.countTokensFilePatterns
 * defaults to these; the CLI knows them by name.
 */
export const COUNT_FILE_PATTERNS = ['**/*.count.json', '**/*.count.yaml', '**/*.count.yml'] as const;

export function isCountFileName(fileName: string): boolean {
  return /\.count\.(json|ya?ml)$/i.test(fileName);
}
