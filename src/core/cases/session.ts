// A case run made ready, the same for every front end (the Cases grid and the Test Explorer, compare mode, an
// improved prompt's run, `promptwright test` and `test --base`, `count`): the case file read through the shared
// loader (load.ts) from a source (the files on disk, the editor's unsaved text, a git revision) with its dataset's
// rows, and checked; each cell filled and checked, ready for the engine or with why it cannot be sent; the rubrics
// that have no judge model; a batch's requests with their custom_ids. The front ends read files, ask questions and
// show results: they prepare nothing of a run themselves. How a run reaches the service is theirs (the client, its
// pacer, a retry's notice), given here once: each cell streamed (a loop cell's turns answered), the judge through the
// same client.
import type { ApiClient } from '../api/client';
import type { CallHooks } from '../api/http';
import type { BatchJob } from '../batches/session';
import { customIds } from '../batches/requests';
import { recordText, type CheckRecord } from '../request/records';
import type { Endpoint } from '../request/validate';
import type { CaseChoice } from './choose';
import {
  directTransport,
  runCellOf,
  sampleJobs,
  type Judging,
  type RunCell,
  type SampleJob,
  type Transport,
} from './engine';
import { withToolLoops } from './loops';
import {
  loadCaseFileFrom,
  loadSuite,
  type DatasetOpener,
  type FileSource,
  type LoadedCaseFile,
  type SuiteCase,
} from './load';
import { cellsOf, prepareCell, runCell, type Sampling } from './runner';
import type { LiveBackends } from '../tools/answers';
import type { VerdictCache } from './verdictCache';
import type { CellKey } from './types';

/** A case file as a run reads it: usable (`loaded`) when no record is an error. */
export interface OpenedCaseFile {
  /** present when the case file and its request could be read and hold no error */
  loaded?: LoadedCaseFile;
  /** every problem found, in the case file, its request, judge prompt, fixtures and dataset */
  records: CheckRecord[];
  /** how many of its cases the choice took (a dataset's rows included) */
  cases?: { chosen: number; of: number };
}

/** How a run opens a case file. */
export interface OpenOptions {
  /** names the case file in the records */
  display: string;
  /** where the dataset's bytes come from (by default: its text from `source`, whole, as a git revision gives it) */
  dataset?: DatasetOpener;
  /** the MCP servers the workspace names (a case file's `mcp` answers must name one) */
  mcpServers?: readonly string[];
  /** which cases run (`--filter`, `--sample`, `--shard`…; a grid's Run Sample…) */
  choice?: CaseChoice;
  /**
   * each chosen case handed on as it is read (a sample's once every case has been), none kept: a run of any size
   * (`test --batch`) streams its cases; `loaded` then keeps the file's listed cases
   */
  onChosen?: (c: SuiteCase, loaded: LoadedCaseFile) => void;
}

const isError = (r: CheckRecord) => r.severity === 'error';

/**
 * Reads the case file `abs` from `source`, with its request, judge prompt and fixtures, then its dataset's rows
 * (its listed cases and the rows `choice` chooses become the file's cases), all checked; a case file with errors of
 * its own is read no further (`check` reports the rest). Nothing is usable when any record is an error: nothing with
 * errors is sent.
 */
export async function openCaseFile(
  abs: string,
  cwd: string,
  source: FileSource,
  o: OpenOptions,
): Promise<OpenedCaseFile> {
  const { loaded, records } = loadCaseFileFrom(abs, cwd, source, o.display, {
    ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
    ownErrorsFirst: true,
  });
  if (!loaded || records.some(isError)) return { records };
  let chosenCount = 0;
  const onChosen =
    o.onChosen &&
    ((c: SuiteCase) => {
      chosenCount++;
      o.onChosen!(c, loaded);
    });
  const suite = await loadSuite(loaded, cwd, o.dataset ?? datasetFrom(source), {
    keep: !onChosen,
    ...(o.choice ? { choice: o.choice } : {}),
    ...(onChosen ? { onChosen } : {}),
  });
  records.push(...suite.records);
  if (!suite.scan || records.some(isError)) return { records };
  const chosen = onChosen ? chosenCount : suite.scan.chosen.length;
  return { loaded, records, cases: { chosen, of: suite.scan.total } };
}

/** A dataset read whole from a source of texts (a git revision holds it as one). */
function datasetFrom(source: FileSource): DatasetOpener {
  return abs => {
    const read = source(abs, abs);
    return read && 'text' in read ? [read.text] : undefined;
  };
}

/** A cell filled: ready for the engine, or why it cannot be sent. */
export type FilledCell = CellKey & ({ cell: RunCell; problems?: undefined } | { cell?: undefined; problems: string[] });

/** How each cell is filled and checked. */
export interface FillOptions {
  betas: string[];
  /** what the body is checked for (count_tokens takes less than messages) */
  endpoint?: Endpoint;
  /** the run's samples (`--repeat`, `--min-pass`) over the file's */
  sampling?: Sampling;
}

/** Each cell `keys` names, filled with its case's values and checked (prepareCell), then made a cell of the engine. */
export function filledCells(loaded: LoadedCaseFile, keys: readonly CellKey[], o: FillOptions): FilledCell[] {
  return keys.map((key): FilledCell => {
    const prepared = prepareCell(loaded.file, loaded.requestValue, key, {
      betas: o.betas,
      ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    });
    if (!('body' in prepared)) return { ...key, problems: prepared.problems };
    return { ...key, cell: runCellOf(loaded, { ...key, body: prepared.body }, o.sampling) };
  });
}

/** What says that a case file names no model: neither the case file's `models` nor the request's `model`. */
export const NO_MODEL = 'no model: the request has no "model", the case file no "models"';

/**
 * A version of a case file as one side of a comparison: its cells (the run's `models` over its own), each ready or
 * why not; or, when the version cannot run at all, its problems (its errors, or that it names no model).
 */
export function versionCells(
  opened: OpenedCaseFile,
  o: FillOptions & { models?: string[] },
): { cells: FilledCell[]; problems?: undefined } | { cells?: undefined; problems: string[] } {
  const errors = opened.records.filter(isError);
  if (!opened.loaded || errors.length) return { problems: errors.map(recordText) };
  const keys = cellsOf(opened.loaded.file, opened.loaded.requestModel, o.models);
  if (!keys.length) return { problems: [NO_MODEL] };
  return { cells: filledCells(opened.loaded, keys, o) };
}

/**
 * The case files whose rubrics no judge model grades: a cell with a rubric assertion whose case file names no
 * `judge.model`, when the run has no default judge model (the CLI's PROMPTWRIGHT_JUDGE_MODEL, the editor's
 * promptwright.cases.judgeModel). Said before anything is sent.
 */
export function rubricsWithoutJudge<C extends Pick<RunCell, 'judge' | 'assertions'>>(
  cells: readonly C[],
  defaultModel: string | undefined,
): C[] {
  if (defaultModel) return [];
  return cells.filter(c => !c.judge?.model && c.assertions.some(a => 'rubric' in a));
}

/**
 * A batch's requests: each cell's samples (sampleJobs) with the case file `fileOf` names and their custom_ids, made
 * from the requests (customIds), or the ones a batch holds (`given`, by `cell:sample`, when collecting it: a job it
 * does not hold is left out). `idOf` finds a job's custom_id.
 */
export function batchJobsOf<C extends RunCell>(
  cells: readonly C[],
  fileOf: (c: C) => string,
  given?: ReadonlyMap<string, string>,
): { jobs: BatchJob[]; idOf: (job: Pick<SampleJob, 'cell' | 'sample'>) => string | undefined } {
  const samples = sampleJobs(cells);
  const refs = samples.map(j => {
    const c = cells[j.cell]!;
    return { file: fileOf(c), caseName: c.caseName, model: c.model, sample: j.sample, cell: j.cell };
  });
  const made = given ? undefined : customIds(samples.map((j, i) => ({ ...refs[i]!, body: j.body })));
  const ids = new Map(
    samples.map((j, i) => [`${j.cell}:${j.sample}`, made ? made[i] : given!.get(`${j.cell}:${j.sample}`)]),
  );
  const jobs = samples.flatMap((j, i) => {
    const customId = ids.get(`${j.cell}:${j.sample}`);
    return customId ? [{ customId, ref: refs[i]!, params: j.body }] : [];
  });
  return { jobs, idOf: job => ids.get(`${job.cell}:${job.sample}`) };
}

/** How a front end's run reaches the service: its client, its calls' hooks, its tools' live answers, its judge. */
export interface RunServices<C extends RunCell> {
  /** the client (the editor's is asked for each call: one per settings, its connections kept) */
  client: () => ApiClient | Promise<ApiClient>;
  /** cells in flight at once */
  concurrency: number;
  /** a call's own hooks: the run's pacer, a retry's wait shown on the cell it holds up */
  hooks?: (cell: C) => CallHooks;
  /** the live answers of a loop cell's tools (MCP servers, simulate); by default none */
  live?: (cell: C) => LiveBackends;
  /** the judge model when a case file names none, the verdicts kept, `--no-cache` */
  judge: Omit<Judging, 'call'> & { cache?: VerdictCache };
}

/**
 * The engine's transport and judging for a direct run: each sample streamed through the client, at most
 * `concurrency` at once, a loop cell's turns one after another with its calls answered (core/cases/loops.ts), the
 * judge's requests through the same client (key, address, retry rules, cancel).
 */
export function directRun<C extends RunCell>(
  cells: readonly C[],
  s: RunServices<C>,
): { transport: Transport; judging: Judging } {
  const send = withToolLoops(
    cells,
    async (job, signal, onEvent) => {
      const hooks = s.hooks?.(cells[job.cell]!);
      return runCell(await s.client(), job.body, { signal, onEvent, ...(hooks ? { hooks } : {}) });
    },
    s.live && (cell => s.live!(cell as C)),
  );
  return {
    transport: directTransport({ concurrency: s.concurrency, send }),
    judging: { call: async (body, signal) => (await s.client()).createMessage(body, { signal }), ...s.judge },
  };
}
