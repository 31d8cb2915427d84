// The API client as every command that calls the service makes it: its address and keys from the environment
// (the CLI has no SecretStorage), and the check that they are there before anything is sent.
import { ApiClient } from '../api/client';
import { ConfigError } from '../api/errors';
import type { HttpOptions } from '../api/http';
import { httpOptionsFromEnv } from './env';
import type { CliIo } from './io';

/** The client from environment variables (the CLI has no SecretStorage); debug lines go to the io's stderr. */
export function clientFromEnv(io: CliIo, extra: Partial<HttpOptions> = {}): ApiClient {
  const debug = io.env.PROMPTWRIGHT_DEBUG ? { onLog: (l: string) => io.stderr.write(`[promptwright] ${l}\n`) } : {};
  return new ApiClient(httpOptionsFromEnv(io.env, { ...debug, ...extra }));
}

/** Without a service address or a key nothing can run: said before anything is sent (exit 2). */
export function requireService(io: CliIo): void {
  if (!io.env.PROMPTWRIGHT_BASE_URL) throw new ConfigError('no service address', 'set-base-url');
  if (!io.env.PROMPTWRIGHT_API_KEY) throw new ConfigError('no API key', 'set-api-key');
}
