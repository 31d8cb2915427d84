import * as path from 'node:path';
import * as vscode from 'vscode';
import { realPacer } from '../../core/api/pacer';
import { sleep } from '../../core/api/retry';
import { cellKey, cellViewOf, notSentResult, progressSummary, queuedCell } from '../../core/cases/grid';
import { beginComparison, endComparison } from '../../core/cases/gridCompare';
import type { LoadedCaseFile } from '../../core/cases/load';
import type { CellKey, CellResult, HumanGrade } from '../../core/cases/types';
import { count, thousands } from '../../core/text';
import type { RerunTarget } from '../../protocol/cases';
import type { GitBase } from '../git/gitBase';
import type { Api } from '../platform/api';
import type { Config } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import type { Log } from '../platform/log';
import { pricesOf } from '../platform/prices';
import type { Recent } from '../platform/recent';
import { vscodePrompts, type Prompts } from '../platform/prompts';
import { editorSource, openDataset, type CaseDiagnostics } from './caseDiagnostics';
import { isCaseFile } from '../../core/fileNames';
import { askRevision, IMPROVED, readBase, withBaseCells, workingCopyBase, type ReadyCell } from './casesCompare';
import type { CasesResults } from './casesResults';
import { CasesStatus } from './casesStatus';
import { GridState, varsTextOf, type Grid, type GridDisplay } from './casesGrid';
import { askSample, chooseCaseFile } from './casesPick';
import { BatchRuns, type BatchHost } from './casesBatch';
import type { RunReporter, RunReporters } from './casesTestRun';

const fileName = (uri: vscode.Uri) => uri.path.split('/').pop() ?? uri.path;

/** A case file opened to run (core/cases/session.ts): its cases (a dataset's rows among them) and every cell. */
type Prepared = LoadedCaseFile & { requestValue: Record<string, unknown>; cells: CellKey[] };

interface Running {
  caseUri: vscode.Uri;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * What a run covers: what the grid asks (a cell, a row, everything), or any cells (the Test Explorer), with every
 * row of the dataset (`dataset`: the Test Explorer's dataset item, its rows listed or not).
 */
export type RunTarget = RerunTarget | { scope: 'cells'; cells: readonly CellKey[]; dataset?: boolean };

export interface RunOptions {
  /** the reporter of a run the Test Explorer started (else `reporters` gives one) */
  reporter?: RunReporter;
  /** cancels the run (a test run's token) */
  token?: vscode.CancellationToken;
  /** open the grid (default); a run from the Test Explorer updates the grid only where it is open */
  reveal?: boolean;
  /** compare mode: the cells run on the case file at this git revision too, each shown beside the other */
  compareWith?: string;
  /**
   * compare mode with an improved request (Improve Prompt…): the cells run on it, beside the working copy as the
   * base; nothing is saved and the Test Explorer is not told (these are not the case file's results)
   */
  improved?: Record<string, unknown>;
  /**
   * As a Message Batch (half the price): submitted (or found pending: nothing is sent again), waited for with the
   * cells `queued in batch`, then settled as a direct run's; `collect` reads the run of this key, never submits
   */
  batch?: { collect?: string };
}

/**
 * Runs a case file's cases (rows) on its models (columns) through the core's matrix runner, at most
 * `promptwright.cases.concurrency` at a time, with the extension's API client (keys from SecretStorage, the
 * spec's retry rules). Each cell streams its reply into the grid, then shows its verdict; a cell, a row or
 * everything can be run again, and everything cancelled. A run's results are saved (casesResults.ts: the
 * workspace storage, or the repository's `.promptwright/results/`) and each cell is marked new, fixed or broke
 * against the results saved before it. Every run is also reported to the Test Explorer (`reporters`), and runs
 * from there come here too: one runner, two views of the same run.
 */
export class CasesRunner {
  prompts: Prompts = vscodePrompts;
  readonly status = new CasesStatus();
  /** the Test Explorer, told of every run (set by casesTests.ts) */
  reporters: RunReporters | undefined;
  private readonly grids: GridState;
  private running: Running | undefined;
  readonly batchRuns: BatchRuns;

  constructor(
    private readonly config: Config,
    private readonly api: Api,
    private readonly cases: CaseDiagnostics,
    private readonly results: CasesResults,
    private readonly log: Log,
    private readonly view: GridDisplay,
    private readonly git: GitBase,
    private readonly recent?: Recent,
  ) {
    this.grids = new GridState(view, this.status, results);
    this.batchRuns = new BatchRuns(config, api, log, this.grids);
    void vscode.commands.executeCommand('setContext', 'promptwright.casesRunning', false);
  }

  /** the grid shown (or last run, while its cells run on with the panel closed) */
  get current(): Grid | undefined {
    return this.grids.current;
  }

  set current(grid: Grid | undefined) {
    this.grids.current = grid;
  }

  /** the Batches view (set by features.ts) */
  set batches(host: BatchHost | undefined) {
    this.batchRuns.host = host;
  }

  /** Whether a run of this window waits for this batch itself (it fills the grid when the batch ends). */
  isLive(batchId: string): boolean {
    return this.batchRuns.isLive(batchId);
  }

  /**
   * "Run Cases": the case file given (a CodeLens, the explorer), or the active editor's; from a request file,
   * the case file that names it (a pick when several do). Resolves when the run ends.
   */
  async runCases(arg?: unknown): Promise<void> {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const caseUri = await chooseCaseFile(this.cases, this.prompts, uri);
    if (caseUri) await this.run(caseUri, { scope: 'all' });
  }

  /**
   * "Compare with…": the case file given (the editor's title), the active editor's, or the grid's; asks which
   * git revision (unless `ref` says), then runs every cell on the case file as it was there and as it is now,
   * each shown beside the other. Resolves when the run ends: to why nothing ran when the case file is in no
   * repository.
   */
  async compareCases(arg?: unknown, ref?: string): Promise<string | undefined> {
    const caseUri = await this.caseFileOf(arg);
    if (!caseUri) return undefined;
    const chosen = await askRevision(this.prompts, this.git, caseUri, ref ?? this.config.compareBase, !!ref);
    if (chosen && 'ref' in chosen) await this.run(caseUri, { scope: 'all' }, { compareWith: chosen.ref });
    if (chosen && 'notInGit' in chosen) void this.api.showError(chosen.notInGit, 'Compare Cases');
    return chosen && 'notInGit' in chosen ? chosen.notInGit : undefined;
  }

  /** The case file a command means: the one given, the active editor's, else the grid's (casesPick.ts). */
  private caseFileOf(arg: unknown): Promise<vscode.Uri | undefined> {
    const active = vscode.window.activeTextEditor?.document.uri;
    const shown = active && isCaseFile(active.path) ? active : (this.grids.current?.caseUri ?? active);
    return chooseCaseFile(this.cases, this.prompts, arg instanceof vscode.Uri ? arg : shown);
  }

  /**
   * "Run Sample…": asks how many of the case file's cases to run (1 to all; a seed may follow the number), then
   * runs that many, chosen as `promptwright test --sample N --seed S` chooses them, and says the seed so that the
   * same sample can be run again (here or in CI). `answer` answers the question (a command's argument, a test).
   * Resolves when the run ends, to the sample run.
   */
  async runSample(arg?: unknown, answer?: string): Promise<{ n: number; seed: number } | undefined> {
    const caseUri = await this.caseFileOf(arg);
    if (!caseUri) return undefined;
    const prepared = await this.prepare(caseUri);
    if (typeof prepared === 'string') {
      void this.api.showError(prepared, 'Run Sample');
      return undefined;
    }
    // every case with its stable id (a listed case's too), offered in file order as the CLI offers them
    const chosen = await askSample(this.prompts, caseUri, prepared.file.cases, answer);
    if (!chosen) return undefined;
    if ('problem' in chosen) {
      void this.api.showError(chosen.problem, 'Run Sample');
      return undefined;
    }
    const { n, seed, names, total } = chosen;
    const cells = prepared.cells.filter(c => names.has(c.caseName));
    const file = vscode.workspace.asRelativePath(caseUri);
    void vscode.window.showInformationMessage(
      `Promptwright: running a sample of ${thousands(n)} of ${count(total, 'case')}, seed ${seed}. ` +
        `The same again: Run Sample… "${n} ${seed}", or promptwright test ${file} --sample ${n} --seed ${seed}`,
    );
    await this.run(caseUri, { scope: 'cells', cells });
    return { n, seed };
  }

  /**
   * Back from compare mode to the grid of the working copy alone, its cells as they last ran (after an improved
   * prompt's comparison, as they were saved: the cells shown ran on the improved prompt).
   */
  async leaveCompare(): Promise<void> {
    const grid = this.grids.current;
    if (!grid?.view.compare || this.running) return;
    if (grid.improved) {
      this.grids.current = undefined;
      return this.restore(grid.caseUri);
    }
    endComparison(grid.view);
    this.view.showGrid();
  }

  /** A person's grade of one sample's reply, or none (casesGrid.ts). */
  grade(caseName: string, model: string, sample: number, grade: HumanGrade | undefined): Promise<void> {
    return this.grids.grade(caseName, model, sample, grade);
  }

  /** "Cancel All": every queued cell is dropped, every running one aborted. */
  cancel(): void {
    this.running?.controller.abort();
  }

  get isRunning(): boolean {
    return !!this.running;
  }

  /** Resolves when no cells are running. */
  async idle(): Promise<void> {
    while (this.running) await this.running.done;
  }

  /** The panel went away: cells keep running (their results are saved), the status bar shows how far. */
  closed(): void {
    if (this.running) return;
    this.grids.current = undefined;
    this.status.hide();
  }

  dispose(): void {
    this.cancel();
    this.status.dispose();
  }

  /**
   * Runs a case file's cells (all of them, a row, one, or any set) and resolves when they have ended, their
   * results saved. Only one run at a time: a second asks before it cancels the first.
   */
  async run(caseUri: vscode.Uri, target: RunTarget, o: RunOptions = {}): Promise<void> {
    if (this.running) {
      const same = this.running.caseUri.toString() === caseUri.toString();
      const ok = await this.prompts.confirm(
        'Cases are still running',
        same ? 'Cancel them and start again?' : `Cancel the cases of ${fileName(this.running.caseUri)} and run these?`,
        'Cancel and Run',
      );
      if (!ok) return;
      this.cancel();
      await this.idle();
    }
    let resolveDone!: () => void;
    const running: Running = {
      caseUri,
      controller: new AbortController(),
      done: new Promise<void>(r => (resolveDone = r)),
    };
    this.running = running;
    void vscode.commands.executeCommand('setContext', 'promptwright.casesRunning', true);
    const cancel = () => running.controller.abort();
    const onToken = o.token?.onCancellationRequested(cancel);
    if (o.token?.isCancellationRequested) cancel();
    const reporter = o.improved ? undefined : (o.reporter ?? this.reporters?.forRun(caseUri, cancel));
    try {
      await this.runUnguarded(caseUri, target, running.controller.signal, o, reporter);
    } catch (e) {
      // the grid says what happened; the extension keeps running
      this.log.error(`Run Cases failed for ${caseUri.fsPath}: ${e instanceof Error && e.stack ? e.stack : String(e)}`);
      void this.api.showError(e, 'Run Cases failed');
      reporter?.notRun(`Run Cases failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      onToken?.dispose();
      reporter?.end();
      this.running = undefined;
      void vscode.commands.executeCommand('setContext', 'promptwright.casesRunning', false);
      if (this.grids.current?.caseUri.toString() === caseUri.toString()) {
        this.grids.current.view.running = false;
        this.view.flush();
        this.status.show(this.grids.current.view.caseFile, this.grids.current.view.cells, false);
      }
      resolveDone();
    }
  }

  private async runUnguarded(
    caseUri: vscode.Uri,
    target: RunTarget,
    signal: AbortSignal,
    o: RunOptions,
    reporter: RunReporter | undefined,
  ): Promise<void> {
    const reveal = o.reveal !== false;
    const core = coreBundle();
    const refuse = (notice: string) => {
      reporter?.notRun(notice);
      this.grids.showNotice(caseUri, notice, reveal);
      // the Test Explorer says it at the case file's item
      if (reveal) void this.api.showError(notice, 'Run Cases');
    };
    const prepared = await this.prepare(caseUri);
    if (typeof prepared === 'string') return refuse(prepared);
    if (target.scope === 'cells' && target.dataset) {
      const rows = new Set(
        prepared.file.cases.filter(c => (c as { from?: string }).from === 'dataset').map(c => c.name),
      );
      target = { scope: 'cells', cells: [...target.cells, ...prepared.cells.filter(c => rows.has(c.caseName))] };
    }
    // with an improved prompt the cells run on it, named so, and the working copy is the other side
    const run = o.improved ? { ...prepared, requestValue: o.improved } : prepared;
    // nothing with errors is sent: a cell whose filled request does not pass the check ends as not sent
    const fill = (t: RunTarget) => {
      const targets = prepared.cells.filter(c => inTarget(c, t));
      const filled = core.filledCells(run, targets, { betas: this.config.betas });
      return { targets, filled, ready: filled.flatMap((c): ReadyCell[] => (c.cell ? [c.cell] : [])) };
    };
    let { targets, filled, ready } = fill(target);
    if (core.rubricsWithoutJudge(ready, this.config.casesJudgeModel).length)
      return refuse(
        `${fileName(caseUri)} has rubric assertions and no judge model: add "judge: { model: … }" to it, or set ` +
          'promptwright.cases.judgeModel; nothing was sent.',
      );
    // compare mode: the case file at the revision too, or why there is nothing to compare with (before
    // the service's address and key are asked for: outside git there is nothing to send)
    const base = o.improved
      ? workingCopyBase(prepared, this.config.betas)
      : o.compareWith === undefined
        ? undefined
        : await readBase(this.git, caseUri, o.compareWith, this.config.betas);
    if (typeof base === 'string') {
      // the grid keeps what it shows: nothing ran
      reporter?.notRun(base);
      void this.api.showError(base, 'Compare Cases');
      return;
    }
    // asked once, not once per cell: with no address or key, what is missing is asked for here (the offline
    // demo first), as Send and Count Tokens do; six cells failing to say the same would be a dead end
    if (!(await this.api.ready('Run Cases'))) {
      reporter?.notRun('No service address or API key: nothing was sent.');
      return;
    }
    const saved = await this.results.read(caseUri);
    const grid = this.grids.gridFor(caseUri, prepared, saved);
    // a comparison covers the cells asked for on both sides; one that cannot be kept starts over whole (asked of a
    // copy of the view here: nothing of the grid changes before the run is agreed to)
    if (base && !beginComparison({ ...grid.view }, base, prepared.cells, c => inTarget(c, target)).kept) {
      target = { scope: 'all' };
      ({ targets, filled, ready } = fill(target));
    }
    const cells = base ? withBaseCells(ready, base, c => inTarget(c, target)) : ready;
    // a batch collected sends none of its requests again
    if (!o.batch?.collect && !(await this.agreedToSend(cells))) {
      reporter?.notRun(
        'Not run: it would send more requests than promptwright.cases.maxRequests, and was not agreed to.',
      );
      return;
    }
    if (base) beginComparison(grid.view, base, prepared.cells, c => inTarget(c, target));
    if (!base && grid.view.compare) endComparison(grid.view);
    if (o.improved) grid.view.compare!.current = IMPROVED;
    grid.improved = o.improved;
    // the cells of this run start over; the others keep what they show
    for (const c of targets) grid.cells.set(cellKey(c.caseName, c.model), queuedCell(c));
    grid.view.cells = prepared.cells.map(c => grid.cells.get(cellKey(c.caseName, c.model)) ?? queuedCell(c));
    grid.view.running = true;
    grid.view.restored = false;
    delete grid.view.notice;
    this.grids.current = grid;
    if (reveal) this.view.open();
    this.view.showGrid();
    this.status.show(grid.view.caseFile, grid.view.cells, true);
    const { file, text, locate, requestModel } = prepared;
    reporter?.begin({ caseUri, file, text, locate, requestModel, cells: targets });

    const notSent: CellResult[] = [];
    for (const c of filled) {
      if (c.cell) continue;
      const result = notSentResult(c, c.problems);
      notSent.push(result);
      const view = cellViewOf(result, undefined, c.problems);
      this.grids.update(grid, view);
      reporter?.ended(view);
    }

    const t0 = Date.now();
    const verdicts = this.results.verdictsFolder(caseUri);
    const judgeModel = this.config.casesJudgeModel;
    const batch = o.batch ? await this.batchRuns.submit(caseUri, grid, cells, o.batch, signal) : undefined;
    if (o.batch && (!batch || signal.aborted)) return;
    // the direct transport's requests are paced by the rate-limit headers, one pacer for the run; a loop cell's
    // calls are answered by the case file's entries and its recorded fixtures
    const pacer = realPacer(sleep);
    const direct = core.directRun(cells, {
      client: () => this.api.client(),
      concurrency: this.config.casesConcurrency,
      // a retry's wait shows on the cell it holds up
      hooks: cell => ({
        ...pacer.hooks(),
        onRetry: e => this.grids.retrying(grid, cell, e.attempt, e.maxAttempts, e.delayMs, e.error),
      }),
      judge: {
        ...(judgeModel ? { defaultModel: judgeModel } : {}),
        ...(verdicts
          ? { cache: new core.DirectoryVerdictCache(verdicts.dir, m => this.log.warn(`Cases: ${m}`), verdicts.kept) }
          : {}),
      },
    });
    const { results } = await core.runCells<ReadyCell>({
      cells,
      signal,
      transport: batch?.transport ?? direct.transport,
      ...(batch ? { batch: true } : {}),
      prices: pricesOf(this.config, this.log),
      judging: direct.judging,
      gradeOf: (cell, text) => core.gradeFor(grid.grades, cell.caseName, text),
      onUpdate: (r, u, i) => {
        // a batch run left: its cells are not cancelled, their batch goes on (the Batches view collects them)
        if (batch && signal.aborted) return;
        if (cells[i]?.base) return this.grids.baseUpdated(grid, r, u);
        this.grids.onUpdate(grid, r, u, cells[i]!.repeat);
        if (u.kind === 'started') reporter?.started(r);
        else if (u.kind === 'ended') {
          const view = grid.cells.get(cellKey(r.caseName, r.model));
          if (view) reporter?.ended(view);
        }
      },
    });

    // a batch run left: its cells wait in their batches (the Batches view collects them)
    if (batch && !(await this.batchRuns.ended(batch, grid, cells, signal))) return;
    // what changed since the results saved before this run, then this run saved over them: the working
    // copy's (a comparison's other side is not a result of this case file, nor are an improved prompt's)
    const ran = [...results.filter((_, i) => !cells[i]?.base), ...notSent];
    if (o.improved) return;
    const changes = core.compareResults(saved?.results, ran);
    for (const r of ran) {
      const view = grid.cells.get(cellKey(r.caseName, r.model));
      const change = changes.get(cellKey(r.caseName, r.model));
      if (view && change) this.grids.update(grid, { ...view, change });
    }
    await this.grids.save(grid, prepared.cells, saved, ran);
    const summary = progressSummary(grid.view.cells);
    const failed = grid.view.cells.filter(c => c.status === 'failed' || c.status === 'error').length;
    this.recent?.update(caseUri, { cases: { summary, failed, at: Date.now() } });
    this.log.info(`Cases of ${vscode.workspace.asRelativePath(caseUri)}: ${summary} in ${Date.now() - t0} ms`);
  }

  /**
   * Whether a run may send what it would: within `promptwright.cases.maxRequests`, or agreed to in a modal that says
   * how many requests it would send (replies, and at most one judge request per rubric of each).
   */
  private async agreedToSend(cells: readonly ReadyCell[]): Promise<boolean> {
    const core = coreBundle();
    const n = core.requestCount(cells);
    const total = n.samples + n.judge;
    const limit = this.config.casesMaxRequests;
    if (total <= limit) return true;
    return this.prompts.confirm(
      `Send ${count(total, 'request')}?`,
      `This run would send ${core.requestCountWords(n)}, more than promptwright.cases.maxRequests ` +
        `(${thousands(limit)}). Nothing is sent unless you agree.`,
      `Send ${count(total, 'Request')}`,
    );
  }

  /**
   * A batch's cells into the grid and the Test Explorer (the Batches view's Collect, or a batch that ended after a
   * reload): the run it belongs to, read again; nothing is submitted. Waits for a run in progress first.
   */
  async collect(record: { cwd: string; files: readonly string[]; run: string }, reveal = false): Promise<void> {
    const file = record.files[0];
    if (!file) return;
    await this.idle();
    await this.run(
      vscode.Uri.file(path.resolve(record.cwd, file)),
      { scope: 'all' },
      { batch: { collect: record.run }, reveal },
    );
  }

  /**
   * The case file opened as every front end opens it (core/cases/session.ts): read as the editor has it, with its
   * request, judge prompt, fixtures and dataset, all checked; or why nothing can run.
   */
  private async prepare(caseUri: vscode.Uri): Promise<Prepared | string> {
    const core = coreBundle();
    const name = fileName(caseUri);
    if (caseUri.scheme !== 'file') return `${name} is not a file in a folder: save it first; nothing was sent.`;
    const abs = caseUri.fsPath;
    const opened = await core.openCaseFile(abs, path.dirname(abs), editorSource(), {
      display: name,
      dataset: file => openDataset(vscode.Uri.file(file)),
    });
    const errors = opened.records.filter(r => r.severity === 'error');
    const loaded = opened.loaded;
    if (!loaded) {
      const first = errors[0] ? ` (first: ${core.recordText(errors[0])})` : '';
      return `${name} has ${count(errors.length, 'error')}${first}: fix them first; nothing was sent.`;
    }
    const { requestValue } = loaded;
    if (!requestValue || typeof requestValue !== 'object' || Array.isArray(requestValue))
      return `The request file "${loaded.file.request}" does not hold one object: nothing was sent.`;
    const cells = core.cellsOf(loaded.file, loaded.requestModel);
    if (!cells.length) return `${name} names no models and "${loaded.file.request}" has no model: nothing to run.`;
    return { ...loaded, requestValue: requestValue as Record<string, unknown>, cells };
  }

  /** A panel restored after a reload: the case file's grid with its saved results, nothing sent. */
  async restore(caseUri: vscode.Uri): Promise<void> {
    try {
      const [prepared, saved] = await Promise.all([this.prepare(caseUri), this.results.read(caseUri)]);
      if (this.grids.current) return; // a run started meanwhile
      const keys = typeof prepared === 'string' ? (saved?.results ?? []) : prepared.cells;
      const request = typeof prepared === 'string' ? '' : prepared.file.request;
      const grid = this.grids.newGrid(caseUri, request, keys, saved);
      grid.view.restored = true;
      if (typeof prepared !== 'string') grid.view.caseVars = varsTextOf(prepared.file);
      const where = saved && this.results.place(caseUri);
      if (where) Object.assign(grid.view, { savedTo: where.shown, savedPath: where.full });
      if (typeof prepared === 'string') grid.view.notice = prepared;
      this.grids.current = grid;
      this.view.showGrid();
    } catch (e) {
      this.log.error(`Cases: could not restore the grid of ${caseUri.toString()}: ${String(e)}`);
    }
  }
}

/** The keys of a target's cells, made once per list (a sample of a large dataset asks of every cell). */
const targetKeys = new WeakMap<readonly CellKey[], Set<string>>();
function keysOf(cells: readonly CellKey[]): Set<string> {
  let keys = targetKeys.get(cells);
  if (!keys) targetKeys.set(cells, (keys = new Set(cells.map(c => cellKey(c.caseName, c.model)))));
  return keys;
}

function inTarget(c: CellKey, t: RunTarget): boolean {
  if (t.scope === 'all') return true;
  if (t.scope === 'cells') return keysOf(t.cells).has(cellKey(c.caseName, c.model));
  if (t.scope === 'row') return c.caseName === t.caseName;
  return c.caseName === t.caseName && c.model === t.model;
}
