// The API client as every command that calls the service makes it: its address and keys from the environment
// (the CLI has no SecretStorage), and the check that they are there before anything is sent.
import { ApiClient } from '../core/api/client';
import { ApiError, ConfigError } from '../core/api/errors';
import { LONG_WAIT_MS } from '../core/api/pacer';
import type { HttpOptions } from '../core/api/http';
import { httpOptionsFromEnv } from './env';
import type { CliIo } from './io';

/**
 * The client from environment variables (the CLI has no SecretStorage); debug lines go to the io's stderr, and so
 * does a wait for the rate limit longer than 2 s (a 429's retry-after, or the pacer's: `waitNotice`), so a run that
 * waits is not taken for one that hangs, on a terminal or in a CI log.
 */
export function clientFromEnv(io: CliIo, extra: Partial<HttpOptions> = {}): ApiClient {
  const debug = io.env.PROMPTWRIGHT_DEBUG ? { onLog: (l: string) => io.stderr.write(`[promptwright] ${l}\n`) } : {};
  const notice = waitNotice(io);
  const onRetry: HttpOptions['onRetry'] = e => {
    if (e.error instanceof ApiError && e.error.status === 429) notice(e.delayMs);
    extra.onRetry?.(e);
  };
  return new ApiClient(httpOptionsFromEnv(io.env, { ...debug, ...extra, onRetry }));
}

/** When the last wait said on each run's stderr ends: the pacer's and a retry's waits for one reset, said once. */
const saidUntil = new WeakMap<CliIo, { at: number }>();

/** Says a wait for the rate limit on stderr when it is longer than 2 s; waits that end together are said once. */
export function waitNotice(io: CliIo): (ms: number) => void {
  const said = saidUntil.get(io) ?? { at: -Infinity };
  saidUntil.set(io, said);
  return ms => {
    const until = Date.now() + ms;
    if (ms <= LONG_WAIT_MS || until <= said.at + 1000) return;
    said.at = until;
    io.stderr.write(`promptwright: waiting for the rate limit: ${Math.round(ms / 1000)} s\n`);
  };
}

/** Without a service address or a key nothing can run: said before anything is sent (exit 2). */
export function requireService(io: CliIo): void {
  if (!io.env.PROMPTWRIGHT_BASE_URL) throw new ConfigError('no service address', 'set-base-url');
  if (!io.env.PROMPTWRIGHT_API_KEY) throw new ConfigError('no API key', 'set-api-key');
}
