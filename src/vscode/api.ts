import * as vscode from 'vscode';
import { AdminClient } from '../core/admin/client';
import { ApiClient, type ClientOptions } from '../core/api/client';
import { describeError, type PromptwrightError } from '../core/api/errors';
import type { RateLimitInfo } from '../core/api/types';
import type { Config } from './config';
import type { Keys } from './secrets';
import type { Log } from './log';

/** Builds API clients from the settings and the keys in SecretStorage; shows errors people can act on. */
export class Api {
  constructor(
    private readonly config: Config,
    private readonly keys: Keys,
    private readonly log: Log,
  ) {}

  async client(extra: Partial<ClientOptions> = {}): Promise<ApiClient> {
    const [apiKey, adminKey, complianceKey] = await Promise.all([
      this.keys.get('api'),
      this.keys.get('admin'),
      this.keys.get('compliance'),
    ]);
    return new ApiClient({
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
    });
  }

  /** The administration interface, with the Admin key. */
  async admin(): Promise<AdminClient> {
    return new AdminClient((await this.client()).http);
  }

  /** An error message with the button that fixes it (Set API Key, Open Settings, Show Log). */
  async showError(e: unknown, what: string): Promise<void> {
    const text = `${what}: ${describeError(e)}`;
    this.log.error(text);
    const action = (e as PromptwrightError)?.action;
    const buttons: string[] = [];
    if (action === 'set-api-key') buttons.push('Set API Key');
    if (action === 'set-admin-key') buttons.push('Set Admin API Key');
    if (action === 'set-compliance-key') buttons.push('Set Compliance Key');
    if (action === 'set-base-url') buttons.push('Open Settings');
    buttons.push('Show Log');
    const pick = await vscode.window.showErrorMessage(text, ...buttons);
    if (pick === 'Set API Key') await vscode.commands.executeCommand('promptwright.setApiKey');
    else if (pick === 'Set Admin API Key') await vscode.commands.executeCommand('promptwright.setAdminApiKey');
    else if (pick === 'Set Compliance Key') await vscode.commands.executeCommand('promptwright.setComplianceKey');
    else if (pick === 'Open Settings')
      await vscode.commands.executeCommand('workbench.action.openSettings', 'promptwright.baseUrl');
    else if (pick === 'Show Log') this.log.show();
  }
}
