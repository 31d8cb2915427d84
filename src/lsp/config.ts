// The server's settings: what the client sends under the `promptwright` section (initializationOptions, then
// workspace/didChangeConfiguration or workspace/configuration), by the extension's own setting names, read
// through core/settings.ts; and where the client sends nothing, the CLI's environment variables. The address a
// request goes to and the key it carries come from the same place (ServerConfig.service): a project's settings
// file (Zed's, Helix's) can name an address, and the environment's key never follows it there.
import type { HttpOptions } from '../core/api/http';
import { clientOptions, Settings, SETTINGS_SECTION, settingsFromEnv, type SettingSource } from '../core/settings';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

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

  /** the settings the environment stands in for, as the CLI reads them */
  private readonly fromEnv: SettingSource;

  constructor(private readonly env: NodeJS.ProcessEnv) {
    this.fromEnv = settingsFromEnv(env);
  }

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
    return set ?? this.fromEnv(key);
  }

  get betas(): string[] {
    return [...new Set([...this.settings.betas, ...this.addedBetas])];
  }

  /** A saved model list (`promptwright models --format json`), as `check --models` reads it. */
  get modelsFile(): string | undefined {
    const v = this.get('modelsFile');
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  }

  /** Every key the server holds (the editor's and the environment's): none may reach the log or a message. */
  get secrets(): string[] {
    return [this.editorKey, this.env.PROMPTWRIGHT_API_KEY?.trim()].filter((k): k is string => !!k);
  }

  /** The key the editor gave: in initializationOptions only (never the configuration, which clients show and log). */
  private get editorKey(): string | undefined {
    const v = lookup(this.initial, 'apiKey');
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  }

  /**
   * Where a request goes and with which key. An address from the editor goes with the editor's key, or with the
   * environment's when PROMPTWRIGHT_BASE_URL names the same address; else with none (`refused` says why), so a
   * project's settings cannot send the environment's key elsewhere. Without an address from the editor, the
   * environment's address and key (or the editor's key).
   */
  get service(): { baseUrl: string; apiKey?: string; refused?: string } {
    const fromEditor = address(lookup(this.current, 'baseUrl') ?? lookup(this.initial, 'baseUrl'));
    const fromEnv = address(this.env.PROMPTWRIGHT_BASE_URL);
    const envKey = this.env.PROMPTWRIGHT_API_KEY?.trim() || undefined;
    const apiKey = this.editorKey ?? (!fromEditor || sameAddress(fromEditor, fromEnv) ? envKey : undefined);
    const baseUrl = fromEditor || fromEnv;
    if (apiKey) return { baseUrl, apiKey };
    const refused =
      envKey && fromEditor
        ? `the editor's settings name ${fromEditor}, not PROMPTWRIGHT_BASE_URL (${fromEnv || 'unset'}): ` +
          'PROMPTWRIGHT_API_KEY is not sent there. Give that address in PROMPTWRIGHT_BASE_URL, or the key in the ' +
          'initialization options ("apiKey") with the address'
        : undefined;
    return { baseUrl, ...(refused ? { refused } : {}) };
  }

  /**
   * The client's options: the settings (the environment, as the CLI reads it, where the client sends nothing), the
   * address and its key.
   */
  get clientOptions(): HttpOptions {
    const { baseUrl, apiKey } = this.service;
    return { ...clientOptions(this.settings, { baseUrl, apiKey }), betas: this.betas };
  }

  /** Counting with count_tokens: a service address and its key, and `tokenCount.live` not turned off. */
  get live(): boolean {
    const s = this.service;
    return !!s.baseUrl && !!s.apiKey && this.settings.tokenCountLive;
  }
}

/** An address as given (a string), without spaces and the trailing slash; '' for anything else. */
function address(v: unknown): string {
  return typeof v === 'string' ? v.trim().replace(/\/+$/, '') : '';
}

/** Whether two addresses are the same service: scheme, host, port and path, as URLs compare them. */
function sameAddress(a: string, b: string): boolean {
  if (!a || !b) return false;
  try {
    return new URL(a).href.replace(/\/+$/, '') === new URL(b).href.replace(/\/+$/, '');
  } catch {
    return a === b;
  }
}
