import * as vscode from 'vscode';
import { AdminClient } from '../../core/admin/client';
import { ApiClient, type ClientOptions } from '../../core/api/client';
import { describeError, type PromptwrightError } from '../../core/api/errors';
import type { RateLimitInfo } from '../../core/api/types';
import { clientOptions } from '../../core/settings';
import { notificationText } from '../../core/text';
import { SECTION, type Config } from './config';
import { Disposable } from './lifecycle';
import type { Log } from './log';
import { vscodePrompts, type Prompts } from './prompts';
import type { Keys } from './secrets';

type Choice = vscode.QuickPickItem & { choice: 'demo' | 'address' | 'key' };

/** The options a client is built from that its behaviour depends on (not its hooks). */
const SHARED_FIELDS = [
  'baseUrl',
  'apiKey',
  'adminKey',
  'complianceKey',
  'apiVersion',
  'betas',
  'maxRetries',
  'streamIdleTimeoutMs',
  'requestTimeoutMs',
] as const;

function sameSettings(a: ClientOptions, b: ClientOptions): boolean {
  return SHARED_FIELDS.every(f => {
    const x = a[f];
    const y = b[f];
    return Array.isArray(x) && Array.isArray(y) ? x.join('\n') === y.join('\n') : x === y;
  });
}

/**
 * Keeps the API client of the settings and the keys in SecretStorage, one for every request (a grid's cells
 * reuse its connections, as the CLI's and the language server's do); shows errors people can act on.
 */
export class Api extends Disposable {
  private readonly shown = this.register(new vscode.EventEmitter<string>());
  /** fires with the text of every error shown (the extension-host tests read what a person would) */
  readonly onDidShowError = this.shown.event;
  /** the questions `ready` and New Request File ask (an extension-host test answers them with a script) */
  prompts: Prompts = vscodePrompts;
  /** starts the offline demo (it lives in the features bundle; the composition root sets this) */
  startDemo: () => Promise<void> = () => Promise.resolve();

  /** the shared client and what it was built from; replaced when a setting or a key it holds changes */
  private shared: { client: ApiClient; options: ClientOptions } | undefined;
  /** how many clients were built (the extension-host tests read it: a grid's cells share one) */
  created = 0;

  constructor(
    private readonly config: Config,
    private readonly keys: Keys,
    private readonly log: Log,
  ) {
    super();
    // a changed key or setting drops the client (and the key it held) at once; the next request builds a new one
    this.register(
      keys.onDidChange(() => (this.shared = undefined)),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (e.affectsConfiguration(SECTION)) this.shared = undefined;
      }),
    );
  }

  /** The transport's options from the settings and the keys in SecretStorage. */
  async options(extra: Partial<ClientOptions> = {}): Promise<ClientOptions> {
    const [apiKey, adminKey, complianceKey] = await Promise.all([
      this.keys.get('api'),
      this.keys.get('admin'),
      this.keys.get('compliance'),
    ]);
    return {
      ...clientOptions(this.config, { apiKey, adminKey, complianceKey }),
      onLog: l => this.log.info(l),
      onRateLimit: (i: RateLimitInfo) => {
        if (i.remaining !== undefined)
          this.log.debug(`rate limit: ${i.remaining} of ${i.limit ?? '?'} requests left until ${i.reset ?? '?'}`);
      },
      ...extra,
    };
  }

  /**
   * The client of the current settings and keys, shared by every request. What is one call's (a retry's
   * notice, a pacer, a signal) goes in that call's options (CallOptions), never in the client. The options are
   * compared too, so a change no event tells of (the offline demo's address and keys) takes effect as well.
   */
  async client(): Promise<ApiClient> {
    const options = await this.options();
    if (!this.shared || !sameSettings(this.shared.options, options)) {
      this.shared = { client: new ApiClient(options), options };
      this.created++;
    }
    return this.shared.client;
  }

  /**
   * Before a request a person asked for (Send, Count Tokens, Run Cases): with no service address or no API
   * key, asks for what is missing, right there, with the offline demo as the first choice, rather than
   * failing. True when the request can go.
   */
  async ready(what: string): Promise<boolean> {
    const address = this.config.baseUrl;
    const key = await this.keys.get('api');
    if (address && key) return true;
    const items: Choice[] = [
      {
        label: '$(beaker) Use the offline demo',
        detail: 'No account needed: no model runs; sample sessions, rate limits, organization and compliance data',
        choice: 'demo',
      },
      ...(!address
        ? [{ label: '$(globe) Enter the service address…', detail: 'promptwright.baseUrl', choice: 'address' as const }]
        : []),
      ...(!key
        ? [{ label: '$(key) Set API Key…', detail: "Kept in VS Code's secret storage", choice: 'key' as const }]
        : []),
    ];
    const needs = !address && !key ? 'a service address and an API key' : !address ? 'a service address' : 'an API key';
    const pick = await this.prompts.pick(items, { title: `${what} needs ${needs}`, placeHolder: 'How to go on?' });
    if (!pick) return false;
    if (pick.choice === 'demo') {
      await this.startDemo();
      return true;
    }
    if (!address) {
      const url = await this.prompts.input({
        title: 'The service address',
        prompt: 'The base URL of the service, e.g. https://api.example.com (without /v1)',
        ignoreFocusOut: true,
        validateInput: v => (/^https?:\/\/\S+$/i.test(v.trim()) ? undefined : 'An http:// or https:// address.'),
      });
      if (!url?.trim()) return false;
      const clean = url.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
      await vscode.workspace.getConfiguration(SECTION).update('baseUrl', clean, vscode.ConfigurationTarget.Global);
    }
    if (!key) {
      const value = await this.prompts.input({
        title: 'Promptwright: Set API Key',
        prompt: "The API key, kept in VS Code's secret storage (never in settings or logs)",
        password: true,
        ignoreFocusOut: true,
        validateInput: v => (v.trim() && !/\s/.test(v.trim()) ? undefined : 'A key, without spaces.'),
      });
      if (!value?.trim()) return false;
      await this.keys.set('api', value.trim());
    }
    return !!this.config.baseUrl && !!(await this.keys.get('api'));
  }

  /** The administration interface, with the Admin key. */
  async admin(): Promise<AdminClient> {
    return new AdminClient((await this.client()).http);
  }

  /**
   * Shows a failure, the one way every failure a person sees is shown: what failed, then the error in words
   * (`error.type`, the message and the request-id, where the service gave them; `e` may also be a sentence
   * of ours), written to the log, with the button that fixes it (Set API Key, Open Settings…) and Show Log.
   * Returns once it is shown: the notification stays until the person acts on it, and the command that
   * failed must not wait for that.
   */
  showError(e: unknown, what?: string): Promise<void> {
    // a key a gateway echoed back is never shown, and the service's message links nothing in a notification (no
    // `command:` link can come from it)
    const text = notificationText(this.log.redact(what ? `${what}: ${describeError(e)}` : describeError(e)));
    this.log.error(text);
    this.shown.fire(text);
    const action = (e as PromptwrightError)?.action;
    const buttons: string[] = [];
    if (action === 'set-api-key') buttons.push('Set API Key');
    if (action === 'set-admin-key') buttons.push('Set Admin API Key');
    if (action === 'set-compliance-key') buttons.push('Set Compliance Key');
    if (action === 'set-base-url') buttons.push('Open Settings');
    buttons.push('Show Log');
    void vscode.window.showErrorMessage(text, ...buttons).then(async pick => {
      if (pick === 'Set API Key') await vscode.commands.executeCommand('promptwright.setApiKey');
      else if (pick === 'Set Admin API Key') await vscode.commands.executeCommand('promptwright.setAdminApiKey');
      else if (pick === 'Set Compliance Key') await vscode.commands.executeCommand('promptwright.setComplianceKey');
      else if (pick === 'Open Settings')
        await vscode.commands.executeCommand('workbench.action.openSettings', 'promptwright.baseUrl');
      else if (pick === 'Show Log') this.log.show();
    });
    return Promise.resolve();
  }

  override dispose(): void {
    this.shared = undefined;
    super.dispose();
  }
}
