// At most MAX_PER_RULE problems of one rule are said about one file; the others are counted in one more problem,
// placed where the first of them is. A file built to have 300,000 unknown keys, or a case file whose cases each lack
// every placeholder, would otherwise have millions of problems: each with its message, its range and its "did you
// mean", seconds of work and gigabytes of memory before anything is shown, when opening a folder or running CI's
// `check .`. A person reads the first few and fixes the cause; VS Code itself shows at most 1,000 per file.
import { count } from '../text';
import type { RuleId } from './types';

export const MAX_PER_RULE = 1000;

interface Said {
  code: RuleId;
  message: string;
  fixes?: unknown[];
}

/** The problem that stands for `more` problems of its rule left unsaid, at the place of `first` of them. */
export function moreOfRule<T extends Said>(first: T, more: number): T {
  const { fixes: _none, ...rest } = first;
  const message =
    `${count(more, `more ${first.code} problem`)} in this file from here on ${more === 1 ? 'is' : 'are'} not ` +
    `shown: Promptwright shows the first ${MAX_PER_RULE.toLocaleString('en-US')} of each rule.`;
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
    const n = (seen.get(p.code) ?? 0) + 1;
    seen.set(p.code, n);
    if (n <= MAX_PER_RULE) out.push(p);
    else if (n === MAX_PER_RULE + 1) over.set(p.code, out.push(p) - 1);
  }
  for (const [code, at] of over) out[at] = moreOfRule(out[at]!, seen.get(code)! - MAX_PER_RULE);
  return out;
}

/** Counts a check's problems by rule as it finds them: past the bound, one needs no message or suggestion. */
export class RuleTally {
  private readonly seen = new Map<RuleId, number>();

  /** Counts one more problem of `code`: true while it is among the first MAX_PER_RULE, those said in full. */
  said(code: RuleId): boolean {
    const n = (this.seen.get(code) ?? 0) + 1;
    this.seen.set(code, n);
    return n <= MAX_PER_RULE;
  }
}
