import * as vscode from 'vscode';
import type { CellView } from '../../core/cases/grid';
import { caseOutline, type CaseOutline } from '../../core/cases/outline';
import type { CaseFile, CellKey } from '../../core/cases/types';
import type { Locate } from '../../core/request/parse/types';
import { LineIndex, thousands } from '../../core/text';

/** A run of a case file's cells, as the Test Explorer is told of it (casesTests.ts). */
export interface RunStart {
  caseUri: vscode.Uri;
  file: CaseFile;
  text: string;
  locate: Locate;
  requestModel: string | undefined;
  /** the cells this run runs, in order */
  cells: readonly CellKey[];
}

/**
 * What a run reports as it goes, whichever view started it: the Test Explorer's run (casesTests.ts). The grid
 * is drawn from the runner itself; this is the other view of the same run.
 */
export interface RunReporter {
  /** the case file was read: these cells will run (queued) */
  begin(run: RunStart): void;
  /** nothing could run (the case file has errors, no key, …): why */
  notRun(message: string): void;
  started(cell: CellKey): void;
  /** a cell ended (passed, failed, error, cancelled) */
  ended(cell: CellView): void;
  /** the run is over, its results saved */
  end(): void;
}

/** Gives each run that was not started with a reporter of its own (the grid's, a command's) one. */
export interface RunReporters {
  /** `cancel` stops the run (the Test Explorer's Cancel) */
  forRun(caseUri: vscode.Uri, cancel: () => void): RunReporter | undefined;
}

/** What the Test Explorer was told of an item, in words: kept for the tests that observe it. */
export interface Reported {
  state: 'enqueued' | 'started' | 'passed' | 'failed' | 'errored' | 'skipped';
  messages: { message: string; line?: number; expected?: string; actual?: string }[];
  /** what the cell's output says: each sample's reply (a tool-use loop's after its trajectory) */
  output?: string;
}

/** How a file's items are found and made (casesTests.ts): the case file's item, a case's, a cell's. */
export interface TestItems {
  /** the items of a run's case file, made from what was run when they are not there yet */
  itemsFor(run: RunStart): void;
  cellItem(caseUri: vscode.Uri, cell: CellKey): vscode.TestItem | undefined;
  fileItem(caseUri: vscode.Uri): vscode.TestItem | undefined;
  /** the item of the case file's dataset, whose rows are items only once listed */
  datasetItem(caseUri: vscode.Uri): vscode.TestItem | undefined;
  record(item: vscode.TestItem, reported: Reported): void;
}

/**
 * One case file's part of a test run: each cell of the run is its case × model item, queued, started, then
 * passed, failed (a message at each failing assertion, with what was expected and what came), errored (the
 * service's error.type, message and request-id, or why nothing was sent) or skipped (cancelled). The reply is
 * the item's output. A run the Test Explorer started holds several files and is ended by its handler; a run
 * the grid started is one file's, and ends with it (`ownsRun`). The dataset's item, whose rows may not be listed,
 * says how many of its rows' cells passed, and names the first that did not.
 */
export class CaseFileTestRun implements RunReporter {
  private outline: CaseOutline | undefined;
  private lines: LineIndex | undefined;
  /** the dataset's rows in this run (by name), and how their cells ended */
  private rows: { names: Set<string>; cells: number; passed: number; notPassed: string[] } | undefined;

  constructor(
    private readonly run: vscode.TestRun,
    private readonly items: TestItems,
    private readonly caseUri: vscode.Uri,
    /** the items asked for in this file: what a run that could not start reports its reason at */
    private readonly requested: readonly vscode.TestItem[],
    private readonly ownsRun: boolean,
  ) {}

  begin(start: RunStart): void {
    this.items.itemsFor(start);
    this.outline = caseOutline(start.file, start.locate, start.requestModel);
    this.lines = new LineIndex(start.text);
    const dataset = this.items.datasetItem(this.caseUri);
    if (dataset) {
      const listed = new Set(this.outline.cases.map(c => c.name));
      const names = new Set(start.cells.filter(c => !listed.has(c.caseName)).map(c => c.caseName));
      if (names.size) {
        this.rows = { names, cells: 0, passed: 0, notPassed: [] };
        this.run.started(dataset);
        this.items.record(dataset, { state: 'started', messages: [] });
      }
    }
    for (const cell of start.cells) {
      const item = this.items.cellItem(this.caseUri, cell);
      if (!item) continue;
      this.run.enqueued(item);
      this.items.record(item, { state: 'enqueued', messages: [] });
    }
  }

  notRun(message: string): void {
    const at = this.requested.length ? this.requested : [this.items.fileItem(this.caseUri)];
    for (const item of at) {
      if (!item) continue;
      const m = new vscode.TestMessage(message);
      if (item.range) m.location = new vscode.Location(item.uri ?? this.caseUri, item.range);
      this.run.errored(item, m);
      this.items.record(item, { state: 'errored', messages: [{ message, line: item.range?.start.line }] });
    }
  }

  started(cell: CellKey): void {
    const item = this.items.cellItem(this.caseUri, cell);
    if (!item) return;
    this.run.started(item);
    this.items.record(item, { state: 'started', messages: [] });
  }

  ended(c: CellView): void {
    this.tally(c);
    const item = this.items.cellItem(this.caseUri, c);
    if (!item) return;
    // each sample's reply (one: the cell's own), a tool-use loop's after its trajectory as in JUnit; no location:
    // output at a location is drawn inline in the case file, over the line's own text
    const samples = c.samples && c.samples.length > 1 ? c.samples : [c];
    const trajectory = samples.length === 1 ? (c.trajectory ?? []) : [];
    let output = '';
    samples.forEach((sample, i) => {
      if (!sample.text && !trajectory.length) return;
      const which = samples.length > 1 ? `, sample ${i + 1} (${sample.status})` : '';
      const text = [...trajectory, sample.text].filter(Boolean).join('\n');
      output += `${c.caseName} on ${c.model}${which}:\n${text}\n\n`;
    });
    if (output) this.run.appendOutput(output.replace(/\r?\n/g, '\r\n'), undefined, item);
    const record = (r: Reported) => this.items.record(item, output ? { ...r, output } : r);
    const duration = c.latencyMs;
    switch (c.status) {
      case 'passed':
        this.run.passed(item, duration);
        record({ state: 'passed', messages: [] });
        return;
      case 'failed': {
        const messages = this.failures(c, item);
        this.run.failed(item, messages, duration);
        record({ state: 'failed', messages: messages.map(said) });
        return;
      }
      case 'error': {
        // a failed request, or an assertion that could not be checked (the judge failed, no price): at its line
        const m = new vscode.TestMessage(errorText(c));
        const at = uncheckedAssertion(c);
        const span =
          at === undefined ? undefined : this.outline?.cases.find(x => x.name === c.caseName)?.assertions[at];
        m.location =
          span && this.lines ? new vscode.Location(this.caseUri, this.range(span)) : this.caseLocation(c, item);
        this.run.errored(item, m, duration);
        record({ state: 'errored', messages: [said(m)] });
        return;
      }
      case 'cancelled':
      case 'skipped':
        this.run.skipped(item);
        record({ state: 'skipped', messages: [] });
        return;
      case 'expired': {
        // its Message Batch expired before the request ran: it did not pass, and nothing was judged
        const m = new vscode.TestMessage(errorText(c));
        m.location = this.caseLocation(c, item);
        this.run.errored(item, m);
        record({ state: 'errored', messages: [said(m)] });
        return;
      }
      default:
    }
  }

  end(): void {
    this.endRows();
    if (this.ownsRun) this.run.end();
  }

  /** A dataset row's cell that ended, counted for the dataset's item. */
  private tally(c: CellView): void {
    const rows = this.rows;
    if (!rows?.names.has(c.caseName)) return;
    if (c.status === 'cancelled' || c.status === 'skipped') return;
    rows.cells++;
    if (c.status === 'passed') rows.passed++;
    else if (rows.notPassed.length < 5) rows.notPassed.push(`${c.caseName} on ${c.model} (${c.status})`);
  }

  /** The dataset's item: passed when every row's cell that ran passed, else failed, naming the first that did not. */
  private endRows(): void {
    const dataset = this.rows && this.items.datasetItem(this.caseUri);
    if (!this.rows || !dataset) return;
    const { cells, passed, notPassed } = this.rows;
    this.rows = undefined;
    if (!cells) {
      this.run.skipped(dataset);
      this.items.record(dataset, { state: 'skipped', messages: [] });
    } else if (passed === cells) {
      this.run.passed(dataset);
      this.items.record(dataset, { state: 'passed', messages: [] });
    } else {
      const more = cells - passed > notPassed.length ? ', …' : '';
      const not = `${notPassed.join(', ')}${more}`;
      const message = `${thousands(passed)} of ${thousands(cells)} rows' cells passed; not: ${not}`;
      const m = new vscode.TestMessage(message);
      if (dataset.uri && dataset.range) m.location = new vscode.Location(dataset.uri, dataset.range);
      this.run.failed(dataset, m);
      this.items.record(dataset, { state: 'failed', messages: [said(m)] });
    }
  }

  /**
   * A message per failing assertion, at its line in the case file, with both sides where they compare. With
   * several samples, each message says how many passed and lists the samples where the assertion failed, with
   * why (a rubric's: the judge's reason).
   */
  private failures(c: CellView, item: vscode.TestItem): vscode.TestMessage[] {
    const spans = this.outline?.cases.find(x => x.name === c.caseName)?.assertions ?? [];
    const samples = c.samples ?? [{ status: c.status, text: c.text, assertions: c.assertions, costUsd: null }];
    const several = samples.length > 1;
    const out: vscode.TestMessage[] = [];
    const count = c.assertions.length || (samples.find(s => s.assertions.length)?.assertions.length ?? 0);
    for (let j = 0; j < count; j++) {
      const failing = samples.flatMap((s, i) => {
        const a = s.assertions[j];
        return a && !a.pass && s.status !== 'cancelled' ? [{ a, i }] : [];
      });
      if (!failing.length) continue;
      const first = failing[0]!.a;
      const text = several
        ? `${c.passedSamples ?? 0} of ${samples.length} samples passed (${c.minPass ?? samples.length} needed); ` +
          `this assertion failed in ${failing.length}:\n` +
          failing.map(({ a, i }) => `sample ${i + 1}: ${a.message}`).join('\n')
        : first.message;
      const m =
        first.expected !== undefined && first.actual !== undefined
          ? vscode.TestMessage.diff(text, first.expected, first.actual)
          : new vscode.TestMessage(text);
      const span = spans[j];
      m.location =
        span && this.lines ? new vscode.Location(this.caseUri, this.range(span)) : this.caseLocation(c, item);
      out.push(m);
    }
    return out;
  }

  /** Where a case is: a listed case's item in the case file, a dataset row's lines in the dataset (its item's). */
  private caseLocation(c: CellKey, item: vscode.TestItem): vscode.Location | undefined {
    const span = this.outline?.cases.find(x => x.name === c.caseName)?.span;
    if (span && this.lines) return new vscode.Location(this.caseUri, this.range(span));
    return item.uri && item.range ? new vscode.Location(item.uri, item.range) : undefined;
  }

  private range(span: { start: number; end: number }): vscode.Range {
    const a = this.lines!.position(span.start);
    const b = this.lines!.position(span.end);
    return new vscode.Range(a.line, a.character, b.line, b.character);
  }
}

/** The first assertion a sample could not check (its index), when no request failed. */
function uncheckedAssertion(c: CellView): number | undefined {
  if (c.error) return undefined;
  for (const s of c.samples ?? [c]) {
    const at = s.assertions.findIndex(a => a.error);
    if (at >= 0) return at;
  }
  return undefined;
}

/**
 * Why a cell is an error, as a person can act on it: the failed request's error.type, message and request-id,
 * or the assertion that could not be checked (a judge's failed request or malformed verdict, a missing price).
 */
function errorText(c: CellView): string {
  if (c.problems?.length) return `Not sent: the filled request has errors: ${c.problems.join('; ')}`;
  const samples = c.samples ?? [c];
  const several = samples.length > 1;
  const lines = samples.flatMap((s, i) => {
    const at = several ? `sample ${i + 1}: ` : '';
    const e = s.error;
    if (e) return [`${at}${e.type}: ${e.message}${e.requestId ? ` (request-id ${e.requestId})` : ''}`];
    return s.assertions.filter(a => a.error).map(a => `${at}${a.message}`);
  });
  return lines.length ? lines.join('\n') : 'The request failed.';
}

function said(m: vscode.TestMessage): Reported['messages'][number] {
  return {
    message: typeof m.message === 'string' ? m.message : m.message.value,
    ...(m.location ? { line: m.location.range.start.line } : {}),
    ...(m.expectedOutput !== undefined ? { expected: m.expectedOutput } : {}),
    ...(m.actualOutput !== undefined ? { actual: m.actualOutput } : {}),
  };
}
