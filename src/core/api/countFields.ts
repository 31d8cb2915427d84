/** The fields POST /v1/messages/count_tokens takes (doc1 §4.2); the rest of a request file is not sent. */
const COUNT_FIELDS = ['messages', 'model', 'system', 'thinking', 'tools', 'cache_control'] as const;

/** The body count_tokens is sent: the fields it takes, without those that are null (the service's absent). */
export function pickCountFields(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of COUNT_FIELDS) if (body[k] !== undefined && body[k] !== null) out[k] = body[k];
  return out;
}
