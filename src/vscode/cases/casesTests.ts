import * as vscode from 'vscode';
import { caseOutline } from '../../core/cases/outline';
import type { CaseFile, CellKey } from '../../core/cases/types';
import type { Locate } from '../../core/request/parse/types';
import { LineIndex } from '../../core/text';
import type { Log } from '../platform/log';
import type { CaseDiagnostics, CaseEntry } from './caseDiagnostics';
import type { CasesRunner, RunReporter, RunReporters, RunStart, RunTarget } from './casesRunner';
import type { CasesTestController, CasesTestHandlers } from './casesTestController';
import { CaseFileTestRun, type Reported, type TestItems } from './casesTestRun';
import { Disposable } from '../platform/lifecycle';

/** What an item stands for: a case file, one of its cases, or a case on a model. */
type Level = { kind: 'file' } | { kind: 'case'; caseName: string } | { kind: 'cell'; caseName: string; model: string };

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
 * For extension-host tests: `reported()` is what the Test Explorer was last told of each item.
 */
export class CasesTests extends Disposable implements CasesTestHandlers, RunReporters, TestItems {
  readonly controller: vscode.TestController;
  readonly runProfile: vscode.TestRunProfile;
  readonly batchProfile: vscode.TestRunProfile;
  private readonly said = new Map<string, Reported>();

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
    if (item) return; // a file's items are made with it
    await this.cases.ready;
    for (const e of this.cases.all()) this.sync(fromEntry(e));
    this.prune();
  }

  fileItem(caseUri: vscode.Uri): vscode.TestItem | undefined {
    return this.controller.items.get(caseUri.toString());
  }

  cellItem(caseUri: vscode.Uri, cell: CellKey): vscode.TestItem | undefined {
    return this.fileItem(caseUri)?.children.get(cell.caseName)?.children.get(cell.model);
  }

  itemsFor(run: RunStart): void {
    // a run of a file whose check has not come yet (just written, or outside the workspace)
    if (!run.cells.every(c => this.cellItem(run.caseUri, c)))
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
    item.children.replace(
      outline.cases.map(c => {
        const caseItem = item.children.get(c.name) ?? this.controller.createTestItem(c.name, c.name, s.uri);
        caseItem.range = range(c.span);
        caseItem.sortText = String(c.index).padStart(6, '0');
        const asserts = s.file!.cases[c.index]?.assert?.length ?? 0;
        caseItem.description = asserts === 1 ? '1 assertion' : `${asserts} assertions`;
        caseItem.children.replace(
          outline.models.map((model, m) => {
            const cell = caseItem.children.get(model) ?? this.controller.createTestItem(model, model, s.uri);
            // on the case's line: the gutter icon of that line runs the case, its menu each model
            cell.range = caseItem.range;
            cell.sortText = String(m).padStart(4, '0');
            return cell;
          }),
        );
        return caseItem;
      }),
    );
    this.controller.items.add(item);
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

  /** The asked items as each case file's cells (what `exclude` leaves of them). */
  private byFile(request: vscode.TestRunRequest) {
    const included: vscode.TestItem[] = [];
    if (request.include) included.push(...request.include);
    else this.controller.items.forEach(i => included.push(i));
    const excluded = new Set((request.exclude ?? []).map(uniqueKey));
    const out = new Map<string, { uri: vscode.Uri; items: vscode.TestItem[]; cells: CellKey[]; whole: boolean }>();
    for (const item of included) {
      const uri = item.uri;
      if (!uri) continue;
      const key = uri.toString();
      const part = out.get(key) ?? { uri, items: [], cells: [], whole: false };
      out.set(key, part);
      part.items.push(item);
      const level = levelOf(item);
      if (level.kind === 'file' && !item.children.size && !excluded.size) part.whole = true; // not made yet
      for (const cell of cellsUnder(item)) {
        if (excluded.has(uniqueKey(cell.item)) || excluded.has(uniqueKey(cell.item.parent!))) continue;
        if (!part.cells.some(c => c.caseName === cell.caseName && c.model === cell.model)) part.cells.push(cell);
      }
    }
    const targets = new Map<string, { uri: vscode.Uri; items: vscode.TestItem[]; target: RunTarget }>();
    for (const [key, p] of out) {
      if (!p.whole && !p.cells.length) continue;
      const target: RunTarget = p.whole ? { scope: 'all' } : { scope: 'cells', cells: p.cells };
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

function levelOf(item: vscode.TestItem): Level {
  if (!item.parent) return { kind: 'file' };
  if (!item.parent.parent) return { kind: 'case', caseName: item.id };
  return { kind: 'cell', caseName: item.parent.id, model: item.id };
}

/** The case × model items under an item (itself, for one). */
function cellsUnder(item: vscode.TestItem): (CellKey & { item: vscode.TestItem })[] {
  const level = levelOf(item);
  if (level.kind === 'cell') return [{ caseName: level.caseName, model: level.model, item }];
  const out: (CellKey & { item: vscode.TestItem })[] = [];
  item.children.forEach(child => out.push(...cellsUnder(child)));
  return out;
}

/** An item's ids from its file's down: unique in the workspace. */
const uniqueKey = (item: vscode.TestItem): string =>
  item.parent ? `${uniqueKey(item.parent)}\u0000${item.id}` : item.id;

/** `examples/support.cases.yaml › greeting › model-haiku-4-5`. */
function idPath(item: vscode.TestItem): string {
  const parts: string[] = [];
  for (let i: vscode.TestItem | undefined = item; i; i = i.parent)
    parts.unshift(i.parent ? i.id : vscode.workspace.asRelativePath(i.uri ?? vscode.Uri.parse(i.id)));
  return parts.join(' › ');
}
