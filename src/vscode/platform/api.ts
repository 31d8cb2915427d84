import * as vscode from 'vscode';
import { AdminClient } from '../../core/admin/client';
import { ApiClient, type ClientOptions } from '../../core/api/client';
import { describeError, type PromptwrightError } from '../../core/api/errors';
import type { RateLimitInfo } from '../../core/api/types';
import type { Config } from './config';
import type { Keys } from './secrets';
import type { Log } from './log';

/** Builds API clients from the settings and the keys in SecretStorage; shows errors people can act on. */
export class Api implements vscode.Disposable {
  private readonly shown = new vscode.EventEmitter<string>();
  /** fires with the text of every error shown (the extension-host tests read what a person would) */
  readonly onDidShowError = this.shown.event;

  constructor(
    private readonly config: Config,
    private readonly keys: Keys,
    private readonly log: Log,
  ) {}

  /** The transport's options from the settings and the keys in SecretStorage. */
  async options(extra: Partial<ClientOptions> = {}): Promise<ClientOptions> {
    const [apiKey, adminKey, complianceKey] = await Promise.all([
      this.keys.get('api'),
      this.keys.get('admin'),
      this.keys.get('compliance'),
    ]);
    return {
      baseUrl: this.config.baseUrl,
      ...(apiKey ? { apiKey } : {}),
      ...(adminKey ? { adminKey } : {}),
      ...(complianceKey ? { complianceKey } : {}),
      apiVersion: this.config.apiVersion,
      betas: this.config.betas,
      maxRetries: this.config.maxRetries,
      streamIdleTimeoutMs: this.config.streamIdleTimeoutSeconds * 1000,
      onLog: l => this.log.info(l),
      onRateLimit: (i: RateLimitInfo) => {
        if (i.remaining !== undefined)
          this.log.debug(`rate limit: ${i.remaining} of ${i.limit ?? '?'} requests left until ${i.reset ?? '?'}`);
      },
      ...extra,
    };
  }

  async client(extra: Partial<ClientOptions> = {}): Promise<ApiClient> {
    return new ApiClient(await this.options(extra));
  }

  /** The administration interface, with the Admin key. */
  async admin(): Promise<AdminClient> {
    return new AdminClient((await this.client()).http);
  }

  /** An error message with the button that fixes it (Set API Key, Open Settings, Show Log). */
  /**
   * Shows an error with the buttons that fix it. Returns once it is shown: the notification stays until
   * the person acts on it, and the command that failed must not wait for that.
   */
  showError(e: unknown, what: string): Promise<void> {
    const text = `${what}: ${describeError(e)}`;
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

  dispose(): void {
    this.shown.dispose();
  }
}
