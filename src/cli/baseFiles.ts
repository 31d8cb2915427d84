// `--base REF` and `--changed` for `count` and `test`: the git repository of the working directory, the
// commit REF names, what changed since, and each file a command compares with where it was at REF. Git
// runs as a child process (core/git/git.ts); outside a repository `--base` is a usage error.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitError, GitRepo, type FileChange } from '../core/git/git';
import { caseFileAt, revisionSource, textsAt, type RevisionText } from '../core/cases/versions';
import { parseCaseFile } from '../core/cases/caseFile';
import { CASE_FILE_PATTERNS, formatOf, isCaseFile } from '../core/fileNames';
import { globMatcher, walk } from '../core/files';
import { COUNT_FILE_PATTERNS } from '../core/request/count';
import { UsageError } from './args';
import { filesOf, readText, type FileSource } from './caseFiles';

/**
 * The files `--changed` looks at: the editor's defaults for request files (promptwright.requestFilePatterns),
 * count files (promptwright.countTokensFilePatterns) and case files.
 */
export const COMPARED_FILE_PATTERNS = [
  '**/*.prompt.json',
  '**/*.prompt.yaml',
  '**/*.prompt.yml',
  ...COUNT_FILE_PATTERNS,
  ...CASE_FILE_PATTERNS,
] as const;

const COMPARED = COMPARED_FILE_PATTERNS.map(globMatcher);

/** Whether a path ('/'-separated) is a request, count or case file by those patterns. */
export const isComparedFile = (p: string): boolean => COMPARED.some(re => re.test(p));

/** REF resolved in the working directory's repository, with what changed since. */
export interface Base {
  repo: GitRepo;
  /** as given (`origin/main`) */
  ref: string;
  sha: string;
  /** by repository path (where the file is now) */
  changes: Map<string, FileChange>;
  /** the working directory, symbolic links resolved (git's paths are) */
  cwd: string;
}

/** Opens the base; a usage error outside a repository, without git, or for a REF git does not know. */
export async function openBase(ref: string, cwd: string, signal?: AbortSignal): Promise<Base> {
  try {
    const repo = await GitRepo.open(cwd, signal ? { signal } : {});
    if (!repo) throw new UsageError(`--base needs a git repository: ${cwd} is not in one`);
    const sha = await repo.commit(ref);
    const changes = new Map((await repo.changes(sha)).map(c => [c.path, c]));
    return { repo, ref, sha, changes, cwd: fs.realpathSync.native(cwd) };
  } catch (e) {
    // nothing was sent: whatever git said, it is the input that cannot be used (exit 2)
    if (e instanceof GitError && !signal?.aborted) throw new UsageError(e.message);
    throw e;
  }
}

/** A file a command compares: where it is now and where it was at the base. */
export interface ComparedFile {
  /** relative to the working directory */
  display: string;
  /** on disk; undefined for a file deleted since the base */
  abs?: string;
  /** at the base, as a repository path; undefined for a file new since */
  basePath?: string;
  /** the base version's path on disk (where it was: a renamed file's old place) */
  baseAbs?: string;
  /** its path at the base, relative to the working directory, when it was renamed */
  renamedFrom?: string;
}

/**
 * The files to compare. With `changed`, every file `include` accepts that differs from the base (deleted
 * ones included): those under the working directory, or those `args` name (paths, folders, globs);
 * otherwise `args` as every command reads them (a folder stands for the files in it matching `folderGlob`).
 */
export function comparedFiles(
  base: Base,
  o: { args: readonly string[]; cwd: string; changed: boolean; folderGlob: string; include: (p: string) => boolean },
): ComparedFile[] {
  if (!o.changed) {
    return filesOf(o.args, o.cwd, o.folderGlob).map(abs => {
      const repoPath = base.repo.repoPath(abs);
      if (!repoPath) throw new UsageError(`${abs} is outside the git repository ${base.repo.root}`);
      return compared(base, repoPath, base.changes.get(repoPath), path.relative(o.cwd, abs) || abs);
    });
  }
  const filters = o.args.map(argFilter(o.cwd, base.cwd));
  const files: ComparedFile[] = [];
  for (const c of base.changes.values()) {
    const display = displayOf(base, c.path);
    if (!o.include(c.path)) continue;
    // without FILE, what is under the working directory; with FILE, what they name
    if (filters.length ? !filters.some(f => f(display)) : display.startsWith('../')) continue;
    files.push(compared(base, c.path, c, display));
  }
  return files.sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}

/** A path relative to the working directory, '/'-separated, of a repository path. */
function displayOf(base: Base, repoPath: string): string {
  return path.relative(base.cwd, base.repo.absPath(repoPath)).split(path.sep).join('/');
}

function compared(base: Base, repoPath: string, change: FileChange | undefined, display: string): ComparedFile {
  const basePath = change?.kind === 'added' ? undefined : change?.kind === 'renamed' ? change.from : repoPath;
  return {
    display,
    ...(change?.kind !== 'deleted' ? { abs: base.repo.absPath(repoPath) } : {}),
    ...(basePath !== undefined ? { basePath, baseAbs: base.repo.absPath(basePath) } : {}),
    ...(change?.kind === 'renamed' && basePath ? { renamedFrom: displayOf(base, basePath) } : {}),
  };
}

/** A FILE argument of `--changed` as a test of a display path: the file itself, a folder's files, or a glob. */
function argFilter(cwd: string, realCwd: string): (arg: string) => (display: string) => boolean {
  return arg => {
    const abs = path.resolve(cwd, arg);
    const rel = path.relative(cwd, abs).split(path.sep).join('/');
    if (/[*?{]/.test(arg)) {
      const re = globMatcher(arg.replace(/\\/g, '/').replace(/^\.\//, ''));
      return display => re.test(display);
    }
    // a folder or a file named as it is on disk (or was, for a deleted one)
    const relReal = path.relative(realCwd, abs).split(path.sep).join('/');
    const prefixes = [...new Set([rel, relReal])];
    return display => !rel || prefixes.some(p => display === p || display.startsWith(`${p}/`));
  };
}

/**
 * For `test --changed`: the case files to run, those that differ from the base and those whose request file
 * does (a changed prompt runs the cases written for it). Case files are looked for under the working
 * directory.
 */
export function changedCaseFiles(base: Base, o: { args: readonly string[]; cwd: string }): ComparedFile[] {
  const own = comparedFiles(base, { ...o, changed: true, folderGlob: '', include: isCaseFile });
  const seen = new Set(own.map(f => f.display));
  const changedPaths = new Set(base.changes.keys());
  const filters = o.args.map(argFilter(o.cwd, base.cwd));
  const extra: ComparedFile[] = [];
  for (const abs of walk(base.cwd)) {
    if (!isCaseFile(path.basename(abs))) continue;
    const repoPath = base.repo.repoPath(abs);
    if (!repoPath) continue;
    const display = displayOf(base, repoPath);
    if (seen.has(display) || (filters.length && !filters.some(f => f(display)))) continue;
    const read = readText(abs, display);
    if ('record' in read) continue;
    const file = parseCaseFile(read.text, formatOf(abs)).file;
    if (!file) continue;
    // a case file whose request or judge prompt changed has changed cells, though its own text is the same
    const named = [
      file.request,
      ...(file.judge?.prompt ? [file.judge.prompt] : []),
      ...(file.dataset ? [file.dataset] : []),
    ];
    const changed = named.some(n => {
      const inRepo = base.repo.repoPath(path.resolve(path.dirname(abs), n));
      return inRepo !== undefined && changedPaths.has(inRepo);
    });
    if (changed) extra.push(compared(base, repoPath, undefined, display));
  }
  return [...own, ...extra].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}

/**
 * The base versions of files, read in two git processes whatever their number: request files as they are,
 * case files with the request each named then. As a FileSource keyed by their path on disk.
 */
export async function baseSource(base: Base, files: readonly ComparedFile[]): Promise<FileSource> {
  const texts = new Map<string, RevisionText>();
  const plain = files.filter(f => f.basePath !== undefined && !isCaseFile(f.basePath)).map(f => f.basePath!);
  for (const [abs, t] of await textsAt(base.repo, base.sha, plain)) texts.set(abs, t);
  const cases = files.filter(f => f.basePath !== undefined && isCaseFile(f.basePath)).map(f => f.basePath!);
  if (cases.length) for (const [abs, t] of await caseFileAt(base.repo, base.sha, cases)) texts.set(abs, t);
  return revisionSource(texts);
}
