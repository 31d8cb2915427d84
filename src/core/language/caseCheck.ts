// A case file checked as the editors show it: its own problems (its shape, vars no placeholder uses,
// placeholders no case defines) and, in the request file it names, the placeholders no case gives a value.
// Each front end says where files are and reads them (an open editor's text wins over the disk's); the checks
// are core/cases'.
import { datasetFormatOf, datasetNotFound, parseCaseFile, requestNotFound } from '../cases/caseFile';
import { crossCheck } from '../cases/crossCheck';
import { judgePromptCheck } from '../cases/judge';
import { caseFileRoot, outsideRepository } from '../cases/paths';
import { placeholderNames } from '../cases/placeholders';
import { scanSuite, unassertedRows, type DatasetProblem, type SuiteSource } from '../cases/suite';
import { toolsCheck } from '../cases/toolsCheck';
import type { CaseFile } from '../cases/types';
import { parseRequest, type Locate } from '../request/parse';
import { parseMcpJson } from '../tools/mcpConfig';
import { formatOf } from '../fileNames';
import type { Problem } from '../request/types';

/** The request file a case file names, as the front end knows files: its key (a URI), and its path. */
export interface RequestTarget<K> {
  key: K;
  /** for its format (`.yaml`, `.json`) */
  path: string;
}

export interface CaseCheck<K> {
  /** undefined when the file does not parse into a case file */
  file: CaseFile | undefined;
  locate: Locate;
  /** problems in the case file */
  caseProblems: Problem[];
  /** the request file it names, when it can be resolved */
  request?: RequestTarget<K>;
  /** the judge prompt file `judge.prompt` names, when it names one and it can be resolved */
  judgePrompt?: RequestTarget<K>;
  /** the request file's text, or undefined when it cannot be read */
  requestText?: string;
  /** the request's own model: what the cases run on when the case file names no `models` */
  requestModel?: string;
  /** problems in the request file: its placeholders some case gives no value */
  requestProblems: Problem[];
  /** the dataset `dataset` names, when it names one and it can be resolved */
  dataset?: RequestTarget<K>;
  /** problems in the dataset, at their line and column (1-based): it may be too large to hold as text */
  datasetProblems: DatasetProblem[];
}

/**
 * Checks a case file's text with the request file it names. `resolve` finds the request (undefined: an untitled
 * case file has no folder to start from), `read` reads it (undefined: it cannot be read). `onDisk`: the case
 * file's path on disk, when it is a file there: a request, judge prompt or dataset out of its repository is then an
 * error, and neither resolved nor read. `openDataset` streams the dataset (none: the dataset is not checked).
 */
export async function checkCaseText<K>(
  text: string,
  fileName: string,
  resolve: (request: string) => RequestTarget<K> | undefined,
  read: (key: K) => Promise<string | undefined> | string | undefined,
  onDisk?: string,
  openDataset?: (key: K) => SuiteSource['chunks'] | undefined,
): Promise<CaseCheck<K>> {
  const parsed = parseCaseFile(text, formatOf(fileName));
  const out: CaseCheck<K> = {
    file: parsed.file,
    locate: parsed.locate,
    caseProblems: [...parsed.problems],
    requestProblems: [],
    datasetProblems: [],
  };
  const file = parsed.file;
  if (!file) return out;
  const root = onDisk === undefined ? undefined : caseFileRoot(onDisk);
  const outside = (key: 'request' | 'judge.prompt' | 'dataset', named: string) =>
    onDisk === undefined ? undefined : outsideRepository(onDisk, key, named, parsed.locate, root);
  // a judge prompt of one's own: inside the repository, readable, with the judge's placeholders only
  const promptOutside = file.judge?.prompt ? outside('judge.prompt', file.judge.prompt) : undefined;
  if (promptOutside) out.caseProblems.push(promptOutside);
  else if (file.judge?.prompt) {
    const prompt = resolve(file.judge.prompt);
    if (prompt) out.judgePrompt = prompt;
    const text = prompt && (await read(prompt.key));
    out.caseProblems.push(...judgePromptCheck(file, parsed.locate, text));
  }
  const requestOutside = outside('request', file.request);
  if (requestOutside) {
    out.caseProblems.push(requestOutside);
    return out;
  }
  const request = resolve(file.request);
  const requestText = request && (await read(request.key));
  if (request) out.request = request;
  if (!request || requestText === undefined) {
    const why = request ? 'no such file' : 'an untitled case file has no folder to start from';
    out.caseProblems.push(requestNotFound(parsed.locate, file.request, why));
    return out;
  }
  out.requestText = requestText;
  const cross = crossCheck(file, parsed.locateMany, requestText, formatOf(request.path));
  if (cross.requestModel) out.requestModel = cross.requestModel;
  out.caseProblems.push(...cross.caseProblems);
  out.requestProblems = cross.requestProblems;
  if (file.tools || file.cases.some(c => c.tools)) {
    const request = parseRequest(requestText, formatOf(requestTarget(out).path));
    const value = request.problems.some(p => p.severity === 'error') ? undefined : request.value;
    const servers = await mcpServerNames(fileName, resolve, read);
    out.caseProblems.push(...toolsCheck(file, parsed.locate, value, servers));
    out.caseProblems.sort((a, b) => a.start - b.start || a.end - b.end);
  }
  if (file.dataset && openDataset) {
    const datasetOutside = outside('dataset', file.dataset);
    if (datasetOutside) out.caseProblems.push(datasetOutside);
    else await checkDataset(out, file, parsed.locate, requestText, request.path, resolve, openDataset);
  }
  return out;
}

const requestTarget = <K>(c: CaseCheck<K>) => c.request!;

/**
 * The servers the workspace's `.vscode/mcp.json` names: the nearest one in the case file's folder or a folder
 * above it, found through the front end's own resolve and read (an open editor's text wins).
 */
async function mcpServerNames<K>(
  fileName: string,
  resolve: (relative: string) => RequestTarget<K> | undefined,
  read: (key: K) => Promise<string | undefined> | string | undefined,
): Promise<string[]> {
  const depth = fileName.split(/[\\/]/).length - 1;
  for (let up = 0; up < depth; up++) {
    const target = resolve(`${'../'.repeat(up)}.vscode/mcp.json`);
    const text = target && (await read(target.key));
    if (text !== undefined && text !== null) return Object.keys(parseMcpJson(text, '').servers);
  }
  return [];
}

/**
 * The dataset a case file names, read (streamed) and checked with the request's placeholders as `promptwright
 * check` checks it: its problems at their lines, or, when it cannot be read, one problem at `dataset`.
 */
async function checkDataset<K>(
  out: CaseCheck<K>,
  file: CaseFile,
  locate: Locate,
  requestText: string,
  requestPath: string,
  resolve: (path: string) => RequestTarget<K> | undefined,
  openDataset: (key: K) => SuiteSource['chunks'] | undefined,
): Promise<void> {
  const target = resolve(file.dataset!);
  const format = datasetFormatOf(file.dataset!);
  if (!target || !format) return;
  out.dataset = target;
  const chunks = openDataset(target.key);
  if (!chunks) {
    out.caseProblems.push(datasetNotFound(locate, file.dataset!));
    return;
  }
  const value = parseRequest(requestText, formatOf(requestPath)).value;
  const scan = await scanSuite({
    listed: [],
    dataset: { chunks, format },
    ...(value !== undefined ? { placeholders: placeholderNames(value) } : {}),
  });
  out.datasetProblems = scan.problems;
  const unasserted = unassertedRows(file, scan, locate);
  if (unasserted) {
    out.caseProblems.push(unasserted);
    out.caseProblems.sort((a, b) => a.start - b.start || a.end - b.end);
  }
}

/**
 * The one problem a file gets when checking it failed in Promptwright's own code: said at its first character,
 * so the file keeps a visible state while the others are checked as usual. `log` says where to read more.
 */
export function couldNotCheck(what: 'file' | 'case file', e: unknown, log: string): Problem {
  const message = e instanceof Error ? e.message : String(e);
  return {
    start: 0,
    end: 1,
    severity: 'warning',
    code: 'internal-error',
    path: [],
    message: `Promptwright could not check this ${what} (${message}); see ${log}.`,
  };
}
