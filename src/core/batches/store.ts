// What outlives the process that submitted a batch: its id, which cell × sample each custom_id stands for,
// and the run it belongs to, on disk, so that running the same command again resumes it (no second
// submission) and `batch list|status|collect` know it. One folder (the CLI's is PROMPTWRIGHT_CACHE_DIR/batches,
// beside the judges' verdicts in PROMPTWRIGHT_CACHE_DIR/verdicts; the editor's is in its global storage):
//
//   <dir>/<batch id>.json          a batch: when, which files, its last known status, collected or not
//   <dir>/<batch id>.cells.json    its cell map: custom_id → case file, case, model, sample (and its cell below)
//   <dir>/<batch id>.sent.json     the cells it sent as they were: each one's request, assertions, samples, judge
//   <dir>/runs/<run key>.json      a run: its batches, and how to run it again (files, models, samples)
//   <dir>/rounds/<suite key>.json  a suite of tool-use loops sent a round at a time (core/cases/batchRounds.ts): each
//                                  loop's turns so far, until the suite's last round is collected
//
// `batch collect ID` reads a batch back from its own files: its results are matched by its own custom_ids and
// judged by the assertions it was sent with, whatever the case files say now or whichever run came since.
//
// A run's key is a hash of its requests' custom_ids: the same suite unchanged has the same key. Files are
// written whole, then renamed into place, so a process stopped mid-write leaves the previous version.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { BatchRequestCounts, MessageBatch } from '../api/batches';

/** The version of every file kept here. */
export const VERSION = 1;

/** Which cell × sample a request stands for. */
export interface CellRef {
  /** the case file as shown (relative to the run's folder) */
  file: string;
  caseName: string;
  model: string;
  sample: number;
  /** its cell's place in the batch's sent cells (`<id>.sent.json`) */
  cell?: number;
}

/**
 * A cell as a batch sent it: what `batch collect` judges its results by. `A` is an assertion as the case engine
 * has it (core/cases/types.ts), which the store keeps as it was given.
 */
export interface SentCell<A = unknown> {
  file: string;
  caseName: string;
  model: string;
  /** the request each of its samples sent */
  body: Record<string, unknown>;
  assertions: readonly A[];
  repeat: number;
  minPass: number;
  judge?: { model?: string; prompt?: string };
  /** the case's stable id (`case_id`), for its records when the batch is collected */
  caseId?: string;
}

/** A batch as kept: enough to list it and to know what it was, without its cell map. */
export interface BatchRecord {
  version: number;
  id: string;
  run: string;
  /** the folder the run was started in (case files are relative to it) */
  cwd: string;
  files: string[];
  requests: number;
  createdAt: string;
  expiresAt: string;
  /** what the service last said */
  processingStatus: string;
  requestCounts?: BatchRequestCounts;
  endedAt?: string | null;
  /** when its results were read and its cells' verdicts given */
  collectedAt?: string;
}

/** How a run is run again: what the command line said of its cells. */
export interface RunArgs {
  models?: string[];
  repeat?: number;
  minPass?: number;
}

/** The round of a suite of tool-use loops a run is (core/cases/batchRounds.ts): the suite's key, and which round. */
export interface RoundOf {
  suite: string;
  round: number;
}

export interface RunRecord {
  version: number;
  key: string;
  cwd: string;
  files: string[];
  args: RunArgs;
  /** a round of a suite of tool-use loops: resumed by running the suite again, not collected alone */
  rounds?: RoundOf;
  createdAt: string;
  batchIds: string[];
  /** every batch of it ended and its results were collected: running it again submits anew */
  collectedAt?: string;
}

/** The key of a run: a hash of its requests' custom_ids (in any order). */
export function runKeyOf(customIds: readonly string[]): string {
  const h = crypto.createHash('sha256');
  for (const id of [...customIds].sort()) h.update(`${id}\n`);
  return h.digest('hex').slice(0, 24);
}

/** A batch's record from what the service said of it. */
export function recordOf(
  batch: MessageBatch,
  run: { key: string; cwd: string; files: string[] },
  requests: number,
): BatchRecord {
  return {
    version: VERSION,
    id: batch.id,
    run: run.key,
    cwd: run.cwd,
    files: run.files,
    requests,
    createdAt: batch.created_at,
    expiresAt: batch.expires_at,
    processingStatus: batch.processing_status,
    requestCounts: batch.request_counts,
    endedAt: batch.ended_at,
  };
}

const SAFE = /^[A-Za-z0-9_-]{1,128}$/;

export class BatchStore {
  constructor(readonly dir: string) {}

  private batchFile(id: string, tail = ''): string {
    if (!SAFE.test(id)) throw new RangeError(`not a batch id: ${JSON.stringify(id)}`);
    return path.join(this.dir, `${id}${tail}.json`);
  }

  private runFile(key: string): string {
    if (!SAFE.test(key)) throw new RangeError(`not a run key: ${JSON.stringify(key)}`);
    return path.join(this.dir, 'runs', `${key}.json`);
  }

  async batch(id: string): Promise<BatchRecord | undefined> {
    const r = await readJson<BatchRecord>(this.batchFile(id));
    return r && r.version === VERSION && r.id === id ? r : undefined;
  }

  /** A batch's cell map (custom_id → cell × sample). */
  async cells(id: string): Promise<Record<string, CellRef> | undefined> {
    return readJson<Record<string, CellRef>>(this.batchFile(id, '.cells'));
  }

  /** The cells a batch sent, as they were (none for a batch kept before they were). */
  async sent<A>(id: string): Promise<SentCell<A>[] | undefined> {
    const kept = await readJson<{ version: number; cells: SentCell<A>[] }>(this.batchFile(id, '.sent'));
    return kept?.version === VERSION && Array.isArray(kept.cells) ? kept.cells : undefined;
  }

  /**
   * Keeps a new batch: its cell map and the cells it sent first, so a record never names a map that is not there.
   */
  async addBatch(record: BatchRecord, cells: Record<string, CellRef>, sent?: readonly SentCell[]): Promise<void> {
    await writeJson(this.batchFile(record.id, '.cells'), cells);
    if (sent) await writeJson(this.batchFile(record.id, '.sent'), { version: VERSION, cells: sent });
    await writeJson(this.batchFile(record.id), record);
  }

  /**
   * `addBatch` for a batch too large to hold at once (cli/testBatchSpool.ts): `write` writes its cell map and
   * its sent cells to these files (whole, then renamed into place), as `addBatch` would.
   */
  async addBatchWith(record: BatchRecord, write: (cells: string, sent: string) => Promise<void>): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    await write(this.batchFile(record.id, '.cells'), this.batchFile(record.id, '.sent'));
    await writeJson(this.batchFile(record.id), record);
  }

  /** Keeps what the service last said of a batch (a record this store does not have is left alone). */
  async updateBatch(batch: MessageBatch): Promise<BatchRecord | undefined> {
    const r = await this.batch(batch.id);
    if (!r) return undefined;
    const next: BatchRecord = {
      ...r,
      processingStatus: batch.processing_status,
      requestCounts: batch.request_counts,
      endedAt: batch.ended_at,
      expiresAt: batch.expires_at,
    };
    await writeJson(this.batchFile(batch.id), next);
    return next;
  }

  async markCollected(ids: readonly string[], at = new Date()): Promise<void> {
    for (const id of ids) {
      const r = await this.batch(id);
      if (r && !r.collectedAt) await writeJson(this.batchFile(id), { ...r, collectedAt: at.toISOString() });
    }
  }

  /** Every batch kept here, newest first. */
  async batches(): Promise<BatchRecord[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return [];
    }
    const ids = names
      .filter(n => n.endsWith('.json') && !n.endsWith('.cells.json') && !n.endsWith('.sent.json'))
      .map(n => n.slice(0, -5));
    const records = await Promise.all(ids.filter(id => SAFE.test(id)).map(id => this.batch(id)));
    return records
      .filter((r): r is BatchRecord => !!r)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  }

  /** Forgets a batch: its record, its cell map and the cells it sent. */
  async forget(id: string): Promise<void> {
    for (const tail of ['.cells', '.sent', '']) await fs.rm(this.batchFile(id, tail), { force: true });
  }

  /** Every run kept here. */
  async runs(): Promise<RunRecord[]> {
    let names: string[];
    try {
      names = await fs.readdir(path.join(this.dir, 'runs'));
    } catch {
      return [];
    }
    const keys = names.filter(n => n.endsWith('.json')).map(n => n.slice(0, -5));
    const runs = await Promise.all(keys.filter(k => SAFE.test(k)).map(k => this.run(k)));
    return runs.filter((r): r is RunRecord => !!r);
  }

  /** Forgets a run (its batches are kept apart). */
  async forgetRun(key: string): Promise<void> {
    await fs.rm(this.runFile(key), { force: true });
  }

  async run(key: string): Promise<RunRecord | undefined> {
    const r = await readJson<RunRecord>(this.runFile(key));
    return r && r.version === VERSION && r.key === key ? r : undefined;
  }

  async saveRun(run: RunRecord): Promise<void> {
    await writeJson(this.runFile(run.key), run);
  }

  /** A new run record (not yet saved). */
  static newRun(
    key: string,
    o: { cwd: string; files: string[]; args: RunArgs; rounds?: RoundOf },
    at = new Date(),
  ): RunRecord {
    return {
      version: VERSION,
      key,
      cwd: o.cwd,
      files: o.files,
      args: o.args,
      ...(o.rounds ? { rounds: o.rounds } : {}),
      createdAt: at.toISOString(),
      batchIds: [],
    };
  }

  private roundsFile(key: string): string {
    if (!SAFE.test(key)) throw new RangeError(`not a suite key: ${JSON.stringify(key)}`);
    return path.join(this.dir, 'rounds', `${key}.json`);
  }

  /** What a suite of tool-use loops has done so far (core/cases/batchRounds.ts), or undefined when nothing is kept. */
  async rounds<T extends { version: number; key: string }>(key: string): Promise<T | undefined> {
    const r = await readJson<T>(this.roundsFile(key));
    return r && r.version === VERSION && r.key === key ? r : undefined;
  }

  async saveRounds(state: { version: number; key: string }): Promise<void> {
    await writeJson(this.roundsFile(state.key), state);
  }

  /** Forgets what a suite of loops did (its last round was collected: running it again starts anew). */
  async forgetRounds(key: string): Promise<void> {
    await fs.rm(this.roundsFile(key), { force: true });
  }
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch {
    return undefined; // not there, or not readable: as if never kept
  }
}

async function writeJson(file: string, value: unknown): Promise<void> {
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  await fs.mkdir(path.dirname(file), { recursive: true });
  try {
    await fs.writeFile(temp, `${JSON.stringify(value)}\n`);
    await fs.rename(temp, file);
  } catch (e) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
}
