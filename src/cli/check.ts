import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../core/api/errors';
import { isCountFileName } from '../core/request/count';
import { requestDiagnostics } from '../core/language/diagnostics';
import type { Endpoint } from '../core/request/validate';
import { count } from '../core/text';
import { isCaseFile } from '../core/fileNames';
import { loadModelsFile } from '../core/models/file';
import type { ModelFacts } from '../core/models/table';
import { loadSuite } from '../core/cases/load';
import { formatOption, one, parseArgs, UsageError, type Command, type Parsed } from './args';
import { datasetOnDisk, loadCaseFile } from './caseFiles';
import { EXIT } from './guard';
import { decodeUtf8 } from '../core/files';
import { expandFiles } from './files';
import { betasFromEnv, type CliIo } from './io';
import { printJsonArray } from './output';
import { lineColumn, toRecords, type CheckRecord } from '../core/request/records';

const ENDPOINTS: readonly Endpoint[] = ['messages', 'count_tokens'];

/** How every file is checked: the configured betas, the endpoint asked for, a saved model catalog. */
interface CheckOptions {
  betas: string[];
  endpoint?: Endpoint;
  models?: ModelFacts;
}

/**
 * A request file's problems; a case file's own (its shape, and against the request it names: placeholders
 * without a value, vars nothing uses, the request's syntax), as the editor shows them. A request file is
 * checked for `endpoint`, or when none is given for the one its name says (`*.count.json` is a count_tokens
 * body, anything else a create-message body).
 */
async function checkFile(file: string, display: string, cwd: string, o: CheckOptions): Promise<CheckRecord[]> {
  if (isCaseFile(file)) {
    const { loaded, records } = loadCaseFile(file, cwd);
    // its dataset, streamed: every row read as a case and checked, nothing kept
    if (loaded?.file.dataset) records.push(...(await loadSuite(loaded, cwd, datasetOnDisk)).records);
    // file by file as they first appear (the case file, then its request), each in reading order
    const order = [...new Set(records.map(r => r.file))];
    const rank = (r: CheckRecord) => order.indexOf(r.file);
    return records.sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.column - b.column);
  }
  const bytes = fs.readFileSync(file);
  const decoded = decodeUtf8(bytes);
  if ('invalidAt' in decoded) {
    const before = new TextDecoder().decode(bytes.subarray(0, decoded.invalidAt));
    const at = lineColumn(before)(before.length);
    const message = `Invalid UTF-8 at byte ${decoded.invalidAt}: the file must be UTF-8 text.`;
    return [record(display, at.line, at.column, 'error', 'invalid-utf8', message)];
  }
  const text = decoded.text;
  const endpoint = o.endpoint ?? (isCountFileName(file) ? 'count_tokens' : 'messages');
  // what the editor and the language server show, without a key: check makes no calls, so a cache prefix is estimated
  const settings = { betas: o.betas, endpoint, ...(o.models ? { models: o.models } : {}) };
  return toRecords(text, requestDiagnostics(text, file, settings), display);
}

function record(
  file: string,
  line: number,
  column: number,
  severity: string,
  code: string,
  message: string,
): CheckRecord {
  return { file, line, column, endLine: line, endColumn: column + 1, severity, code, message, path: '' };
}

/** A file that could not be checked at all (unreadable, or a failure of ours): reported, and the rest go on. */
function failedRecord(display: string, e: unknown): CheckRecord {
  const err = e as { code?: string; message?: string };
  const why =
    err?.code === 'EACCES' || err?.code === 'EISDIR' || err?.code === 'ENOENT'
      ? err.message
      : `internal error: ${err?.message ?? String(e)}`;
  return record(display, 1, 1, 'error', 'internal-error', `Could not check this file (${why}).`);
}

export const CHECK: Command = {
  name: 'check',
  args: '<files or globs...>',
  summary:
    'Checks request, count and case files without sending anything (no key needed): each problem as ' +
    'FILE:LINE:COLUMN: SEVERITY RULE: MESSAGE, then a summary line. A folder stands for its *.prompt.*, ' +
    '*.cases.* and *.count.* files.',
  options: [
    formatOption(['text', 'json']),
    {
      name: 'endpoint',
      value: 'ENDPOINT',
      choices: ENDPOINTS,
      help: 'check request files as bodies of this endpoint (default: count_tokens for *.count.*, else messages)',
    },
    {
      name: 'models',
      value: 'FILE',
      help: 'a saved model list (promptwright models --format json) to check against (default $PROMPTWRIGHT_MODELS)',
    },
  ],
  exits: {
    0: 'no file has an error (warnings, infos and hints do not count)',
    1: 'a file has an error, a file could not be checked, or nothing matched',
    2: 'a usage error (an unknown option, a bad --format or --endpoint, no file, an unreadable --models file)',
  },
};

export async function runCheck(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  let p: Parsed;
  try {
    p = parseArgs(args, CHECK);
    if (!p.positionals.length) throw new UsageError('expected files, folders or globs to check');
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`promptwright check: ${e.message}\n`);
    return EXIT.refused;
  }
  const format = one(p, 'format') ?? 'text';
  const endpoint = one(p, 'endpoint');
  const modelsFile = one(p, 'models') ?? (io.env.PROMPTWRIGHT_MODELS || undefined);
  const targets = p.positionals;
  // a saved catalog (`promptwright models --format json`): checked against it, offline and deterministic
  let models: ModelFacts | undefined;
  if (modelsFile !== undefined) {
    try {
      models = loadModelsFile(modelsFile, cwd);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      io.stderr.write(`promptwright check: ${e.message}\n`);
      return 2;
    }
  }
  const { files, unmatched } = expandFiles(targets, cwd);
  for (const u of unmatched) io.stderr.write(`promptwright check: no files match ${u}\n`);
  const options: CheckOptions = {
    betas: betasFromEnv(io.env),
    ...(endpoint !== undefined ? { endpoint: endpoint as Endpoint } : {}),
    ...(models ? { models } : {}),
  };
  const all: CheckRecord[] = [];
  // a case file also reports its request's syntax errors: said once when the request is checked too
  const seen = new Set<string>();
  const add = (r: CheckRecord) => {
    const key = JSON.stringify([r.file, r.line, r.column, r.code, r.message]);
    if (!seen.has(key)) all.push(r);
    seen.add(key);
  };
  let failed = 0;
  for (const f of files) {
    const display = path.relative(cwd, f) || f;
    try {
      (await checkFile(f, display, cwd, options)).forEach(add);
    } catch (e) {
      // one bad file never costs the others their results
      failed++;
      all.push(failedRecord(display, e));
    }
  }
  const errors = all.filter(r => r.severity === 'error').length - failed;
  if (format === 'json') await printJsonArray(io, all);
  else {
    for (const r of all) io.stdout.write(`${r.file}:${r.line}:${r.column}: ${r.severity} ${r.code}: ${r.message}\n`);
    const others = all.length - errors - failed;
    const notChecked = failed ? `; ${count(failed, 'file')} could not be checked` : '';
    io.stdout.write(
      `${count(files.length - failed, 'file')} checked: ${count(errors, 'error')}, ` +
        `${count(others, 'other problem')}${notChecked}\n`,
    );
  }
  return errors > 0 || failed > 0 || files.length === 0 ? 1 : 0;
}
