// A case file and the request file it names, read from a source (the files on disk, the editor's unsaved text, a
// git revision for `test --base` and the Cases grid's "Compare with…") and checked against each other: every
// problem as a `file:line:col` record. The request is resolved in the same source as the case file, so a
// case file at a revision runs on the request of its own time; a path out of the case file's repository is
// refused before anything is read (paths.ts looks at the disk for `.git` and links; `readText` reads a file on
// disk for the sources that take it from there). Nothing here talks to the service.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeUtf8 } from '../files';
import { formatOf } from '../fileNames';
import { parseRequest, type Locate } from '../request/parse';
import type { Path } from '../request/types';
import { toRecords, type CheckRecord } from '../request/records';
import { LineIndex } from '../text';
import { datasetFormatOf, datasetNotFound, parseCaseFile, requestNotFound, requestPathOf } from './caseFile';
import type { CaseChoice } from './choose';
import { crossCheck } from './crossCheck';
import { judgePromptCheck } from './judge';
import { caseFileRoot, outsideRepository } from './paths';
import { placeholderNames } from './placeholders';
import { scanSuite, unassertedRows, type SuiteCase, type SuiteScan, type SuiteSource } from './suite';
import { toolsCheck } from './toolsCheck';
import type { CaseFile } from './types';
import type { ToolsSpec } from '../tools/answers';
import { fixturesPathOf, parseFixtures } from '../tools/fixtures';

/**
 * Where files are read from: the working copy, or a git revision. Undefined when there is no such file, a
 * record when it cannot be read.
 */
export type FileSource = (abs: string, display: string) => { text: string } | { record: CheckRecord } | undefined;

export interface LoadedCaseFile {
  /** as the caller shows it (the CLI: relative to the working directory) */
  display: string;
  file: CaseFile;
  /** the request's value (what the cases fill in), and its own model */
  requestValue: unknown;
  requestModel: string | undefined;
  /** the text of the judge prompt `judge.prompt` names (read from the same source) */
  judgePrompt?: string;
  /** the answers recorded beside it (NAME.fixtures.yaml), for a case file with tool-use loops */
  recorded?: ToolsSpec;
  /** the case file's text and where its parts are (a dataset's problems point at its `dataset`) */
  text: string;
  locate: Locate;
  /** `locate` for many paths at once (every listed case's place: one walk, not one a case) */
  locateMany: (paths: readonly Path[]) => Locate;
  /** where the case file is (its dataset is relative to it) */
  abs: string;
}

/** A problem with a whole file, at its first character. */
export function fileRecord(file: string, code: string, message: string): CheckRecord {
  return { file, line: 1, column: 1, endLine: 1, endColumn: 2, severity: 'error', code, message, path: '' };
}

/** A file's text, or a record saying why it cannot be read. */
export function readText(file: string, display: string): { text: string } | { record: CheckRecord } {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    return { record: fileRecord(display, 'internal-error', `Cannot read this file (${(e as Error).message}).`) };
  }
  const decoded = decodeUtf8(bytes);
  if ('invalidAt' in decoded)
    return { record: fileRecord(display, 'invalid-utf8', `Invalid UTF-8 at byte ${decoded.invalidAt}.`) };
  return { text: decoded.text };
}

/**
 * Reads the case file `abs` and the request file it names from `source` and checks both (the request as the
 * cases fill it is checked per cell, by prepareCell). `loaded` is undefined when the case file cannot be used
 * at all. `display` names the case file in the records; the request is named relative to `cwd`.
 */
export function loadCaseFileFrom(
  abs: string,
  cwd: string,
  source: FileSource,
  display: string,
  o: { mcpServers?: readonly string[]; ownErrorsFirst?: boolean } = {},
): { loaded?: LoadedCaseFile; records: CheckRecord[] } {
  const read = source(abs, display) ?? { record: fileRecord(display, 'internal-error', 'There is no such file.') };
  if ('record' in read) return { records: [read.record] };
  const parsed = parseCaseFile(read.text, formatOf(abs));
  const records = toRecords(read.text, parsed.problems, display);
  const file = parsed.file;
  // a run reads no further than a case file's own errors (`check` reports everything): what its request is checked
  // against would not be what its author means (two cases of one name, a misspelt key)
  if (!file || (o.ownErrorsFirst && records.some(r => r.severity === 'error'))) return { records };
  const root = caseFileRoot(abs);
  const outside = outsideRepository(abs, 'request', file.request, parsed.locate, root);
  if (outside) {
    records.push(...toRecords(read.text, [outside], display));
    return { records };
  }
  const requestAbs = requestPathOf(abs, file);
  const requestDisplay = path.relative(cwd, requestAbs) || requestAbs;
  const request = source(requestAbs, requestDisplay);
  if (!request) {
    records.push(...toRecords(read.text, [requestNotFound(parsed.locate, file.request)], display));
    return { records };
  }
  if ('record' in request) return { records: [...records, request.record] };
  const format = formatOf(requestAbs);
  const requestParsed = parseRequest(request.text, format);
  // the request's syntax errors: its other problems depend on the values and model of each cell
  records.push(...toRecords(request.text, requestParsed.problems, requestDisplay));
  const cross = crossCheck(file, parsed.locateMany, request.text, format, requestParsed);
  records.push(...toRecords(read.text, cross.caseProblems, display));
  records.push(...toRecords(request.text, cross.requestProblems, requestDisplay));
  // the judge prompt of one's own: it must be readable, and use the judge's placeholders only
  let judgePrompt: string | undefined;
  const promptOutside =
    file.judge?.prompt && outsideRepository(abs, 'judge.prompt', file.judge.prompt, parsed.locate, root);
  if (promptOutside) records.push(...toRecords(read.text, [promptOutside], display));
  else if (file.judge?.prompt) {
    const promptAbs = path.resolve(path.dirname(abs), file.judge.prompt);
    const prompt = source(promptAbs, path.relative(cwd, promptAbs) || promptAbs);
    judgePrompt = prompt && 'text' in prompt ? prompt.text : undefined;
    records.push(...toRecords(read.text, judgePromptCheck(file, parsed.locate, judgePrompt), display));
  }
  const value = requestParsed.value;
  // tool-use loops: the tools they answer, the servers they name, and the answers recorded beside them
  let recorded: ToolsSpec | undefined;
  if (file.tools || file.cases.some(c => c.tools)) {
    const hasErrors = requestParsed.problems.some(p => p.severity === 'error');
    const problems = toolsCheck(file, parsed.locate, hasErrors ? undefined : value, o.mcpServers ?? []);
    records.push(...toRecords(read.text, problems, display));
    const fixturesAbs = fixturesPathOf(abs);
    const fixtures = source(fixturesAbs, path.relative(cwd, fixturesAbs) || fixturesAbs);
    if (fixtures && 'record' in fixtures) records.push(fixtures.record);
    else if (fixtures) {
      const read = parseFixtures(fixtures.text, path.relative(cwd, fixturesAbs) || fixturesAbs);
      records.push(...read.records);
      recorded = read.tools;
    }
  }
  const model = value && typeof value === 'object' ? (value as { model?: unknown }).model : undefined;
  const loaded: LoadedCaseFile = {
    display,
    abs,
    text: read.text,
    locate: parsed.locate,
    locateMany: parsed.locateMany,
    file,
    requestValue: value,
    requestModel: typeof model === 'string' ? model : undefined,
    ...(judgePrompt !== undefined ? { judgePrompt } : {}),
    ...(recorded ? { recorded } : {}),
  };
  return { loaded, records };
}

/** Where a dataset's bytes come from: undefined when there is no such file. */
export type DatasetOpener = (abs: string) => SuiteSource['chunks'] | undefined;

/** A dataset's path, from the case file's folder. */
function datasetPathOf(caseFileAbs: string, dataset: string): string {
  return path.resolve(path.dirname(caseFileAbs), dataset);
}

/**
 * Every case of a loaded case file: the listed ones, then its dataset's rows, read once from `open` and checked
 * (problems as records of the dataset, named relative to `cwd`). With `keep`, `scan.chosen` holds the cases
 * `choice` chooses, and they become the file's cases. `scan` is undefined when the dataset cannot be read.
 */
export async function loadSuite(
  loaded: LoadedCaseFile,
  cwd: string,
  open: DatasetOpener,
  o: { choice?: CaseChoice; keep?: boolean; onChosen?: (c: SuiteCase) => void } = {},
): Promise<{ scan?: SuiteScan; records: CheckRecord[] }> {
  const { file } = loaded;
  const lines = new LineIndex(loaded.text);
  const at = loaded.locateMany(file.cases.map((_, i) => ['cases', i]));
  const listed = file.cases.map((c, i) => {
    const span = at(['cases', i]);
    return { ...c, line: span ? lines.position(span.start).line + 1 : 1 };
  });
  const records: CheckRecord[] = [];
  let dataset: SuiteSource | undefined;
  let display = '';
  if (file.dataset) {
    const outside = outsideRepository(loaded.abs, 'dataset', file.dataset, loaded.locate);
    if (outside) return { records: toRecords(loaded.text, [outside], loaded.display) };
    const abs = datasetPathOf(loaded.abs, file.dataset);
    display = path.relative(cwd, abs) || abs;
    const chunks = open(abs);
    if (!chunks)
      return { records: toRecords(loaded.text, [datasetNotFound(loaded.locate, file.dataset)], loaded.display) };
    dataset = { chunks, format: datasetFormatOf(file.dataset)! };
  }
  const placeholders = loaded.requestValue === undefined ? undefined : placeholderNames(loaded.requestValue);
  const scan = await scanSuite({
    listed,
    ...(dataset ? { dataset } : {}),
    ...(placeholders ? { placeholders } : {}),
    ...(o.choice ? { choice: o.choice } : {}),
    keep: !!o.keep,
    ...(o.onChosen ? { onChosen: o.onChosen } : {}),
  });
  for (const p of scan.problems)
    records.push({
      file: display,
      line: p.line,
      column: p.column,
      endLine: p.line,
      endColumn: p.endColumn ?? p.column + 1,
      severity: p.severity,
      code: p.code,
      message: p.message,
      path: '',
    });
  const unasserted = unassertedRows(file, scan, loaded.locate);
  if (unasserted) records.unshift(...toRecords(loaded.text, [unasserted], loaded.display));
  if (o.keep) loaded.file = { ...file, cases: scan.chosen };
  return { scan, records };
}

export type { SuiteCase };
