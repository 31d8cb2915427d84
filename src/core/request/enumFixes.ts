// "Change to …" quick fixes for a value outside a fixed set (a zod enum or literal, a `type` no branch of its
// union knows, a value a rule checks against a list). The candidates come nearest first; the nearest is
// marked preferred (the fix the editor applies with one keystroke) only when it is clearly the one meant:
// a case-insensitive match, or the only candidate within a few edits of what was written.
import { editDistance } from '../models/table';
import type { FixData, Path } from './types';

/** Sets of up to this many values are offered whole; a longer one (content block types) its nearest few. */
const OFFER_ALL = 8;
const OFFER_NEAREST = 5;

export interface EnumCandidate {
  value: string;
  /** edits from what was written (0: the same but for case) */
  distance: number;
  preferred: boolean;
}

/**
 * The values to offer for `input`, nearest first (ties keep the set's own order), and which one, if any, is
 * clearly right. Never offers `input` itself.
 */
export function enumCandidates(input: unknown, values: readonly unknown[]): readonly EnumCandidate[] {
  // a file with a thousand wrong roles asks a thousand times for the same answer: kept by the set (a schema's
  // set is one array, asked for again and again) and the value written
  if (typeof input !== 'string') return rank(input, values);
  let byInput = answered.get(values);
  if (!byInput) answered.set(values, (byInput = new Map<string, readonly EnumCandidate[]>()));
  let candidates = byInput.get(input);
  if (!candidates) {
    if (byInput.size >= 100) byInput.clear();
    byInput.set(input, (candidates = rank(input, values)));
  }
  return candidates;
}

const answered = new WeakMap<readonly unknown[], Map<string, readonly EnumCandidate[]>>();

function rank(input: unknown, values: readonly unknown[]): readonly EnumCandidate[] {
  const strings = [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== input))];
  if (!strings.length) return [];
  const typed = typeof input === 'string' ? input.trim().toLowerCase() : undefined;
  const ranked = strings
    .map((value, order) => ({
      value,
      order,
      distance: typed === undefined ? Number.POSITIVE_INFINITY : editDistance(typed, value.toLowerCase()),
    }))
    .sort((a, b) => a.distance - b.distance || a.order - b.order);
  const [best, second] = ranked;
  const preferred = strings.length === 1 || (!!best && clearlyMeant(typed, best, second));
  const shown = strings.length <= OFFER_ALL ? ranked : ranked.slice(0, OFFER_NEAREST);
  return Object.freeze(
    shown.map((c, i) => Object.freeze({ value: c.value, distance: c.distance, preferred: preferred && i === 0 })),
  );
}

/** The nearest is the one meant: no other is as near, and it is a case change or a slip of a few letters. */
function clearlyMeant(
  typed: string | undefined,
  best: { value: string; distance: number },
  second: { distance: number } | undefined,
): boolean {
  if (typed === undefined || !typed) return false;
  if (second && second.distance <= best.distance) return false;
  if (best.distance === 0) return true;
  // a third of the longer word: "users" → "user", "ephemral" → "ephemeral", "5min" → "5m"; not "image_url" → "image"
  const room = Math.ceil(Math.max(typed.length, best.value.length) / 3);
  return best.distance <= room;
}

/** The "Change to 'x'" fixes of the value at `path`, the clearly right one (if any) marked preferred. */
export function changeToFixes(path: Path, input: unknown, values: readonly unknown[]): FixData[] {
  return enumCandidates(input, values).map(c => ({
    kind: 'replace-value' as const,
    title: `Change to '${c.value}'`,
    path,
    value: c.value,
    ...(c.preferred ? { preferred: true } : {}),
  }));
}
