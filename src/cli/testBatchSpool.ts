// `promptwright test FILE... --batch` on a suite of any size (a dataset of 100,000 rows), in memory bounded by what is
// in flight, not by the rows, whatever the format and report files (a suite of tool-use loops excepted). The cases
// stream past once (core/cases/suite.ts): each chosen case's cells are filled, checked and written to a spool in the
// batch store's folder (the requests as the create body holds them, and the cells as `batch collect` keeps them), while
// the run keeps of each request only its custom_id and the cell × sample it stands for. A problem anywhere sends
// nothing, as `test` does. The batches are made from the spool, their cell maps and sent cells written from it; when
// they have ended, the results are read a line at a time, each cell read back from the spool once its samples are in,
// judged a window of cells at a time by the same engine, handed to the report (testSpoolReport.ts), and let go. The
// spool is removed when the run ends; one a killed run left behind is removed by the next run (`removeStaleSpools`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nonStreaming, type BatchAnswer, type BatchesClient } from '../core/api/batches';
import type { ApiClient } from '../core/api/client';
import type { JobSpool, BatchJob, BatchSession } from '../core/batches/session';
import { VERSION, type BatchRecord, type BatchStore, type CellRef, type SentCell } from '../core/batches/store';
import { customIdOf } from '../core/batches/requests';
import { MISSING, outcomeOf, settler } from '../core/cases/batchTransport';
import type { CaseChoice } from '../core/cases/choose';
import { requestCount, type RequestCount, type RunOutcome, type Transport } from '../core/cases/engine';
import { parseCaseFile } from '../core/cases/caseFile';
import type { LoadedCaseFile, SuiteCase } from '../core/cases/load';
import { formatOf } from '../core/fileNames';
import { modelsOf } from '../core/cases/outline';
import { filledCells, NO_MODEL, rubricsWithoutJudge } from '../core/cases/session';
import type { Assertion, Outcome } from '../core/cases/types';
import { cellProblemLines, openSuiteFile, readText, recordLine } from './caseFiles';
import { betasFromEnv, type CliIo } from './io';
import { cellName } from './testReport';
import { judgeProblems, runTestCells, samplingProblem, type RunSettings, type TestCell } from './testRun';
import type { SpooledReport } from './testSpoolReport';
import { Appender } from './spoolFiles';
import type { RunTools } from './testTools';

/** How many cells whose samples are all in are judged at once. */
const WINDOW = 256;

/** A suite written to disk as it was read: its requests and cells, by place. */
export class SpooledSuite implements JobSpool {
  /** each request of the run, in order: its custom_id and the cell × sample it stands for (no params) */
  readonly jobs: SpoolJob[] = [];
  /** the case files, as shown */
  readonly files: string[] = [];
  /** each cell's first request (its samples follow it), and one past the last */
  private readonly firstJob: number[] = [0];
  private readonly requestsAt: number[] = [];
  private readonly cellsAt: number[] = [];
  /** each cell's case file on disk (its grades), by its file's place */
  private readonly cellFile: number[] = [];
  private readonly absOf: (string | undefined)[] = [];
  private readonly requests: Appender;
  private readonly cellsOut: Appender;
  private readonly seen = new Map<string, number>();
  count: RequestCount = { samples: 0, judge: 0 };

  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    this.requests = new Appender(path.join(dir, 'requests.jsonl'));
    this.cellsOut = new Appender(path.join(dir, 'cells.jsonl'));
  }

  /** Adds a cell and its samples' requests, each with its custom_id (a second of the same gets `-2`…). */
  add(cell: TestCell): void {
    const at = this.cellsAt.length;
    let file = this.files.lastIndexOf(cell.file);
    if (file < 0 || this.absOf[file] !== cell.abs) file = this.files.push(cell.file) - 1;
    this.absOf[file] = cell.abs;
    this.cellFile.push(file);
    this.cellsAt.push(this.cellsOut.append(JSON.stringify(sentOf(cell))));
    const n = requestCount([cell]);
    this.count = { samples: this.count.samples + n.samples, judge: this.count.judge + n.judge };
    const params = JSON.stringify(nonStreaming(cell.body));
    for (let sample = 0; sample < Math.max(1, cell.repeat); sample++) {
      const made = customIdOf({ file: cell.file, caseName: cell.caseName, model: cell.model, sample, body: cell.body });
      const times = (this.seen.get(made) ?? 0) + 1;
      this.seen.set(made, times);
      const customId = times === 1 ? made : `${made}-${times}`;
      this.requestsAt.push(this.requests.append(`{"custom_id":${JSON.stringify(customId)},"params":${params}}`));
      this.jobs.push(new SpoolJob(customId, at, sample, this));
    }
    this.firstJob.push(this.jobs.length);
  }

  /** Everything is written: what follows reads. */
  finish(): void {
    this.seen.clear();
    this.requests.flush();
    this.cellsOut.flush();
    this.requestsAt.push(this.requests.size);
    this.cellsAt.push(this.cellsOut.size);
  }

  request(job: BatchJob): string {
    const i = this.jobIndex(job);
    return this.requests.read(this.requestsAt[i]!, this.requestsAt[i + 1]! - 1);
  }

  bytes(job: BatchJob): number {
    const i = this.jobIndex(job);
    return this.requestsAt[i + 1]! - 1 - this.requestsAt[i]!;
  }

  /** The batch of these jobs: `{"requests":[…]}` streamed from the spool, 64 KB at a time as it is taken. */
  create(client: BatchesClient, jobs: readonly BatchJob[]): Promise<BatchAnswer> {
    return client.createStreamed(() => {
      const encoder = new TextEncoder();
      let next = 0;
      return new ReadableStream<Uint8Array>({
        pull: controller => {
          let text = next === 0 ? '{"requests":[' : '';
          for (; next < jobs.length && text.length < 65_536; next++)
            text += `${next ? ',' : ''}${this.request(jobs[next]!)}`;
          if (next === jobs.length) text += ']}';
          controller.enqueue(encoder.encode(text));
          if (next === jobs.length) controller.close();
        },
      });
    });
  }

  /**
   * Keeps a batch made of these jobs as the store keeps any (session.ts's `keptWith`): its cell map, and its cells
   * renumbered in the order it holds them, each read from the spool as it is written.
   */
  async keep(store: BatchStore, record: BatchRecord, jobs: readonly BatchJob[]): Promise<void> {
    const place = new Map<number, number>();
    const order: number[] = [];
    const key = (at: number) => this.key(at);
    const cellAt = (at: number) => this.cell(at);
    function* cells(): Generator<string> {
      yield '{';
      for (const [n, j] of jobs.entries()) {
        const { cell, sample } = j as SpoolJob;
        if (!place.has(cell)) place.set(cell, order.push(cell) - 1);
        const ref: CellRef = { ...key(cell), sample, cell: place.get(cell)! };
        yield `${n ? ',' : ''}${JSON.stringify(j.customId)}:${JSON.stringify(ref)}`;
      }
      yield '}\n';
    }
    function* sent(): Generator<string> {
      yield `{"version":${VERSION},"cells":[`;
      for (const [n, at] of order.entries()) yield `${n ? ',' : ''}${cellAt(at)}`;
      yield ']}\n';
    }
    await store.addBatchWith(record, (cellsFile, sentFile) => {
      for (const [file, pieces] of [
        [cellsFile, cells()],
        [sentFile, sent()],
      ] as const) {
        const temp = new Appender(`${file}.${process.pid}.tmp`);
        for (const piece of pieces) temp.write(piece);
        temp.close();
        fs.renameSync(temp.file, file);
      }
      return Promise.resolve();
    });
  }

  /** Which cell a request stands for (read back, the last one kept: a cell's samples come together). */
  key(at: number): Pick<SentCell, 'file' | 'caseName' | 'model'> {
    if (this.lastKey?.at !== at) {
      const { file, caseName, model } = JSON.parse(this.cell(at)) as SentCell;
      this.lastKey = { at, key: { file, caseName, model } };
    }
    return this.lastKey.key;
  }

  private lastKey: { at: number; key: Pick<SentCell, 'file' | 'caseName' | 'model'> } | undefined;

  cell(at: number): string {
    return this.cellsOut.read(this.cellsAt[at]!, this.cellsAt[at + 1]! - 1);
  }

  /** A cell as the engine runs it, read back. */
  testCell(at: number): TestCell {
    const sent = JSON.parse(this.cell(at)) as SentCell<TestCell['assertions'][number]> & { repeat: number };
    const abs = this.absOf[this.cellFile[at]!];
    return { ...sent, ...(abs !== undefined ? { abs } : {}) };
  }

  /** A request's place in the run. */
  jobIndex(job: BatchJob): number {
    const { cell, sample } = job as SpoolJob;
    return this.firstJob[cell]! + sample;
  }

  /** How many cells the run has. */
  get cells(): number {
    return this.firstJob.length - 1;
  }

  /** How many samples a cell has. */
  samples(at: number): number {
    return this.firstJob[at + 1]! - this.firstJob[at]!;
  }

  remove(): void {
    this.requests.close();
    this.cellsOut.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A request of a spooled run: its custom_id, and its cell × sample, read back when asked for. */
class SpoolJob implements BatchJob {
  constructor(
    readonly customId: string,
    readonly cell: number,
    readonly sample: number,
    private readonly spool: SpooledSuite,
  ) {}

  get ref(): CellRef {
    return { ...this.spool.key(this.cell), sample: this.sample, cell: this.cell };
  }
}

/** A cell as a batch keeps it: what `batch collect` judges its results by. */
export function sentOf(c: TestCell): SentCell<Assertion> {
  return {
    file: c.file,
    caseName: c.caseName,
    model: c.model,
    body: c.body,
    assertions: c.assertions,
    repeat: c.repeat,
    minPass: c.minPass,
    ...(c.judge ? { judge: c.judge } : {}),
    ...(c.caseId ? { caseId: c.caseId } : {}),
  };
}

/** What reading a suite into the spool found: its problems (nothing may be sent), and how many cases of how many. */
export interface Spooled {
  errors: number;
  cases: { chosen: number; of: number };
}

/** Whether a case file runs tool-use loops (a dataset's rows cannot add tools): they go a round at a time. */
export function hasLoops(abs: string): boolean {
  // the case file alone: its request, cross-check and fixtures are read once, by spoolSuite
  const read = readText(abs, abs);
  const { file } = 'text' in read ? parseCaseFile(read.text, formatOf(abs)) : {};
  return !!file && (!!file.tools || file.cases.some(c => !!c.tools));
}

/**
 * Reads the case files as `prepareCells` does (every problem said, `file:line:col`), each chosen case's cells
 * written to `spool` as they are read. Not for tool-use loops (`hasLoops`).
 */
export async function spoolSuite(
  spool: SpooledSuite,
  files: readonly string[],
  cwd: string,
  io: CliIo,
  o: { models: string[]; settings: Pick<RunSettings, 'sampling'>; choice?: CaseChoice },
): Promise<Spooled> {
  const betas = betasFromEnv(io.env);
  const cases = { chosen: 0, of: 0 };
  const judged: TestCell[] = [];
  let errors = 0;
  for (const abs of files) {
    const problems: { cell: string; problem: string }[] = [];
    let rubricWithoutJudge: TestCell | undefined;
    let models: string[] | undefined;
    // each chosen case's cells filled, checked and written as the dataset is read
    const add = (c: SuiteCase, loaded: LoadedCaseFile) => {
      models ??= modelsOf(loaded.file, loaded.requestModel, o.models);
      const one = { ...loaded, file: { ...loaded.file, cases: [c] } };
      const keys = models.map(model => ({ caseName: c.name, model }));
      for (const f of filledCells(one, keys, { betas, sampling: o.settings.sampling })) {
        // a problem many cells share is said once: its first cells are named, the others counted
        if (!f.cell) {
          for (const problem of f.problems) if (problems.length < 10_000) problems.push({ cell: cellName(f), problem });
          continue;
        }
        const cell: TestCell = {
          ...f.cell,
          file: loaded.display,
          abs,
          ...(loaded.file.mcpServers ? { mcpServers: loaded.file.mcpServers } : {}),
          caseId: c.id,
        };
        rubricWithoutJudge ??= rubricsWithoutJudge([cell], undefined)[0];
        spool.add(cell);
      }
    };
    const opened = await openSuiteFile(abs, cwd, { onChosen: add, ...(o.choice ? { choice: o.choice } : {}) });
    for (const r of opened.records) io.stderr.write(recordLine(r));
    const { loaded } = opened;
    if (!loaded || !opened.cases) {
      errors += Math.max(1, opened.records.filter(r => r.severity === 'error').length);
      continue;
    }
    cases.chosen += opened.cases.chosen;
    cases.of += opened.cases.of;
    if (!models?.length && opened.cases.chosen) {
      io.stderr.write(`${loaded.display}: error: ${NO_MODEL}\n`);
      errors++;
      continue;
    }
    const lines = cellProblemLines(loaded.display, problems);
    for (const line of lines) io.stderr.write(line);
    errors += lines.length;
    const problem = !lines.length && samplingProblem(loaded.file, loaded.display, o.settings.sampling);
    if (problem) {
      io.stderr.write(`${problem}\n`);
      errors++;
    }
    if (rubricWithoutJudge) judged.push(rubricWithoutJudge);
  }
  errors += judgeProblems(judged, io);
  spool.finish();
  return { errors, cases };
}

/** What a spooled run did, as the end of the run reads it. */
export interface SpooledRun extends Pick<RunOutcome, 'judgeCalls' | 'judgeCached' | 'stopped' | 'stoppedModels'> {
  pass: boolean;
}

/**
 * Waits for the session's batches to end, then reads their results a line at a time: a cell whose samples are all in
 * is read back from the spool and judged with the others of its window (`runTestCells`, the batch's outcomes handed
 * back as they came), handed to the report (testSpoolReport.ts) and let go. A request no result answered ends as an
 * error that says so; a read that fails ends every cell not yet judged with its error, as the engine does.
 */
export async function runSpooled(
  spool: SpooledSuite,
  session: BatchSession,
  o: {
    settings: RunSettings;
    io: CliIo;
    client: ApiClient;
    cwd: string;
    tools: RunTools;
    report: SpooledReport;
    onEnded: () => void;
  },
): Promise<SpooledRun> {
  const { io } = o;
  const signal = io.signal ?? new AbortController().signal;
  const ran: SpooledRun = { pass: true, judgeCalls: 0, judgeCached: 0 };
  try {
    await session.wait(signal);
  } catch (e) {
    if (signal.aborted) return ran;
    throw e;
  }
  o.onEnded();
  const answered = new Uint8Array(spool.jobs.length);
  const waiting = new Map<number, (Outcome | undefined)[]>();
  let window: { cell: number; outcomes: Outcome[] }[] = [];
  const judge = async () => {
    const w = window;
    window = [];
    if (!w.length || signal.aborted) return;
    const cells = w.map(x => spool.testCell(x.cell));
    const transport: Transport = {
      async send(jobs, handlers) {
        const settle = settler(handlers, o.settings.concurrency);
        for (const job of jobs) await settle.add(job, w[job.cell]!.outcomes[job.sample]!);
        await settle.all();
      },
    };
    const run = await runTestCells(cells, o.settings, io, o.client, o.cwd, {
      transport,
      batch: true,
      tools: o.tools,
      onUpdate: (r, u, i) => {
        if (u.kind !== 'ended' || signal.aborted) return;
        o.report.ended(w[i]!.cell, cells[i]!, r);
        ran.pass &&= r.pass;
      },
    });
    ran.judgeCalls += run.judgeCalls;
    ran.judgeCached += run.judgeCached;
    ran.stopped ??= run.stopped;
    for (const [model, stop] of run.stoppedModels ?? []) (ran.stoppedModels ??= new Map()).set(model, stop);
    await o.report.drained();
  };
  const take = async (job: BatchJob, outcome: Outcome) => {
    const { cell, sample } = job as SpoolJob;
    const outcomes = waiting.get(cell) ?? [];
    outcomes[sample] = outcome;
    if (outcomes.filter(Boolean).length < spool.samples(cell)) waiting.set(cell, outcomes);
    else {
      waiting.delete(cell);
      window.push({ cell, outcomes: outcomes as Outcome[] });
      if (window.length >= WINDOW) await judge();
    }
  };
  /** Every request not yet answered ends with `error` (what was not read, or why it could not be). */
  const unanswered = async (error: (job: BatchJob) => Outcome['error']) => {
    for (const [i, job] of spool.jobs.entries()) if (!answered[i]) await take(job, { text: '', error: error(job) });
  };
  try {
    for await (const m of session.results(signal)) {
      const i = spool.jobIndex(m.job);
      if (answered[i]) continue;
      answered[i] = 1;
      await take(m.job, outcomeOf(m.result, m.batchId));
      if (signal.aborted) return ran;
    }
  } catch (e) {
    if (signal.aborted) return ran;
    const message = e instanceof Error ? e.message : String(e);
    await unanswered(() => ({ type: 'internal_error', message }));
    await judge();
    return ran;
  }
  const batches = session.batchIds.join(', ');
  await unanswered(job => ({
    type: MISSING,
    message: `no result for ${job.customId} in ${batches}: not a request the batch holds (changed since it was sent?)`,
  }));
  await judge();
  return ran;
}
