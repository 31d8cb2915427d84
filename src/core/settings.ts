// The settings every front end reads, by the names the extension contributes (package.json, under
// `promptwright.`), with their defaults and their bounds. The extension reads them from VS Code's
// configuration, the language server from what its client sends (initializationOptions and
// workspace/didChangeConfiguration), and both the CLI and the server from the environment where nothing else
// says (settingsFromEnv): one reader, so a value means the same in every editor and in a terminal. A client's
// options are built from them one way (clientOptions).
import { DEFAULT_API_VERSION, DEFAULT_MAX_RETRIES, DEFAULT_STREAM_IDLE_TIMEOUT_MS } from './api/defaults';
import type { HttpOptions } from './api/http';
import { COUNT_FILE_PATTERNS } from './request/count';
import type { Endpoint } from './request/validate';

/** The section every setting lives under (`promptwright.baseUrl`). */
export const SETTINGS_SECTION = 'promptwright';

/** Files checked as message requests unless the settings say otherwise. */
const DEFAULT_REQUEST_FILE_PATTERNS: readonly string[] = ['**/*.prompt.json', '**/*.prompt.yaml', '**/*.prompt.yml'];

/** `cases.concurrency` when none is set (and `promptwright test`'s without `--concurrency`): cells in flight. */
export const DEFAULT_CASES_CONCURRENCY = 4;

/**
 * The most requests a run of case files sends without asking (`cases.maxRequests` in the editor, which asks first;
 * `promptwright test --max-requests`, which stops in CI): a pull request that adds `repeat: 100` to a case file of
 * a thousand rows would otherwise send 100,000 requests on the owner's key before anyone saw it.
 */
export const DEFAULT_MAX_REQUESTS = 1000;

/**
 * Settings that say where a key goes: read from the person's own (user) settings only, never a workspace's or a
 * folder's, in a trusted workspace as in Restricted Mode (package.json gives them the `application` scope, so VS
 * Code ignores them in a workspace's settings too). A repository that needs another address says so in its README.
 */
export const USER_ONLY_SETTINGS: readonly string[] = ['baseUrl'];

/**
 * Settings a workspace may set once it is trusted, never in Restricted Mode: where files are written (package.json
 * lists them in `capabilities.untrustedWorkspaces.restrictedConfigurations`).
 */
export const RESTRICTED_SETTINGS: readonly string[] = ['transcripts.folder', 'cases.resultsInRepository'];

/** A setting's value by its name under the section (`cache.minimumTokens`); undefined when it is not set. */
export type SettingSource = (key: string) => unknown;

/** The environment variables that stand in for settings, each by the setting's name. */
const FROM_ENV: Record<string, (env: Environment) => unknown> = {
  baseUrl: env => env.PROMPTWRIGHT_BASE_URL,
  apiVersion: env => env.PROMPTWRIGHT_API_VERSION,
  // a number as the setting is one (bounded as it is); anything else, or nothing, means the default
  maxRetries: env => (env.PROMPTWRIGHT_MAX_RETRIES?.trim() ? Number(env.PROMPTWRIGHT_MAX_RETRIES) : undefined),
  betas: env => env.PROMPTWRIGHT_BETAS?.split(','),
  modelsFile: env => env.PROMPTWRIGHT_MODELS,
};

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The settings the environment gives (PROMPTWRIGHT_BASE_URL, _API_VERSION, _MAX_RETRIES, _BETAS, _MODELS), read
 * as the CLI reads them and as the language server does where its client sends nothing: `new
 * Settings(settingsFromEnv(env))` has each setting's bounds and default, so a value means the same in both.
 */
export function settingsFromEnv(env: Environment): SettingSource {
  return key => FROM_ENV[key]?.(env);
}

/** The keys a client carries, and the address they go to when the front end pairs them itself. */
export interface ClientKeys {
  apiKey?: string | undefined;
  adminKey?: string | undefined;
  complianceKey?: string | undefined;
  /** the address the keys go to; the settings' `baseUrl` when absent (the language server pairs them) */
  baseUrl?: string;
}

/**
 * A client's options from the settings and the keys, the one way every front end builds them: the address,
 * the keys that are set, the version, the betas, the retries and the stream's idle timeout. A front end adds
 * only its own log and hooks.
 */
export function clientOptions(settings: Settings, keys: ClientKeys): HttpOptions {
  return {
    baseUrl: keys.baseUrl ?? settings.baseUrl,
    ...(keys.apiKey ? { apiKey: keys.apiKey } : {}),
    ...(keys.adminKey ? { adminKey: keys.adminKey } : {}),
    ...(keys.complianceKey ? { complianceKey: keys.complianceKey } : {}),
    apiVersion: settings.apiVersion,
    betas: settings.betas,
    maxRetries: settings.maxRetries,
    streamIdleTimeoutMs: settings.streamIdleTimeoutSeconds * 1000,
  };
}

/** Typed access to the settings, read from the source each time (so changes apply at once). */
export class Settings {
  constructor(private readonly source: SettingSource) {}

  private strings(key: string, fallback: readonly string[]): string[] {
    const v = this.source(key);
    return Array.isArray(v) && v.every(x => typeof x === 'string') ? v : [...fallback];
  }
  private num(key: string, fallback: number, min: number, max: number): number {
    const v = this.source(key);
    return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
  }
  private text(key: string, fallback = ''): string {
    const v = this.source(key);
    return typeof v === 'string' ? v.trim() : fallback;
  }

  /** message-request files; an empty list means the defaults */
  get requestFilePatterns(): string[] {
    const v = this.strings('requestFilePatterns', DEFAULT_REQUEST_FILE_PATTERNS);
    return v.length ? v : [...DEFAULT_REQUEST_FILE_PATTERNS];
  }
  /** files that hold a count_tokens body: checked for that endpoint, counted, never sent */
  get countTokensFilePatterns(): string[] {
    return this.strings('countTokensFilePatterns', COUNT_FILE_PATTERNS);
  }
  get betas(): string[] {
    return this.strings('betas', [])
      .map(s => s.trim())
      .filter(Boolean);
  }
  get validationDebounceMs(): number {
    return this.num('validation.debounceMs', 250, 0, 5000);
  }
  /** the service address, without a trailing slash ('' when none is set) */
  get baseUrl(): string {
    return this.text('baseUrl').replace(/\/+$/, '');
  }
  get apiVersion(): string {
    return this.text('apiVersion') || DEFAULT_API_VERSION;
  }
  get maxRetries(): number {
    return this.num('maxRetries', DEFAULT_MAX_RETRIES, 0, 10);
  }
  get streamIdleTimeoutSeconds(): number {
    return this.num('streamIdleTimeoutSeconds', DEFAULT_STREAM_IDLE_TIMEOUT_MS / 1000, 1, 3600);
  }
  get tokenCountLive(): boolean {
    return this.source('tokenCount.live') !== false;
  }
  get tokenDebounceMs(): number {
    return this.num('tokenCount.debounceMs', 800, 100, 10000);
  }
  /** `cache.minimumTokens`: model id → the minimum cacheable prefix, over the documented table */
  get cacheMinimumTokens(): Record<string, unknown> {
    const v = this.source('cache.minimumTokens');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }
  get resourcePageSize(): number {
    return Math.round(this.num('sessions.pageSize', 100, 1, 1000));
  }
  get adminPageSize(): number {
    return Math.round(this.num('admin.pageSize', 20, 1, 1000));
  }
  get compliancePageSize(): number {
    return Math.round(this.num('compliance.pageSize', 100, 1, 1000));
  }
  /** cells of the Cases grid in flight at once */
  get casesConcurrency(): number {
    return Math.round(this.num('cases.concurrency', DEFAULT_CASES_CONCURRENCY, 1, 16));
  }
  /** the requests a run of case files may send before the editor asks */
  get casesMaxRequests(): number {
    return Math.round(this.num('cases.maxRequests', DEFAULT_MAX_REQUESTS, 1, 10_000_000));
  }
  /** the judge of rubric assertions when a case file names none ('': none) */
  get casesJudgeModel(): string {
    return this.text('cases.judgeModel');
  }
  /** `prices`: a person's prices per model, over the built-in table (parsed by core/cost/prices.ts) */
  get prices(): unknown {
    return this.source('prices') ?? {};
  }
  /** results of case files in the repository's `.promptwright/results/` (else in the workspace storage) */
  get casesResultsInRepository(): boolean {
    return this.source('cases.resultsInRepository') === true;
  }
  /** the model that writes test cases and improves prompts; empty: the request's own */
  get coauthorModel(): string {
    return this.text('coauthor.model');
  }
  /** the git revision the status bar, the Token Breakdown and Compare set the working copy against */
  get compareBase(): string {
    return this.text('compare.base', 'HEAD');
  }
  get transcriptFolder(): string {
    return this.text('transcripts.folder');
  }
}

/**
 * The endpoint a file's body is for, by the configured patterns: `count_tokens` for a count file (those
 * patterns win where both match), `messages` for a request file, undefined for any other file. `matches`
 * says whether the file matches one of the patterns, as the front end matches globs.
 */
export function endpointByPatterns(
  settings: Pick<Settings, 'requestFilePatterns' | 'countTokensFilePatterns'>,
  matches: (patterns: readonly string[]) => boolean,
): Endpoint | undefined {
  if (matches(settings.countTokensFilePatterns)) return 'count_tokens';
  return matches(settings.requestFilePatterns) ? 'messages' : undefined;
}
