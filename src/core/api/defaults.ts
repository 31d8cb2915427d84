// The transport's defaults, in one place: what a client sends and how long it waits when its options say
// nothing. The settings (core/settings.ts) default to the same values, in every front end.

/** The `vendor-version` header (doc1 §4): `promptwright.apiVersion`, PROMPTWRIGHT_API_VERSION. */
export const DEFAULT_API_VERSION = '2023-06-01';

/** Retries after a failed attempt: `promptwright.maxRetries`, PROMPTWRIGHT_MAX_RETRIES. */
export const DEFAULT_MAX_RETRIES = 2;

/** A stream that sends nothing for this long ends, its partial output kept: `promptwright.streamIdleTimeoutSeconds`. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 60_000;

/** A request that is not streamed, the whole exchange. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;
