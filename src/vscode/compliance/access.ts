import * as vscode from 'vscode';
import { ApiError, ConfigError } from '../../core/api/errors';
import type { CallHooks, KeyKind } from '../../core/api/http';
import { ComplianceClient } from '../../core/compliance/client';
import { COMPLIANCE_BUDGET, RateLimiter } from '../../core/compliance/limiter';
import { COMPLIANCE_KEY_PREFIX, explainComplianceError, parseScopeError, SCOPES } from '../../core/compliance/scopes';
import { sleep } from '../../core/api/retry';
import type { Api } from '../platform/api';
import type { Keys } from '../platform/secrets';
import { Disposable } from '../platform/lifecycle';

/**
 * Access to the compliance interface: the Compliance Access Key, or the Admin key for the Activity Feed
 * only (doc3 §5 rule 4). Every call of this window waits on one rate limiter, the 600-a-minute budget the
 * whole parent organization shares (doc3 §8), and a 429's wait pauses it for every caller.
 */
export class ComplianceAccess extends Disposable {
  readonly limiter = new RateLimiter(COMPLIANCE_BUDGET.limit, COMPLIANCE_BUDGET.windowMs, {
    now: () => Date.now(),
    sleep,
  });
  private readonly limiterHooks: CallHooks = {
    beforeAttempt: signal => this.limiter.acquire(signal),
    onRetry: e => {
      if (e.error instanceof ApiError && e.error.status === 429) this.limiter.pause(e.delayMs);
    },
  };
  /** the scopes a 403 said the current key has (undefined until one says: no endpoint lists them) */
  knownScopes: string[] | undefined;
  private readonly learnt = new vscode.EventEmitter<void>();
  /** fires when what the key may do became known (or unknown again, with a new key) */
  readonly onDidLearnScopes = this.learnt.event;

  constructor(
    private readonly api: Api,
    private readonly keys: Keys,
  ) {
    super();
    this.register(
      keys.onDidChange(k => {
        if (k === 'compliance') this.learn(undefined);
      }),
      this.learnt,
    );
  }

  private learn(scopes: string[] | undefined): void {
    if (JSON.stringify(scopes) === JSON.stringify(this.knownScopes)) return;
    this.knownScopes = scopes;
    // delete actions are offered only while the key is not known to lack the scope (package.json menus);
    // a new key resets this in extension.ts, with the other key contexts
    if (scopes)
      void vscode.commands.executeCommand(
        'setContext',
        'promptwright.compliance.canDelete',
        this.allows(SCOPES.delete),
      );
    this.learnt.fire();
  }

  /** Which key the compliance calls use: the Compliance Access Key, else an Admin key (feed only). */
  async kind(): Promise<'compliance' | 'admin' | undefined> {
    if (await this.keys.get('compliance')) return 'compliance';
    return (await this.keys.get('admin')) ? 'admin' : undefined;
  }

  async client(): Promise<{ client: ComplianceClient; kind: 'compliance' | 'admin' }> {
    const kind = await this.kind();
    if (!kind)
      throw new ConfigError('No Compliance Access Key: run "Promptwright: Set Compliance Key".', 'set-compliance-key');
    const activityKey: KeyKind = kind === 'compliance' ? 'compliance' : 'admin';
    // the window's shared client, each call waiting on this window's limiter
    return { client: new ComplianceClient((await this.api.client()).http, activityKey, this.limiterHooks), kind };
  }

  /** What a failure means, scopes learnt from a 403 kept to decide what to offer next. */
  async explain(e: unknown): Promise<string | undefined> {
    if (e instanceof ApiError && e.status === 403) {
      const s = parseScopeError(e.message);
      if (s) this.learn(s.got);
    }
    const prefix = (await this.keys.get('compliance'))?.slice(0, COMPLIANCE_KEY_PREFIX.length);
    return explainComplianceError(e, (await this.kind()) ?? 'compliance', prefix);
  }

  /** Shows an error with the compliance explanation first (what the key lacks, or the wrong kind of key). */
  async showError(e: unknown, what: string): Promise<void> {
    const why = await this.explain(e);
    await this.api.showError(e, why ? `${what}. ${why}` : what);
  }

  /** Whether the key may do what needs `scope`, as far as is known (unknown: yes, the service decides). */
  allows(scope: string): boolean {
    return this.knownScopes === undefined || this.knownScopes.includes(scope);
  }
}
