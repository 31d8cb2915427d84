// Choosing a run's cases, for every case file, with or without a dataset: `--filter REGEX` (the case names
// that match), `--limit N` (the first N of those), `--sample N --seed S` (a uniform sample of N of those, the
// same for the same seed and cases), `--shard K/N` (those whose id falls in shard K of N). They apply in that
// order, as the cases stream past, keeping only what is chosen: a sample keeps the N cases whose seeded hash of
// their id is smallest (a uniform sample without replacement, whatever the order of the rows), a shard is the
// id's hash modulo N, so the N shards are every case exactly once and a case stays in its shard when other rows
// change.
import { bitsOf } from './caseId';

export interface CaseChoice {
  filter?: RegExp;
  limit?: number;
  sample?: number;
  /** the sample's seed (default 0) */
  seed?: number;
  /** shard `k` (1-based) of `n` */
  shard?: { k: number; n: number };
}

/**
 * The one place a user's pattern for case names becomes a RegExp (`--filter`): a JavaScript regular expression,
 * matched anywhere in the name. Throws a SyntaxError that says what is wrong with it.
 */
export function compileNameFilter(source: string): RegExp {
  return new RegExp(source, 'u');
}

/** Whether a choice chooses anything less than every case. */
export const choosesSome = (c: CaseChoice | undefined) =>
  !!c && (c.filter !== undefined || c.limit !== undefined || c.sample !== undefined || c.shard !== undefined);

/** A choice in words, for the summary: `--filter refund, --shard 1/4`. */
export function choiceText(c: CaseChoice): string {
  const parts: string[] = [];
  if (c.filter) parts.push(`--filter ${c.filter.source}`);
  if (c.limit !== undefined) parts.push(`--limit ${c.limit}`);
  if (c.sample !== undefined) parts.push(`--sample ${c.sample} --seed ${c.seed ?? 0}`);
  if (c.shard) parts.push(`--shard ${c.shard.k}/${c.shard.n}`);
  return parts.join(', ');
}

/** A 32-bit mix (murmur3's finaliser). */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The shard (0-based) of an id among `n`. */
function shardOf(id: string, n: number): number {
  const [hi, lo] = bitsOf(id);
  // 64 bits modulo n, from two halves: (hi * 2^32 + lo) mod n
  return ((hi % n) * (4294967296 % n) + (lo % n)) % n;
}

/** A case's place in a seeded sample: smaller is chosen first. */
function sampleKey(id: string, seed: number): number {
  const [hi, lo] = bitsOf(id);
  const s = mix(seed >>> 0 || 0x9e3779b9);
  const a = mix(hi ^ s);
  const b = mix(lo ^ mix(a ^ s));
  // 53 bits, as a number
  return (a >>> 11) * 4294967296 + b;
}

interface Candidate<T> {
  key: number;
  ordinal: number;
  item: T;
}

/**
 * Takes cases one at a time, in file order, and keeps those the choice chooses (in file order). `seen` counts
 * every case offered; `chosen()` is what was chosen once all have been offered.
 */
export class Chooser<T> {
  seen = 0;
  private matched = 0;
  private readonly kept: Candidate<T>[] = [];
  /** the sample: a max-heap by key, of at most `sample` items */
  private readonly heap: Candidate<T>[] = [];

  /**
   * `onKept`: each case chosen is handed to it instead of kept, as soon as the choice can say (a sample's at
   * `chosen()`), so a run can stream its cases.
   */
  constructor(
    private readonly choice: CaseChoice = {},
    private readonly onKept?: (item: T) => void,
  ) {}

  /** Offers a case (its name and id); `item` is what is kept when it is chosen. */
  offer(name: string, id: string, item: T): void {
    const ordinal = this.seen++;
    const c = this.choice;
    if (c.filter && !c.filter.test(name)) return;
    if (c.limit !== undefined && this.matched >= c.limit) return;
    this.matched++;
    if (c.sample !== undefined) {
      this.offerToSample({ key: sampleKey(id, c.seed ?? 0), ordinal, item });
      return;
    }
    if (c.shard && shardOf(id, c.shard.n) !== c.shard.k - 1) return;
    if (this.onKept) this.onKept(item);
    else this.kept.push({ key: 0, ordinal, item });
  }

  /** Whether an id would be kept by the choice's shard (a sample is decided at the end). */
  private inShard(item: Candidate<T>, id: (item: T) => string): boolean {
    const shard = this.choice.shard;
    return !shard || shardOf(id(item.item), shard.n) === shard.k - 1;
  }

  /**
   * The chosen cases, in file order, once all have been offered. `idOf` gives a kept item's id (for a sample's
   * shard). With `onKept`, a sample's cases are handed to it here, and none is returned.
   */
  chosen(idOf: (item: T) => string): T[] {
    if (this.choice.sample === undefined) return this.kept.map(k => k.item);
    const sample = this.heap
      .filter(k => this.inShard(k, idOf))
      .sort((a, b) => a.ordinal - b.ordinal)
      .map(k => k.item);
    if (!this.onKept) return sample;
    for (const item of sample) this.onKept(item);
    return [];
  }

  private offerToSample(c: Candidate<T>): void {
    const size = this.choice.sample!;
    if (size <= 0) return;
    const h = this.heap;
    const above = (a: Candidate<T>, b: Candidate<T>) => a.key > b.key || (a.key === b.key && a.ordinal > b.ordinal);
    if (h.length < size) {
      h.push(c);
      for (let i = h.length - 1; i > 0;) {
        const p = (i - 1) >> 1;
        if (!above(h[i]!, h[p]!)) break;
        [h[i], h[p]] = [h[p]!, h[i]!];
        i = p;
      }
      return;
    }
    if (!above(h[0]!, c)) return;
    h[0] = c;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < h.length && above(h[l]!, h[top]!)) top = l;
      if (r < h.length && above(h[r]!, h[top]!)) top = r;
      if (top === i) break;
      [h[i], h[top]] = [h[top]!, h[i]!];
      i = top;
    }
  }
}
