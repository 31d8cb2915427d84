// `--filter REGEX`, `--limit N`, `--sample N [--seed S]` and `--shard K/N`: which cases a `test` run takes from its
// case files (core/cases/choose.ts), and the line that says how many it took of how many.
import { choiceText, choosesSome, compileNameFilter, type CaseChoice } from '../core/cases/choose';
import { count, thousands } from '../core/text';
import { one, UsageError, type Option, type Parsed } from './args';

/** The options that choose cases, as `test` declares them. */
export const CHOICE_OPTIONS: readonly Option[] = [
  { name: 'filter', value: 'REGEX', help: 'only the cases whose name this JavaScript regular expression matches' },
  { name: 'limit', value: 'N', help: 'the first N cases (after --filter), in file order' },
  {
    name: 'sample',
    value: 'N',
    help: 'a uniform sample of N of those cases, the same for the same --seed and rows, whatever their order',
  },
  { name: 'seed', value: 'S', help: "the sample's seed, a whole number (default 0; with --sample only)" },
  {
    name: 'shard',
    value: 'K/N',
    help: 'only the cases in shard K of N, by case_id: the N shards are every case exactly once',
  },
];

function whole(p: Parsed, name: string, min: number): number | undefined {
  const raw = one(p, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw)))
    throw new UsageError(`--${name} must be a whole number${min ? ` from ${min}` : ''}, got "${raw}"`);
  return Number(raw);
}

/** The choice the command line makes, or undefined when it takes every case. */
export function choiceOption(p: Parsed): CaseChoice | undefined {
  const choice: CaseChoice = {};
  const filter = one(p, 'filter');
  if (filter !== undefined) {
    try {
      choice.filter = compileNameFilter(filter);
    } catch (e) {
      throw new UsageError(`--filter: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const limit = whole(p, 'limit', 1);
  if (limit !== undefined) choice.limit = limit;
  const sample = whole(p, 'sample', 1);
  const seed = whole(p, 'seed', 0);
  if (seed !== undefined && sample === undefined) throw new UsageError('--seed is for --sample: give --sample N too');
  if (sample !== undefined) choice.sample = sample;
  if (seed !== undefined) choice.seed = seed;
  const shard = one(p, 'shard');
  if (shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(shard);
    const k = Number(m?.[1]);
    const n = Number(m?.[2]);
    if (!m || n < 1 || k < 1 || k > n || n > 1_000_000)
      throw new UsageError(`--shard must be K/N with 1 <= K <= N (shard K of N, from 1), got "${shard}"`);
    choice.shard = { k, n };
  }
  return choosesSome(choice) ? choice : undefined;
}

/** "cases: 250 of 10,000 chosen (--shard 1/4)", or undefined when every case runs and none comes from data. */
export function chosenLine(cases: { chosen: number; of: number }, choice: CaseChoice | undefined): string | undefined {
  if (!choice) return undefined;
  return `cases: ${thousands(cases.chosen)} of ${count(cases.of, 'case')} chosen (${choiceText(choice)})`;
}
