import * as vscode from 'vscode';
import { caseOutline } from '../../core/cases/outline';
import type { CaseFile, CellKey } from '../../core/cases/types';
import type { Locate } from '../../core/request/parse/types';
import { count, LineIndex } from '../../core/text';
import { coreBundle } from '../platform/lazy';
import type { Log } from '../platform/log';
import { openDataset, requestUriOf, type CaseDiagnostics, type CaseEntry } from './caseDiagnostics';
import { varsLine } from './casesGrid';
import type { CasesRunner, RunTarget } from './casesRunner';
import type { CasesTestController, CasesTestHandlers } from './casesTestController';
import {
  CaseFileTestRun,
  type Reported,
  type RunReporter,
  type RunReporters,
  type RunStart,
  type TestItems,
} from './casesTestRun';
import { Disposable } from '../platform/lifecycle';

/** What an item stands for: a case file, its dataset, one of its cases (or rows), a case on a model, more rows. */
type Level =
  | { kind: 'file' | 'dataset' | 'more' }
  | { kind: 'case'; caseName: string }
  | { kind: 'cell'; caseName: string; model: string };

/** The ids of a case file's dataset item and of the item that lists the next page of its rows (no case is named so). */
const DATASET = '\ndataset';
const MORE = '\nmore';
/** The dataset's rows listed at each expand. */
const PAGE = 100;

/** What a dataset item has listed of its rows. */
interface Listed {
  /** rows listed so far */
  rows: number;
  /** each row's models (the case file's) */
  models: string[];
  /** the listing under way: one at a time */
  loading: Promise<void>;
}

/** What the items of a file are made from: a check of the file (CaseDiagnostics) or a run of it. */
interface Source {
  uri: vscode.Uri;
  file: CaseFile | undefined;
  text: string;
  locate: Locate;
  requestModel: string | undefined;
  errors: number;
}

const fileName = (uri: vscode.Uri) => uri.path.split('/').pop() ?? uri.path;

/**
 * Case files in the Test Explorer: each case file an item (at its `cases:` line), each case an item at its
 * line (a gutter icon there), each case on each model an item under it. The items follow the checks of the
 * case files (casesDiagnostics.ts: as they are typed, saved, created, deleted); the workspace is searched only
 * when VS Code first asks for the tests. A run from the Test Explorer or the gutter goes to the one runner
 * (casesRunner.ts), which also draws the grid; a run from the grid or a command is reported here as a test
 * run of its own. Either way both views show the same run, and the Test Explorer's Cancel stops it.
 *
 * A case file's dataset is one item (at the dataset file's first line) whose rows are listed when it is expanded,
 * a page at a time: the last item of a page ("More rows…") lists the next when it is expanded. Each row is an
 * item at its lines in the dataset file (its gutter icon there; Go to Test opens it), with its models under it;
 * running the dataset's item runs every row, listed or not, and it says how many passed.
 *
 * For extension-host tests: `reported()` is what the Test Explorer was last told of each item.
 */
export class CasesTests extends Disposable implements CasesTestHandlers, RunReporters, TestItems {
  readonly controller: vscode.TestController;
  readonly runProfile: vscode.TestRunProfile;
  readonly batchProfile: vscode.TestRunProfile;
  private readonly said = new Map<string, Reported>();
  private readonly listed = new WeakMap<vscode.TestItem, Listed>();

  constructor(
    testController: CasesTestController,
    private readonly cases: CaseDiagnostics,
    private readonly runner: CasesRunner,
    private readonly log: Log,
  ) {
    super();
    this.controller = testController.controller;
    this.runProfile = testController.runProfile;
    this.batchProfile = testController.batchProfile;
    runner.reporters = this;
    this.register(cases.onDidCheck(e => (e ? this.sync(fromEntry(e)) : this.prune())));
    for (const e of cases.all()) this.sync(fromEntry(e));
  }

  // ---- the items ----------------------------------------------------------------------------------------

  async resolve(item: vscode.TestItem | undefined): Promise<void> {
    const dataset = item?.id.startsWith(MORE) ? item.parent : item;
    if (dataset?.id === DATASET) return this.listRows(dataset, 'next');
    if (item) return; // a file's items are made with it
    await this.cases.ready;
    for (const e of this.cases.all()) this.sync(fromEntry(e));
    this.prune();
  }

  fileItem(caseUri: vscode.Uri): vscode.TestItem | undefined {
    return this.controller.items.get(caseUri.toString());
  }

  cellItem(caseUri: vscode.Uri, cell: CellKey): vscode.TestItem | undefined {
    const file = this.fileItem(caseUri);
    const at = file?.children.get(cell.caseName) ?? file?.children.get(DATASET)?.children.get(cell.caseName);
    return at?.children.get(cell.model);
  }

  datasetItem(caseUri: vscode.Uri): vscode.TestItem | undefined {
    return this.fileItem(caseUri)?.children.get(DATASET);
  }

  itemsFor(run: RunStart): void {
    // a run of a file whose check has not come yet (just written, or outside the workspace); a dataset's rows are
    // items only once listed
    const file = this.fileItem(run.caseUri);
    if (!file || (!file.children.get(DATASET) && !run.cells.every(c => this.cellItem(run.caseUri, c))))
      this.sync({
        uri: run.caseUri,
        file: run.file,
        text: run.text,
        locate: run.locate,
        requestModel: run.requestModel,
        errors: 0,
      });
  }

  /** Makes or updates a file's items from its parse; items that stay keep their results. */
  private sync(s: Source): void {
    if (s.uri.scheme === 'untitled') return;
    const id = s.uri.toString();
    const item = this.controller.items.get(id) ?? this.controller.createTestItem(id, fileName(s.uri), s.uri);
    const folder = vscode.workspace.asRelativePath(vscode.Uri.joinPath(s.uri, '..'), false);
    item.description = folder === vscode.Uri.joinPath(s.uri, '..').fsPath ? undefined : folder;
    item.error = s.errors
      ? `${s.errors === 1 ? 'An error' : `${s.errors} errors`} in this case file: nothing runs until it is fixed.`
      : undefined;
    const lines = new LineIndex(s.text);
    const range = (span: { start: number; end: number }) => {
      const a = lines.position(span.start);
      const b = lines.position(span.end);
      return new vscode.Range(a.line, a.character, b.line, b.character);
    };
    if (!s.file) {
      item.range = undefined;
      item.children.replace([]);
      this.controller.items.add(item);
      return;
    }
    const outline = caseOutline(s.file, s.locate, s.requestModel);
    item.range = outline.casesKey && range(outline.casesKey);
    const dataset = this.datasetOf(item, s, outline.models);
    item.children.replace([
      ...outline.cases.map(c => {
        const caseItem = item.children.get(c.name) ?? this.controller.createTestItem(c.name, c.name, s.uri);
        caseItem.range = range(c.span);
        caseItem.sortText = String(c.index).padStart(6, '0');
        const asserts = s.file!.cases[c.index]?.assert?.length ?? 0;
        caseItem.description = asserts === 1 ? '1 assertion' : `${asserts} assertions`;
        this.modelItems(caseItem, outline.models);
        return caseItem;
      }),
      ...(dataset ? [dataset] : []),
    ]);
    this.controller.items.add(item);
  }

  /**
   * The item of a case file's dataset, after its cases: its rows listed when it is first expanded. When the case
   * file is checked again (it or its dataset changed), the rows listed so far are listed again.
   */
  private datasetOf(file: vscode.TestItem, s: Source, models: string[]): vscode.TestItem | undefined {
    const name = s.file?.dataset;
    const uri = name ? requestUriOf(s.uri, name) : undefined;
    if (!name || !uri) return undefined;
    const old = file.children.get(DATASET);
    const item = old?.uri?.toString() === uri.toString() ? old : this.controller.createTestItem(DATASET, name, uri);
    item.range = new vscode.Range(0, 0, 0, 0);
    item.sortText = 'z'; // after the listed cases (digits)
    const listed = this.listed.get(item) ?? { rows: 0, models, loading: Promise.resolve() };
    this.listed.set(item, listed);
    listed.models = models;
    if (listed.rows) void this.listRows(item, 'again');
    else {
      item.canResolveChildren = true;
      item.description = 'its rows are listed when expanded';
    }
    return item;
  }

  /**
   * Lists a dataset item's rows: the `next` page (an expand), or `again` as many as were listed (the case file or
   * its dataset changed). The dataset is read from its start to the end of the page, and no further.
   */
  private listRows(item: vscode.TestItem, which: 'next' | 'again'): Promise<void> {
    const listed = this.listed.get(item);
    if (!listed) return Promise.resolve();
    listed.loading = listed.loading.then(() =>
      this.listPage(item, listed, which === 'next' ? listed.rows + PAGE : Math.max(listed.rows, PAGE)).catch(
        (e: unknown) => {
          item.error = `The dataset cannot be read: ${e instanceof Error ? e.message : String(e)}`;
        },
      ),
    );
    return listed.loading;
  }

  private async listPage(item: vscode.TestItem, listed: Listed, size: number): Promise<void> {
    const entry = this.cases.all().find(e => e.uri.toString() === item.parent?.id);
    const caseFile = entry?.file;
    const core = coreBundle();
    const format = caseFile?.dataset ? core.datasetFormatOf(caseFile.dataset) : undefined;
    const chunks = format && item.uri && openDataset(item.uri);
    if (!caseFile || !format || !chunks) {
      item.error = 'The dataset cannot be read.';
      return;
    }
    const scan = await core.scanSuite({
      listed: caseFile.cases.map(c => ({ ...c, line: 1 })),
      dataset: { chunks, format },
      page: { from: 0, size },
    });
    const rows = scan.chosen.map((c, i) => {
      const row = item.children.get(c.name) ?? this.controller.createTestItem(c.name, c.name, item.uri);
      // its lines in the dataset: the gutter icon on the first, Go to Test selects them
      row.range = new vscode.Range(c.line - 1, 0, (c.endLine ?? c.line) - 1, Number.MAX_SAFE_INTEGER);
      row.sortText = String(i).padStart(9, '0');
      const vars = varsLine(c.vars).replace(/\s+/g, ' ');
      row.description = vars.length > 80 ? `${vars.slice(0, 79)}…` : vars;
      this.modelItems(row, listed.models);
      return row;
    });
    listed.rows = scan.chosen.length;
    if (scan.more) {
      // a new item each page: VS Code resolves an item once
      const more = this.controller.createTestItem(`${MORE} ${listed.rows}`, 'More rows…');
      more.description = `expand to list the next ${PAGE}`;
      more.sortText = 'z';
      more.canResolveChildren = true;
      rows.push(more);
    }
    item.children.replace(rows);
    item.canResolveChildren = false;
    item.error = undefined;
    item.description = scan.more
      ? `${count(listed.rows, 'row')} listed, more when expanded`
      : count(listed.rows, 'row');
  }

  /** A case's (or row's) item on each model: on its line, where the gutter icon runs the case, its menu each model. */
  private modelItems(caseItem: vscode.TestItem, models: string[]): void {
    caseItem.children.replace(
      models.map((model, m) => {
        const cell = caseItem.children.get(model) ?? this.controller.createTestItem(model, model, caseItem.uri);
        cell.range = caseItem.range;
        cell.sortText = String(m).padStart(4, '0');
        return cell;
      }),
    );
  }

  /** Forgets the items of case files no longer known (deleted, renamed). */
  private prune(): void {
    const known = new Set(this.cases.all().map(e => e.uri.toString()));
    const gone: string[] = [];
    this.controller.items.forEach(item => {
      if (!known.has(item.id)) gone.push(item.id);
    });
    for (const id of gone) this.controller.items.delete(id);
  }

  // ---- runs ---------------------------------------------------------------------------------------------

  /**
   * The Run profiles: the asked items' cells, file after file, through the one runner; `batch` ("Run as Batch
   * (half price)"): each file's cells as a Message Batch, waited for, then settled as a direct run's.
   */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken, batch = false): Promise<void> {
    if (!request.include) await this.resolve(undefined);
    const run = this.controller.createTestRun(
      request,
      batch ? 'Promptwright Cases (batch)' : 'Promptwright Cases',
      true,
    );
    try {
      for (const [uri, part] of this.byFile(request)) {
        if (token.isCancellationRequested) break;
        const reporter = new CaseFileTestRun(run, this, part.uri, part.items, false);
        await this.runner.run(part.uri, part.target, {
          reporter,
          token,
          reveal: false,
          ...(batch ? { batch: {} } : {}),
        });
        this.log.info(`Test Explorer: ran ${part.items.length} item(s) of ${uri}`);
      }
    } finally {
      run.end();
    }
  }

  /** A run the grid (or a command) started: a test run of its own, whose Cancel cancels it. */
  forRun(caseUri: vscode.Uri, cancel: () => void): RunReporter | undefined {
    const file = this.fileItem(caseUri);
    const request = new vscode.TestRunRequest(file ? [file] : undefined);
    const run = this.controller.createTestRun(request, `Cases: ${fileName(caseUri)}`, true);
    const onCancel = run.token.onCancellationRequested(cancel);
    const report = new CaseFileTestRun(run, this, caseUri, [], true);
    return {
      begin: r => report.begin(r),
      notRun: m => report.notRun(m),
      started: c => report.started(c),
      ended: c => report.ended(c),
      end: () => {
        onCancel.dispose();
        report.end();
      },
    };
  }

  /** The asked items as each case file's cells (what `exclude` leaves of them), a dataset item as all its rows. */
  private byFile(request: vscode.TestRunRequest) {
    const included: vscode.TestItem[] = [];
    if (request.include) included.push(...request.include);
    else this.controller.items.forEach(i => included.push(i));
    const excluded = new Set((request.exclude ?? []).map(uniqueKey));
    type Part = { uri: vscode.Uri; items: vscode.TestItem[]; cells: CellKey[]; whole: boolean; dataset: boolean };
    const out = new Map<string, Part>();
    const visit = (item: vscode.TestItem, part: Part) => {
      if (excluded.has(uniqueKey(item))) return;
      const level = levelOf(item);
      if (level.kind === 'dataset') part.dataset = true;
      else if (level.kind === 'cell') {
        if (!part.cells.some(c => c.caseName === level.caseName && c.model === level.model))
          part.cells.push({ caseName: level.caseName, model: level.model });
      } else if (level.kind !== 'more') item.children.forEach(child => visit(child, part));
    };
    for (const item of included) {
      const file = fileOf(item);
      const uri = file.uri;
      if (!uri) continue;
      const key = uri.toString();
      const part = out.get(key) ?? { uri, items: [], cells: [], whole: false, dataset: false };
      out.set(key, part);
      part.items.push(item);
      if (file === item && !item.children.size && !excluded.size) part.whole = true; // not made yet
      visit(item, part);
    }
    const targets = new Map<string, { uri: vscode.Uri; items: vscode.TestItem[]; target: RunTarget }>();
    for (const [key, p] of out) {
      if (!p.whole && !p.cells.length && !p.dataset) continue;
      const target: RunTarget = p.whole
        ? { scope: 'all' }
        : { scope: 'cells', cells: p.cells, ...(p.dataset ? { dataset: true } : {}) };
      targets.set(key, { uri: p.uri, items: p.items, target });
    }
    return targets;
  }

  // ---- what tests observe -------------------------------------------------------------------------------

  record(item: vscode.TestItem, reported: Reported): void {
    this.said.set(idPath(item), reported);
  }

  /** What the Test Explorer was last told of each item, by `file › case › model` (the file in the workspace). */
  reported(): Record<string, Reported> {
    return Object.fromEntries(this.said);
  }

  override dispose(): void {
    if (this.runner.reporters === this) this.runner.reporters = undefined;
    super.dispose();
  }
}

function fromEntry(e: CaseEntry): Source {
  const errors = e.caseDiagnostics.filter(d => d.severity === vscode.DiagnosticSeverity.Error).length;
  return { uri: e.uri, file: e.file, text: e.text, locate: e.locate, requestModel: e.requestModel, errors };
}

/** An item's parent, a dataset's row's being the case file's (a row is a case as a listed one is). */
const up = (item: vscode.TestItem) => (item.parent?.id === DATASET ? item.parent.parent : item.parent);

function levelOf(item: vscode.TestItem): Level {
  if (item.id === DATASET) return { kind: 'dataset' };
  if (item.id.startsWith(MORE)) return { kind: 'more' };
  const parent = up(item);
  if (!parent) return { kind: 'file' };
  if (!up(parent)) return { kind: 'case', caseName: item.id };
  return { kind: 'cell', caseName: parent.id, model: item.id };
}

/** The case file's item an item is under. */
function fileOf(item: vscode.TestItem): vscode.TestItem {
  let i = item;
  while (i.parent) i = i.parent;
  return i;
}

/** An item's ids from its file's down: unique in the workspace. */
const uniqueKey = (item: vscode.TestItem): string =>
  item.parent ? `${uniqueKey(item.parent)}\u0000${item.id}` : item.id;

/** `examples/support.cases.yaml › greeting › model-haiku-4-5` (a dataset's row as a case; its item `dataset`). */
function idPath(item: vscode.TestItem): string {
  const parts: string[] = [];
  for (let i: vscode.TestItem | undefined = item; i; i = up(i))
    parts.unshift(
      i.id === DATASET ? 'dataset' : up(i) ? i.id : vscode.workspace.asRelativePath(i.uri ?? vscode.Uri.parse(i.id)),
    );
  return parts.join(' › ');
}
