/** The fields POST /v1/messages/count_tokens takes (doc1 §4.2); the rest of a request file is not sent. */
const COUNT_FIELDS = ['messages', 'model', 'system', 'thinking', 'tools', 'cache_control'] as const;

/** The body count_tokens is sent: the fields it takes, without those that are null (the service's absent). */
export function pickCountFields(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of COUNT_FIELDS) if (body[k] !== undefined && body[k] !== null) out[k] = body[k];
  return out;
}

/**
 * Files that hold a count_tokens body rather than a create-message one: checked as that endpoint takes
 * them (no max_tokens needed), counted, never sent. The editor's setting promptwright.countTokensFilePatterns
 * defaults to these; the CLI knows them by name.
 */
export const COUNT_FILE_PATTERNS = ['**/*.count.json', '**/*.count.yaml', '**/*.count.yml'] as const;

export function isCountFileName(fileName: string): boolean {
  return /\.count\.(json|ya?ml)$/i.test(fileName);
}
