// Token counts before and after a change: the difference in tokens and in percent, said the same way in the
// CLI's reports, the status bar and the Token Breakdown's CodeLenses; and the `--max-increase` limit.
import type { Part } from './breakdown';
import { thousands } from '../text';

/** A count at the base revision and now; null where there is none (a new file has no "before"). */
export interface Delta {
  before: number | null;
  after: number | null;
  /** after − before, null when either is missing */
  delta: number | null;
  /** the change in percent of `before`, null when either is missing or `before` is 0 */
  percent: number | null;
}

export function deltaOf(before: number | null | undefined, after: number | null | undefined): Delta {
  const b = before ?? null;
  const a = after ?? null;
  const delta = a !== null && b !== null ? a - b : null;
  return { before: b, after: a, delta, percent: delta !== null && b ? (100 * delta) / b : null };
}

/** "+56", "-12", "±0": a change in tokens with its sign. */
export function signedTokens(n: number): string {
  return n > 0 ? `+${thousands(n)}` : n < 0 ? `-${thousands(-n)}` : '±0';
}

/** "+4.7%", "-0.3%", "±0%". */
export function signedPercent(p: number): string {
  const rounded = Math.round(p * 10) / 10;
  if (rounded === 0) return p > 0 ? '+0.1%' : p < 0 ? '-0.1%' : '±0%';
  return `${rounded > 0 ? '+' : '-'}${Math.abs(rounded).toFixed(1)}%`;
}

/** "+56, +4.7%", "new", "deleted": the change of one count, in words a table cell holds. */
export function changeWords(d: Delta): string {
  if (d.before === null && d.after === null) return '';
  if (d.before === null) return 'new';
  if (d.after === null) return 'deleted';
  const tokens = signedTokens(d.delta!);
  return d.percent === null ? tokens : `${tokens}, ${signedPercent(d.percent)}`;
}

/** "1,180 → 1,236  (+56, +4.7%)"; a missing side is "—". */
export function deltaLine(d: Delta): string {
  const side = (n: number | null) => (n === null ? '—' : thousands(n));
  return `${side(d.before)} → ${side(d.after)}  (${changeWords(d)})`;
}

/** The most a count may grow: a number of tokens, or a percent of what it was. */
export type IncreaseLimit = { tokens: number } | { percent: number };

/** `N` (tokens) or `P%`; undefined when it is neither. */
export function parseIncreaseLimit(raw: string): IncreaseLimit | undefined {
  const s = raw.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(s);
  if (percent) return { percent: Number(percent[1]) };
  return /^\d+$/.test(s) ? { tokens: Number(s) } : undefined;
}

/** Whether a count grew by more than the limit. Only a count that existed before is held to it. */
export function exceeds(limit: IncreaseLimit, d: Delta): boolean {
  if (d.before === null || d.after === null || d.delta === null || d.delta <= 0) return false;
  if ('tokens' in limit) return d.delta > limit.tokens;
  return d.before === 0 || (100 * d.delta) / d.before > limit.percent;
}

export const limitWords = (limit: IncreaseLimit): string =>
  'tokens' in limit ? `${thousands(limit.tokens)} tokens` : `${limit.percent}%`;

/**
 * The change of each part of a Token Breakdown against the same breakdown of the base version: parts are
 * matched by their label (`system`, `tools`, `messages[2] (user)`); a part the base does not have is null.
 */
export function partDeltas(current: readonly Part[], base: readonly Part[]): Map<string, number | null> {
  const before = new Map(base.map(p => [p.label, p.tokens]));
  return new Map(current.map(p => [p.label, before.has(p.label) ? p.tokens - before.get(p.label)! : null]));
}
