// The last results of each case file, so a grid can show what changed since the last run: which cells are
// new, fixed, broken or the same. The editor keeps them in its workspace storage by default (nothing is
// written into the repository unasked); with `promptwright.cases.resultsInRepository` in
// `.promptwright/results/` under the workspace (one folder to commit, or to gitignore).
import * as crypto from 'node:crypto';
import * as fs from 'node:fs/promises';
import { constants } from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';
import type { CellResult, HumanGrade } from './types';

/** The folder of results files in the repository, relative to the workspace. */
const RESULTS_FOLDER = path.join('.promptwright', 'results');

/**
 * A case file's results file, relative to the folder of results files: `<its path in the workspace>.json`
 * (`examples/support.cases.yaml` → `examples/support.cases.yaml.json`), so two case files of the same name in
 * different folders keep apart. A case file outside the workspace gets its name and a short hash of its full
 * path.
 */
export function resultsName(caseFilePath: string, workspaceRoot: string): string {
  const relative = path.relative(workspaceRoot, path.resolve(workspaceRoot, caseFilePath));
  const inside = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  const hash = () => crypto.createHash('sha256').update(path.resolve(caseFilePath)).digest('hex').slice(0, 8);
  return `${inside ? relative : `${path.basename(caseFilePath)}-${hash()}`}.json`;
}

/** Where a case file's results are kept in the repository: `.promptwright/results/<resultsName>`. */
export function resultsPath(caseFilePath: string, workspaceRoot: string): string {
  return path.join(workspaceRoot, RESULTS_FOLDER, resultsName(caseFilePath, workspaceRoot));
}

/** The folder results and verdicts are kept in, in the repository. */
export function keptFolder(workspaceRoot: string): string {
  return path.join(workspaceRoot, '.promptwright');
}

/**
 * Makes `dir` (`top` or a folder under it) one folder at a time, `top` included, and throws where one of them is a
 * symbolic link or not a folder: a repository can hold `.promptwright/results` as a link to anywhere, and a write
 * through it would land there. What exists is looked at as it is (lstat), never followed.
 */
export async function plainFolders(top: string, dir: string): Promise<void> {
  const rel = path.relative(top, dir);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${dir} is not inside ${top}`);
  let at = top;
  for (const part of ['', ...rel.split(path.sep).filter(Boolean)]) {
    at = path.join(at, part);
    const st = await fs.lstat(at).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (!st) await fs.mkdir(at);
    else if (st.isSymbolicLink()) throw new Error(`${at} is a symbolic link: nothing is written through it`);
    else if (!st.isDirectory()) throw new Error(`${at} is not a folder`);
  }
}

/**
 * Writes a file kept under `top` (`.promptwright/` in the repository): its folders made without following a link
 * (plainFolders), and the file itself opened without following one.
 */
export async function writeKept(top: string, file: string, text: string): Promise<void> {
  await plainFolders(top, path.dirname(file));
  // O_NOFOLLOW: a link in the file's place is an error (ELOOP), not a way out; Windows has no such flag
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);
  const handle = await fs.open(file, flags, 0o644);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/** A person's grade of a reply, kept by the case and the reply's text (a hash of it): a re-run keeps it. */
export interface SavedGrade extends HumanGrade {
  case: string;
  /** SHA-256 of the reply's text */
  text: string;
  /** ISO time it was given */
  at: string;
}

/** What a results file holds. */
export interface SavedResults {
  version: 1;
  /** the case file, as the workspace names it */
  caseFile: string;
  /** ISO time of the run */
  savedAt: string;
  results: CellResult[];
  /** people's grades of replies (the grid's 👍 / 👎) */
  grades?: SavedGrade[];
}

export function serializeResults(
  caseFile: string,
  results: readonly CellResult[],
  savedAt = new Date(),
  grades: readonly SavedGrade[] = [],
): string {
  const saved: SavedResults = {
    version: 1,
    caseFile,
    savedAt: savedAt.toISOString(),
    results: [...results],
    ...(grades.length ? { grades: [...grades] } : {}),
  };
  return `${JSON.stringify(saved, null, 1)}\n`;
}

const textHash = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** The grade given to this reply of this case, if any. */
export function gradeFor(
  grades: readonly SavedGrade[] | undefined,
  caseName: string,
  text: string,
): HumanGrade | undefined {
  if (!grades?.length) return undefined;
  const hash = textHash(text);
  const g = grades.find(x => x.case === caseName && x.text === hash);
  return g ? { grade: g.grade, ...(g.note ? { note: g.note } : {}) } : undefined;
}

/** The grades with this reply's grade set (or removed, `grade` undefined). */
export function withGrade(
  grades: readonly SavedGrade[] | undefined,
  caseName: string,
  text: string,
  grade: HumanGrade | undefined,
  at = new Date(),
): SavedGrade[] {
  const hash = textHash(text);
  const others = (grades ?? []).filter(g => !(g.case === caseName && g.text === hash));
  if (!grade) return others;
  const note = grade.note?.trim();
  return [
    ...others,
    { case: caseName, text: hash, grade: grade.grade, ...(note ? { note } : {}), at: at.toISOString() },
  ];
}

const Saved = z.object({
  version: z.literal(1),
  caseFile: z.string(),
  savedAt: z.string(),
  results: z.array(
    z.object({
      caseName: z.string(),
      model: z.string(),
      status: z.enum(['queued', 'running', 'passed', 'failed', 'error', 'cancelled', 'expired', 'skipped']),
      pass: z.boolean(),
      assertions: z.array(z.object({ type: z.string(), pass: z.boolean(), message: z.string() })),
      outcome: z.object({ text: z.string() }),
    }),
  ),
  grades: z.optional(
    z.array(
      z.object({ case: z.string(), text: z.string(), grade: z.enum(['up', 'down']), note: z.optional(z.string()) }),
    ),
  ),
});

/**
 * A results file read back, or undefined when it is not one (hand-edited, from another version, cut short):
 * a results file is a cache, and a bad one is simply not compared against.
 */
export function parseResults(text: string): SavedResults | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  // the shape is checked; the fields it does not name (usage, the message, …) come back as they were saved
  return Saved.safeParse(raw).success ? (raw as SavedResults) : undefined;
}

export type Change = 'new' | 'fixed' | 'broke' | 'same';

const keyOf = (r: Pick<CellResult, 'caseName' | 'model'>) => `${r.caseName}\u0000${r.model}`;
const finished = (r: CellResult) => r.status === 'passed' || r.status === 'failed' || r.status === 'error';

/**
 * Each finished cell of `next` against the same case × model in `previous`, keyed `${caseName}\u0000${model}`:
 * `new` (not run before, or not finished then), `fixed` (failed, now passes), `broke` (passed, now fails) or
 * `same`. A request that failed counts as a failure. Cells of `next` that did not finish (cancelled,
 * queued, running) have no entry: they say nothing about the prompt.
 */
export function compareResults(
  previous: readonly CellResult[] | undefined,
  next: readonly CellResult[],
): Map<string, Change> {
  const before = new Map<string, CellResult>();
  for (const r of previous ?? []) if (finished(r)) before.set(keyOf(r), r);
  const out = new Map<string, Change>();
  for (const r of next) {
    if (!finished(r)) continue;
    const was = before.get(keyOf(r));
    out.set(keyOf(r), !was ? 'new' : was.pass === r.pass ? 'same' : r.pass ? 'fixed' : 'broke');
  }
  return out;
}

/**
 * The results to keep after a partial run (one cell or one row re-run, or a run cancelled part way): the new
 * finished cells, and the previous result of every cell the new run did not finish. In the order of `next`,
 * then the previous cells it does not have.
 */
export function mergeResults(previous: readonly CellResult[] | undefined, next: readonly CellResult[]): CellResult[] {
  const before = new Map((previous ?? []).map(r => [keyOf(r), r]));
  const out: CellResult[] = [];
  const seen = new Set<string>();
  for (const r of next) {
    const kept = finished(r) ? r : (before.get(keyOf(r)) ?? r);
    out.push(kept);
    seen.add(keyOf(r));
  }
  for (const r of previous ?? []) if (!seen.has(keyOf(r))) out.push(r);
  return out;
}
