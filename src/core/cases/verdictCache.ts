// Judges' verdicts kept on disk, keyed by the judge request's exact body (a hash of it): the same reply graded
// against the same rubric by the same judge model and prompt is not asked about again. A verdict is kept only
// when it is one (a malformed verdict or a failed request is asked again next time). The CLI keeps them in
// PROMPTWRIGHT_CACHE_DIR (by default the user's cache folder), the editor beside its results. Reading and
// writing never throw: it is a cache, and a run goes on without it.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Usage } from '../api/types';
import type { Verdict } from './judge';
import { plainFolders } from './results';

/** What is kept of one judge request: its verdict, and what the call that gave it used. */
export interface CachedVerdict {
  verdict: Verdict;
  model: string;
  usage?: Usage;
  requestId?: string;
  savedAt: string;
}

export interface VerdictCache {
  get(key: string): Promise<CachedVerdict | undefined>;
  set(key: string, value: CachedVerdict): Promise<void>;
}

/** The key of a judge request: the SHA-256 of its body as sent. */
export function verdictKey(body: Record<string, unknown>): string {
  return crypto.createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

/** One small JSON file per verdict, `<dir>/<first two hex digits>/<key>.json`, written whole then renamed in. */
export class DirectoryVerdictCache implements VerdictCache {
  /** said once: the folder could not be written (the run goes on, asking the judge each time) */
  private failed = false;

  constructor(
    readonly dir: string,
    private readonly onWriteError?: (message: string) => void,
    /** the repository's `.promptwright/` when `dir` is under it: no symbolic link there is followed */
    private readonly kept?: string,
  ) {}

  private file(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<CachedVerdict | undefined> {
    try {
      const raw = JSON.parse(await fs.readFile(this.file(key), 'utf8')) as Partial<CachedVerdict>;
      const v = raw.verdict;
      const ok =
        v &&
        typeof v.pass === 'boolean' &&
        typeof v.score === 'number' &&
        typeof v.reason === 'string' &&
        typeof raw.model === 'string';
      return ok ? (raw as CachedVerdict) : undefined;
    } catch {
      return undefined; // not kept yet, or not readable: asked again
    }
  }

  async set(key: string, value: CachedVerdict): Promise<void> {
    const file = this.file(key);
    const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      if (this.kept) await plainFolders(this.kept, path.dirname(file));
      else await fs.mkdir(path.dirname(file), { recursive: true });
      // a new file (wx: never through a link in its place), renamed over whatever has the name (a link included)
      await fs.writeFile(temp, `${JSON.stringify(value)}\n`, { flag: 'wx' });
      await fs.rename(temp, file);
    } catch (e) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      if (!this.failed) this.onWriteError?.(`verdicts cannot be kept in ${this.dir}: ${(e as Error).message}`);
      this.failed = true;
    }
  }
}
