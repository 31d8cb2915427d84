// Files as they were at a git revision, by their path on disk: what `--base` compares the working copy
// with. A case file brings its request file along, named relative to where the case file was at that
// revision, so a case runs on the request of its own time.
import { parseCaseFile, requestPathOf } from './caseFile';
import { fileRecord, type FileSource } from './load';
import { decodeUtf8 } from '../files';
import { formatOf } from '../fileNames';
import type { GitRepo } from '../git/git';

/** A file's text at a revision; undefined when it is not there; `invalidUtf8` when its bytes are not UTF-8. */
export type RevisionText = string | { invalidUtf8: true } | undefined;

function decode(bytes: Buffer | undefined): RevisionText {
  if (!bytes) return undefined;
  const decoded = decodeUtf8(bytes);
  return 'text' in decoded ? decoded.text : { invalidUtf8: true };
}

/** The texts of repository paths at commit `sha`, keyed by their path on disk. */
export async function textsAt(
  repo: GitRepo,
  sha: string,
  repoPaths: readonly string[],
): Promise<Map<string, RevisionText>> {
  const bytes = await repo.readAt(sha, repoPaths);
  return new Map(repoPaths.map(p => [repo.absPath(p), decode(bytes.get(p))]));
}

/**
 * Case files at commit `sha` (`caseRepoPaths`, where they were then) and the request file each named then,
 * keyed by their paths on disk; four git processes whatever their number. A case file's request is missing
 * from the map when the case file was not there or does not parse far enough to name one.
 */
export async function caseFileAt(
  repo: GitRepo,
  sha: string,
  caseRepoPaths: readonly string[],
): Promise<Map<string, RevisionText>> {
  const texts = await textsAt(repo, sha, caseRepoPaths);
  const requests = new Set<string>();
  for (const p of caseRepoPaths) {
    const text = texts.get(repo.absPath(p));
    if (typeof text !== 'string') continue;
    const file = parseCaseFile(text, formatOf(p)).file;
    // a request (or a judge prompt) outside the repository is not in the revision either
    const request = file && repo.repoPath(requestPathOf(repo.absPath(p), file));
    if (request) requests.add(request);
    const judgePrompt =
      file?.judge?.prompt && repo.repoPath(requestPathOf(repo.absPath(p), { request: file.judge.prompt }));
    if (judgePrompt) requests.add(judgePrompt);
    // its dataset too (read whole from git: the base's rows are compared with the working copy's by case_id)
    const dataset = file?.dataset && repo.repoPath(requestPathOf(repo.absPath(p), { request: file.dataset }));
    if (dataset) requests.add(dataset);
  }
  if (requests.size) for (const [abs, t] of await textsAt(repo, sha, [...requests])) texts.set(abs, t);
  return texts;
}

/**
 * Texts read at a revision as a source to load files from (core/cases/load.ts): a file that is not there is
 * missing, one that is not UTF-8 there a problem of its own.
 */
export function revisionSource(texts: ReadonlyMap<string, RevisionText>): FileSource {
  return (abs, display) => {
    const t = texts.get(abs);
    if (t === undefined) return undefined;
    if (typeof t === 'string') return { text: t };
    return {
      record: fileRecord(display, 'invalid-utf8', 'Invalid UTF-8 at this revision: the file must be UTF-8 text.'),
    };
  };
}
