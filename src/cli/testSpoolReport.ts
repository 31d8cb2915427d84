// What a spooled run (`test --batch`, testBatchSpool.ts) prints and writes, in every format and report file, with
// the bytes `endOfRun` gives a run that kept its results (testRun.ts), without keeping them: each cell's pieces are
// made from its result as it is judged (its text lines, its record, its row, its testcase) and the result let go.
// They are handed on in the cells' order (a cell that ends before those ahead of it waits on disk); text and JSON go
// out as they come, a report whose head counts the cells (JUnit, Markdown) keeps its body in a file until the end.
// A report file is written beside its name and renamed onto it once whole, so a killed run leaves no half report.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { CellResult } from '../core/cases/types';
import type { CliIo } from './io';
import { alive, Appender } from './spoolFiles';
import type { ReportFile, ReportKind } from './testOutputs';
import {
  addCase,
  cellLines,
  cellRecord,
  judgeLine,
  JUNIT_END,
  JUNIT_SUITE_END,
  junitCase,
  junitHead,
  junitSuiteHead,
  markdownHead,
  markdownRow,
  noCounts,
  Tally,
  tallyItem,
  type JunitCase,
  type JunitCounts,
  type TallyItem,
} from './testReport';
import { costNotes, runEnded, stopLines, type ReportTo, type TestCell } from './testRun';
import type { RunOutcome } from '../core/cases/engine';

/** What a cell leaves for the report once it is judged: only what the formats asked for need. */
interface Piece {
  file: string;
  tally: TallyItem;
  model?: string;
  notes?: string[];
  text?: string;
  /** its record, JSON.stringify(record, null, 2) and as a line */
  json?: string;
  jsonl?: string;
  junit?: JunitCase;
  markdown?: string;
}

/** What the end of a document writes through: stdout once it has drained, or a file. */
type Out = (text: string) => Promise<void> | void;

/** How a spooled run ended, as the report's last lines say it. */
type Ended = Pick<RunOutcome, 'judgeCalls' | 'judgeCached' | 'stopped' | 'stoppedModels'> & { pass: boolean };

/** A report written a cell at a time, in the cells' order. */
interface Doc {
  add(p: Piece): void;
  /** What follows the cells (or the head the counts needed, then the body kept aside), through `out`. */
  end(ended: Ended, tally: Tally, out: Out): Promise<void>;
  /** Its files aside, removed. */
  close(): void;
}

/** Text: each cell's lines under its case file's name, then the summary line. */
class TextDoc implements Doc {
  private file: string | undefined;
  constructor(private readonly out: Out) {}
  add(p: Piece): void {
    if (p.file !== this.file) void this.out(`${p.file}\n`);
    this.file = p.file;
    void this.out(p.text!);
  }
  async end(ended: Ended, tally: Tally, out: Out): Promise<void> {
    await out(tally.line() + judgeLine(ended.judgeCalls, ended.judgeCached));
  }
  close(): void {}
}

/** JSON: the array `printJsonArray` prints, a record at a time; JSON Lines: a record a line. */
class JsonDoc implements Doc {
  private n = 0;
  constructor(
    private readonly out: Out,
    private readonly lines: boolean,
  ) {}
  add(p: Piece): void {
    // a record inside the array is indented one level more; a JSON string holds no raw line end
    void this.out(this.lines ? `${p.jsonl!}\n` : `${this.n ? ',\n' : '[\n'}  ${p.json!.replaceAll('\n', '\n  ')}`);
    this.n++;
  }
  async end(_ended: Ended, _tally: Tally, out: Out): Promise<void> {
    if (!this.lines) await out(this.n ? '\n]\n' : '[]\n');
  }
  close(): void {}
}

/** Markdown: its rows kept in a file until the summary line above them is known. */
class MarkdownDoc implements Doc {
  private readonly body: Appender;
  constructor(file: string) {
    this.body = new Appender(file);
  }
  add(p: Piece): void {
    this.body.write(p.markdown!);
  }
  async end(_ended: Ended, tally: Tally, out: Out): Promise<void> {
    await out(markdownHead(tally.line()));
    await copy(this.body, [0, this.body.size], out);
  }
  close(): void {
    this.body.close();
    fs.rmSync(this.body.file, { force: true });
  }
}

/** JUnit: the testcases kept in a file, each testsuite's where they are, until the counts of the heads are known. */
class JunitDoc implements Doc {
  private readonly body: Appender;
  private readonly suites = new Map<string, { counts: JunitCounts; places: number[] }>();
  constructor(file: string) {
    this.body = new Appender(file);
  }
  add(p: Piece): void {
    let s = this.suites.get(p.file);
    if (!s) this.suites.set(p.file, (s = { counts: noCounts(), places: [] }));
    addCase(s.counts, p.junit!);
    // a case file's cells come together: its testcases are one stretch of the file
    const from = this.body.size;
    this.body.write(p.junit!.xml);
    if (s.places.at(-1) === from) s.places[s.places.length - 1] = this.body.size;
    else s.places.push(from, this.body.size);
  }
  async end(_ended: Ended, _tally: Tally, out: Out): Promise<void> {
    await out(junitHead([...this.suites.values()].map(s => s.counts)));
    for (const [name, s] of this.suites) {
      await out(junitSuiteHead(name, s.counts));
      await copy(this.body, s.places, out);
      await out(JUNIT_SUITE_END);
    }
    await out(JUNIT_END);
  }
  close(): void {
    this.body.close();
    fs.rmSync(this.body.file, { force: true });
  }
}

/** The stretches `places` (from, to, from, to…) of a file, a megabyte at a time, through `out`. */
async function copy(file: Appender, places: readonly number[], out: Out): Promise<void> {
  const decoder = new StringDecoder('utf8');
  for (let i = 0; i < places.length; i += 2)
    for (let at = places[i]!; at < places[i + 1]!; at += 1 << 20)
      await out(decoder.write(file.bytes(at, Math.min(places[i + 1]!, at + (1 << 20)))));
  const rest = decoder.end();
  if (rest) await out(rest);
}

/** A document of the kind a format or report file says, whose files aside are named from `aside`. */
function docOf(kind: ReportKind | 'text', out: Out, aside: string): Doc {
  if (kind === 'text') return new TextDoc(out);
  if (kind === 'json' || kind === 'jsonl') return new JsonDoc(out, kind === 'jsonl');
  return kind === 'markdown' ? new MarkdownDoc(aside) : new JunitDoc(aside);
}

/**
 * A report file, written beside its name as the cells come (`NAME.PID.tmp`, and `NAME.PID.body.tmp` for the body
 * of a report with a head) and renamed onto it at the end. One that cannot be written is said at the end, as
 * `writeOutputs` says it, and the others are still written.
 */
class FileDoc {
  private readonly temp: string;
  private file: Appender | undefined;
  private doc: Doc | undefined;
  private failed: unknown;

  constructor(readonly f: ReportFile) {
    removeStaleAsides(f.abs);
    this.temp = `${f.abs}.${process.pid}.tmp`;
    this.guard(() => {
      this.file = new Appender(this.temp);
      this.doc = docOf(f.kind, text => this.file!.write(text), `${f.abs}.${process.pid}.body.tmp`);
    });
  }

  add(p: Piece): void {
    if (!this.failed) this.guard(() => this.doc!.add(p));
  }

  async end(ended: Ended, tally: Tally, io: CliIo): Promise<void> {
    if (!this.failed)
      try {
        await this.doc!.end(ended, tally, text => this.file!.write(text));
        this.file!.close();
        fs.renameSync(this.temp, this.f.abs);
        io.stderr.write(`promptwright test: wrote ${this.f.name}\n`);
      } catch (e) {
        this.failed = e;
      }
    if (this.failed)
      io.stderr.write(`promptwright test: ${this.f.name} could not be written: ${(this.failed as Error).message}\n`);
    this.close();
  }

  close(): void {
    this.guard(() => this.doc?.close());
    this.guard(() => this.file?.close());
    fs.rmSync(this.temp, { force: true });
  }

  private guard(f: () => void): void {
    try {
      f();
    } catch (e) {
      this.failed ??= e;
    }
  }
}

/**
 * Removes what a killed run left beside this report (`NAME.PID.tmp`, `NAME.PID.body.tmp`): no process has its pid,
 * and it was last written over a minute ago, as `removeStaleSpools` does with its spool.
 */
function removeStaleAsides(abs: string): void {
  const dir = path.dirname(abs);
  const base = `${path.basename(abs)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return; // said when the report is written
  }
  for (const name of names) {
    const m = name.startsWith(base) ? /^(\d+)\.(?:body\.)?tmp$/.exec(name.slice(base.length)) : null;
    if (!m || alive(Number(m[1]))) continue;
    const file = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs >= 60_000) fs.rmSync(file, { force: true });
    } catch {
      // gone already, or not ours to remove: left
    }
  }
}

/**
 * Hands each cell's piece on in the cells' order, whatever order they end in: one that ends before those ahead of it
 * waits as a line of a file, so the cells of a run hold two numbers each, not their text.
 */
class InOrder {
  private next = 0;
  private readonly from: Float64Array;
  private readonly to: Float64Array;
  private waiting: Appender | undefined;

  constructor(
    private readonly cells: number,
    private readonly file: string,
    private readonly take: (p: Piece) => void,
  ) {
    this.from = new Float64Array(cells).fill(-1);
    this.to = new Float64Array(cells);
  }

  /** A cell's piece: taken now when every cell ahead of it has been, else kept until `release` reaches it. */
  put(at: number, p: Piece): void {
    if (at === this.next) {
      this.take(p);
      this.next++;
      return;
    }
    this.waiting ??= new Appender(this.file);
    this.from[at] = this.waiting.append(JSON.stringify(p));
    this.to[at] = this.waiting.size - 1;
  }

  /**
   * Takes the pieces kept that are now next, waiting on `paused` after each: results come in any order, so the last
   * cell to end may free the whole run's, which must not all go to a pipe read slowly at once.
   */
  async release(paused: () => Promise<void> | undefined): Promise<void> {
    for (; this.next < this.cells && this.from[this.next]! >= 0; this.next++) {
      this.take(JSON.parse(this.waiting!.read(this.from[this.next]!, this.to[this.next]!)) as Piece);
      const pause = paused();
      if (pause) await pause;
    }
  }

  close(): void {
    this.waiting?.close();
    if (this.waiting) fs.rmSync(this.file, { force: true });
  }
}

/**
 * The report of a spooled run: stdout in `report.format` and each report file, fed a cell at a time as it is judged
 * (`ended`), then ended with what `endOfRun` says last (`end`). What it keeps of a cell is a few numbers: the
 * summary line's tally, the cost notes, a skipped cell's model.
 */
export class SpooledReport {
  private readonly inOrder: InOrder;
  private readonly stdout: Doc | undefined;
  private readonly files: FileDoc[];
  private readonly tally = new Tally();
  private readonly notes = new Set<string>();
  private readonly skipped: { status: 'skipped'; model: string }[] = [];
  private readonly needs: Set<ReportKind | 'text'>;
  /** a pipe read slowly: the next window of cells waits until what was printed has drained, rather than pile up */
  private draining: Promise<void> | undefined;
  private pending = '';

  constructor(
    dir: string,
    cells: number,
    private readonly report: ReportTo,
    private readonly io: CliIo,
  ) {
    const format = report.format as ReportKind | 'text';
    this.stdout = format === 'jsonl' ? undefined : docOf(format, text => this.print(text), path.join(dir, 'stdout'));
    this.files = report.outputs.map(f => new FileDoc(f));
    this.needs = new Set([format, ...report.outputs.map(f => f.kind)]);
    this.inOrder = new InOrder(cells, path.join(dir, 'order.jsonl'), p => this.take(p));
  }

  /** A cell judged: the `at`th of the run. Its record is printed now in JSON Lines, where the cells go as they end. */
  ended(at: number, cell: Pick<TestCell, 'file' | 'caseId'>, r: CellResult): void {
    const needs = (kind: ReportKind | 'text') => this.needs.has(kind);
    const record = needs('json') || needs('jsonl') ? cellRecord(cell.file, r, cell.caseId) : undefined;
    const jsonl = record && needs('jsonl') ? JSON.stringify(record) : undefined;
    if (this.report.format === 'jsonl') this.print(`${jsonl!}\n`);
    const notes = costNotes([r]);
    this.inOrder.put(at, {
      file: cell.file,
      tally: tallyItem(r),
      ...(r.status === 'skipped' ? { model: r.model } : {}),
      ...(notes.length ? { notes } : {}),
      ...(needs('text') ? { text: cellLines(r) } : {}),
      ...(record && needs('json') ? { json: JSON.stringify(record, null, 2) } : {}),
      ...(jsonl && this.files.some(f => f.f.kind === 'jsonl') ? { jsonl } : {}),
      ...(needs('junit') ? { junit: junitCase(cell.file, r) } : {}),
      ...(needs('markdown') ? { markdown: markdownRow(cell.file, r) } : {}),
    });
  }

  /**
   * Hands on the cells now next in order, and returns once what was printed has gone out: the next window of cells
   * waits for a pipe read slowly, rather than pile up here.
   */
  async drained(): Promise<void> {
    await this.inOrder.release(() => this.draining);
    this.flush();
    await this.draining;
  }

  /**
   * The end of the run, as `endOfRun` ends one: stdout's report finished (the summary line, or what follows the
   * records), how many cases were chosen, each report file, then what every run says last, and the exit code.
   */
  async end(ended: Ended, chosen?: string): Promise<number> {
    await this.drained();
    await this.stdout?.end(ended, this.tally, text => this.written(text));
    if (chosen) (this.report.format === 'text' ? this.io.stdout : this.io.stderr).write(`${chosen}\n`);
    for (const f of this.files) await f.end(ended, this.tally, this.io);
    return runEnded(this.io, this.notes, stopLines(this.skipped, ended), ended.pass);
  }

  /** Its files aside removed (a cancelled run writes no report, as `test` does not); what was judged, printed. */
  remove(): void {
    this.flush();
    this.inOrder.close();
    this.stdout?.close();
    for (const f of this.files) f.close();
  }

  private take(p: Piece): void {
    this.tally.add(p.tally);
    for (const note of p.notes ?? []) this.notes.add(note);
    if (p.model !== undefined) this.skipped.push({ status: 'skipped', model: p.model });
    this.stdout?.add(p);
    for (const f of this.files) f.add(p);
  }

  /** Prints, 64 KB at once: a record at a time, 100,000 records are as many writes to a pipe. */
  private print(text: string): void {
    this.pending += text;
    if (this.pending.length >= 65_536) this.flush();
  }

  private flush(): void {
    const { stdout } = this.io;
    const text = this.pending;
    this.pending = '';
    if (text && stdout.write(text) === false && stdout.once && !this.draining)
      this.draining = new Promise<void>(resolve => stdout.once!('drain', () => resolve())).then(() => {
        this.draining = undefined;
      });
  }

  /** Writes to stdout, then waits until it has drained when its buffer is full. */
  private async written(text: string): Promise<void> {
    this.print(text);
    this.flush();
    await this.draining;
  }
}
