import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApiError, errorType } from '../../core/api/errors';
import type { CallHooks } from '../../core/api/http';
import { realPacer } from '../../core/api/pacer';
import { sleep } from '../../core/api/retry';
import { cellKey, cellViewOf, notSentResult, problemsOf, progressSummary, queuedCell } from '../../core/cases/grid';
import type { ToolsSpec } from '../../core/tools/answers';
import type { CellView, GridView } from '../../core/cases/grid';
import {
  beginComparison,
  endComparison,
  onBaseUpdate,
  onCurrentEnded,
  type CompareUpdate,
} from '../../core/cases/gridCompare';
import type { BatchJob } from '../../core/batches/session';
import type { PollPace } from '../../core/batches/poll';
import type { BatchStore, RoundOf } from '../../core/batches/store';
import type { CellUpdate, SampleJob, Transport } from '../../core/cases/engine';
import type { SavedGrade, SavedResults } from '../../core/cases/results';
import type { CaseFile, CellKey, CellResult, HumanGrade } from '../../core/cases/types';
import type { Locate } from '../../core/request/parse/types';
import { count, thousands } from '../../core/text';
import type { CellPatch, RerunTarget } from '../../protocol/cases';
import type { GitBase } from '../git/gitBase';
import type { Api } from '../platform/api';
import type { Config } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import type { Log } from '../platform/log';
import { pricesOf } from '../platform/prices';
import type { Recent } from '../platform/recent';
import { vscodePrompts, type Prompts } from '../platform/prompts';
import { openDataset, readFixtures, readText, requestUriOf, type CaseDiagnostics } from './caseDiagnostics';
import { formatOf, isCaseFile } from '../../core/fileNames';
import { askRevision, IMPROVED, readBase, withBaseCells, workingCopyBase, type ReadyCell } from './casesCompare';
import type { CasesResults } from './casesResults';
import { CasesStatus } from './casesStatus';

const fileName = (uri: vscode.Uri) => uri.path.split('/').pop() ?? uri.path;

/** The grid shown: one case file's cells and their views. */
export interface Grid {
  caseUri: vscode.Uri;
  view: GridView;
  /** the same objects as view.cells, by cellKey */
  cells: Map<string, CellView>;
  /** the grades people gave this case file's replies (👍 / 👎), kept with its results */
  grades: SavedGrade[];
  /** the improved request its cells ran on (compare mode with an improved prompt) */
  improved?: Record<string, unknown>;
}

/** What a run needs, read from the case file and its request file. */
interface Prepared {
  file: CaseFile;
  /** the case file's text as it was run, and where each of its parts is (failures point at assertions) */
  text: string;
  locate: Locate;
  requestValue: Record<string, unknown>;
  requestModel: string | undefined;
  cells: CellKey[];
  requestName: string;
  /** the text of the judge prompt `judge.prompt` names */
  judgePrompt?: string;
  /** the tool answers recorded beside it (NAME.fixtures.yaml), for its tool-use loops */
  recorded?: ToolsSpec;
}

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

/** A run of a case file's cells, as the Test Explorer is told of it (casesTests.ts). */
export interface RunStart {
  caseUri: vscode.Uri;
  file: CaseFile;
  text: string;
  locate: Locate;
  requestModel: string | undefined;
  /** the cells this run runs, in order */
  cells: readonly CellKey[];
}

/**
 * What a run reports as it goes, whichever view started it: the Test Explorer's run (casesTests.ts). The grid
 * is drawn from the runner itself; this is the other view of the same run.
 */
export interface RunReporter {
  /** the case file was read: these cells will run (queued) */
  begin(run: RunStart): void;
  /** nothing could run (the case file has errors, no key, …): why */
  notRun(message: string): void;
  started(cell: CellKey): void;
  /** a cell ended (passed, failed, error, cancelled) */
  ended(cell: CellView): void;
  /** the run is over, its results saved */
  end(): void;
}

/** Gives each run that was not started with a reporter of its own (the grid's, a command's) one. */
export interface RunReporters {
  /** `cancel` stops the run (the Test Explorer's Cancel) */
  forRun(caseUri: vscode.Uri, cancel: () => void): RunReporter | undefined;
}

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

/** A run's batches, submitted: the engine's transport, and what the run does with them when it ends. */
interface SubmittedBatch {
  transport: Transport;
  /** the batches it waits for now (a suite of loops: the current round's) */
  batchIds(): string[];
  collected(): Promise<void>;
  batchOf(c: CellKey): string;
  /** every batch it waited for, for the Batches view to take back when the run ends */
  waitedFor: Set<string>;
}

/** Where a batch run keeps its batches and who polls them (the Batches view, vscode/batches/). */
export interface BatchHost {
  store: BatchStore;
  pace: PollPace;
  /** a run submitted, found or collected a batch: the view shows it now */
  changedBatch(): Promise<void>;
}

/** Where a run shows itself: the Cases panel (it batches the patches, at most one message a frame). */
export interface GridDisplay {
  /** opens the panel, or reveals it where it is */
  open(): void;
  /** the whole grid, at once (a new run, a notice, a restored panel) */
  showGrid(): void;
  /** a change of one cell, or news of where the results were saved */
  patch(patch: CellPatch | undefined, saved?: { savedTo: string; savedPath: string }): void;
  /** what is batched, now (a run ended) */
  flush(): void;
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
  /** the grid shown (or last run, while its cells run on with the panel closed) */
  current: Grid | undefined;
  /** the Test Explorer, told of every run (set by casesTests.ts) */
  reporters: RunReporters | undefined;
  /** the Batches view (set by features.ts) */
  batches: BatchHost | undefined;
  private running: Running | undefined;
  /** the batches a run of this window waits for itself */
  private readonly waitingFor = new Set<string>();

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
    void vscode.commands.executeCommand('setContext', 'promptwright.casesRunning', false);
  }

  /**
   * "Run Cases": the case file given (a CodeLens, the explorer), or the active editor's; from a request file,
   * the case file that names it (a pick when several do). Resolves when the run ends.
   */
  async runCases(arg?: unknown): Promise<void> {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const caseUri = await this.chooseCaseFile(uri);
    if (caseUri) await this.run(caseUri, { scope: 'all' });
  }

  /**
   * "Compare with…": the case file given (the editor's title), the active editor's, or the grid's; asks which
   * git revision (unless `ref` says), then runs every cell on the case file as it was there and as it is now,
   * each shown beside the other. Resolves when the run ends: to why nothing ran when the case file is in no
   * repository.
   */
  async compareCases(arg?: unknown, ref?: string): Promise<string | undefined> {
    const active = vscode.window.activeTextEditor?.document.uri;
    const uri =
      arg instanceof vscode.Uri ? arg : active && isCaseFile(active.path) ? active : (this.current?.caseUri ?? active);
    const caseUri = await this.chooseCaseFile(uri);
    if (!caseUri) return undefined;
    const chosen = await askRevision(this.prompts, this.git, caseUri, ref ?? this.config.compareBase, !!ref);
    if (chosen && 'ref' in chosen) await this.run(caseUri, { scope: 'all' }, { compareWith: chosen.ref });
    if (chosen && 'notInGit' in chosen) void this.api.showError(chosen.notInGit, 'Compare Cases');
    return chosen && 'notInGit' in chosen ? chosen.notInGit : undefined;
  }

  /**
   * "Run Sample…": asks how many of the case file's cases to run (1 to all; a seed may follow the number), then
   * runs that many, chosen as `promptwright test --sample N --seed S` chooses them, and says the seed so that the
   * same sample can be run again (here or in CI). `answer` answers the question (a command's argument, a test).
   * Resolves when the run ends, to the sample run.
   */
  async runSample(arg?: unknown, answer?: string): Promise<{ n: number; seed: number } | undefined> {
    const active = vscode.window.activeTextEditor?.document.uri;
    const uri =
      arg instanceof vscode.Uri ? arg : active && isCaseFile(active.path) ? active : (this.current?.caseUri ?? active);
    const caseUri = await this.chooseCaseFile(uri);
    if (!caseUri) return undefined;
    const prepared = await this.prepare(caseUri);
    if (typeof prepared === 'string') {
      void this.api.showError(prepared, 'Run Sample');
      return undefined;
    }
    // every case with its stable id (a listed case's too), offered in file order as the CLI offers them
    const suite = prepared.file.dataset ? prepared.file : await datasetCases(caseUri, prepared.file);
    if (typeof suite === 'string') return undefined;
    const total = suite.cases.length;
    const text =
      answer ??
      (await this.prompts.input({
        title: `Run Sample of ${fileName(caseUri)}`,
        prompt: `How many of its ${count(total, 'case')} to run, chosen at random (a seed after it repeats a sample)`,
        placeHolder: `1 to ${thousands(total)}`,
        validateInput: v => sampleAnswer(v, total).problem,
      }));
    if (text === undefined) return undefined;
    const chosen = sampleAnswer(text, total);
    if (chosen.problem !== undefined) {
      void this.api.showError(chosen.problem, 'Run Sample');
      return undefined;
    }
    const { n, seed } = chosen;
    const chooser = new (coreBundle().Chooser)<{ name: string; id: string }>({ sample: n, seed });
    for (const c of suite.cases as readonly { name: string; id?: string }[])
      chooser.offer(c.name, c.id ?? c.name, { name: c.name, id: c.id ?? c.name });
    const names = new Set(chooser.chosen(c => c.id).map(c => c.name));
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
    const grid = this.current;
    if (!grid?.view.compare || this.running) return;
    if (grid.improved) {
      this.current = undefined;
      return this.restore(grid.caseUri);
    }
    endComparison(grid.view);
    this.view.showGrid();
  }

  /**
   * A person's grade of one sample's reply (the detail's 👍 / 👎, with a note), or none: kept with the results by
   * the case and the reply's text, so the same reply keeps it on a re-run; every sample of the case that has
   * the same text shows it at once.
   */
  async grade(caseName: string, model: string, sample: number, grade: HumanGrade | undefined): Promise<void> {
    const grid = this.current;
    const text = grid?.cells.get(cellKey(caseName, model))?.samples?.[sample]?.text;
    if (!grid || text === undefined) return;
    const core = coreBundle();
    grid.grades = core.withGrade(grid.grades, caseName, text, grade);
    for (const view of [...grid.cells.values()]) {
      if (view.caseName !== caseName || !view.samples?.some(s => s.text === text)) continue;
      const samples = view.samples.map(s => {
        if (s.text !== text) return s;
        const { humanGrade: _old, ...rest } = s;
        return grade ? { ...rest, humanGrade: grade } : rest;
      });
      this.update(grid, { ...view, samples });
    }
    const saved = await this.results.read(grid.caseUri);
    await this.results.write(grid.caseUri, saved?.results ?? [], grid.grades);
    this.view.flush();
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
    this.current = undefined;
    this.status.hide();
  }

  dispose(): void {
    this.cancel();
    this.status.dispose();
  }

  private async chooseCaseFile(uri: vscode.Uri | undefined): Promise<vscode.Uri | undefined> {
    if (uri && isCaseFile(uri.path)) return uri;
    await this.cases.ready;
    const naming = uri ? this.cases.forRequest(uri) : [];
    const candidates = naming.length ? naming : this.cases.all();
    if (uri && !naming.length && !isCaseFile(uri.path) && /\.prompt\.(json|ya?ml)$/i.test(uri.path)) {
      const name = fileName(uri);
      void vscode.window.showInformationMessage(
        `Promptwright: no case file names ${name}. Write one beside it (e.g. ` +
          `${name.replace(/\.prompt\.(json|ya?ml)$/i, '')}.cases.yaml) with "request: ${name}" and a list of cases.`,
      );
      return undefined;
    }
    if (!candidates.length) {
      void vscode.window.showInformationMessage(
        'Promptwright: open a case file (*.cases.yaml, *.cases.json) to run its cases.',
      );
      return undefined;
    }
    if (candidates.length === 1) return candidates[0]!.uri;
    const items = candidates.map(e => ({
      label: fileName(e.uri),
      description: vscode.workspace.asRelativePath(e.uri),
      detail: e.file ? `${count(e.file.cases.length, 'case')} · request ${e.file.request}` : undefined,
      uri: e.uri,
    }));
    const pick = await this.prompts.pick(items, { title: 'Run Cases', placeHolder: 'Which case file?' });
    return pick?.uri;
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
      if (this.current?.caseUri.toString() === caseUri.toString()) {
        this.current.view.running = false;
        this.view.flush();
        this.status.show(this.current.view.caseFile, this.current.view.cells, false);
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
    const prepared = await this.prepare(caseUri);
    if (typeof prepared === 'string') {
      reporter?.notRun(prepared);
      this.showNotice(caseUri, prepared, reveal);
      // the Test Explorer says it at the case file's item
      if (reveal) void this.api.showError(prepared, 'Run Cases');
      return;
    }
    if (target.scope === 'cells' && target.dataset) {
      const rows = new Set(
        prepared.file.cases.filter(c => (c as { from?: string }).from === 'dataset').map(c => c.name),
      );
      target = { scope: 'cells', cells: [...target.cells, ...prepared.cells.filter(c => rows.has(c.caseName))] };
    }
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
    const core = coreBundle();
    const saved = await this.results.read(caseUri);
    const grid = this.gridFor(caseUri, prepared, saved);
    // a comparison covers the cells asked for on both sides; one that cannot be kept starts over whole (asked of a
    // copy of the view here: nothing of the grid changes before the run is agreed to)
    if (base && !beginComparison({ ...grid.view }, base, prepared.cells, c => inTarget(c, target)).kept)
      target = { scope: 'all' };
    // with an improved prompt the cells run on it, named so, and the working copy is the other side
    const run = o.improved ? { ...prepared, requestValue: o.improved } : prepared;
    const targets = prepared.cells.filter(c => inTarget(c, target));
    // nothing with errors is sent: a cell whose filled request does not pass the check ends as not sent
    const betas = this.config.betas;
    const filled = targets.map(c => ({ c, p: core.prepareCell(run.file, run.requestValue, c, { betas }) }));
    const ready: ReadyCell[] = filled.flatMap(({ c, p }) =>
      'body' in p ? [core.runCellOf(run, { ...c, body: p.body })] : [],
    );
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
    this.current = grid;
    if (reveal) this.view.open();
    this.view.showGrid();
    this.status.show(grid.view.caseFile, grid.view.cells, true);
    const { file, text, locate, requestModel } = prepared;
    reporter?.begin({ caseUri, file, text, locate, requestModel, cells: targets });

    const notSent: CellResult[] = [];
    for (const { c, p } of filled) {
      if ('body' in p) continue;
      const result = notSentResult(c, p.problems);
      notSent.push(result);
      const view = cellViewOf(result, undefined, p.problems);
      this.update(grid, view);
      reporter?.ended(view);
    }

    const t0 = Date.now();
    const verdicts = this.results.verdictsFolder(caseUri);
    const judgeModel = this.config.casesJudgeModel;
    // the judge's requests go through the client as the cells' do (key, address, retry rules, cancel)
    const judgeClient = await this.api.client();
    const batch = o.batch ? await this.submitBatch(caseUri, grid, cells, o.batch, signal) : undefined;
    if (o.batch && (!batch || signal.aborted)) return;
    // the direct transport's requests are paced by the rate-limit headers, one pacer for the run
    const pacer = realPacer(sleep);
    const { results } = await core.runCells<ReadyCell>({
      cells,
      signal,
      transport:
        batch?.transport ??
        core.directTransport({
          concurrency: this.config.casesConcurrency,
          // a loop cell's turns one after another, its calls answered by the case file's entries
          send: core.withToolLoops(cells, async (job, jobSignal, onEvent) => {
            const cell = cells[job.cell]!;
            // the shared client; the pacer and a retry's wait (shown on the cell it holds up) are this call's
            const hooks: CallHooks = {
              ...pacer.hooks(),
              onRetry: e => this.retrying(grid, cell, e.attempt, e.maxAttempts, e.delayMs, e.error),
            };
            return core.runCell(await this.api.client(), job.body, { signal: jobSignal, onEvent, hooks });
          }),
        }),
      ...(batch ? { batch: true } : {}),
      prices: pricesOf(this.config, this.log),
      judging: {
        call: (body, judgeSignal) => judgeClient.createMessage(body, { signal: judgeSignal }),
        ...(judgeModel ? { defaultModel: judgeModel } : {}),
        ...(verdicts
          ? { cache: new core.DirectoryVerdictCache(verdicts.dir, m => this.log.warn(`Cases: ${m}`), verdicts.kept) }
          : {}),
      },
      gradeOf: (cell, text) => core.gradeFor(grid.grades, cell.caseName, text),
      onUpdate: (r, u, i) => {
        // a batch run left: its cells are not cancelled, their batch goes on (the Batches view collects them)
        if (batch && signal.aborted) return;
        if (cells[i]?.base) return this.baseUpdated(grid, r, u);
        this.onUpdate(grid, r, u, cells[i]!.repeat);
        if (u.kind === 'started') reporter?.started(r);
        else if (u.kind === 'ended') {
          const view = grid.cells.get(cellKey(r.caseName, r.model));
          if (view) reporter?.ended(view);
        }
      },
    });

    if (batch) {
      for (const id of batch.waitedFor) this.waitingFor.delete(id);
      if (signal.aborted) {
        this.log.info(`Cases: ${fileName(caseUri)} left waiting for ${batch.batchIds().join(', ')}`);
        // the cells a round of loops has not ended yet (the others have their verdicts) wait in its batch
        const waiting = new Set(['queued', 'running', 'cancelled']);
        for (const c of cells)
          if (waiting.has(grid.cells.get(cellKey(c.caseName, c.model))?.status ?? 'queued'))
            this.inBatch(grid, c, batch.batchOf(c));
        return;
      }
      await batch.collected();
      await this.batches?.changedBatch();
    }
    // what changed since the results saved before this run, then this run saved over them: the working
    // copy's (a comparison's other side is not a result of this case file, nor are an improved prompt's)
    const ran = [...results.filter((_, i) => !cells[i]?.base), ...notSent];
    if (o.improved) return;
    const changes = core.compareResults(saved?.results, ran);
    for (const r of ran) {
      const view = grid.cells.get(cellKey(r.caseName, r.model));
      const change = changes.get(cellKey(r.caseName, r.model));
      if (view && change) this.update(grid, { ...view, change });
    }
    await this.save(caseUri, grid, prepared, saved, ran);
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

  // ---- Message Batches ------------------------------------------------------------------------------------

  /**
   * The cells' requests as a Message Batch: submitted, or found pending (nothing is sent again), or, to collect a
   * run, found; each cell then shows `queued in batch` until the batch ends. A suite of tool-use loops goes a round
   * at a time (core/cases/batchRounds.ts: the cells still calling tools in each), resumed between rounds when run
   * again. Undefined when nothing can go.
   */
  private async submitBatch(
    caseUri: vscode.Uri,
    grid: Grid,
    cells: readonly ReadyCell[],
    o: { collect?: string },
    signal: AbortSignal,
  ): Promise<SubmittedBatch | undefined> {
    const host = this.batches;
    if (!host || grid.view.compare) return undefined;
    const core = coreBundle();
    const folder = vscode.workspace.getWorkspaceFolder(caseUri)?.uri.fsPath ?? path.dirname(caseUri.fsPath);
    const file = path.relative(folder, caseUri.fsPath);
    const client = new core.BatchesClient((await this.api.client()).http);
    const waitedFor = new Set<string>();
    const sessionOf = (jobs: BatchJob[], extra: { collect?: { runKey: string }; rounds?: RoundOf } = {}) =>
      new core.BatchSession({
        client,
        store: host.store,
        jobs,
        run: { cwd: folder, files: [file], args: {}, ...(extra.rounds ? { rounds: extra.rounds } : {}) },
        pace: host.pace,
        ...(extra.collect ? { collect: extra.collect } : {}),
        onEvent: e => {
          if (e.kind === 'created') {
            this.log.info(`Cases: ${file} submitted as ${e.batch.id} (${e.requests} requests)`);
            this.waitFor(waitedFor, [e.batch.id]);
          } else if (e.kind === 'resumed') {
            this.log.info(`Cases: ${file} waits for ${e.batchIds.join(', ')} (no new batch)`);
            this.waitFor(waitedFor, e.batchIds);
          } else if (e.kind === 'unmatched') this.log.warn(`Cases: ${e.batchId}: ${e.problem}`);
        },
      });
    const refOf = (j: SampleJob) => ({
      file,
      caseName: cells[j.cell]!.caseName,
      model: cells[j.cell]!.model,
      sample: j.sample,
    });
    let made: SubmittedBatch;
    try {
      if (cells.some(c => c.tools)) {
        const rounds = new core.BatchRounds<ReadyCell>({
          store: host.store,
          cells,
          refOf,
          // answered as the direct run's are: by the case file's entries and its recorded fixtures
          live: () => ({}),
          session: (jobs, r) => sessionOf(jobs, { rounds: r }),
          onRound: (round, n) => this.log.info(`Cases: ${file}: round ${round} of its tool-use loops, ${n} requests`),
        });
        // collected after a reload: the suite goes on from the round kept, unless its cells have changed since
        if (o.collect && (await host.store.run(o.collect))?.rounds?.suite !== rounds.key)
          throw new Error(`${file} has changed since its tool-use loops were sent: run it as a batch again`);
        await rounds.open();
        await rounds.submit(signal);
        made = {
          transport: rounds.transport({ concurrency: this.config.casesConcurrency }),
          batchIds: () => rounds.session?.batchIds ?? [],
          collected: () => rounds.collected(),
          batchOf: () => rounds.session?.batchIds[0] ?? '',
          waitedFor,
        };
      } else {
        const jobs = core.sampleJobs(cells);
        const refs = jobs.map(refOf);
        const ids = core.customIds(jobs.map((j, i) => ({ ...refs[i]!, body: j.body })));
        const idOf = new Map(jobs.map((j, i) => [`${j.cell}:${j.sample}`, ids[i]!]));
        const session = sessionOf(
          jobs.map((j, i) => ({ customId: ids[i]!, ref: refs[i]!, params: j.body })),
          o.collect ? { collect: { runKey: o.collect } } : {},
        );
        await session.submit(signal);
        // which batch holds each cell (its first sample's request)
        const batchOfId = new Map<string, string>();
        for (const id of session.batchIds)
          for (const customId of Object.keys((await host.store.cells(id)) ?? {})) batchOfId.set(customId, id);
        made = {
          transport: core.batchTransport({
            session,
            idOf: job => idOf.get(`${job.cell}:${job.sample}`)!,
            concurrency: this.config.casesConcurrency,
          }),
          batchIds: () => session.batchIds,
          collected: () => session.collected(),
          batchOf: c => {
            const i = cells.findIndex(x => x.caseName === c.caseName && x.model === c.model);
            return batchOfId.get(idOf.get(`${i}:0`) ?? '') ?? session.batchIds[0] ?? '';
          },
          waitedFor,
        };
      }
    } catch (e) {
      // nothing went (or what went is kept, and a run again sends only the rest): the cells say why
      const error = { type: errorType(e), message: e instanceof Error ? e.message : String(e) };
      const requestId = e instanceof ApiError ? e.requestId : undefined;
      for (const c of cells)
        this.update(grid, {
          ...queuedCell(c),
          status: 'error',
          error: { ...error, ...(requestId ? { requestId } : {}) },
        });
      if (waitedFor.size) await host.changedBatch();
      throw e;
    }
    await host.changedBatch();
    for (const c of cells) this.inBatch(grid, c, made.batchOf(c));
    return made;
  }

  /** Batches a run of this window waits for itself: the Batches view leaves them to it, and shows them now. */
  private waitFor(ids: Set<string>, batchIds: readonly string[]): void {
    for (const id of batchIds) {
      ids.add(id);
      this.waitingFor.add(id);
    }
    void this.batches?.changedBatch();
  }

  /** A cell waiting in its batch: `queued in batch`. */
  private inBatch(grid: Grid, c: CellKey, batchId: string): void {
    this.update(grid, { ...queuedCell(c), batchId });
  }

  /** Whether a run of this window waits for this batch itself (it fills the grid when the batch ends). */
  isLive(batchId: string): boolean {
    return this.waitingFor.has(batchId);
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

  /** Reads the case file and its request file into what a run needs, or says why nothing can run. */
  private async prepare(caseUri: vscode.Uri): Promise<Prepared | string> {
    const core = coreBundle();
    const name = fileName(caseUri);
    const text = await readText(caseUri);
    if (text === undefined) return `${name} cannot be read.`;
    const parsed = core.parseCaseFile(text, formatOf(caseUri.path));
    // a request or judge prompt out of the case file's repository is neither read nor sent
    const outside =
      parsed.file && caseUri.scheme === 'file' ? core.outsideProblems(caseUri.fsPath, parsed.file, parsed.locate) : [];
    const promptName = outside.some(p => p.path[0] === 'judge') ? undefined : parsed.file?.judge?.prompt;
    const promptUri = promptName ? requestUriOf(caseUri, promptName) : undefined;
    const judgePrompt = promptUri && (await readText(promptUri));
    const errors = [
      ...parsed.problems,
      ...outside,
      ...(parsed.file && promptName ? core.judgePromptCheck(parsed.file, parsed.locate, judgePrompt) : []),
    ].filter(p => p.severity === 'error');
    if (!parsed.file || errors.length) {
      const first = errors[0] ? ` (first: ${errors[0].message})` : '';
      return `${name} has ${count(errors.length, 'error')}${first}: fix them first; nothing was sent.`;
    }
    const file = parsed.file.dataset ? await datasetCases(caseUri, parsed.file) : parsed.file;
    if (typeof file === 'string') return file;
    if (!file.judge?.model && !this.config.casesJudgeModel && file.cases.some(c => c.assert?.some(a => 'rubric' in a)))
      return (
        `${name} has rubric assertions and no judge model: add "judge: { model: … }" to it, or set ` +
        'promptwright.cases.judgeModel; nothing was sent.'
      );
    const requestUri = requestUriOf(caseUri, file.request);
    const requestText = requestUri && (await readText(requestUri));
    if (!requestUri || requestText === undefined)
      return `The request file "${file.request}" that ${name} names cannot be read; nothing was sent.`;
    const value = core.validateText(requestText, formatOf(requestUri.path), { betas: this.config.betas }).parsed.value;
    if (!value || typeof value !== 'object' || Array.isArray(value))
      return `The request file "${file.request}" does not parse: fix its syntax first; nothing was sent.`;
    const requestValue = value as Record<string, unknown>;
    const model = typeof requestValue.model === 'string' ? requestValue.model : undefined;
    const cells = core.cellsOf(file, model);
    if (!cells.length) return `${name} names no models and "${file.request}" has no model: nothing to run.`;
    // a suite of tool-use loops: the answers recorded beside it (`promptwright test --record`)
    const fixtures = file.tools || file.cases.some(c => c.tools) ? await readFixtures(caseUri) : undefined;
    if (typeof fixtures === 'string') return fixtures;
    return {
      ...(fixtures ? { recorded: fixtures } : {}),
      file,
      text,
      locate: parsed.locate,
      requestValue,
      requestModel: model,
      cells,
      requestName: file.request,
      ...(judgePrompt !== undefined ? { judgePrompt } : {}),
    };
  }

  /** The grid to run in: the one shown when it is this file's with the same rows and columns, else a new one. */
  private gridFor(caseUri: vscode.Uri, p: Prepared, saved: SavedResults | undefined): Grid {
    const cases = [...new Set(p.cells.map(c => c.caseName))];
    const models = [...new Set(p.cells.map(c => c.model))];
    const shown = this.current;
    // the working copy's own rows and columns (in compare mode the grid shows the revision's too)
    const shownCells = shown?.view.cells ?? [];
    if (
      shown &&
      shown.caseUri.toString() === caseUri.toString() &&
      sameList([...new Set(shownCells.map(c => c.caseName))], cases) &&
      sameList([...new Set(shownCells.map(c => c.model))], models)
    ) {
      shown.view.request = p.requestName;
      shown.view.caseVars = varsTextOf(p.file);
      return shown;
    }
    const grid = this.newGrid(caseUri, p.requestName, p.cells, saved);
    grid.view.caseVars = varsTextOf(p.file);
    return grid;
  }

  /** A grid of these cells, each showing its saved result when there is one. */
  private newGrid(caseUri: vscode.Uri, request: string, keys: CellKey[], saved: SavedResults | undefined): Grid {
    const byKey = new Map((saved?.results ?? []).map(r => [cellKey(r.caseName, r.model), r]));
    const cells = new Map<string, CellView>();
    for (const c of keys) {
      const r = byKey.get(cellKey(c.caseName, c.model));
      cells.set(cellKey(c.caseName, c.model), r ? cellViewOf(r, undefined, problemsOf(r)) : queuedCell(c));
    }
    const view: GridView = {
      caseFile: fileName(caseUri),
      caseFilePath: vscode.workspace.asRelativePath(caseUri),
      caseFileUri: caseUri.toString(),
      request,
      cases: [...new Set(keys.map(c => c.caseName))],
      models: [...new Set(keys.map(c => c.model))],
      cells: keys.map(c => cells.get(cellKey(c.caseName, c.model))!),
      running: false,
    };
    return { caseUri, view, cells, grades: saved?.grades ?? [] };
  }

  /** A cell started, one of its samples streamed an event or settled, or it ended. */
  private onUpdate(grid: Grid, r: CellResult, u: CellUpdate, repeat: number): void {
    const k = cellKey(r.caseName, r.model);
    let view = grid.cells.get(k);
    if (!view) return;
    if (u.kind === 'event') {
      // the reply goes on: the retry it waited for is over
      if (view.retry) this.update(grid, (view = { ...view, retry: undefined }));
      // the cell shows its first sample as it streams; the others show in its detail once they end
      if (u.sample !== 0) return;
      const ev = u.ev;
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') {
        view.text += ev.delta.text;
        this.view.patch({ caseName: r.caseName, model: r.model, append: ev.delta.text });
      } else if (ev.type === 'content_block_start' && /tool_use$/.test(ev.content_block.type)) {
        const tool = typeof ev.content_block.name === 'string' ? ev.content_block.name : ev.content_block.type;
        this.update(grid, { ...view, toolCalls: [...(view.toolCalls ?? []), tool] });
      }
      return;
    }
    if (u.kind === 'started') this.update(grid, { ...view, status: 'running', repeat, samplesDone: 0 });
    else if (u.kind === 'sample') this.update(grid, { ...view, samplesDone: (view.samplesDone ?? 0) + 1 });
    else {
      this.update(grid, cellViewOf(r));
      this.status.show(grid.view.caseFile, grid.view.cells, true);
    }
  }

  /** The client waits to retry a cell's request (429, 529, …: the spec's rules): the cell says so. */
  private retrying(grid: Grid, cell: ReadyCell, attempt: number, maxAttempts: number, inMs: number, e: Error): void {
    const retry = { attempt, maxAttempts, inMs, type: errorType(e) };
    if (cell.base) {
      const pair = grid.view.compare?.cells.find(p => p.caseName === cell.caseName && p.model === cell.model);
      if (!pair?.base) return;
      pair.base = { ...pair.base, retry };
      this.patchPair(grid, cell, { pair });
      return;
    }
    const view = grid.cells.get(cellKey(cell.caseName, cell.model));
    if (view) this.update(grid, { ...view, retry });
  }

  /** A cell's side at the revision started, streamed its first sample or ended (compare mode). */
  private baseUpdated(grid: Grid, r: CellResult, u: CellUpdate): void {
    const compare = grid.view.compare;
    if (!compare || u.kind === 'sample' || (u.kind === 'event' && u.sample !== 0)) return;
    const current = grid.cells.get(cellKey(r.caseName, r.model));
    const ev = u.kind === 'event' ? u.ev : undefined;
    for (const c of onBaseUpdate(compare, r, ev, current)) this.patchPair(grid, r, c);
  }

  private patchPair(grid: Grid, c: CellKey, u: CompareUpdate): void {
    if (grid !== this.current) return;
    const at = { caseName: c.caseName, model: c.model };
    this.view.patch(
      'append' in u ? { ...at, append: u.append, side: 'base' } : { ...at, compared: structuredClone(u.pair) },
    );
  }

  /** Replaces a cell's view (in the grid and for the webview). */
  private update(grid: Grid, view: CellView): void {
    const k = cellKey(view.caseName, view.model);
    if (view.retry === undefined) delete view.retry;
    grid.cells.set(k, view);
    const at = grid.view.cells.findIndex(c => cellKey(c.caseName, c.model) === k);
    if (at >= 0) grid.view.cells[at] = view;
    // a copy: the text of the view in the grid grows by appends, which follow this patch as patches of their own
    if (grid === this.current)
      this.view.patch({ caseName: view.caseName, model: view.model, cell: structuredClone(view) });
    // compare mode: a side that ended settles its pair when the other has ended too
    const compare = grid.view.compare;
    const pair = compare && view.status !== 'queued' && view.status !== 'running' && onCurrentEnded(compare, view);
    if (pair) this.patchPair(grid, view, { pair });
  }

  // ---- results --------------------------------------------------------------------------------------------

  /** Saves this run's results over the saved ones (a partial run keeps the others'); the grid says where. */
  private async save(
    caseUri: vscode.Uri,
    grid: Grid,
    p: Prepared,
    saved: SavedResults | undefined,
    ran: CellResult[],
  ): Promise<void> {
    // only the cells the case file has now: a renamed case's old results would otherwise stay for ever
    const now = new Set(p.cells.map(c => cellKey(c.caseName, c.model)));
    const merged = coreBundle()
      .mergeResults(saved?.results, ran)
      .filter(r => now.has(cellKey(r.caseName, r.model)));
    const where = await this.results.write(caseUri, merged, grid.grades);
    if (!where) return;
    grid.view.savedTo = where.shown;
    grid.view.savedPath = where.full;
    if (grid === this.current) this.view.patch(undefined, { savedTo: where.shown, savedPath: where.full });
  }

  /** A panel restored after a reload: the case file's grid with its saved results, nothing sent. */
  async restore(caseUri: vscode.Uri): Promise<void> {
    try {
      const [prepared, saved] = await Promise.all([this.prepare(caseUri), this.results.read(caseUri)]);
      if (this.current) return; // a run started meanwhile
      const keys = typeof prepared === 'string' ? (saved?.results ?? []) : prepared.cells;
      const request = typeof prepared === 'string' ? '' : prepared.requestName;
      const grid = this.newGrid(caseUri, request, keys, saved);
      grid.view.restored = true;
      if (typeof prepared !== 'string') grid.view.caseVars = varsTextOf(prepared.file);
      const where = saved && this.results.place(caseUri);
      if (where) Object.assign(grid.view, { savedTo: where.shown, savedPath: where.full });
      if (typeof prepared === 'string') grid.view.notice = prepared;
      this.current = grid;
      this.view.showGrid();
    } catch (e) {
      this.log.error(`Cases: could not restore the grid of ${caseUri.toString()}: ${String(e)}`);
    }
  }

  private showNotice(caseUri: vscode.Uri, notice: string, reveal: boolean): void {
    const grid =
      this.current?.caseUri.toString() === caseUri.toString() ? this.current : this.newGrid(caseUri, '', [], undefined);
    grid.view.notice = notice;
    this.current = grid;
    if (reveal) this.view.open();
    this.view.showGrid();
  }
}

/**
 * A case file's cases as the CLI's `test` reads them, each with its stable id: the listed ones, then every row of
 * its dataset (read once); or why nothing can run (the dataset is missing or has errors).
 */
async function datasetCases(caseUri: vscode.Uri, file: CaseFile): Promise<CaseFile | string> {
  const core = coreBundle();
  const listed = file.cases.map(c => ({ ...c, line: 1 }));
  const dataset = file.dataset;
  if (!dataset) return { ...file, cases: (await core.scanSuite({ listed, keep: true })).chosen };
  const format = core.datasetFormatOf(dataset);
  const uri = requestUriOf(caseUri, dataset);
  const chunks = uri && format && openDataset(uri);
  if (!chunks || !format)
    return `The dataset "${dataset}" that ${fileName(caseUri)} names cannot be read; nothing was sent.`;
  const scan = await core.scanSuite({ listed, dataset: { chunks, format }, keep: true });
  const errors = scan.problems.filter(p => p.severity === 'error');
  if (errors.length) {
    const first = `line ${errors[0]!.line}: ${errors[0]!.message}`;
    return `${dataset} has ${count(errors.length, 'error')} (first: ${first}): fix them first; nothing was sent.`;
  }
  return { ...file, cases: scan.chosen };
}

/**
 * Run Sample…'s answer: `N` or `N SEED`, N a whole number from 1 to `total`, SEED a whole number (else one is drawn
 * at random, and said); or what is wrong with it.
 */
function sampleAnswer(
  text: string,
  total: number,
): { n: number; seed: number; problem?: undefined } | { problem: string } {
  const m = /^\s*(\d+)(?:\s+(\d+))?\s*$/.exec(text);
  const n = m ? Number(m[1]) : NaN;
  if (!m || n < 1 || n > total)
    return { problem: `A whole number from 1 to ${thousands(total)}, then a seed if you like: "50 7".` };
  const seed = m[2] !== undefined ? Number(m[2]) : Math.floor(Math.random() * 100_000);
  if (!Number.isSafeInteger(seed) || seed > 0xffffffff)
    return { problem: 'The seed is a whole number up to 4294967295.' };
  return { n, seed };
}

/** Each case's vars as one line of text (`name=value …`), for the grid's filter box. */
function varsTextOf(file: CaseFile): Record<string, string> {
  const text = Object.create(null) as Record<string, string>;
  for (const c of file.cases) text[c.name] = varsLine(c.vars);
  return text;
}

/** A case's vars as one line of text: `word=hello tone=warm` (the grid's filter, a dataset row's test). */
export function varsLine(vars: Record<string, unknown> | undefined): string {
  return Object.entries(vars ?? {})
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
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

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
