// At most MAX_PER_RULE problems of one rule are said about one file; the others are counted in one more problem,
// placed where the first of them is. A file built to have 300,000 unknown keys, or a case file whose cases each lack
// every placeholder, would otherwise have millions of problems: each with its message, its range and its "did you
// mean", seconds of work and gigabytes of memory before anything is shown, when opening a folder or running CI's
// `check .`. A person reads the first few and fixes the cause; VS Code itself shows at most 1,000 per file.
import { count, thousands } from '../text';
import type { RuleId } from './types';

export const MAX_PER_RULE = 1000;

interface Said {
  code: RuleId;
  message: string;
  fixes?: unknown[];
  /** how many problems this one stands for, 1 when absent: past the bound a check keeps only the first (RuleTally) */
  standsFor?: number;
}

/** The problem that stands for `more` problems of its rule left unsaid, at the place of `first` of them. */
export function moreOfRule<T extends Said>(first: T, more: number): T {
  const { fixes: _none, standsFor: _counted, ...rest } = first;
  const message =
    `${count(more, `more ${first.code} problem`)} in this file from here on ${more === 1 ? 'is' : 'are'} not ` +
    `shown: Promptwright shows the first ${thousands(MAX_PER_RULE)} of each rule.`;
  return { ...rest, message } as T;
}

/**
 * The first MAX_PER_RULE problems of each rule, in the order of `list`, and for a rule with more, one problem in
 * place of the first of the others that counts them (moreOfRule). A problem past the bound is only counted, so a
 * check may give one without its message (RuleTally).
 */
export function boundPerRule<T extends Said>(list: readonly T[]): T[] {
  const seen = new Map<RuleId, number>();
  /** for each rule over the bound: where its counting problem is in `out` */
  const over = new Map<RuleId, number>();
  const out: T[] = [];
  for (const p of list) {
    const before = seen.get(p.code) ?? 0;
    seen.set(p.code, before + (p.standsFor ?? 1));
    if (before < MAX_PER_RULE) out.push(p);
    else if (!over.has(p.code)) over.set(p.code, out.push(p) - 1);
  }
  for (const [code, at] of over) out[at] = moreOfRule(out[at]!, seen.get(code)! - MAX_PER_RULE);
  return out;
}

/**
 * Counts a check's problems by rule as it finds them: past the bound, one needs no message or suggestion, and
 * no object of its own: the first problem left out of a rule stands for the others (200,000 unknown keys made
 * 199,000 problems only to be counted, a fifth of the check's time with their garbage).
 */
export class RuleTally {
  private readonly seen = new Map<RuleId, number>();
  private readonly firstLeftOut = new Map<RuleId, Said>();

  /** Counts one more problem of `code`: true while it is among the first MAX_PER_RULE, those said in full. */
  said(code: RuleId): boolean {
    const n = (this.seen.get(code) ?? 0) + 1;
    this.seen.set(code, n);
    return n <= MAX_PER_RULE;
  }

  /**
   * `n` problems of `code` past the bound (`said` was false for the first of them): the first of the rule left out
   * is made (without its message) and added to `out`, the others are counted in it.
   */
  leftOut<T extends Said>(code: RuleId, out: T[], make: () => T, n = 1): void {
    const first = this.firstLeftOut.get(code);
    if (first) first.standsFor = (first.standsFor ?? 1) + n;
    else {
      const p = make();
      if (n > 1) p.standsFor = n;
      this.firstLeftOut.set(code, p);
      out.push(p);
    }
  }
}
