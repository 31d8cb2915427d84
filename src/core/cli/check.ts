import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatOf } from '../request/parse';
import { pointer, type Problem } from '../request/types';
import { validateText } from '../request/validate';
import { decodeUtf8, expandFiles } from './files';
import type { CliIo } from './main';

export interface CheckRecord {
  file: string; line: number; column: number; endLine: number; endColumn: number;
  severity: string; code: string; message: string; path: string;
}

/** 1-based line and column of each offset. */
export function lineColumn(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return offset => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid]! <= offset) lo = mid; else hi = mid - 1; }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

export function checkFile(file: string, display: string, betas: string[]): CheckRecord[] {
  const bytes = fs.readFileSync(file);
  const decoded = decodeUtf8(bytes);
  if ('invalidAt' in decoded) {
    const before = new TextDecoder().decode(bytes.subarray(0, decoded.invalidAt));
    const at = lineColumn(before)(before.length);
    return [{ file: display, line: at.line, column: at.column, endLine: at.line, endColumn: at.column + 1, severity: 'error', code: 'utf8', message: `Invalid UTF-8 at byte ${decoded.invalidAt}: the file must be UTF-8 text.`, path: '' }];
  }
  const text = decoded.text;
  return toRecords(text, validateText(text, formatOf(file), { betas }).problems, display);
}

/** Problems as records with 1-based lines and columns and a JSON pointer. */
export function toRecords(text: string, problems: readonly Problem[], display: string): CheckRecord[] {
  const lc = lineColumn(text);
  return problems.map(p => {
    const s = lc(p.start);
    const e = lc(p.end);
    return { file: display, line: s.line, column: s.column, endLine: e.line, endColumn: e.column, severity: p.severity, code: p.code, message: p.message, path: pointer(p.path) };
  });
}

export async function runCheck(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  let format = 'text';
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--format') format = args[++i] ?? '';
    else if (a.startsWith('--format=')) format = a.slice('--format='.length);
    else if (a.startsWith('-')) { io.stderr.write(`promptwright check: unknown option ${a}\n`); return 2; }
    else targets.push(a);
  }
  if (format !== 'text' && format !== 'json') { io.stderr.write(`promptwright check: --format must be text or json, got "${format}"\n`); return 2; }
  if (!targets.length) { io.stderr.write('usage: promptwright check <files or globs...> [--format text|json]\n'); return 2; }
  const { files, unmatched } = expandFiles(targets, cwd);
  for (const u of unmatched) io.stderr.write(`promptwright check: no files match ${u}\n`);
  const betas = (io.env.PROMPTWRIGHT_BETAS ?? '').split(',').map(s => s.trim()).filter(Boolean);
  const all: CheckRecord[] = [];
  for (const f of files) all.push(...checkFile(f, path.relative(cwd, f) || f, betas));
  const errors = all.filter(r => r.severity === 'error').length;
  if (format === 'json') io.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
  else {
    for (const r of all) io.stdout.write(`${r.file}:${r.line}:${r.column}: ${r.severity} ${r.code}: ${r.message}\n`);
    io.stdout.write(`${files.length} file${files.length === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${all.length - errors} other problem${all.length - errors === 1 ? '' : 's'}\n`);
  }
  return errors > 0 || (files.length === 0) ? 1 : 0;
}
