// Reading case files for `promptwright test` and `count`: the case file checked, the request file it names
// read, both checked against each other (core/cases/load.ts); every problem as a `file:line:col` record, so a
// CI log points at the line to fix. Nothing here talks to the service.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { isCaseFile } from '../core/fileNames';
import type { CaseChoice } from '../core/cases/choose';
import {
  loadCaseFileFrom,
  readText,
  type DatasetOpener,
  type FileSource,
  type LoadedCaseFile,
} from '../core/cases/load';
import type { RunCell } from '../core/cases/engine';
import type { Sampling } from '../core/cases/runner';
import { filledCells, NO_MODEL, openCaseFile, type OpenedCaseFile, type OpenOptions } from '../core/cases/session';
import type { CellKey } from '../core/cases/types';
import type { Endpoint } from '../core/request/validate';
import { UsageError } from './args';
import { recordText, type CheckRecord } from '../core/request/records';
import { expandFiles } from './files';
import { findMcpJson, parseMcpJson } from '../core/tools/mcpConfig';
import type { CliIo } from './io';

/**
 * The files a command was given: paths and globs; a folder stands for the files under it that match
 * `folderGlob`. A file that does not exist, or a glob that matches nothing, is a usage error.
 */
export function filesOf(args: readonly string[], cwd: string, folderGlob: string): string[] {
  if (!args.length) throw new UsageError('expected at least one FILE');
  const targets = args.map(a => {
    const abs = path.resolve(cwd, a);
    return fs.existsSync(abs) && fs.statSync(abs).isDirectory() ? `${a.replace(/[\\/]+$/, '')}/${folderGlob}` : a;
  });
  const { files, unmatched } = expandFiles(targets, cwd);
  if (unmatched.length) throw new UsageError(`no file matches ${unmatched.join(', ')}`);
  return files;
}

export { readText } from '../core/cases/load';

export type { FileSource, LoadedCaseFile } from '../core/cases/load';

/**
 * A dataset on disk, read 64 KB at a time (never whole). Reading one makes short-lived objects by the million, and
 * V8 would let its heap grow to hold them before collecting: in this process only (never the editor's), the young
 * generation keeps its size and the heap is sized for memory rather than speed. `check` of a million rows then
 * peaks at about 100 MB instead of 150 MB, at the same speed.
 */
export const datasetOnDisk: DatasetOpener = abs => {
  if (!fs.existsSync(abs) || !fs.statSync(abs).isFile()) return undefined;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  v8.setFlagsFromString('--optimize-for-size');
  return fs.createReadStream(abs, { highWaterMark: 65_536 });
};

/** The files on disk. */
const workingCopy: FileSource = (abs, display) =>
  fs.existsSync(abs) && fs.statSync(abs).isFile() ? readText(abs, display) : undefined;

/** Where `loadCaseFile` and `openSuiteFile` read: `o.source` (by default the files on disk), named `o.display`. */
function sourceOf(abs: string, cwd: string, o: { source?: FileSource; display?: string }) {
  const display = o.display ?? (path.relative(cwd, abs) || abs);
  if (!isCaseFile(abs)) {
    throw new UsageError(`${display} is not a case file (*.cases.yaml, *.cases.yml or *.cases.json)`);
  }
  // on disk, a case file that cannot be read says why (its request file, missing, is a problem of its own)
  const source = o.source ?? ((p: string, d: string) => (p === abs ? readText(p, d) : workingCopy(p, d)));
  return { display, source, mcpServers: workspaceServerNames(path.dirname(abs)) };
}

/**
 * Reads a case file and its request file and checks both (core/cases/load.ts). `loaded` is undefined when
 * the case file cannot be used at all. `source` says where both are read (by default the files on disk);
 * `display` names the case file in what is printed (by default its path relative to the working directory).
 */
export function loadCaseFile(
  abs: string,
  cwd: string,
  o: { source?: FileSource; display?: string } = {},
): { loaded?: LoadedCaseFile; records: CheckRecord[] } {
  const { display, source, mcpServers } = sourceOf(abs, cwd, o);
  return loadCaseFileFrom(abs, cwd, source, display, { mcpServers });
}

/**
 * A case file as a run opens it (core/cases/session.ts): with its dataset's rows (on disk, read 64 KB at a time;
 * from `o.source` when it is a git revision), of them the cases `choice` chooses.
 */
export function openSuiteFile(
  abs: string,
  cwd: string,
  o: { source?: FileSource; display?: string } & Pick<OpenOptions, 'choice' | 'onChosen'>,
): Promise<OpenedCaseFile> {
  const { display, source, mcpServers } = sourceOf(abs, cwd, o);
  return openCaseFile(abs, cwd, source, {
    display,
    mcpServers,
    ...(o.source ? {} : { dataset: datasetOnDisk }),
    ...(o.choice ? { choice: o.choice } : {}),
    ...(o.onChosen ? { onChosen: o.onChosen } : {}),
  });
}

/** The servers the `.vscode/mcp.json` governing a folder names (none when there is no such file). */
function workspaceServerNames(folder: string): string[] {
  const file = findMcpJson(folder);
  if (!file) return [];
  try {
    return Object.keys(parseMcpJson(fs.readFileSync(file, 'utf8'), file).servers);
  } catch {
    return [];
  }
}

/** Records as `check` prints them: `file:line:col: severity rule: message`. */
export function recordLine(r: CheckRecord): string {
  return `${recordText(r)}\n`;
}

/**
 * The problems of cells that cannot be sent, each said once with the cells it affects (a request error
 * affects every cell alike): `file: problem (case "a" on m1, case "b" on m1 and 4 more)`.
 */
export function cellProblemLines(display: string, problems: { cell: string; problem: string }[]): string[] {
  const byProblem = new Map<string, string[]>();
  for (const { cell, problem } of problems) {
    const cells = byProblem.get(problem);
    if (cells) cells.push(cell);
    else byProblem.set(problem, [cell]);
  }
  return [...byProblem].map(([problem, cells]) => {
    const shown = cells.slice(0, 3).join(', ');
    const more = cells.length > 3 ? ` and ${cells.length - 3} more` : '';
    return `${display}: error: ${problem} (${shown}${more})\n`;
  });
}

/** What `prepareCaseFile` is told: how cells are named and made, where files are read. */
interface PrepareOptions {
  keysOf: (loaded: LoadedCaseFile) => CellKey[];
  cellName: (key: CellKey) => string;
  betas: string[];
  endpoint?: Endpoint;
  /** the run's samples over each file's (`--repeat`, `--min-pass`) */
  sampling?: Sampling;
  /** where the files are read (loadCaseFile) */
  source?: FileSource;
  display?: string;
}

type Prepared = { loaded?: LoadedCaseFile; cells: RunCell[]; errors: number };

/**
 * A case file made ready to send, for `count`: read and checked with its request (problems on stderr), then each
 * cell `keysOf` names filled in and checked for `endpoint`. A problem several cells share is one line naming them,
 * and one error. `errors` counts what stops the file; nothing is sent when it is not 0. Its listed cases only:
 * `prepareSuiteFile` reads its dataset too.
 */
export function prepareCaseFile(abs: string, cwd: string, io: CliIo, o: PrepareOptions): Prepared {
  const { loaded, records } = loadCaseFile(abs, cwd, o);
  return preparedCells({ ...(loaded ? { loaded } : {}), records }, io, o);
}

/**
 * `prepareCaseFile` for a run: the listed cases and the dataset's rows, read once and checked (core/cases/session.ts),
 * and of them the cases `choice` chooses; `cases` says how many of how many.
 */
export async function prepareSuiteFile(
  abs: string,
  cwd: string,
  io: CliIo,
  o: PrepareOptions & { choice?: CaseChoice },
): Promise<Prepared & { cases?: { chosen: number; of: number } }> {
  const opened = await openSuiteFile(abs, cwd, o);
  return { ...preparedCells(opened, io, o), ...(opened.cases ? { cases: opened.cases } : {}) };
}

function preparedCells(opened: Omit<OpenedCaseFile, 'cases'>, io: CliIo, o: PrepareOptions): Prepared {
  const { loaded, records } = opened;
  for (const r of records) io.stderr.write(recordLine(r));
  const errors = records.filter(r => r.severity === 'error').length;
  if (!loaded || errors) return { cells: [], errors: Math.max(1, errors) };
  const keys = o.keysOf(loaded);
  if (!keys.length && loaded.file.cases.length) {
    io.stderr.write(`${loaded.display}: error: ${NO_MODEL}\n`);
    return { loaded, cells: [], errors: 1 };
  }
  const cells: RunCell[] = [];
  const problems: { cell: string; problem: string }[] = [];
  for (const c of filledCells(loaded, keys, o))
    if (c.cell) cells.push(c.cell);
    else for (const problem of c.problems) problems.push({ cell: o.cellName(c), problem });
  const lines = cellProblemLines(loaded.display, problems);
  for (const line of lines) io.stderr.write(line);
  return { loaded, cells, errors: lines.length };
}
