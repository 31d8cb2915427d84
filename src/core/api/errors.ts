// Errors of the API client, typed by `error.type` (never by message text; doc3 §7), each carrying the
// HTTP status, the message, the `request-id` header and what the user can do about it.
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
   * The extension's bundles (extension.js, features.js) each carry a copy of these classes, so an error
   * made by one copy is checked by the other: `instanceof` goes by the error's name, which every class
   * sets (class names themselves do not survive minification).
   */
  static override [Symbol.hasInstance](x: unknown): boolean {
    if (!(x instanceof Error) || !OURS.has(x.name)) return false;
    const kind = (this as unknown as { kind?: string }).kind;
    return kind === undefined || kind === x.name;
  }
}

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
  ) {
    super(message);
    this.action = status === 401 ? 'set-api-key' : status === 429 ? 'wait' : status >= 500 ? 'retry' : 'none';
  }

  /** One line a person can act on: type, message, request-id and what to do. */
  describe(): string {
    const id = this.requestId ? ` [request-id ${this.requestId}]` : '';
    const hint = hintFor(this);
    return `${this.type} (${this.status}): ${this.message}${id}${hint ? ` — ${hint}` : ''}`;
  }
}

export function hintFor(e: ApiError): string {
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

/** Settings are missing: no base URL, no key. */
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

/** A stream that ended early (an `error` event, a cut connection, an idle timeout). Keeps what arrived. */
export class StreamError extends PromptwrightError {
  static readonly kind = 'StreamError';
  override name = 'StreamError';
  constructor(
    /** `error.type` of an `error` event, or `connection_error` / `idle_timeout` / `aborted` */
    readonly type: string,
    message: string,
    readonly partial: Message | undefined,
    readonly requestId: string | undefined,
  ) {
    super(message);
    this.action = type === 'aborted' ? 'none' : 'retry';
  }
  describe(): string {
    return `${this.type}: ${this.message}${this.requestId ? ` [request-id ${this.requestId}]` : ''}`;
  }
}

/** A short description of any error for people (never includes secrets: messages are ours or the service's). */
export function describeError(e: unknown): string {
  if (e instanceof ApiError || e instanceof StreamError) return e.describe();
  if (e instanceof Error) return e.message;
  return String(e);
}
