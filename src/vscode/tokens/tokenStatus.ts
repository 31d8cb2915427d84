import * as vscode from 'vscode';
import { ApiError } from '../../core/api/errors';
import { estimateTokens } from '../../core/tokens/estimate';
import { TokenCountScheduler, type CountState } from '../../core/tokens/scheduler';
import { renderStatus, type BaseCount, type StatusMeta } from '../../core/tokens/status';
import { BaseCounter } from './baseCount';
import type { GitBase } from '../git/gitBase';
import type { Api } from '../platform/api';
import { Config, isRequestFile } from '../platform/config';
import type { Log } from '../platform/log';
import type { RequestDiagnostics } from '../request/requestDiagnostics';
import type { Recent } from '../platform/recent';
import type { Keys } from '../platform/secrets';
import { coreBundle } from '../platform/lazy';
import { Disposable } from '../platform/lifecycle';

/** How long a base revision's count is trusted before git is asked again (a save, or the window's focus, asks now). */
const BASE_RECHECK_MS = 5000;

/** The status bar item with the active request file's input token count, drawn from one state. */
export class TokenStatus extends Disposable {
  readonly item = this.register(
    vscode.window.createStatusBarItem('promptwright.tokens', vscode.StatusBarAlignment.Right, 100),
  );
  private readonly scheduler: TokenCountScheduler;
  private doc: vscode.TextDocument | undefined;
  private meta: StatusMeta = {};
  private body: Record<string, unknown> | undefined;
  /** bumped by every refresh: an older one that awaited the key steps aside */
  private refreshes = 0;
  /** "Count Tokens" was asked for: whichever refresh runs last carries it out */
  private explicitPending = false;
  /** the state shown (tests read it) */
  state: CountState = { kind: 'idle' };
  private readonly changed = new vscode.EventEmitter<CountState>();
  readonly onDidChangeState = this.changed.event;
  /** the count of the file's version at the base revision, beside the live count (undefined outside git) */
  private readonly baseCounter: BaseCounter | undefined;
  private base: { doc: vscode.TextDocument; count: BaseCount | undefined; at: number } | undefined;
  private baseLookup: AbortController | undefined;

  constructor(
    private readonly config: Config,
    private readonly keys: Keys,
    private readonly api: Api,
    private readonly diagnostics: RequestDiagnostics,
    private readonly log: Log,
    private readonly recent?: Recent,
    git?: GitBase,
  ) {
    super();
    this.item.name = 'Promptwright Token Count';
    // a click shows where the tokens go (the walkthrough says so); "Count now" is in the tooltip
    this.item.command = 'promptwright.tokenBreakdown';
    this.scheduler = new TokenCountScheduler({
      debounceMs: config.tokenDebounceMs,
      onState: s => this.show(s),
      count: async (body, signal) => {
        const client = await this.api.client();
        const r = await client.countTokens(body, {
          signal,
          onRetry: e =>
            this.scheduler.retrying(
              e.delayMs,
              e.error instanceof ApiError ? `${e.error.type} (${e.error.status})` : e.error.message,
            ),
        });
        return { tokens: r.input_tokens, ...(r.requestId ? { requestId: r.requestId } : {}) };
      },
    });
    this.baseCounter = git && new BaseCounter(git, config, (body, signal) => this.scheduler.countCached(body, signal));
    this.register(
      this.changed,
      vscode.window.onDidChangeActiveTextEditor(() => this.follow()),
      // a commit (after a save, or in a terminal while the window was away) may move the base
      vscode.workspace.onDidSaveTextDocument(d => {
        if (d === this.doc) this.checkBase(true);
      }),
      vscode.window.onDidChangeWindowState(w => {
        if (w.focused) this.checkBase(true);
      }),
      diagnostics.onDidValidate(d => {
        if (d === this.doc) void this.refresh(false);
      }),
      keys.onDidChange(() => {
        this.scheduler.clearCache();
        void this.refresh(false);
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.refresh(false)),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (Config.affects(e, 'baseUrl', 'apiVersion', 'betas')) this.scheduler.clearCache();
        if (Config.affects(e, 'compare.base')) this.forgetBase();
        if (
          Config.affects(e, 'tokenCount', 'baseUrl', 'requestFilePatterns', 'countTokensFilePatterns', 'compare.base')
        )
          this.follow();
      }),
    );
    this.follow();
  }

  /** "Count Tokens": count the active file now, even when live counting is off or the workspace is untrusted. */
  async countNow(): Promise<void> {
    if (!this.doc) {
      const ed = vscode.window.activeTextEditor;
      if (!ed || !isRequestFile(ed.document, this.config)) {
        void vscode.window.showInformationMessage('Promptwright: open a request file to count its tokens.');
        return;
      }
      this.follow();
    }
    if (!(await this.api.ready('Count Tokens'))) return;
    await this.refresh(true);
  }

  private follow(): void {
    const ed = vscode.window.activeTextEditor;
    const doc = ed && isRequestFile(ed.document, this.config) ? ed.document : undefined;
    if (doc !== this.doc) {
      this.scheduler.reset();
      this.forgetBase();
      // the last file's count is not this one's: never drawn beside this file's base
      this.state = { kind: 'idle' };
    }
    this.doc = doc;
    if (!doc) {
      this.item.hide();
      return;
    }
    this.item.show();
    void this.refresh(false);
  }

  private async refresh(explicitRequest: boolean): Promise<void> {
    const doc = this.doc;
    if (!doc) return;
    if (explicitRequest) this.explicitPending = true;
    const gen = ++this.refreshes;
    const st = this.diagnostics.current(doc);
    const v = st?.validation;
    const parsesCleanly = v && v.parsed.value !== undefined && !v.parsed.problems.some(p => p.severity === 'error');
    const body =
      parsesCleanly && typeof v.parsed.value === 'object' && v.parsed.value !== null && !Array.isArray(v.parsed.value)
        ? (v.parsed.value as Record<string, unknown>)
        : undefined;
    this.body = body;
    // the model's context window: the service's model list once loaded (the diagnostics hold it), else the
    // built-in table (in the core bundle, which checked this file)
    const model = typeof body?.model === 'string' ? body.model : undefined;
    const window = model && (this.diagnostics.models ?? { lookup: coreBundle().lookupModel }).lookup(model).info;
    const before = this.meta.contextWindow;
    this.meta = body
      ? {
          ...(typeof body.model === 'string' ? { model: body.model } : {}),
          ...(typeof body.max_tokens === 'number' ? { maxTokens: body.max_tokens } : {}),
          ...(window ? { contextWindow: window.contextWindow } : {}),
        }
      : this.meta;
    if (this.meta.contextWindow !== before) this.show(this.state);
    if (!body) {
      this.scheduler.update(undefined);
      return;
    }
    // what may be sent, and whether it can be
    const hasKey = !!(await this.keys.get('api'));
    // a newer refresh took over (and carries any explicit request)
    if (gen !== this.refreshes || doc !== this.doc) return;
    const explicit = this.explicitPending;
    const reason = !this.config.baseUrl
      ? 'no-base-url'
      : !hasKey
        ? 'no-key'
        : explicit
          ? undefined
          : !vscode.workspace.isTrusted
            ? 'untrusted'
            : !this.config.tokenCountLive
              ? 'live-off'
              : undefined;
    this.explicitPending = false;
    if (reason) {
      this.scheduler.reset();
      let tokens: number;
      try {
        tokens = estimateTokens(body);
      } catch (e) {
        this.show({ kind: 'error', message: `This request cannot be sent as JSON (${(e as Error).message}).` });
        return;
      }
      this.show({ kind: 'estimate', tokens, reason });
      return;
    }
    this.scheduler.update(body, explicit);
  }

  private counted = false;

  private show(s: CountState): void {
    this.state = s;
    if (s.kind === 'count' && !this.counted) {
      // the walkthrough's "Watch the token count" step completes on the first count from the service
      this.counted = true;
      void vscode.commands.executeCommand('setContext', 'promptwright.counted', true);
    }
    if (s.kind === 'count' && this.doc) this.recent?.update(this.doc.uri, { tokens: s.tokens, countedAt: s.at });
    if (s.kind === 'count' && !s.stale) this.checkBase(false);
    this.render();
    if (s.kind === 'error')
      this.log.warn(
        `token count failed: ${s.type ?? ''} ${s.message}${s.requestId ? ` request-id=${s.requestId}` : ''}`,
      );
    this.changed.fire(s);
  }

  /** Draws the state shown, with the base revision's count when there is one. */
  private render(): void {
    const view = renderStatus(this.state, {
      ...this.meta,
      ...(this.baseCount ? { base: this.baseCount } : {}),
      service: this.config.baseUrl,
    });
    this.item.text = view.text;
    const md = new vscode.MarkdownString(view.tooltip, true);
    md.isTrusted = {
      enabledCommands: [
        'promptwright.countTokens',
        'promptwright.tokenBreakdown',
        'promptwright.showLog',
        'promptwright.setApiKey',
        'workbench.action.openSettings',
      ],
    };
    this.item.tooltip = md;
    this.item.backgroundColor =
      view.tone === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.tone === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    this.item.accessibilityInformation = { label: view.text.replace(/\$\([^)]*\)\s*/g, ''), role: 'button' };
  }

  /** The base revision's count, for the status bar (refreshed at most every few seconds, or when forced). */
  private checkBase(force: boolean): void {
    const doc = this.doc;
    if (!this.baseCounter || !doc) return;
    const known = this.base?.doc === doc ? this.base : undefined;
    if (!force && known && Date.now() - known.at < BASE_RECHECK_MS) return;
    this.baseLookup?.abort();
    const ctl = new AbortController();
    this.baseLookup = ctl;
    if (!known) this.base = { doc, count: undefined, at: Date.now() };
    else known.at = Date.now();
    void this.baseCounter.countAt(doc, ctl.signal).then(count => {
      if (ctl.signal.aborted || doc !== this.doc) return;
      this.base = { doc, count, at: Date.now() };
      this.render();
    });
  }

  private forgetBase(): void {
    this.baseLookup?.abort();
    this.baseLookup = undefined;
    this.base = undefined;
  }

  /** The base count shown beside the live one (tests read it). */
  get baseCount(): BaseCount | undefined {
    return this.base?.doc === this.doc ? this.base?.count : undefined;
  }

  /** calls made to count_tokens (tests read it) */
  get calls(): number {
    return this.scheduler.calls;
  }

  override dispose(): void {
    this.forgetBase();
    this.scheduler.dispose();
    super.dispose();
  }
}
