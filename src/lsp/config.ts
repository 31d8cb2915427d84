// The server's settings: what the client sends under the `promptwright` section (initializationOptions, then
// workspace/didChangeConfiguration or workspace/configuration), by the extension's own setting names, read
// through core/settings.ts; and where the client sends nothing, the CLI's environment variables.
import { Settings, SETTINGS_SECTION } from '../core/settings';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Settings the environment stands in for, as the CLI reads them. */
const FROM_ENV: Record<string, (env: NodeJS.ProcessEnv) => unknown> = {
  baseUrl: env => env.PROMPTWRIGHT_BASE_URL,
  apiVersion: env => env.PROMPTWRIGHT_API_VERSION,
  maxRetries: env => (env.PROMPTWRIGHT_MAX_RETRIES ? Number(env.PROMPTWRIGHT_MAX_RETRIES) : undefined),
  betas: env => env.PROMPTWRIGHT_BETAS?.split(','),
  modelsFile: env => env.PROMPTWRIGHT_MODELS,
};

/** A setting by its dotted name: `{"cache": {"minimumTokens": …}}` or `{"cache.minimumTokens": …}`. */
function lookup(values: Obj, key: string): unknown {
  if (key in values) return values[key];
  const dot = key.indexOf('.');
  if (dot < 0) return undefined;
  const head = values[key.slice(0, dot)];
  return isObj(head) ? lookup(head, key.slice(dot + 1)) : undefined;
}

/** What the client sent: the `promptwright` section, or (initializationOptions) the settings themselves. */
function sectionOf(raw: unknown): Obj {
  if (!isObj(raw)) return {};
  return isObj(raw[SETTINGS_SECTION]) ? raw[SETTINGS_SECTION] : raw;
}

export class ServerConfig {
  /** from initializationOptions */
  private initial: Obj = {};
  /** from the client's configuration (each change replaces the whole section) */
  private current: Obj = {};
  /** beta values added with the "add beta" quick fix, for this session */
  private readonly addedBetas = new Set<string>();
  readonly settings = new Settings(key => this.get(key));

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  setInitial(raw: unknown): void {
    this.initial = sectionOf(raw);
  }

  setCurrent(raw: unknown): void {
    this.current = sectionOf(raw);
  }

  addBeta(beta: string): void {
    this.addedBetas.add(beta);
  }

  private get(key: string): unknown {
    const set = lookup(this.current, key) ?? lookup(this.initial, key);
    return set ?? FROM_ENV[key]?.(this.env);
  }

  get betas(): string[] {
    return [...new Set([...this.settings.betas, ...this.addedBetas])];
  }

  /** A saved model list (`promptwright models --format json`), as `check --models` reads it. */
  get modelsFile(): string | undefined {
    const v = this.get('modelsFile');
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  }

  /**
   * The API key: from initializationOptions (never from the configuration, which clients show and log), or the
   * environment.
   */
  get apiKey(): string | undefined {
    const v = lookup(this.initial, 'apiKey');
    const key = typeof v === 'string' && v.trim() ? v.trim() : this.env.PROMPTWRIGHT_API_KEY?.trim();
    return key || undefined;
  }

  /** Counting with count_tokens: a service address and a key, and `tokenCount.live` not turned off. */
  get live(): boolean {
    return !!this.settings.baseUrl && !!this.apiKey && this.settings.tokenCountLive;
  }
}
