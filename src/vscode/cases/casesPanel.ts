import * as vscode from 'vscode';
import { cellKey, type GridView } from '../../core/cases/grid';
import {
  CASES_VIEW_TYPE,
  parseCasesWebviewState,
  parseFromCasesWebview,
  type CellPatch,
  type FromCasesWebview,
  type ToCasesWebview,
} from '../../protocol/cases';
import { isCaseFile } from '../../core/fileNames';
import type { GitBase } from '../git/gitBase';
import type { Api } from '../platform/api';
import type { Config } from '../platform/config';
import type { Log } from '../platform/log';
import type { Prompts } from '../platform/prompts';
import type { Recent } from '../platform/recent';
import { WebviewHost } from '../platform/webviewHost';
import type { CaseDiagnostics } from './caseDiagnostics';
import { CasesResults } from './casesResults';
import type { GridDisplay } from './casesGrid';
import { CasesRunner } from './casesRunner';
import type { CasesStatus } from './casesStatus';

/** At most one message to the webview per frame while cells stream. */
const FRAME_MS = 16;

/** The page's skeleton (static markup of ours; everything from the service is set as text by the script). */
const BODY = `<header id="toolbar">
<div class="heading"><h1 id="title">Cases</h1><span id="request" class="muted"></span></div>
<span id="summary" role="status"></span>
<div id="actions" role="toolbar" aria-label="Cases actions"></div>
</header>
<div id="compare-bar" aria-label="Compare mode" role="region" hidden></div>
<div id="notice" role="alert" hidden></div>
<p id="empty" hidden>No cases to show yet.</p>
<div id="filter-bar" role="search" hidden><label for="filter">Filter rows</label>
<input id="filter" type="search" spellcheck="false" placeholder="Case name or vars (Escape clears)"
 aria-controls="grid" aria-describedby="filter-count"><span id="filter-count" class="muted" role="status"></span></div>
<div id="scroller"><table id="grid" role="grid" aria-label="Cases by model"></table></div>
<div id="splitter" role="separator" aria-orientation="horizontal" aria-controls="detail" tabindex="0"
 aria-label="Resize the detail pane" hidden></div>
<section id="detail" aria-label="The selected cell" hidden></section>
<div id="tip" role="tooltip" hidden></div>
<footer id="statusbar"><span id="saved" class="muted"></span></footer>`;

/**
 * The Cases grid: the runs of CasesRunner (casesRunner.ts) shown in one panel, reused, restored from the
 * results file after a reload. Cells stream: their patches are batched, at most one message per frame.
 *
 * For extension-host tests (they cannot click in the webview) the entry every webview message goes through is
 * public, `handle`, with `grid()` and `idle()` to observe it; `prompts` answers the case-file pick.
 */
export class CasesPanel implements vscode.Disposable, GridDisplay {
  /** the one runner of case files: the grid's runs and the Test Explorer's (casesTests.ts) */
  readonly runner: CasesRunner;
  private readonly host: WebviewHost<ToCasesWebview, FromCasesWebview>;
  /** what changed since the last message to the webview, in order, and where results were last saved */
  private patches: CellPatch[] = [];
  private pendingSaved: { savedTo: string; savedPath: string } | undefined;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    extensionUri: vscode.Uri,
    config: Config,
    api: Api,
    cases: CaseDiagnostics,
    log: Log,
    storage: { workspace: vscode.Uri | undefined; global: vscode.Uri },
    git: GitBase,
    recent?: Recent,
  ) {
    const results = new CasesResults(config, storage, api);
    this.runner = new CasesRunner(config, api, cases, results, log, this, git, recent);
    this.host = new WebviewHost(extensionUri, {
      viewType: CASES_VIEW_TYPE,
      title: 'Cases',
      page: { script: 'cases', stylesheets: ['page.css', 'cases.css'], body: BODY },
      // the main area, where every model's column has room and the grid shows whole (not a half-width group)
      column: vscode.ViewColumn.One,
      parse: parseFromCasesWebview,
      snapshot: () => this.snapshot(),
      handle: m => this.handle(m),
      onClose: () => this.closed(),
      log,
    });
  }

  get prompts(): Prompts {
    return this.runner.prompts;
  }
  set prompts(p: Prompts) {
    this.runner.prompts = p;
  }
  get status(): CasesStatus {
    return this.runner.status;
  }

  // ---- commands ----------------------------------------------------------------------------------------

  /** "Run Cases" (see CasesRunner.runCases); resolves when the run ends. */
  runCases(arg?: unknown): Promise<void> {
    return this.runner.runCases(arg);
  }

  /** "Run Sample…" (see CasesRunner.runSample); resolves when the run ends, to the sample's size and seed. */
  runSample(arg?: unknown, answer?: string): Promise<{ n: number; seed: number } | undefined> {
    return this.runner.runSample(arg, answer);
  }

  /** "Compare Cases with…" (see CasesRunner.compareCases); resolves when the run ends. */
  compareCases(arg?: unknown, ref?: string): Promise<string | undefined> {
    return this.runner.compareCases(arg, ref);
  }

  /** "Cancel All". */
  cancel(): void {
    this.runner.cancel();
  }

  /**
   * The status bar item's click: the grid, where it is. From a test item of the Test Explorer (or with a case
   * file, or before any run with a case file in the editor), that file's grid, with its saved results when it is
   * not the one shown.
   */
  async show(caseUri?: vscode.Uri): Promise<void> {
    // before any run: the active case file's grid, with its saved results (nothing is sent)
    const active = vscode.window.activeTextEditor?.document.uri;
    if (!caseUri && !this.runner.current && active && isCaseFile(active.path)) caseUri = active;
    if (caseUri && this.runner.current?.caseUri.toString() !== caseUri.toString() && !this.runner.isRunning) {
      this.runner.current = undefined;
      await this.runner.restore(caseUri);
    }
    if (this.host.isOpen) this.host.reveal();
    else if (this.runner.current) this.open();
    else void vscode.window.showInformationMessage('Promptwright: no cases have run yet. Open a case file and run it.');
  }

  // ---- what tests observe ----------------------------------------------------------------------------

  /** The grid as the webview has it (a copy), or undefined before any run. */
  grid(): GridView | undefined {
    return this.runner.current && structuredClone(this.runner.current.view);
  }

  /** Resolves when no cells are running. */
  idle(): Promise<void> {
    return this.runner.idle();
  }

  // ---- messages from the webview --------------------------------------------------------------------

  async handle(m: Exclude<FromCasesWebview, { type: 'ready' }>): Promise<void> {
    const current = this.runner.current;
    switch (m.type) {
      case 'rerun': {
        // in compare mode a re-run runs both sides again
        const compare = current?.view.compare;
        const o = current?.improved ? { improved: current.improved } : compare ? { compareWith: compare.ref } : {};
        if (current) await this.runner.run(current.caseUri, m.target, o);
        return;
      }
      case 'compare':
        if (current) await this.runner.compareCases(current.caseUri);
        return;
      case 'leave-compare':
        await this.runner.leaveCompare();
        return;
      case 'run-sample':
        if (current) await this.runner.runSample(current.caseUri);
        return;
      case 'run-batch':
        if (current) await this.runner.run(current.caseUri, { scope: 'all' }, { batch: {} });
        return;
      case 'cancel':
        this.cancel();
        return;
      case 'open-case-file':
        if (current) await vscode.window.showTextDocument(current.caseUri, { viewColumn: vscode.ViewColumn.One });
        return;
      case 'open-link':
        await vscode.env.openExternal(vscode.Uri.parse(m.url));
        return;
      case 'grade':
        await this.grade(m);
        return;
    }
  }

  /** 👍 / 👎 on a sample's reply; with `note`, a note asked for first (the grade kept as it is, or 👎 when none). */
  private async grade(m: Extract<FromCasesWebview, { type: 'grade' }>): Promise<void> {
    const view = this.runner.current?.cells.get(cellKey(m.caseName, m.model));
    const was = view?.samples?.[m.sample]?.humanGrade;
    if (!m.note) {
      await this.runner.grade(m.caseName, m.model, m.sample, m.grade === 'none' ? undefined : { grade: m.grade });
      return;
    }
    const note = await this.prompts.input({
      title: `A note on sample ${m.sample + 1} of "${m.caseName}" on ${m.model}`,
      prompt: 'What is good or wrong about this reply (kept with the grade; empty removes the note)',
      value: was?.note ?? '',
    });
    if (note === undefined) return;
    const grade = m.grade === 'none' ? (was?.grade ?? 'down') : m.grade;
    await this.runner.grade(m.caseName, m.model, m.sample, { grade, ...(note.trim() ? { note: note.trim() } : {}) });
  }

  // ---- the panel (GridDisplay) -----------------------------------------------------------------------

  open(): void {
    this.host.open();
    this.updateTitle();
  }

  /** Takes over a panel VS Code restores after a reload, with the state the webview saved. */
  adopt(panel: vscode.WebviewPanel, state: unknown): void {
    this.host.adopt(panel);
    this.updateTitle();
    const saved = parseCasesWebviewState(state);
    if (!this.runner.current && saved) void this.runner.restore(vscode.Uri.parse(saved.caseFile));
  }

  showGrid(): void {
    this.patches = [];
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.updateTitle();
    const current = this.runner.current;
    if (current) this.host.post({ type: 'grid', grid: current.view });
  }

  /** Queues a patch (or only news of where results were saved); flushed at most once per frame. */
  patch(patch: CellPatch | undefined, saved?: { savedTo: string; savedPath: string }): void {
    if (!this.host.isOpen) return; // a panel opened later starts from the whole grid
    if (patch) {
      const last = this.patches[this.patches.length - 1];
      if (
        'append' in patch &&
        last &&
        'append' in last &&
        last.side === patch.side &&
        last.caseName === patch.caseName &&
        last.model === patch.model
      )
        last.append += patch.append;
      else this.patches.push(patch);
    }
    if (saved) this.pendingSaved = saved;
    this.flushTimer ??= setTimeout(() => this.flush(), FRAME_MS);
  }

  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const current = this.runner.current;
    if (!current) return;
    const patches = this.patches;
    this.patches = [];
    const saved = this.pendingSaved;
    this.pendingSaved = undefined;
    this.host.post({ type: 'patch', patches, running: current.view.running, ...saved });
  }

  /** Everything the webview shows, for one that has just (re)loaded: the whole grid covers every patch. */
  private snapshot(): ToCasesWebview[] {
    this.patches = [];
    this.updateTitle();
    const current = this.runner.current;
    return current ? [{ type: 'grid', grid: current.view }] : [];
  }

  private updateTitle(): void {
    const current = this.runner.current;
    if (current) this.host.setTitle(`Cases: ${current.view.caseFile}`);
  }

  private closed(): void {
    this.patches = [];
    this.runner.closed();
  }

  dispose(): void {
    this.runner.cancel();
    clearTimeout(this.flushTimer);
    this.host.dispose();
    this.runner.dispose();
  }
}
