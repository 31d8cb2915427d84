// What every webview protocol shares. A webview's messages are untrusted input: each protocol parses them
// with these helpers and bounds, and returns undefined for anything malformed (the host logs and drops it).

/** A plain object, or undefined for anything else (arrays and null included). */
export const record = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** A string of at most `max` characters (and at least one when `nonEmpty`), or undefined. */
export function boundedString(v: unknown, max: number, nonEmpty = false): string | undefined {
  return typeof v === 'string' && v.length <= max && (!nonEmpty || v.length > 0) ? v : undefined;
}

/** An error as every page shows it: what the service (or the connection) said, and what to do about it. */
export interface ErrorInfo {
  /** `error.type` (or connection_error, idle_timeout, aborted, …) */
  type: string;
  message: string;
  status?: number;
  requestId?: string;
  /** what to do about it, when there is something (the same hint the notification and the CLI give) */
  hint?: string;
}

/** Every webview says this first; its host posts nothing before it. */
export interface Ready {
  type: 'ready';
}

/** A finite number, or undefined. */
export const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * A reply as a page kept it (setState): an object whose `content` is a list of blocks, each an object with a
 * string `type`, and whose `usage`, when there, is an object. What a block holds besides is drawn defensively
 * (webview/common/reply.ts reads every field through asText), so it is not checked field by field here.
 */
export function keptMessage<M extends { content: unknown[] }>(v: unknown): M | undefined {
  const o = record(v);
  if (!o || !Array.isArray(o.content)) return undefined;
  if (!o.content.every(b => typeof record(b)?.type === 'string')) return undefined;
  if (o.usage !== undefined && !record(o.usage)) return undefined;
  return o as M;
}

/** An error as a page shows it: a `type` and a `message` (strings) at least. */
export function keptError<E extends { type: string; message: string }>(v: unknown): E | undefined {
  const o = record(v);
  return o && typeof o.type === 'string' && typeof o.message === 'string' ? (o as E) : undefined;
}
