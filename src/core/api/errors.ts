// Errors of the API client, typed by `error.type` (never by message text; doc3 §7), each carrying the
// HTTP status, the message, the `request-id` header and what the user can do about it.
import { count } from '../text';
import type { Message } from './types';

export type ErrorAction =
  'set-api-key' | 'set-admin-key' | 'set-compliance-key' | 'set-base-url' | 'wait' | 'retry' | 'none';

const OURS = new Set([
  'PromptwrightError',
  'ApiError',
  'ConnectionError',
  'TimeoutError',
  'AbortedError',
  'ConfigError',
  'StreamError',
  'InputError',
]);

export class PromptwrightError extends Error {
  override name = 'PromptwrightError';
  /** what the UI should offer */
  action: ErrorAction = 'none';

  /**
   * The extension's bundles (extension.js, which features.js shares, and core.js, the core bundle) each
   * carry a copy of these classes, so an error made by one copy is checked by the other: `instanceof` goes by the
   * error's name, which every class sets (class names themselves do not survive minification).
   */
  static override [Symbol.hasInstance](x: unknown): boolean {
    if (!(x instanceof Error) || !OURS.has(x.name)) return false;
    const kind = (this as unknown as { kind?: string }).kind;
    return kind === undefined || kind === x.name;
  }
}

/** The service said this request must not be sent again (doc3 §7 retry rule 3: `x-should-retry: false`). */
const noRetry = (e: ApiError) => e.headers['x-should-retry'] === 'false';

/** The service answered with a non-2xx status and (usually) `{error: {type, message}}`. */
export class ApiError extends PromptwrightError {
  static readonly kind = 'ApiError';
  override name = 'ApiError';
  constructor(
    readonly status: number,
    /** `error.type` from the body, or a name for the status when the body has none */
    readonly type: string,
    message: string,
    readonly requestId: string | undefined,
    readonly headers: Record<string, string>,
    /** seconds from `retry-after`, when present */
    readonly retryAfter?: number,
    /** bytes of the JSON body that was sent (a 413's hint gives the size) */
    readonly requestBytes?: number,
  ) {
    super(message);
    this.action =
      status >= 300 && status < 400
        ? 'set-base-url'
        : status === 401
          ? 'set-api-key'
          : status === 429
            ? 'wait'
            : status >= 500 && !(status === 500 && noRetry(this))
              ? 'retry'
              : 'none';
  }

  /** One line a person can act on: type, message, request-id and what to do. */
  describe(): string {
    const id = this.requestId ? ` [request-id ${this.requestId}]` : '';
    const hint = hintFor(this);
    return `${this.type} (${this.status}): ${this.message}${id}${hint ? ` — ${hint}` : ''}`;
  }
}

export function hintFor(e: ApiError): string {
  if (e.status >= 300 && e.status < 400)
    return 'no redirect is followed (a key would go with it): if that address is the service, make it the base URL.';
  if (e.status === 500 && noRetry(e)) {
    return 'the service asked not to retry this request (x-should-retry: false), for the reason in its message.';
  }
  switch (e.status) {
    case 401:
      return 'the API key is missing, unknown, deleted or disabled: run "Promptwright: Set API Key".';
    case 403:
      return (
        'the key lacks the scope this needs, or this endpoint needs an Admin API key ' +
        '("Promptwright: Set Admin API Key").'
      );
    case 404:
      return 'not found (check the id, the model or the base URL).';
    case 409:
      return 'conflict: change the request before retrying.';
    case 413:
      return tooLargeHint(e.requestBytes);
    case 429:
      return e.retryAfter !== undefined
        ? `rate limited: retry after ${e.retryAfter} s.`
        : 'rate limited: wait and retry.';
    case 529:
      return 'the service is overloaded: retry later.';
    default:
      return e.status >= 500 ? 'a service error: retry later.' : '';
  }
}

/**
 * What is too large and how to make it smaller. The spec gives no byte limit for a request body (doc1 §8
 * limits messages, images and tokens), so the figure is the size sent, not a distance to a limit.
 */
function tooLargeHint(bytes: number | undefined): string {
  const size = bytes !== undefined ? ` (${count(bytes, 'byte')} of JSON)` : '';
  return (
    `the request body is too large${size}: send images and PDFs as a "file" source by file_id (uploaded once ` +
    'through the Files API, beta files-api-2025-04-14) or a "url" source instead of base64 data.'
  );
}

/** No connection, DNS failure, reset before a response. Retried. */
export class ConnectionError extends PromptwrightError {
  static readonly kind = 'ConnectionError';
  override name = 'ConnectionError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.action = 'retry';
  }
}

/** Nothing arrived for too long (headers, or the next bytes of a stream). */
export class TimeoutError extends PromptwrightError {
  static readonly kind = 'TimeoutError';
  override name = 'TimeoutError';
  constructor(message: string) {
    super(message);
    this.action = 'retry';
  }
}

/** The caller cancelled. */
export class AbortedError extends PromptwrightError {
  static readonly kind = 'AbortedError';
  override name = 'AbortedError';
  constructor() {
    super('Cancelled.');
  }
}

/** Settings are missing or unusable: no base URL, no key, a saved model list that cannot be read. */
export class ConfigError extends PromptwrightError {
  static readonly kind = 'ConfigError';
  override name = 'ConfigError';
  constructor(message: string, action: ErrorAction) {
    super(message);
    this.action = action;
  }
}

/** An input the spec says the service refuses, caught before anything was sent (the CLI exits 2). */
export class InputError extends PromptwrightError {
  static readonly kind = 'InputError';
  override name = 'InputError';
}

/** What arrived of a stream before it failed. */
export interface Received {
  /** stream events delivered (pings included) */
  events: number;
  /** characters of text, thinking and tool input */
  replyChars: number;
}

/** A stream that ended early (an `error` event, a cut connection, an idle timeout). Keeps what arrived. */
export class StreamError extends PromptwrightError {
  static readonly kind = 'StreamError';
  override name = 'StreamError';
  constructor(
    /** `error.type` of an `error` event, or `connection_error` / `idle_timeout` / `invalid_stream` / `aborted` */
    readonly type: string,
    message: string,
    readonly partial: Message | undefined,
    readonly requestId: string | undefined,
    readonly received?: Received,
    /** the network library's code and message, for the log (never the first thing a person reads) */
    readonly detail?: string,
  ) {
    super(message);
    this.action = type === 'aborted' ? 'none' : 'retry';
  }
  describe(): string {
    const kept = this.partial && this.type !== 'aborted' ? '; the partial reply is kept' : '';
    return `${this.type}: ${this.message}${kept}${this.requestId ? ` [request-id ${this.requestId}]` : ''}`;
  }
}

/** What happened after N events: "after 12 events (345 characters of reply)". */
export function afterReceived(r: Received): string {
  return `after ${count(r.events, 'event')} (${count(r.replyChars, 'character')} of reply)`;
}

/** A short description of any error for people (never includes secrets: messages are ours or the service's). */
export function describeError(e: unknown): string {
  if (e instanceof ApiError || e instanceof StreamError) return e.describe();
  if (e instanceof Error) return e.message;
  return String(e);
}

/**
 * What kind of failure an error is, in the words a panel shows beside its message: the service's `error.type`
 * when it answered, else a word for what happened here. Never a class name ("ConnectionError" means nothing to
 * the person reading it, and class names do not survive minification anyway).
 */
export function errorType(e: unknown): string {
  if (e instanceof ApiError || e instanceof StreamError) return e.type;
  if (e instanceof AbortedError) return 'aborted';
  if (e instanceof TimeoutError) return 'timeout';
  if (e instanceof ConnectionError) return 'connection_error';
  if (e instanceof ConfigError) return 'configuration_error';
  if (e instanceof InputError) return 'invalid_input';
  return 'internal_error';
}

/** The network library's code and message behind an error, for logs and debug output (" (UND_ERR_SOCKET …)"). */
export function errorDetail(e: unknown): string {
  return e instanceof StreamError && e.detail ? ` (${e.detail})` : '';
}
