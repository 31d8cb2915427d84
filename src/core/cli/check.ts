import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatOf } from '../request/parse';
import { pointer, type Problem } from '../request/types';
import { validateText } from '../request/validate';
import { decodeUtf8, expandFiles } from './files';
import { betasFromEnv, plural, type CliIo } from './io';

export interface CheckRecord {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: string;
  code: string;
  message: string;
  path: string;
}

/** 1-based line and column of each offset. */
export function lineColumn(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return offset => {
    let lo = 0,
      hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

export function checkFile(file: string, display: string, betas: string[]): CheckRecord[] {
  const bytes = fs.readFileSync(file);
  const decoded = decodeUtf8(bytes);
  if ('invalidAt' in decoded) {
    const before = new TextDecoder().decode(bytes.subarray(0, decoded.invalidAt));
    const at = lineColumn(before)(before.length);
    const message = `Invalid UTF-8 at byte ${decoded.invalidAt}: the file must be UTF-8 text.`;
    return [record(display, at.line, at.column, 'error', 'invalid-utf8', message)];
  }
  const text = decoded.text;
  return toRecords(text, validateText(text, formatOf(file), { betas }).problems, display);
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

/** Problems as records with 1-based lines and columns and a JSON pointer. */
export function toRecords(text: string, problems: readonly Problem[], display: string): CheckRecord[] {
  const lc = lineColumn(text);
  return problems.map(p => {
    const s = lc(p.start);
    const e = lc(p.end);
    return {
      file: display,
      line: s.line,
      column: s.column,
      endLine: e.line,
      endColumn: e.column,
      severity: p.severity,
      code: p.code,
      message: p.message,
      path: pointer(p.path),
    };
  });
}

export function runCheck(args: string[], io: CliIo, cwd = process.cwd()): number {
  let format = 'text';
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--format') format = args[++i] ?? '';
    else if (a.startsWith('--format=')) format = a.slice('--format='.length);
    else if (a.startsWith('-')) {
      io.stderr.write(`promptwright check: unknown option ${a}\n`);
      return 2;
    } else targets.push(a);
  }
  if (format !== 'text' && format !== 'json') {
    io.stderr.write(`promptwright check: --format must be text or json, got "${format}"\n`);
    return 2;
  }
  if (!targets.length) {
    io.stderr.write('usage: promptwright check <files or globs...> [--format text|json]\n');
    return 2;
  }
  const { files, unmatched } = expandFiles(targets, cwd);
  for (const u of unmatched) io.stderr.write(`promptwright check: no files match ${u}\n`);
  const betas = betasFromEnv(io.env);
  const all: CheckRecord[] = [];
  let failed = 0;
  for (const f of files) {
    const display = path.relative(cwd, f) || f;
    try {
      all.push(...checkFile(f, display, betas));
    } catch (e) {
      // one bad file never costs the others their results
      failed++;
      all.push(failedRecord(display, e));
    }
  }
  const errors = all.filter(r => r.severity === 'error').length - failed;
  if (format === 'json') io.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
  else {
    for (const r of all) io.stdout.write(`${r.file}:${r.line}:${r.column}: ${r.severity} ${r.code}: ${r.message}\n`);
    const others = all.length - errors - failed;
    const notChecked = failed ? `; ${plural(failed, 'file')} could not be checked` : '';
    io.stdout.write(
      `${plural(files.length - failed, 'file')} checked: ${plural(errors, 'error')}, ` +
        `${plural(others, 'other problem')}${notChecked}\n`,
    );
  }
  return errors > 0 || failed > 0 || files.length === 0 ? 1 : 0;
}
