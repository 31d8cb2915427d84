// Problems as `check` reports them: 1-based lines and columns, the rule's code and a JSON pointer (the CLI's
// text lines and its --format json records, a base version's problems in `test --base` and the Cases grid).
import { pointer, type Problem } from './types';
import { LineIndex } from '../text';

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

/** 1-based line and column of each offset, lines counted as the editor counts them (core/text's LineIndex). */
export function lineColumn(text: string): (offset: number) => { line: number; column: number } {
  const lines = new LineIndex(text);
  return offset => {
    const p = lines.position(offset);
    return { line: p.line + 1, column: p.character + 1 };
  };
}

/** Problems as records with 1-based lines and columns and a JSON pointer. */
export function toRecords(text: string, problems: readonly Problem[], display: string): CheckRecord[] {
  if (!problems.length) return []; // the lines of a clean file are not counted
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

/** A record as one line, as `check` prints it: `file:line:col: severity code: message`. */
export const recordText = (r: CheckRecord) => `${r.file}:${r.line}:${r.column}: ${r.severity} ${r.code}: ${r.message}`;
