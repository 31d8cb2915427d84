/** A value from the service shown as text: a string as it is, nothing as '', anything else as JSON. */
export function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** A count with its noun, singular for one: "1 chat", "2,000 records" (`many` for irregular plurals). */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
