// A file as it is at a git revision, read from the extension host with the `git` executable (the
// built-in Git extension may be missing, disabled or not yet activated; the executable is there whenever
// git is): the repository of each folder found once, the revision's commit asked for each time (it moves
// with every commit and checkout), and the file's text kept by commit, so an unchanged base costs one
// rev-parse. Nothing runs until a caller asks, and the git code loads with the core bundle.
//
// Which git runs is the person's choice, never a workspace's: the Git extension's own (its API's `git.path`,
// which it reads from the machine's settings), else `git.path` from the user's settings, else `git` on the PATH.
// In Restricted Mode no git runs at all: a repository's files could point it at a program of their own.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GitRef, GitRepo } from '../../core/git/git';
import { coreBundle } from '../platform/lazy';
import type { Log } from '../platform/log';

/** A file at a revision: its text; `new` when it is not there; `none` outside git (or without git). */
export type BaseText =
  | { kind: 'text'; ref: string; sha: string; text: string }
  | { kind: 'new'; ref: string; sha: string }
  | { kind: 'none' }
  | { kind: 'error'; ref: string; message: string };

/** A revision in the repository of a file: its commit; `none` outside git (or without git). */
export type Revision =
  | { kind: 'commit'; repo: GitRepo; sha: string; repoPath: string }
  | { kind: 'none' }
  | { kind: 'error'; ref: string; message: string };

/** What Restricted Mode means for changes against a revision. */
const GIT_RESTRICTED = 'git does not run in Restricted Mode: trust this workspace to compare with a git revision';

/** What the Git extension's API gives (extensions/git/src/api/git.d.ts), as far as it is read here. */
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): { readonly git: { readonly path: string } };
}

/** How long a folder found in no repository is taken to be in none. */
const NO_REPO_RECHECK_MS = 30_000;

/** Texts kept (by commit and path): enough for the files a person switches between. */
const MAX_TEXTS = 50;

export class GitBase {
  /** each folder's repository; a folder in none is asked again after a while (a `git init` since) */
  private readonly repos = new Map<string, { repo: Promise<GitRepo | undefined>; at: number }>();
  private readonly texts = new Map<string, BaseText>();
  private warnedNoGit = false;

  private saidRestricted = false;

  constructor(private readonly log: Pick<Log, 'info' | 'warn'>) {}

  /**
   * The git executable: the one the Git extension found, else the user's own `git.path` (never a workspace's:
   * with the Git extension disabled VS Code does not know that setting's scope, and would take a workspace's),
   * else undefined (`git` on the PATH).
   */
  private async gitPath(): Promise<string | undefined> {
    const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
    try {
      const git = ext && (ext.isActive ? ext.exports : await ext.activate());
      const found = git?.enabled ? git.getAPI(1).git.path : undefined;
      if (found) return found;
    } catch {
      /* the Git extension has no git for us: the user's setting */
    }
    const p = vscode.workspace.getConfiguration('git').inspect<unknown>('path')?.globalValue;
    const first = Array.isArray(p) ? (p[0] as unknown) : p;
    return typeof first === 'string' && first.trim() ? first.trim() : undefined;
  }

  /** Why no git runs here, in words (Restricted Mode), or undefined when it may. */
  get restriction(): string | undefined {
    return vscode.workspace.isTrusted ? undefined : GIT_RESTRICTED;
  }

  /** In Restricted Mode no git runs (said once in the log); true when it may. */
  private mayRun(): boolean {
    if (vscode.workspace.isTrusted) return true;
    if (!this.saidRestricted) this.log.info(`compare: ${GIT_RESTRICTED}`);
    this.saidRestricted = true;
    return false;
  }

  private async repoOf(dir: string): Promise<GitRepo | undefined> {
    if (!this.mayRun()) return undefined;
    const known = this.repos.get(dir);
    if (known && ((await known.repo) || Date.now() - known.at < NO_REPO_RECHECK_MS)) return known.repo;
    const gitPath = await this.gitPath();
    // the git module is in the core bundle, which the first check of a request file has loaded
    const { GitRepo, GitError } = coreBundle();
    const repo = GitRepo.open(dir, gitPath ? { gitPath } : {}).catch((e: unknown) => {
      if (e instanceof GitError && e.reason === 'no-git') {
        if (!this.warnedNoGit) this.log.warn(`compare: ${e.message}; changes against a git revision are not shown`);
        this.warnedNoGit = true;
      } else this.log.info(`compare: git cannot read ${dir}: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    });
    this.repos.set(dir, { repo, at: Date.now() });
    return repo;
  }

  /**
   * The repository that holds `uri` and the commit `ref` names there, for reads of several files at once (a
   * case file and its request: core/cases/versions.ts). Never throws.
   */
  async revision(uri: vscode.Uri, ref: string): Promise<Revision> {
    if (uri.scheme !== 'file') return { kind: 'none' };
    if (!this.mayRun()) return { kind: 'error', ref, message: GIT_RESTRICTED };
    const repo = await this.repoOf(path.dirname(uri.fsPath));
    const repoPath = repo?.repoPath(uri.fsPath);
    if (!repo || !repoPath) return { kind: 'none' };
    try {
      return { kind: 'commit', repo, sha: await repo.commit(ref), repoPath };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.log.info(`compare: ${ref} for ${uri.fsPath}: ${message}`);
      return { kind: 'error', ref, message };
    }
  }

  /** Whether `uri` is in a git repository (git installed, and the folder in one). Never throws. */
  async inRepository(uri: vscode.Uri): Promise<boolean> {
    return uri.scheme === 'file' && !!(await this.repoOf(path.dirname(uri.fsPath)));
  }

  /** The branches, tags and remote branches of the repository that holds `uri`; none outside git. Never throws. */
  async refs(uri: vscode.Uri): Promise<GitRef[]> {
    if (uri.scheme !== 'file') return [];
    const repo = await this.repoOf(path.dirname(uri.fsPath));
    try {
      return (await repo?.refs()) ?? [];
    } catch (e) {
      this.log.info(`compare: the refs of ${repo?.root ?? uri.fsPath}: ${e instanceof Error ? e.message : String(e)}`);
      return [];
    }
  }

  /** The file `uri` as it is at `ref`. Never throws. */
  async textAt(uri: vscode.Uri, ref: string): Promise<BaseText> {
    const at = await this.revision(uri, ref);
    if (at.kind !== 'commit') return at;
    const { repo, sha, repoPath } = at;
    const key = `${sha}:${repoPath}`;
    const known = this.texts.get(key);
    if (known) return known;
    try {
      const bytes = (await repo.readAt(sha, [repoPath])).get(repoPath);
      let text: BaseText;
      if (!bytes) text = { kind: 'new', ref, sha };
      else {
        try {
          text = { kind: 'text', ref, sha, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
        } catch {
          text = { kind: 'error', ref, message: 'the file is not UTF-8 text there' };
        }
      }
      this.texts.set(key, text);
      while (this.texts.size > MAX_TEXTS) this.texts.delete(this.texts.keys().next().value as string);
      return text;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.log.info(`compare: ${uri.fsPath} at ${ref}: ${message}`);
      return { kind: 'error', ref, message };
    }
  }
}
