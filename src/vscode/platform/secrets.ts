import * as vscode from 'vscode';
import type { Log } from './log';

export type KeyKind = 'api' | 'admin' | 'compliance';
const KEY_KINDS: readonly KeyKind[] = ['api', 'admin', 'compliance'];
const STORAGE_KEY: Record<KeyKind, string> = {
  api: 'promptwright.apiKey',
  admin: 'promptwright.adminApiKey',
  compliance: 'promptwright.complianceKey',
};
const LABEL: Record<KeyKind, string> = { api: 'API key', admin: 'Admin API key', compliance: 'Compliance Access Key' };
const PROMPT: Record<KeyKind, { prompt: string; placeHolder: string }> = {
  api: {
    prompt: "API key for the messages, token counting and sessions endpoints. Stored in VS Code's secret storage.",
    placeHolder: 'your API key',
  },
  admin: {
    prompt:
      'Admin API key (starts with sk-vendor-admin): rate limits and the Organization view. ' +
      "Stored in VS Code's secret storage.",
    placeHolder: 'sk-vendor-admin…',
  },
  compliance: {
    prompt:
      'Compliance Access Key (starts with sk-vendor-api01): the Activity Feed and compliance views. ' +
      "Stored in VS Code's secret storage.",
    placeHolder: 'sk-vendor-api01…',
  },
};

/** API keys live in SecretStorage only: never in settings, logs, webviews or error messages. */
export class Keys implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<KeyKind>();
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;
  /** keys for this window only, never stored (the offline demo's): they take precedence while set */
  private readonly temporary = new Map<KeyKind, string>();
  /** read once per change: every token count and request asks for the key */
  private readonly cache = new Map<KeyKind, Promise<string | undefined>>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Log,
  ) {
    this.sub = secrets.onDidChange(e => {
      for (const k of KEY_KINDS)
        if (e.key === STORAGE_KEY[k]) {
          this.cache.delete(k);
          this.changed.fire(k);
        }
    });
  }

  get(kind: KeyKind): Promise<string | undefined> {
    const temporary = this.temporary.get(kind);
    if (temporary) return Promise.resolve(temporary);
    let p = this.cache.get(kind);
    if (!p) {
      p = Promise.resolve(this.secrets.get(STORAGE_KEY[kind])).then(v => {
        this.log.addSecret(v); // whatever happens, the log never shows it
        return v || undefined;
      });
      p.catch(() => this.cache.delete(kind));
      this.cache.set(kind, p);
    }
    return p;
  }

  /** Asks for the key in a password box and stores it. */
  async prompt(kind: KeyKind): Promise<boolean> {
    const value = await vscode.window.showInputBox({
      title: `Promptwright: Set ${LABEL[kind]}`,
      ...PROMPT[kind],
      password: true,
      ignoreFocusOut: true,
      validateInput: v =>
        v.trim() ? (/\s/.test(v.trim()) ? 'A key has no spaces.' : undefined) : 'Enter a key, or press Escape.',
    });
    if (!value?.trim()) return false;
    await this.set(kind, value.trim());
    void vscode.window.showInformationMessage(`Promptwright: ${LABEL[kind]} saved in secret storage.`);
    return true;
  }

  /** Uses `value` as the key until it is set to undefined; nothing is stored. */
  setTemporary(kind: KeyKind, value: string | undefined): void {
    if (value) this.temporary.set(kind, value);
    else this.temporary.delete(kind);
    this.changed.fire(kind);
  }

  async set(kind: KeyKind, value: string): Promise<void> {
    this.log.addSecret(value);
    this.cache.delete(kind);
    await this.secrets.store(STORAGE_KEY[kind], value);
    this.cache.delete(kind);
    this.log.info(`${LABEL[kind]} set`);
  }

  async clear(kind: KeyKind): Promise<void> {
    this.cache.delete(kind);
    await this.secrets.delete(STORAGE_KEY[kind]);
    this.cache.delete(kind);
    this.log.info(`${LABEL[kind]} cleared`);
    void vscode.window.showInformationMessage(`Promptwright: ${LABEL[kind]} cleared.`);
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
