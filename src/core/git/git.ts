// A file as it was at a git revision, and what changed since, read through the `git` executable as a child
// process (no native module, so it works wherever git does): rev-parse, ls-tree, cat-file --batch,
// diff --name-status, ls-files --others. Paths are read NUL-separated (-z), so spaces, quotes and non-ASCII
// names come through as they are, and pathspecs are literal, so a `*` in a file name matches only itself.
// Every child process is waited for to its end, and killed when the caller's signal aborts.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** git could not answer: not installed, not a repository, an unknown revision, or another failure. */
export class GitError extends Error {
  override name = 'GitError';
  constructor(
    message: string,
    readonly reason: 'no-git' | 'not-a-repository' | 'unknown-revision' | 'failed',
  ) {
    super(message);
  }
}

export interface GitOptions {
  /** the git executable (default: `git` on the PATH) */
  gitPath?: string;
  signal?: AbortSignal;
}

/** More stderr than this is not kept: it only makes the message of a failure. */
const MAX_STDERR = 8 * 1024;
/** Paths per ls-tree call, well inside every platform's command-line limit. */
const PATHS_PER_CALL = 200;

/**
 * Runs `git args` in `cwd` and resolves with its stdout once the process has ended; a non-zero exit rejects
 * with its stderr. `input` is written to stdin. Optional locks are off, so a read never competes with the
 * person's own git commands for the index lock.
 */
export function runGit(cwd: string, args: readonly string[], o: GitOptions & { input?: string } = {}): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    if (o.signal?.aborted) {
      reject(new GitError('Cancelled.', 'failed'));
      return;
    }
    // a folder that is not there would make spawn fail as if git were missing
    if (!fs.existsSync(cwd)) {
      reject(new GitError(`no such folder: ${cwd}`, 'not-a-repository'));
      return;
    }
    const child = spawn(o.gitPath || 'git', args, {
      cwd,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    let err = '';
    const abort = () => child.kill();
    o.signal?.addEventListener('abort', abort, { once: true });
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => {
      if (err.length < MAX_STDERR) err += d.toString('utf8');
    });
    if (o.input !== undefined && child.stdin) {
      // a process that exits before reading all of its input is answered by its exit code, not by EPIPE
      child.stdin.on('error', () => {});
      child.stdin.end(o.input);
    }
    let failed: Error | undefined;
    child.on('error', (e: NodeJS.ErrnoException) => {
      failed =
        e.code === 'ENOENT'
          ? new GitError(`git was not found (${o.gitPath || 'git'}): install git, or put it on the PATH`, 'no-git')
          : new GitError(`git could not run: ${e.message}`, 'failed');
    });
    child.on('close', code => {
      o.signal?.removeEventListener('abort', abort);
      if (failed) reject(failed);
      else if (o.signal?.aborted) reject(new GitError('Cancelled.', 'failed'));
      else if (code === 0) resolve(Buffer.concat(out));
      else reject(new GitError(`git ${args[0] ?? ''} failed: ${err.trim() || `exit code ${code}`}`, 'failed'));
    });
  });
}

/** How a file differs between a revision and the working tree. */
export interface FileChange {
  kind: 'added' | 'modified' | 'deleted' | 'renamed';
  /** repository-relative, '/'-separated: where the file is now (for a deleted one, where it was) */
  path: string;
  /** where it was at the revision, when that is elsewhere (a rename) */
  from?: string;
}

/** A name git knows a commit by: a branch, a tag, or a remote's branch (`origin/main`). */
export interface GitRef {
  name: string;
  kind: 'branch' | 'tag' | 'remote';
}

const REF_KINDS: readonly { prefix: string; kind: GitRef['kind'] }[] = [
  { prefix: 'refs/heads/', kind: 'branch' },
  { prefix: 'refs/tags/', kind: 'tag' },
  { prefix: 'refs/remotes/', kind: 'remote' },
];

/** One repository: the folder git calls its top level, and the reads Promptwright needs from it. */
export class GitRepo {
  private constructor(
    /** the repository's top folder, as git names it (symbolic links resolved) */
    readonly root: string,
    private readonly o: GitOptions,
  ) {}

  /**
   * The repository that holds `dir`, or undefined when `dir` is in none. Throws a GitError when git itself
   * cannot run.
   */
  static async open(dir: string, o: GitOptions = {}): Promise<GitRepo | undefined> {
    let out: Buffer;
    try {
      out = await runGit(dir, ['rev-parse', '--show-toplevel'], o);
    } catch (e) {
      // outside every repository; any other refusal (a repository git will not read, for one) is said as it is
      if (e instanceof GitError && (e.reason === 'not-a-repository' || /not a git repository/i.test(e.message)))
        return undefined;
      throw e;
    }
    const root = out.toString('utf8').trim();
    return root ? new GitRepo(path.resolve(root), o) : undefined;
  }

  private git(args: readonly string[], input?: string): Promise<Buffer> {
    return runGit(this.root, args, { ...this.o, ...(input !== undefined ? { input } : {}) });
  }

  /** The commit a revision names (`HEAD`, `origin/main`, a tag, a sha), or a GitError saying it names none. */
  async commit(ref: string): Promise<string> {
    // a name that starts with a dash would be read as an option
    if (!ref.trim() || ref.startsWith('-')) throw new GitError(`"${ref}" is not a revision`, 'unknown-revision');
    try {
      return (await this.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).toString('utf8').trim();
    } catch (e) {
      if (e instanceof GitError && e.reason === 'failed' && !this.o.signal?.aborted)
        throw new GitError(`unknown revision "${ref}": git knows no commit by that name here`, 'unknown-revision');
      throw e;
    }
  }

  /**
   * The branches, tags and remote branches a person may compare with, the most recently made first, at most
   * `limit` of them (a remote's symbolic HEAD aside: it names a branch already listed).
   */
  async refs(limit = 100): Promise<GitRef[]> {
    const out = await this.git([
      'for-each-ref',
      `--count=${Math.max(1, Math.floor(limit))}`,
      // a tag's own date for an annotated tag, its commit's otherwise
      '--sort=-creatordate',
      '--format=%(refname)',
      'refs/heads',
      'refs/tags',
      'refs/remotes',
    ]);
    const refs: GitRef[] = [];
    for (const full of out.toString('utf8').split('\n')) {
      const kind = REF_KINDS.find(k => full.startsWith(k.prefix));
      const name = kind && full.slice(kind.prefix.length);
      if (kind && name && !(kind.kind === 'remote' && name.endsWith('/HEAD'))) refs.push({ name, kind: kind.kind });
    }
    return refs;
  }

  /**
   * A path of the repository ('/'-separated, relative to its root) for a path on disk, or undefined when the
   * path is outside it. A file need not exist (a deleted one): its folder's real path is used when it does.
   */
  repoPath(abs: string): string | undefined {
    const resolved = path.resolve(abs);
    const inside = (p: string) => {
      const rel = path.relative(this.root, p);
      return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : undefined;
    };
    return inside(resolved) ?? inside(path.join(realFolder(path.dirname(resolved)), path.basename(resolved)));
  }

  /** The path on disk of a repository path. */
  absPath(repoPath: string): string {
    return path.join(this.root, ...repoPath.split('/'));
  }

  /**
   * The bytes of each path at commit `sha`; undefined for a path that is not a file there. Two processes
   * whatever the number of paths (ls-tree for which exist, cat-file --batch for their contents).
   */
  async readAt(sha: string, repoPaths: readonly string[]): Promise<Map<string, Buffer | undefined>> {
    const result = new Map<string, Buffer | undefined>(repoPaths.map(p => [p, undefined]));
    const wanted = [...new Set(repoPaths)];
    const blobs = new Map<string, string>(); // path -> object id
    for (let i = 0; i < wanted.length; i += PATHS_PER_CALL) {
      const chunk = wanted.slice(i, i + PATHS_PER_CALL);
      const out = await this.git(['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', sha, '--', ...chunk]);
      for (const entry of splitNul(out)) {
        const tab = entry.indexOf('\t');
        const [, type, oid] = entry.slice(0, tab).split(' ');
        const p = entry.slice(tab + 1);
        if (type === 'blob' && oid && result.has(p)) blobs.set(p, oid);
      }
    }
    if (!blobs.size) return result;
    const oids = [...new Set(blobs.values())];
    const contents = parseBatch(await this.git(['cat-file', '--batch'], `${oids.join('\n')}\n`));
    for (const [p, oid] of blobs) result.set(p, contents.get(oid));
    return result;
  }

  /**
   * Every file that differs between commit `sha` and the working tree: tracked changes, staged or not (with
   * renames as such), and files git does not track yet (ignored ones aside) as added.
   */
  async changes(sha: string): Promise<FileChange[]> {
    const [diff, others] = await Promise.all([
      this.git(['diff', '--name-status', '-z', '-M', '--no-color', '--no-ext-diff', sha, '--']),
      this.git(['ls-files', '--others', '--exclude-standard', '-z']),
    ]);
    const byPath = new Map<string, FileChange>();
    const fields = splitNul(diff);
    for (let i = 0; i < fields.length;) {
      const status = fields[i++] ?? '';
      const letter = status[0];
      if (letter === 'R' || letter === 'C') {
        const from = fields[i++] ?? '';
        const to = fields[i++] ?? '';
        // a copy leaves its source as it was: the new path is a new file
        byPath.set(to, letter === 'R' ? { kind: 'renamed', path: to, from } : { kind: 'added', path: to });
      } else {
        const p = fields[i++] ?? '';
        const kind = letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
        byPath.set(p, { kind, path: p });
      }
    }
    for (const p of splitNul(others)) {
      // at the revision, no longer tracked, still on disk (git rm --cached): the file changed, it did not go
      const was = byPath.get(p);
      byPath.set(p, was?.kind === 'deleted' ? { kind: 'modified', path: p } : { kind: 'added', path: p });
    }
    return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}

/** The real path of a folder, or of its nearest existing parent with the rest appended. */
function realFolder(dir: string): string {
  try {
    return fs.realpathSync.native(dir);
  } catch {
    const parent = path.dirname(dir);
    return parent === dir ? dir : path.join(realFolder(parent), path.basename(dir));
  }
}

function splitNul(b: Buffer): string[] {
  const s = b.toString('utf8');
  return s ? s.split('\0').filter(Boolean) : [];
}

/** `git cat-file --batch` output: `<oid> blob <size>\n<bytes>\n` per object, `<name> missing\n` for none. */
function parseBatch(out: Buffer): Map<string, Buffer> {
  const objects = new Map<string, Buffer>();
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const header = out.subarray(at, eol).toString('utf8').split(' ');
    at = eol + 1;
    if (header.length !== 3) continue; // "<name> missing"
    const size = Number(header[2]);
    objects.set(header[0]!, out.subarray(at, at + size));
    at += size + 1;
  }
  return objects;
}
