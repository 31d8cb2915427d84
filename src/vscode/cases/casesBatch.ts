// The Cases grid's runs as Message Batches (half the price): the cells' requests submitted as batches, or found
// pending (nothing is sent again), or found to collect a run after a reload; each cell shows `queued in batch` until
// its batch ends, and the engine settles the cells from the results as a direct run's. The batches a run of this
// window waits for are its own: the Batches view (vscode/batches/) leaves them to it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApiError, errorType } from '../../core/api/errors';
import type { PollPace } from '../../core/batches/poll';
import type { BatchJob } from '../../core/batches/session';
import type { BatchStore, RoundOf } from '../../core/batches/store';
import type { SampleJob, Transport } from '../../core/cases/engine';
import { cellKey, queuedCell } from '../../core/cases/grid';
import type { CellKey } from '../../core/cases/types';
import type { Api } from '../platform/api';
import type { Config } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import type { Log } from '../platform/log';
import type { ReadyCell } from './casesCompare';
import type { Grid, GridState } from './casesGrid';

/** Where a batch run keeps its batches and who polls them (the Batches view, vscode/batches/). */
export interface BatchHost {
  store: BatchStore;
  pace: PollPace;
  /** a run submitted, found or collected a batch: the view shows it now */
  changedBatch(): Promise<void>;
}

/** A run's batches, submitted: the engine's transport, and what the run does with them when it ends. */
export interface SubmittedBatch {
  transport: Transport;
  /** the batches it waits for now (a suite of loops: the current round's) */
  batchIds(): string[];
  collected(): Promise<void>;
  batchOf(c: CellKey): string;
  /** every batch it waited for, for the Batches view to take back when the run ends */
  waitedFor: Set<string>;
}

/** The grid's batch runs: submitted, waited for, left, collected. */
export class BatchRuns {
  /** the Batches view (set by features.ts) */
  host: BatchHost | undefined;
  /** the batches a run of this window waits for itself */
  private readonly waitingFor = new Set<string>();

  constructor(
    private readonly config: Config,
    private readonly api: Api,
    private readonly log: Log,
    private readonly grids: GridState,
  ) {}

  /**
   * The cells' requests as a Message Batch: submitted, or found pending (nothing is sent again), or, to collect a
   * run, found; each cell then shows `queued in batch` until the batch ends. A suite of tool-use loops goes a round
   * at a time (core/cases/batchRounds.ts: the cells still calling tools in each), resumed between rounds when run
   * again. Undefined when nothing can go.
   */
  async submit(
    caseUri: vscode.Uri,
    grid: Grid,
    cells: readonly ReadyCell[],
    o: { collect?: string },
    signal: AbortSignal,
  ): Promise<SubmittedBatch | undefined> {
    const host = this.host;
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
        const { jobs, idOf } = core.batchJobsOf(cells, () => file);
        const session = sessionOf(jobs, o.collect ? { collect: { runKey: o.collect } } : {});
        await session.submit(signal);
        // which batch holds each cell (its first sample's request)
        const batchOfId = new Map<string, string>();
        for (const id of session.batchIds)
          for (const customId of Object.keys((await host.store.cells(id)) ?? {})) batchOfId.set(customId, id);
        made = {
          transport: core.batchTransport({
            session,
            idOf: job => idOf(job)!,
            concurrency: this.config.casesConcurrency,
          }),
          batchIds: () => session.batchIds,
          collected: () => session.collected(),
          batchOf: c => {
            const i = cells.findIndex(x => x.caseName === c.caseName && x.model === c.model);
            return batchOfId.get(idOf({ cell: i, sample: 0 }) ?? '') ?? session.batchIds[0] ?? '';
          },
          waitedFor,
        };
      }
    } catch (e) {
      // nothing went (or what went is kept, and a run again sends only the rest): the cells say why
      const error = { type: errorType(e), message: e instanceof Error ? e.message : String(e) };
      const requestId = e instanceof ApiError ? e.requestId : undefined;
      for (const c of cells)
        this.grids.update(grid, {
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
    void this.host?.changedBatch();
  }

  /** A cell waiting in its batch: `queued in batch`. */
  private inBatch(grid: Grid, c: CellKey, batchId: string): void {
    this.grids.update(grid, { ...queuedCell(c), batchId });
  }

  /** Whether a run of this window waits for this batch itself (it fills the grid when the batch ends). */
  isLive(batchId: string): boolean {
    return this.waitingFor.has(batchId);
  }

  /**
   * The run's cells have settled, or the run was left (`signal` aborted): its batches are no longer this window's
   * to wait for. Left, each cell its run has not ended waits in its batch (the Batches view collects them) and
   * false comes back; else the batches are collected (a collected batch is not collected again) and true.
   */
  async ended(batch: SubmittedBatch, grid: Grid, cells: readonly ReadyCell[], signal: AbortSignal): Promise<boolean> {
    for (const id of batch.waitedFor) this.waitingFor.delete(id);
    if (signal.aborted) {
      this.log.info(`Cases: ${grid.view.caseFile} left waiting for ${batch.batchIds().join(', ')}`);
      // the cells a round of loops has not ended yet (the others have their verdicts) wait in its batch
      const waiting = new Set(['queued', 'running', 'cancelled']);
      for (const c of cells)
        if (waiting.has(grid.cells.get(cellKey(c.caseName, c.model))?.status ?? 'queued'))
          this.inBatch(grid, c, batch.batchOf(c));
      return false;
    }
    await batch.collected();
    await this.host?.changedBatch();
    return true;
  }
}
