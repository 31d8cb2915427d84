// The Cases grid's "Compare with…": which git revision (a quick pick of HEAD, the branches and tags, or one
// typed), and the case file as it was there made into cells: the case file and the request it named then,
// read at that commit (core/cases/versions.ts), opened as the CLI's `test --base` opens them
// (core/cases/session.ts), each cell's body filled in, or why it cannot be sent. The run itself is the grid's
// (casesRunner.ts): both versions' cells in one matrix, under one concurrency limit.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { cellKey } from '../../core/cases/grid';
import type { BaseVersionCells } from '../../core/cases/gridCompare';
import type { RunCell } from '../../core/cases/engine';
import type { LoadedCaseFile } from '../../core/cases/load';
import type { FilledCell } from '../../core/cases/session';
import type { CellKey } from '../../core/cases/types';
import type { GitRef } from '../../core/git/git';
import type { GitBase } from '../git/gitBase';
import { coreBundle } from '../platform/lazy';
import type { Prompts } from '../platform/prompts';

export interface BaseVersion extends BaseVersionCells {
  cells: FilledCell[];
}

/** The cells of one run whose bodies passed the check, ready for the engine; `base`: a cell at the revision. */
export type ReadyCell = RunCell & { base?: true };

/** The run's cells with their sides at the revision: each after its own, then those only the revision has. */
export function withBaseCells(ready: ReadyCell[], base: BaseVersion, take: (c: CellKey) => boolean): ReadyCell[] {
  const others = new Map<string, ReadyCell>();
  for (const c of base.cells)
    if (c.cell && take(c)) others.set(cellKey(c.caseName, c.model), { ...c.cell, base: true });
  const cells = ready.flatMap(c => {
    const other = others.get(cellKey(c.caseName, c.model));
    others.delete(cellKey(c.caseName, c.model));
    return other ? [c, other] : [c];
  });
  return [...cells, ...others.values()];
}

const fileName = (uri: vscode.Uri) => path.basename(uri.fsPath);

/**
 * The case file `caseUri` as it was at `ref`, made into cells; or why there is nothing to compare with (no
 * repository, a revision git does not know). A case file the revision does not have is compared as new
 * (no cells); one that cannot be used there has problems for every cell.
 */
export async function readBase(
  git: GitBase,
  caseUri: vscode.Uri,
  ref: string,
  betas: string[],
): Promise<BaseVersion | string> {
  const name = fileName(caseUri);
  const revision = await git.revision(caseUri, ref);
  if (revision.kind === 'none') return `${name} is not in a git repository: there is no ${ref} to compare with.`;
  if (revision.kind === 'error') return `Cannot compare with ${ref}: ${revision.message}`;
  const { repo, sha, repoPath } = revision;
  const at = `${ref} (${sha.slice(0, 7)})`;
  const core = coreBundle();
  const texts = await core.caseFileAt(repo, sha, [repoPath]);
  // git's paths: the keys of what it read (symbolic links resolved)
  const abs = repo.absPath(repoPath);
  if (texts.get(abs) === undefined)
    return { ref, sha, notice: `${name} is not in ${at}: every cell is new.`, cells: [] };
  // opened as the working copy is, its dataset's rows included; problems name the files relative to its folder
  const opened = await core.openCaseFile(abs, path.dirname(abs), core.revisionSource(texts), { display: name });
  // a cell whose filled request has errors is not sent: it says why, as the working copy's cells do
  const version = core.versionCells(opened, { betas });
  if (version.cells) return { ref, sha, cells: version.cells };
  const { problems } = version;
  const notice = `The version in ${at} cannot be run: ${problems[0]}${problems.length > 1 ? ' (and more)' : ''}`;
  return { ref, sha, notice, problems, cells: [] };
}

/** The name of the side that runs on an improved prompt (Improve Prompt…'s Compare with the Improved Prompt). */
export const IMPROVED = 'the improved prompt';

/** The working copy as the base of a comparison with an improved prompt: its cells, each ready or why not. */
export function workingCopyBase(loaded: LoadedCaseFile & { cells: CellKey[] }, betas: string[]): BaseVersion {
  return { ref: 'the working copy', sha: '', cells: coreBundle().filledCells(loaded, loaded.cells, { betas }) };
}

type RefChoice = vscode.QuickPickItem & { ref?: string };

const REF_ICON: Record<GitRef['kind'], string> = { branch: 'git-branch', tag: 'tag', remote: 'cloud' };

/**
 * The revision to compare a case file with: `ref` when `given`, else the person's choice (undefined when
 * cancelled); outside git, why there is none (for the caller to say at once: nothing is asked, nothing runs).
 */
export async function askRevision(
  prompts: Prompts,
  git: GitBase,
  caseUri: vscode.Uri,
  ref: string,
  given: boolean,
): Promise<{ ref: string } | { notInGit: string } | undefined> {
  if (git.restriction) return { notInGit: git.restriction };
  if (!(await git.inRepository(caseUri))) {
    return { notInGit: `${fileName(caseUri)} is not in a git repository: there is no revision to compare it with.` };
  }
  const chosen = given ? ref : await chooseRef(prompts, git, caseUri, ref || 'HEAD');
  return chosen ? { ref: chosen } : undefined;
}

/**
 * Asks which revision to compare a case file with: the default (`promptwright.compare.base`) first, HEAD,
 * the repository's branches and tags, or one typed. Undefined when the person cancels.
 */
async function chooseRef(
  prompts: Prompts,
  git: GitBase,
  caseUri: vscode.Uri,
  defaultRef: string,
): Promise<string | undefined> {
  const refs = await git.refs(caseUri);
  const items: RefChoice[] = [
    {
      label: `$(git-commit) ${defaultRef}`,
      description: defaultRef === 'HEAD' ? 'the last commit · the default' : 'the default',
      detail: 'promptwright.compare.base',
      ref: defaultRef,
    },
    ...(defaultRef === 'HEAD' ? [] : [{ label: '$(git-commit) HEAD', description: 'the last commit', ref: 'HEAD' }]),
  ];
  const listed = refs.filter(r => r.name !== defaultRef);
  if (listed.length) {
    items.push({ label: 'Branches and tags', kind: vscode.QuickPickItemKind.Separator });
    for (const r of listed) items.push({ label: `$(${REF_ICON[r.kind]}) ${r.name}`, description: r.kind, ref: r.name });
  }
  items.push({ label: '$(edit) Another revision…', detail: 'A commit, HEAD~2, a tag: typed', ref: undefined });
  const title = `Compare ${fileName(caseUri)} with…`;
  const picked = await prompts.pick(items, {
    title,
    placeHolder: 'A git revision: every cell runs on its version and on the working copy',
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (picked.ref) return picked.ref;
  const typed = await prompts.input({
    title,
    prompt: 'A git revision: HEAD~1, a branch, a tag or a commit',
    value: defaultRef,
    validateInput: v => (v.trim() && !v.trim().startsWith('-') ? undefined : 'A revision name.'),
  });
  return typed?.trim() || undefined;
}
