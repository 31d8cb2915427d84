// The service and its keys from the environment (the CLI has no SecretStorage), and how a failure is said in a
// terminal: which variable to set, or the service's status, error.type, message and request-id (core/environment.ts,
// whose words the language server's log shares).
import * as os from 'node:os';
import * as path from 'node:path';
import { Http, type HttpOptions } from '../core/api/http';
import { redactKnown } from '../core/redact';
import { clientOptions, Settings, settingsFromEnv } from '../core/settings';
import { terminalText, type CliIo } from './io';

/** The client's options from the environment: its settings (read as the language server reads them) and keys. */
export function httpOptionsFromEnv(env: CliIo['env'], extra: Partial<HttpOptions> = {}): HttpOptions {
  const keys = {
    apiKey: env.PROMPTWRIGHT_API_KEY,
    adminKey: env.PROMPTWRIGHT_ADMIN_KEY || env.PROMPTWRIGHT_ADMIN_API_KEY,
    complianceKey: env.PROMPTWRIGHT_COMPLIANCE_KEY,
  };
  return {
    ...clientOptions(new Settings(settingsFromEnv(env)), keys),
    ...(env.PROMPTWRIGHT_DEBUG
      ? {
          onLog: (l: string) =>
            process.stderr.write(`[promptwright] ${terminalText(redactKnown(l, keysFromEnv(env)))}\n`),
        }
      : {}),
    ...extra,
  };
}

/** Every key the environment holds: none of them may reach an output. */
export function keysFromEnv(env: CliIo['env']): string[] {
  const names = [
    'PROMPTWRIGHT_API_KEY',
    'PROMPTWRIGHT_ADMIN_KEY',
    'PROMPTWRIGHT_ADMIN_API_KEY',
    'PROMPTWRIGHT_COMPLIANCE_KEY',
  ];
  return names.map(n => env[n]?.trim()).filter((k): k is string => !!k);
}

/**
 * The io with every write to stdout and stderr cleaned of the environment's keys: text, JSON, JUnit, markdown
 * and every message, whatever a service or a gateway echoed back. Errors are cleaned where they are made
 * (Http.redact); this is the last line, for anything else that quotes a key. The streams stay themselves
 * otherwise (their events, `destroyed`, drain), only `write` is put in front.
 */
export function withoutKeys(io: CliIo): CliIo {
  const keys = keysFromEnv(io.env);
  if (!keys.length) return io;
  const clean = <T extends { write(s: string): unknown }>(stream: T): T =>
    new Proxy(stream, {
      get(target, name) {
        if (name === 'write') return (s: string) => target.write(redactKnown(s, keys));
        const value: unknown = Reflect.get(target, name, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return { ...io, stdout: clean(io.stdout), stderr: clean(io.stderr) };
}

export function httpFromEnv(env: CliIo['env'], extra: Partial<HttpOptions> = {}): Http {
  return new Http(httpOptionsFromEnv(env, extra));
}

/**
 * Where the CLI keeps what outlives a run (judges' verdicts): PROMPTWRIGHT_CACHE_DIR, else the user's cache
 * folder: `$XDG_CACHE_HOME/promptwright` or `~/.cache/promptwright` on Linux, `~/Library/Caches/promptwright`
 * on macOS, `%LOCALAPPDATA%\promptwright\Cache` on Windows.
 */
export function cacheDir(env: CliIo['env'], platform = process.platform, home = os.homedir()): string {
  if (env.PROMPTWRIGHT_CACHE_DIR) return path.resolve(env.PROMPTWRIGHT_CACHE_DIR);
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'promptwright');
  if (platform === 'win32')
    return path.win32.join(env.LOCALAPPDATA || path.win32.join(home, 'AppData', 'Local'), 'promptwright', 'Cache');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'promptwright');
}
