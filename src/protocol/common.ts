// What every webview protocol shares. A webview's messages are untrusted input: each protocol parses them
// with these helpers and bounds, and returns undefined for anything malformed (the host logs and drops it).

/** A plain object, or undefined for anything else (arrays and null included). */
export const record = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** A string of at most `max` characters (and at least one when `nonEmpty`), or undefined. */
export function boundedString(v: unknown, max: number, nonEmpty = false): string | undefined {
  return typeof v === 'string' && v.length <= max && (!nonEmpty || v.length > 0) ? v : undefined;
}

/** Every webview says this first; its host posts nothing before it. */
export interface Ready {
  type: 'ready';
}
