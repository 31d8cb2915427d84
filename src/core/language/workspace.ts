// What both editors keep of a workspace's files, decided once: how long a file waits after the last keystroke
// before it is checked, and which case files read which files (the case index); what the service counted of each
// file's lenses is lensCounts.ts's, beside it (a module of its own: the features bundle, which holds the case
// index, counts nothing). Each front end keys files its own way (a URI string, a vscode.Uri), feeds these its file
// events and checks, and reads them back.
import type { Settings } from '../settings';

/**
 * The pause after typing before a file is checked: `validation.debounceMs`, and a millisecond more per 20,000
 * characters (at most a second more), so typing in a big file never queues work. A pause of 0 is none at all.
 */
export function checkDelay(settings: Pick<Settings, 'validationDebounceMs'>, textLength: number): number {
  const pause = settings.validationDebounceMs;
  return pause && pause + Math.min(1000, Math.floor(textLength / 20000));
}

/** The files a case file's last check read, as the front end keys them. */
export interface CaseReads<K> {
  /** the request file it names */
  request: K | undefined;
  /** every file it reads: its request, its judge prompt, its dataset */
  files: readonly (K | undefined)[];
}

/** A change to a file, as an editor or the disk tells it. */
export type FileEvent =
  /** the editor's text changed, or the editor opened or closed the file */
  | { kind: 'text' }
  /** the file changed on disk (a save, another program, a checkout); `open`: the editor holds its text */
  | { kind: 'disk'; deleted: boolean; open: boolean };

/** What a file event asks the front end to do: the case files to check again, and one to forget. */
export interface FileEventWork<K> {
  check: K[];
  forget?: K;
}

/** A case file in the index: its key, what the front end keeps of its last check, and the files that check read. */
export interface IndexedCase<K, E> {
  key: K;
  entry: E;
  reads: CaseReads<K>;
}

/**
 * Every case file known, with its last check, and which files each reads: a request file's diagnostics, hover and
 * completion find its cases here, and a case file its request. A check in flight is numbered, so one that ends
 * after a newer one started is dropped. `E` is what the front end keeps of a checked case file.
 */
export class CaseIndex<K, E> {
  private readonly entries = new Map<string, IndexedCase<K, E>>();
  /** the latest check started for each case file */
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly id: (key: K) => string,
    private readonly readsOf: (entry: E) => CaseReads<K>,
  ) {}

  get(key: K): E | undefined {
    return this.entries.get(this.id(key))?.entry;
  }

  /** Every case file known, in the order first checked. */
  all(): IndexedCase<K, E>[] {
    return [...this.entries.values()];
  }

  /**
   * A check of a case file starts: the answer says, when it ends, whether it is still the latest (no newer check
   * started, and the file was not forgotten meanwhile).
   */
  begin(key: K): () => boolean {
    const k = this.id(key);
    const generation = (this.generations.get(k) ?? 0) + 1;
    this.generations.set(k, generation);
    return () => this.generations.get(k) === generation;
  }

  /** A case file's check; answers the request file its previous check named. */
  set(key: K, entry: E): K | undefined {
    const k = this.id(key);
    const before = this.entries.get(k)?.reads.request;
    this.entries.set(k, { key, entry, reads: this.readsOf(entry) });
    return before;
  }

  /** A case file gone (deleted, unreadable): a check still in flight is dropped too. Answers what was known. */
  forget(key: K): E | undefined {
    const was = this.get(key);
    this.begin(key);
    this.entries.delete(this.id(key));
    return was;
  }

  /** The case files that name a request file. */
  forRequest(key: K): IndexedCase<K, E>[] {
    return this.all().filter(c => this.same(c.reads.request, key));
  }

  /** The case files that read a file: as their request, their judge prompt or their dataset. */
  readers(key: K): K[] {
    return this.all()
      .filter(c => c.reads.files.some(f => this.same(f, key)))
      .map(c => c.key);
  }

  private same(a: K | undefined, b: K): boolean {
    return a !== undefined && this.id(a) === this.id(b);
  }

  /**
   * What a file event asks: a case file is checked again (or forgotten, deleted), any other file has the case
   * files reading it checked again. A file the editor holds changes with its text, not with the disk.
   */
  changed(key: K, isCase: boolean, event: FileEvent): FileEventWork<K> {
    if (event.kind === 'text') return { check: isCase ? [key] : this.readers(key) };
    if (isCase) return event.deleted ? { check: [], forget: key } : { check: event.open ? [] : [key] };
    return { check: !event.open || event.deleted ? this.readers(key) : [] };
  }
}
