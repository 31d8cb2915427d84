// Problems as `check` reports them: 1-based lines and columns, the rule's code and a JSON pointer (the CLI's
// text lines and its --format json records).
import { pointer, type Problem } from '../request/types';

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
