// The minimum cacheable prompt length per model: a prefix shorter than this is not cached, and the service
// says nothing (no error, both cache counts 0). The spec does not give it; the vendor's prompt-caching
// documentation does, per model family. Names are the spec's neutral ones.
//
// As of 2026-07-31, from the vendor's prompt-caching documentation
// (https://platform.claude.com/docs/en/build-with-claude/prompt-caching, "Cache limitations"), as public
// reports quote it:
//   4,096 tokens  model-opus-4-6, model-opus-4-5, model-haiku-4-5
//   2,048 tokens  model-opus-4-7; the retired model-3-haiku
//   1,024 tokens  model-sonnet-4-6, model-sonnet-4-5, model-opus-4-1, model-opus-4-0, model-sonnet-4-0
// Sources: anthropics/anthropic-sdk-python#1194 (2026-02-25, quotes the documentation's list for the 4.6, 4.5,
// 4.1 and 4.0 models); elgorro/aiquila#415 (2026-07-31) and iii-hq/workers#1202 (2026, the documentation's
// list with model-opus-4-7 at 2,048); anthropics/anthropic-sdk-python#1085 (2025-11-25: no caching on
// model-opus-4-5 and model-haiku-4-5 below the raised minimum).
// Where the sources disagree: a June 2026 reading of the page gave 4,096 for model-opus-4-7 (the later
// readings give 2,048, kept here); #1194 reports that model-sonnet-4-6 cached only from about 2,048 in
// practice, against the documented 1,024 (kept here, as documented). model-mythos-preview has no published
// figure: no minimum is known, and nothing is said about it.
import { lookupModel } from '../models/table';

export const MINIMUMS_AS_OF = '2026-07-31';

/** Documented minimums by undated model id (a dated id follows its model). */
const DOCUMENTED: Readonly<Record<string, number>> = {
  'model-opus-4-7': 2048,
  'model-opus-4-6': 4096,
  'model-opus-4-5': 4096,
  'model-haiku-4-5': 4096,
  'model-sonnet-4-6': 1024,
  'model-sonnet-4-5': 1024,
  'model-opus-4-1': 1024,
  'model-opus-4-0': 1024,
  'model-sonnet-4-0': 1024,
  'model-3-haiku-20240307': 2048,
};

export interface Minimum {
  tokens: number;
  /** where the figure comes from: the user's setting, the service's model facts, or the documentation table */
  source: 'setting' | 'service' | 'documented';
}

export interface MinimumSources {
  /** `promptwright.cache.minimumTokens`: model id → tokens; wins over everything */
  overrides?: Readonly<Record<string, unknown>>;
  /**
   * The service's own model facts (GET /v1/models), where they ever state a minimum: today they do not, so
   * nothing passes this. A models catalog that learns such a field passes a lookup here.
   */
  serviceFacts?: (model: string) => number | undefined;
}

const valid = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;

/** The minimum cacheable prefix of `model`, or undefined when none is known (then nothing is judged). */
export function cacheMinimum(model: unknown, o: MinimumSources = {}): Minimum | undefined {
  if (typeof model !== 'string' || !model) return undefined;
  const info = lookupModel(model).info;
  const undated = info?.base ?? model;
  const setting = o.overrides?.[model] ?? o.overrides?.[undated];
  if (valid(setting)) return { tokens: setting, source: 'setting' };
  const facts = o.serviceFacts?.(model);
  if (valid(facts)) return { tokens: facts, source: 'service' };
  const documented = DOCUMENTED[undated];
  return documented ? { tokens: documented, source: 'documented' } : undefined;
}

/** The documented table (README, docs, tests). */
export function documentedMinimums(): Readonly<Record<string, number>> {
  return DOCUMENTED;
}
