import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SavedGrade, SavedResults } from '../../core/cases/results';
import type { CellResult } from '../../core/cases/types';
import type { Api } from '../platform/api';
import type { Config } from '../platform/config';
import { coreBundle } from '../platform/lazy';

/** Where a case file's results are kept, and how the grid names the place. */
export interface ResultsPlace {
  uri: vscode.Uri;
  /** what the grid says: a path in the workspace, or "the workspace storage" */
  shown: string;
  /** the full path, for a tooltip */
  full: string;
  /** the repository's `.promptwright/`, when they are kept there */
  kept?: string;
}

/**
 * The last results of each case file (core/cases/results.ts): in VS Code's workspace storage by default, so
 * running cases writes nothing into the repository; with `promptwright.cases.resultsInRepository`, in
 * `.promptwright/results/` under the case file's workspace folder, for a team that commits them. Reading
 * and writing never throw: results are a cache, and a run goes on without them.
 */
export class CasesResults {
  constructor(
    private readonly config: Config,
    /** ExtensionContext.storageUri (undefined without a workspace) and globalStorageUri */
    private readonly storage: { workspace: vscode.Uri | undefined; global: vscode.Uri },
    private readonly api: Pick<Api, 'showError'>,
  ) {}

  place(caseUri: vscode.Uri): ResultsPlace | undefined {
    if (caseUri.scheme === 'untitled') return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(caseUri);
    const root = folder?.uri.fsPath ?? path.dirname(caseUri.fsPath);
    const core = coreBundle();
    const kept = this.keptIn(caseUri);
    if (kept) {
      const uri = vscode.Uri.file(core.resultsPath(caseUri.fsPath, root));
      const shown = folder ? vscode.workspace.asRelativePath(uri) : uri.fsPath;
      return { uri, shown, full: uri.fsPath, kept };
    }
    // in a workspace with several folders, each folder's results apart
    const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const name = core.resultsName(caseUri.fsPath, root).split(path.sep);
    const base = this.storage.workspace ?? this.storage.global;
    const uri = vscode.Uri.joinPath(base, 'results', ...(several && folder ? [folder.name] : []), ...name);
    return { uri, shown: 'the workspace storage', full: uri.scheme === 'file' ? uri.fsPath : uri.toString() };
  }

  /**
   * The repository's `.promptwright/` when results are kept there (`promptwright.cases.resultsInRepository`, which
   * only the user's settings turn on in Restricted Mode); undefined when they are kept in VS Code's storage.
   */
  private keptIn(caseUri: vscode.Uri): string | undefined {
    if (!this.config.casesResultsInRepository || caseUri.scheme !== 'file') return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(caseUri);
    return coreBundle().keptFolder(folder?.uri.fsPath ?? path.dirname(caseUri.fsPath));
  }

  /**
   * Where judges' verdicts are kept: beside the results (`verdicts/` in the workspace storage, or
   * `.promptwright/verdicts/` in the repository, `kept`, where no symbolic link is followed), on disk; undefined
   * where there is no disk folder.
   */
  verdictsFolder(caseUri: vscode.Uri): { dir: string; kept?: string } | undefined {
    const where = this.place(caseUri);
    if (!where || where.uri.scheme !== 'file') return undefined;
    if (where.kept) return { dir: path.join(where.kept, 'verdicts'), kept: where.kept };
    const base = this.storage.workspace ?? this.storage.global;
    return base.scheme === 'file' ? { dir: path.join(base.fsPath, 'verdicts') } : undefined;
  }

  async read(caseUri: vscode.Uri): Promise<SavedResults | undefined> {
    const where = this.place(caseUri);
    if (!where) return undefined;
    try {
      return coreBundle().parseResults(new TextDecoder().decode(await vscode.workspace.fs.readFile(where.uri)));
    } catch {
      return undefined; // no results yet
    }
  }

  /**
   * Writes a case file's results and the grades people gave its replies; returns where, or undefined when they
   * could not be written (said once).
   */
  async write(
    caseUri: vscode.Uri,
    results: readonly CellResult[],
    grades: readonly SavedGrade[] = [],
  ): Promise<ResultsPlace | undefined> {
    const where = this.place(caseUri);
    if (!where) return undefined;
    try {
      const text = coreBundle().serializeResults(vscode.workspace.asRelativePath(caseUri), results, new Date(), grades);
      // in the repository, never through a symbolic link out of .promptwright/
      if (where.kept) await coreBundle().writeKept(where.kept, where.uri.fsPath, text);
      else {
        await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(where.uri, '..'));
        await vscode.workspace.fs.writeFile(where.uri, new TextEncoder().encode(text));
      }
      return where;
    } catch (e) {
      void this.api.showError(e, `Could not save the results of Run Cases to ${where.full}`);
      return undefined;
    }
  }
}
