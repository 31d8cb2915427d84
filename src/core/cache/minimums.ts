// The minimum cacheable prompt length per model: a prefix shorter than this is not cached, and the service
// says nothing (no error, both cache counts 0). The spec does not give it; the vendor's prompt-caching
// documentation does, per model family. The table below, where each figure comes from and where the sources
// disagree are in RULES.md, "cache-prefix-below-minimum" (its Evidence); keep the two the same. Names are
// the spec's neutral ones.
import { lookupModel } from '../request/models';

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
