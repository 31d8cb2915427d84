// Where the files a case file names may be: inside its repository. A case file comes in a pull request as easily
// as from one's own hand, and what `request:`, `judge.prompt:` and `dataset:` name is read and sent to the service
// (a judge prompt whole, a request filled in, a dataset's rows) and shown back in results, so a path out of the
// repository (`../../.ssh/…`, an absolute path, a symbolic link pointing out) would send any file the user can read.
// The repository is the git work tree the case file is in (the nearest folder up holding a `.git`), else the case
// file's own folder; symbolic links are resolved on both sides before they are compared. The one check every front
// end makes (the CLI through load.ts, the editor and the language server through core/language/caseCheck.ts, the
// Cases grid's runner); it reads the disk only to find `.git` and resolve links.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locate } from '../request/parse';
import type { Path, Problem } from '../request/types';

/** The folder a case file's paths must stay in: its git work tree's top, else its own folder. */
export function caseFileRoot(caseFileAbs: string): string {
  const own = path.dirname(caseFileAbs);
  for (let dir = own; ;) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return own;
    dir = up;
  }
}

/** A path with its symbolic links resolved: the real path of its nearest existing folder, then the rest. */
function realPath(p: string): string {
  const rest: string[] = [];
  for (let at = p; ;) {
    try {
      return path.join(fs.realpathSync.native(at), ...rest);
    } catch {
      const up = path.dirname(at);
      if (up === at) return p;
      rest.unshift(path.basename(at));
      at = up;
    }
  }
}

/** Whether `target` is `root` or under it, each with its symbolic links resolved. */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(realPath(root), realPath(target));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** The keys of a case file that name a file, and how a message names each. */
const NAMED = {
  request: { path: ['request'], what: 'The request file' },
  'judge.prompt': { path: ['judge', 'prompt'], what: 'The judge prompt' },
  dataset: { path: ['dataset'], what: 'The dataset' },
} as const satisfies Record<string, { path: Path; what: string }>;

/**
 * The problem at `key` when the file it names (`named`, relative to the case file) is outside the case file's
 * repository; undefined when it is inside. `root`: the repository, when the caller knows it already.
 */
export function outsideRepository(
  caseFileAbs: string,
  key: keyof typeof NAMED,
  named: string,
  locate: Locate,
  root = caseFileRoot(caseFileAbs),
): Problem | undefined {
  // a backslash is a separator to the editors (and to Windows): read as one here too, it can only lead further out
  if (isInside(root, path.resolve(path.dirname(caseFileAbs), named.replace(/\\/g, '/')))) return undefined;
  const { path: at, what } = NAMED[key];
  const span = locate(at) ?? locate(at.slice(0, -1), true) ?? { start: 0, end: 1 };
  return {
    start: span.start,
    end: span.end,
    path: [...at],
    severity: 'error',
    code: 'path-outside-repository',
    message:
      `${what} "${named}" is outside the repository (${root}), symbolic links followed: a case file may name only ` +
      'files inside it. Nothing is read from there or sent.',
  };
}

/** Every file a case file names that is outside its repository, as problems at their keys. */
export function outsideProblems(
  caseFileAbs: string,
  file: { request: string; judge?: { prompt?: string } | undefined; dataset?: string | undefined },
  locate: Locate,
): Problem[] {
  const root = caseFileRoot(caseFileAbs);
  const request = outsideRepository(caseFileAbs, 'request', file.request, locate, root);
  const prompt = file.judge?.prompt && outsideRepository(caseFileAbs, 'judge.prompt', file.judge.prompt, locate, root);
  const dataset = file.dataset && outsideRepository(caseFileAbs, 'dataset', file.dataset, locate, root);
  return [...(request ? [request] : []), ...(prompt ? [prompt] : []), ...(dataset ? [dataset] : [])];
}
