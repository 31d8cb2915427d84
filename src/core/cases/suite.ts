// A case file's cases as one stream: the listed ones, then its dataset's rows (dataset.ts, datasetRows.ts),
// each with its stable id (caseId.ts). One pass reads them all, checks what can only be checked across rows
// (two rows of the same content and name, a placeholder no column fills, a column no placeholder uses, said
// once for the column) and keeps the cases a choice chooses (choose.ts). The CLI's `check` and `test`, the
// editor's checks and its grid all read a dataset through here. Nothing here reads the disk: the caller hands
// the dataset's bytes (or text) as chunks.
import type { Locate } from '../request/parse';
import type { Problem, RuleId, Severity } from '../request/types';
import { count } from '../text';
import { bitsOf, caseIdOf, caseIdsOf, IdSet } from './caseId';
import { Chooser, type CaseChoice } from './choose';
import { readDataset, InvalidUtf8, type DatasetItem } from './dataset';
import { caseOfRecord, isKnownSpecialColumn, isSpecialColumn } from './datasetRows';
import type { CaseFile, DatasetFormat, TestCase } from './types';

/** A case of the suite: a listed one or a dataset's row, with its id and where it is. */
export interface SuiteCase extends TestCase {
  /** the stable id (`case_id`) */
  id: string;
  /** where it is written: the case file (a listed case) or the dataset */
  from: 'file' | 'dataset';
  /** its first line (1-based) there */
  line: number;
  /** a dataset row's last line (a quoted value may span lines) */
  endLine?: number;
}

/** A problem in the dataset, at a line and column (1-based). */
export interface DatasetProblem {
  line: number;
  column: number;
  /** the end of what is marked, when it is more than a character */
  endColumn?: number;
  severity: Severity;
  code: RuleId;
  message: string;
}

export interface SuiteSource {
  /** the dataset's bytes or text, in chunks */
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
  format: DatasetFormat;
}

export interface SuiteScan {
  /** the dataset's problems, in file order */
  problems: DatasetProblem[];
  /** every case: listed, and rows that could be read as cases */
  total: number;
  /** rows read from the dataset (cases or not) */
  rows: number;
  /** the chosen cases in order (all of them without a choice); empty unless `keep` (and no `onChosen`) */
  chosen: SuiteCase[];
  /** the dataset's rows with no assertion of their own: how many, and the first one's line */
  unasserted: { rows: number; firstLine: number };
  /** with a `page`: whether rows follow it (the reading stopped at the first of them) */
  more?: boolean;
}

/** Row problems said per file at most; the rest are counted. */
const MAX_ROW_PROBLEMS = 100;

/**
 * Reads every case of a suite once: the listed cases (`listed`, each with its line in the case file), then the
 * dataset's rows. `placeholders` are the request's (undefined: the request is unknown, nothing is said of
 * columns). With `keep`, the cases `choice` chooses are kept, in order. With `page`, `chosen` is that page of the
 * dataset's rows (the `from`th row that is a case on, `size` of them), and the reading stops at the row after it:
 * the Test Explorer lists a dataset a page at a time, the rows named as a run names them.
 */
export async function scanSuite(o: {
  listed: readonly (TestCase & { line: number })[];
  dataset?: SuiteSource;
  placeholders?: ReadonlySet<string>;
  choice?: CaseChoice;
  keep?: boolean;
  /** each chosen case as it is read (a sample's once every case has been), instead of kept */
  onChosen?: (c: SuiteCase) => void;
  page?: { from: number; size: number };
}): Promise<SuiteScan> {
  const problems: DatasetProblem[] = [];
  const chooser = new Chooser<SuiteCase>(o.choice, o.onChosen);
  const ids = new IdSet();
  const names = new IdSet();
  let total = 0;
  // without `keep` nothing is kept: a check of a million rows holds none of them
  const offer = (c: SuiteCase) => {
    total++;
    if (o.keep || o.onChosen) chooser.offer(c.name, c.id, c);
  };
  for (const c of o.listed) {
    const id = caseIdOf(c, true);
    names.add(bitsOf(c.name, false), c.line);
    offer({ ...c, id, from: 'file' });
  }
  let rows = 0;
  const unasserted = { rows: 0, firstLine: 0 };
  const page: SuiteCase[] = [];
  let skipped = 0;
  let more = false;
  if (o.dataset) {
    const checker = new RowChecker(problems, o.placeholders);
    try {
      reading: for await (const batch of readDataset(o.dataset.chunks, o.dataset.format)) {
        const [rowCases, rowIds] = casesOfBatch(batch);
        for (let i = 0; i < batch.length; i++) {
          const item = batch[i]!;
          if (item.kind === 'problem') {
            const { line, column, message } = item;
            problems.push({ line, column, message, severity: 'error', code: 'dataset-syntax' });
            continue;
          }
          if (item.kind === 'header') {
            checker.header(item.columns, item.line);
            continue;
          }
          rows++;
          const row = rowCases[i]!;
          const at: Where = {
            line: item.line,
            column: item.column ?? 1,
            ...(item.text !== undefined ? { text: item.text } : {}),
          };
          for (const p of row.problems) checker.rowProblem(at, p.message, p.key);
          for (const key of row.ignoredKeys ?? []) checker.ignoredKey(key, at);
          if (!row.testCase) continue;
          const c = row.testCase;
          if (!c.assert?.length && !unasserted.rows++) unasserted.firstLine = item.line;
          if (item.text !== undefined) checker.rowKeys(c, at);
          const id = rowIds[i]!;
          const first = ids.add(bitsOf(id), item.line);
          if (first !== undefined) {
            checker.duplicate(item.line, first, c.name, row.named);
            continue;
          }
          // a name given twice to rows of different content: the later rows are told apart by their line
          const name = row.named && names.add(bitsOf(c.name, false), item.line) !== undefined;
          const suiteCase: SuiteCase = {
            ...c,
            ...(name ? { name: `${c.name} (line ${item.line})` } : {}),
            id,
            from: 'dataset',
            line: item.line,
            endLine: item.endLine,
          };
          if (!o.page) offer(suiteCase);
          else if (page.length === o.page.size) {
            more = true;
            break reading;
          } else if (skipped < o.page.from) skipped++;
          else page.push(suiteCase);
        }
      }
    } catch (e) {
      if (!(e instanceof InvalidUtf8)) throw e;
      problems.push({ line: e.line, column: 1, severity: 'error', code: 'dataset-syntax', message: e.message });
    }
    checker.end();
  }
  return {
    problems,
    total,
    rows,
    // a sample is known only now: with onChosen, its cases are handed on here, as the others were when read
    chosen: o.page ? page : o.keep || o.onChosen ? chooser.chosen(c => c.id) : [],
    unasserted,
    ...(o.page ? { more } : {}),
  };
}

/** A batch of a dataset's items read as cases, without their ids (undefined for a header or a problem). */
export const rowCasesOf = (batch: readonly DatasetItem[]) =>
  batch.map(item => (item.kind === 'record' ? caseOfRecord(item.value, item.line, item.columns) : undefined));

/**
 * A batch of a dataset's items read as cases (undefined for a header or a problem), and the cases' ids: all of the
 * batch's cases first, then their ids, hashed in a loop of their own (caseIdsOf).
 */
export function casesOfBatch(batch: readonly DatasetItem[]) {
  const rowCases = rowCasesOf(batch);
  return [rowCases, caseIdsOf(rowCases)] as const;
}

/**
 * One warning for a dataset whose rows have no assertion, when the case file has no `assert:` for every case either
 * (their replies would show NO ASSERTIONS): at the case file's `dataset`, whatever the number of rows.
 */
export function unassertedRows(file: CaseFile, scan: SuiteScan, locate: Locate): Problem | undefined {
  const { rows, firstLine } = scan.unasserted;
  if (!rows || file.assert?.length) return undefined;
  const span = locate(['dataset']) ?? { start: 0, end: 1 };
  const which =
    rows === scan.rows
      ? `No row of ${file.dataset} has an assertion`
      : `${count(rows, 'row')} of ${file.dataset} (the first at line ${firstLine}) ${rows === 1 ? 'has' : 'have'} ` +
        'no assertion';
  return {
    ...span,
    path: ['dataset'],
    severity: 'warning',
    code: 'case-without-assertions',
    message:
      `${which}, and the case file has no "assert:": nothing checks their replies, so they show NO ASSERTIONS ` +
      'rather than PASS. Add an __expected column (contains: …, rubric: …) or an "assert:" list for every case.',
  };
}

/** The checks across a dataset's rows: columns against the request's placeholders, said once each. */
class RowChecker {
  private columns: string[] | undefined;
  private rowProblems = 0;
  /** keys already warned of (unused, ignored) */
  private readonly warned = new Set<string>();

  constructor(
    private readonly problems: DatasetProblem[],
    private readonly placeholders: ReadonlySet<string> | undefined,
  ) {}

  /** A CSV or TSV header: a placeholder no column fills is an error, a column no placeholder uses a warning. */
  header(columns: string[], line: number): void {
    this.columns = columns;
    let column = 1;
    const at = columns.map(c => {
      const here = column;
      column += c.length + 1;
      return here;
    });
    const seen = new Set<string>();
    columns.forEach((c, i) => {
      if (seen.has(c))
        this.problems.push({
          line,
          column: at[i]!,
          endColumn: at[i]! + c.length,
          severity: 'error',
          code: 'dataset-syntax',
          message: `Two columns are named "${c}": the second would hide the first. Rename one.`,
        });
      seen.add(c);
      this.column(c, line, at[i]!);
    });
    if (!this.placeholders) return;
    for (const p of this.placeholders)
      if (!columns.includes(p))
        this.problems.push({
          line,
          column: 1,
          endColumn: Math.max(2, column - 1),
          severity: 'error',
          code: 'undefined-placeholder',
          message:
            `The request uses {{${p}}}, and no column is named "${p}": every row would send it as written. ` +
            'Add the column.',
        });
  }

  /** What a column (or a row object's key, the first time it is met) says, once for the file. */
  private column(key: string, line: number, column: number): void {
    if (this.warned.has(key)) return;
    let message: string;
    if (isSpecialColumn(key)) {
      if (isKnownSpecialColumn(key)) return;
      message = `"${key}" is not a column Promptwright reads (__expected, __expected1…, __description): it is ignored.`;
    } else {
      if (!this.placeholders || this.placeholders.has(key)) return;
      message = `The request has no {{${key}}}: the column "${key}" is not used.`;
    }
    this.warned.add(key);
    this.problems.push({
      line,
      column,
      endColumn: column + key.length,
      severity: 'warning',
      code: 'unused-column',
      message,
    });
  }

  /** A JSON row: its keys as columns (said the first time each is met), and the placeholders it leaves empty. */
  rowKeys(c: TestCase, at: Where): void {
    for (const key of Object.keys(c.vars ?? {}))
      if (!this.warned.has(key)) {
        const p = placeOf(at, key);
        this.column(key, p.line, p.column);
      }
    if (!this.placeholders) return;
    for (const p of this.placeholders)
      if (!c.vars || !Object.hasOwn(c.vars, p))
        this.rowProblem(
          { line: at.line, column: at.column },
          `The request uses {{${p}}}, and this row gives it no value: it would be sent as written.`,
          undefined,
          'undefined-placeholder',
        );
  }

  ignoredKey(key: string, at: Where): void {
    if (this.warned.has(`case:${key}`)) return;
    this.warned.add(`case:${key}`);
    const { line, column } = placeOf(at, key);
    this.problems.push({
      line,
      column,
      endColumn: column + key.length + 2,
      severity: 'warning',
      code: 'unused-column',
      message: `"${key}" is not a key of a case (name, vars, assert): it is ignored.`,
    });
  }

  rowProblem(at: Where, message: string, key?: string, code: RuleId = 'dataset-row'): void {
    if (++this.rowProblems > MAX_ROW_PROBLEMS) return;
    const { line, column } = key !== undefined ? placeOf(at, key) : at;
    this.problems.push({ line, column, severity: 'error', code, message });
  }

  duplicate(line: number, first: number, name: string, named: boolean): void {
    if (++this.rowProblems > MAX_ROW_PROBLEMS) return;
    this.problems.push({
      line,
      column: 1,
      severity: 'error',
      code: 'duplicate-case-name',
      message:
        `Line ${line} and line ${first} are the same case (the same values and assertions` +
        `${named ? `, named "${name}"` : ''}): it would run twice under one id. Remove one of them.`,
    });
  }

  end(): void {
    const more = this.rowProblems - MAX_ROW_PROBLEMS;
    if (more > 0)
      this.problems.push({
        line: 1,
        column: 1,
        severity: 'error',
        code: 'dataset-row',
        message: `…and ${count(more, 'more row problem')} in this file.`,
      });
  }
}

/** Where a row is: its first line and column, and its text when it is JSON (CSV rows are placed at their line). */
interface Where {
  line: number;
  column: number;
  text?: string;
}

/** Where a key of a JSON row is written (its quoted name), or the row's start. */
function placeOf(at: Where, key: string): { line: number; column: number } {
  const i = at.text?.indexOf(JSON.stringify(key)) ?? -1;
  if (i < 0) return { line: at.line, column: at.column };
  const before = at.text!.slice(0, i);
  const nl = before.lastIndexOf('\n');
  const lines = before.split('\n').length - 1;
  return lines ? { line: at.line + lines, column: i - nl } : { line: at.line, column: at.column + i };
}
