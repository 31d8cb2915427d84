// The service's model list in the editor (doc3 §9.5): fetched on first need, never at activation; once per
// service address and API key, kept in the global state for 24 hours (under a hash of the two: the key is
// never written anywhere); refreshed by "Promptwright: Refresh Models"; and when the service cannot be
// reached, the list kept last is used, or with none the built-in table. Once loaded, the request files are
// checked against it (the diagnostics' models), and completion, hover and Choose Model… offer it.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { describeError } from '../../core/api/errors';
import type { RequestCheck } from '../../core/language/diagnostics';
import type { LoadedModels } from '../../core/language/modelAssist';
import type { CatalogEntry } from '../../core/models/catalog';
import type { ModelFacts } from '../../core/models/table';
import { ModelsClient } from '../../core/models/client';
import type { ServiceModel } from '../../core/models/types';
import { count } from '../../core/text';
import type { Api } from '../platform/api';
import { Config } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import type { Log } from '../platform/log';
import type { Keys } from '../platform/secrets';
import { Disposable } from '../platform/lifecycle';

/**
 * Where kept lists live in the global state: this prefix, then a hash of the service address and key (the
 * activation bundle looks for the prefix, to load this on first need: src/extension.ts).
 */
const MODELS_STATE_PREFIX = 'promptwright.models.';
const FRESH_MS = 24 * 60 * 60 * 1000;
/** A kept list older than this is dropped when another is written (the offline fallback needs no older). */
const DROP_MS = 30 * FRESH_MS;
/** After a failed fetch, automatic loads use what is kept for this long before asking the service again. */
const QUIET_AFTER_FAILURE_MS = 5 * 60 * 1000;

interface Kept {
  baseUrl: string;
  fetchedAt: number;
  models: ServiceModel[];
}

/**
 * What the model list asks of the request files' checks (vscode/request/requestDiagnostics.ts, which the composition
 * root passes): each file's check, when one was checked, and the list they are checked against.
 */
export interface CheckedRequests {
  readonly onDidValidate: vscode.Event<vscode.TextDocument>;
  /** the file's last check, without checking it */
  state(doc: vscode.TextDocument): RequestCheck | undefined;
  /** the file's check, checking it now when it has none */
  current(doc: vscode.TextDocument): RequestCheck | undefined;
  readonly models: ModelFacts | undefined;
  /** checks every request file again against another model list */
  setModels(models: ModelFacts | undefined): void;
}

/** Whose list: the service address, and the key it is fetched with (for the hash only). */
interface Owner {
  baseUrl: string;
  stateKey: string;
}

export class Models extends Disposable {
  private owner: string | undefined;
  private loaded: LoadedModels | undefined;
  private pending: Promise<LoadedModels> | undefined;
  private failedAt = 0;
  private readonly aborts = new Set<AbortController>();
  private readonly changed = this.register(new vscode.EventEmitter<LoadedModels>());
  /** fires when the list in use changes */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly config: Config,
    private readonly keys: Keys,
    private readonly api: Api,
    private readonly diagnostics: CheckedRequests,
    private readonly log: Log,
  ) {
    super();
    this.register(
      keys.onDidChange(k => {
        if (k === 'api') this.reset();
      }),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (Config.affects(e, 'baseUrl')) this.reset();
      }),
      diagnostics.onDidValidate(doc => this.needs(doc)),
    );
    this.reset();
  }

  /** What is in use now, without loading anything. */
  get current(): LoadedModels | undefined {
    return this.loaded;
  }

  /** The models the lists offer: the loaded list's, or the built-in table's. */
  entries(loaded: LoadedModels | undefined = this.loaded): CatalogEntry[] {
    return loaded?.catalog ? loaded.catalog.entries() : coreBundle().builtinEntries();
  }

  /** "Promptwright: Refresh Models": the service's list now, whatever is kept; an error is shown. */
  async refresh(): Promise<void> {
    if (!(await this.api.ready('Refresh Models'))) return;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Promptwright: refreshing models…', cancellable: true },
      async (_progress, token) => {
        try {
          const loaded = await this.load({ network: true, force: true, token });
          if (token.isCancellationRequested) return;
          const n = loaded.catalog?.models.length ?? 0;
          void vscode.window.showInformationMessage(
            `Promptwright: ${count(n, 'model')} from the service, kept for 24 hours.`,
          );
        } catch (e) {
          if (!token.isCancellationRequested) await this.api.showError(e, 'Refresh Models');
        }
      },
    );
  }

  /**
   * Drops what this window holds (another service address or key, or a new window of the same): uses what
   * the global state keeps for the new owner, asks nothing of the service, then looks at the open files.
   */
  reset(): void {
    for (const a of this.aborts) a.abort();
    this.owner = undefined;
    this.loaded = undefined;
    this.pending = undefined;
    this.failedAt = 0;
    void this.load({ network: false }).then(() => {
      for (const doc of vscode.workspace.textDocuments) this.needs(doc);
    });
  }

  /**
   * The list, loaded on first need. `network`: the service may be asked (a person asked, or the workspace is
   * trusted); `force`: asked even with a fresh list kept, and a failure is thrown once the fallback is in use.
   */
  async load(o: { network: boolean; force?: boolean; token?: vscode.CancellationToken }): Promise<LoadedModels> {
    const owner = await this.whose();
    if (!owner) {
      this.owner = undefined;
      return this.use({ source: 'builtin', problem: 'no service address or API key' });
    }
    if (owner.stateKey !== this.owner) {
      this.owner = owner.stateKey;
      this.loaded = undefined;
      this.pending = undefined;
      this.failedAt = 0;
    }
    if (this.pending) return this.pending;
    const kept = this.state.get<Kept>(owner.stateKey);
    const fresh = !!kept && Date.now() - kept.fetchedAt < FRESH_MS;
    // a recent failure is still said (hover, Choose Model…), and not asked again automatically
    const quiet = Date.now() - this.failedAt < QUIET_AFTER_FAILURE_MS;
    const problem = quiet ? this.loaded?.problem : undefined;
    if (!o.force && fresh) return this.useKept(kept, problem);
    if (!o.network || (quiet && !o.force)) return kept ? this.useKept(kept, problem) : this.builtin(problem);
    const pending = this.fetch(owner, kept, o);
    this.pending = pending;
    try {
      return await pending;
    } finally {
      if (this.pending === pending) this.pending = undefined;
    }
  }

  private async fetch(
    owner: Owner,
    kept: Kept | undefined,
    o: { force?: boolean; token?: vscode.CancellationToken },
  ): Promise<LoadedModels> {
    const abort = new AbortController();
    this.aborts.add(abort);
    const cancel = o.token?.onCancellationRequested(() => abort.abort());
    try {
      const client = new ModelsClient((await this.api.client()).http);
      const list = coreBundle().parseModelList(await client.all({ signal: abort.signal }));
      if ('error' in list) throw new Error(`the service's model list cannot be read: ${list.error}`);
      const fetchedAt = Date.now();
      await this.keep(owner, { baseUrl: owner.baseUrl, fetchedAt, models: list.models });
      this.log.info(`models: ${count(list.models.length, 'model')} from the service, kept for 24 hours`);
      if (this.owner !== owner.stateKey) return this.loaded ?? this.builtin();
      return this.use({ catalog: new (coreBundle().ModelCatalog)(list.models), source: 'service', fetchedAt });
    } catch (e) {
      // cancelled (Refresh Models, another key): nothing failed; what is in use stays
      if (abort.signal.aborted || this.owner !== owner.stateKey) return this.loaded ?? { source: 'builtin' };
      this.failedAt = Date.now();
      const problem = describeError(e);
      const fallback = kept ? `the list kept from ${new Date(kept.fetchedAt).toISOString()}` : 'the built-in table';
      this.log.warn(`models: the service's model list could not be fetched (${problem}); using ${fallback}`);
      const used = kept ? this.useKept(kept, problem) : this.builtin(problem);
      if (o.force) throw e;
      return used;
    } finally {
      cancel?.dispose();
      this.aborts.delete(abort);
    }
  }

  /** A file whose model the built-in table does not know asks for the service's list (trusted workspaces). */
  private needs(doc: vscode.TextDocument): void {
    const problems = this.diagnostics.state(doc)?.validation.problems;
    if (!problems?.some(p => p.code === 'unknown-model' || p.code === 'dated-model')) return;
    void this.load({ network: vscode.workspace.isTrusted });
  }

  private useKept(kept: Kept, problem?: string): LoadedModels {
    // the same list as in use: nothing changes, nothing is checked again
    const same = this.loaded?.source !== 'builtin' && this.loaded?.fetchedAt === kept.fetchedAt;
    if (same && this.loaded?.problem === problem) return this.loaded!;
    const catalog = same ? this.loaded!.catalog : new (coreBundle().ModelCatalog)(kept.models);
    return this.use({
      ...(catalog ? { catalog } : {}),
      source: 'kept',
      fetchedAt: kept.fetchedAt,
      ...(problem ? { problem } : {}),
    });
  }

  private builtin(problem?: string): LoadedModels {
    return this.use({ source: 'builtin', ...(problem ? { problem } : {}) });
  }

  private use(loaded: LoadedModels): LoadedModels {
    const changed = loaded.catalog !== this.loaded?.catalog || loaded.source !== this.loaded?.source;
    this.loaded = loaded;
    if (this.diagnostics.models !== loaded.catalog) this.diagnostics.setModels(loaded.catalog);
    if (changed) this.changed.fire(loaded);
    return loaded;
  }

  private async whose(): Promise<Owner | undefined> {
    const baseUrl = this.config.baseUrl;
    const key = await this.keys.get('api');
    if (!baseUrl || !key) return undefined;
    const hash = crypto.createHash('sha256').update(`${baseUrl}\n${key}`).digest('hex').slice(0, 32);
    return { baseUrl, stateKey: `${MODELS_STATE_PREFIX}${hash}` };
  }

  private async keep(owner: Owner, kept: Kept): Promise<void> {
    for (const k of this.state.keys()) {
      if (!k.startsWith(MODELS_STATE_PREFIX) || k === owner.stateKey) continue;
      const old = this.state.get<Kept>(k);
      if (!old || Date.now() - old.fetchedAt > DROP_MS) await this.state.update(k, undefined);
    }
    await this.state.update(owner.stateKey, kept);
  }

  override dispose(): void {
    for (const a of this.aborts) a.abort();
    super.dispose();
  }
}
