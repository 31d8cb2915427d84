// A request or count file's diagnostics, one function of the file, the settings, and whether the service counts (a
// key): what `promptwright check` prints, the extension shows and the language server publishes. They are the
// validator's problems (validate.ts) and a warning for each cache breakpoint under the model's minimum, from the
// service's counts where the front end has them (a key, counting on), else from the local estimate, as `check` has.
// The front ends only convert the answer; one that checks a file once and counts it later keeps the first step
// (`checkRequestText`) and asks `requestProblems` again when the counts come.
import { breakpointsOf, prefixOf } from '../cache/report';
import type { PrefixCount } from '../cache/counter';
import type { PrefixRequest } from '../cache/prefix';
import { underMinimumWarnings } from '../cache/words';
import type { CacheView } from './lenses';
import type { ModelFacts } from '../models/table';
import { formatOf } from '../fileNames';
import type { Problem } from '../request/types';
import { validateText, type Endpoint, type Validation } from '../request/validate';

/** The settings a file's diagnostics depend on, by the names of `core/settings.ts` (the CLI: its options). */
export interface DiagnosticSettings {
  endpoint: Endpoint;
  /** `promptwright.betas`, PROMPTWRIGHT_BETAS */
  betas: readonly string[];
  /** the service's model list over the built-in table (`promptwright.modelsFile`, `--models`) */
  models?: ModelFacts;
  /** `promptwright.cache.minimumTokens`: model id → tokens, over the documented table */
  cacheMinimumTokens?: Readonly<Record<string, unknown>>;
  /** the date the models' retirement is judged at (tests); now when absent */
  now?: Date;
}

/**
 * What the service counted of the cache prefixes. Only a front end with a key (and counting on) has any; without,
 * every prefix is the local estimate.
 */
export interface PrefixCounts {
  /** a prefix's count: its tokens, why counting failed, or undefined when it was not counted (yet) */
  of(r: PrefixRequest | undefined): PrefixCount | number | undefined;
  /** counts are on their way (the lenses say "counting…") */
  counting: boolean;
}

/** One check of a file's text: what the counts do not change. */
export interface RequestCheck {
  validation: Validation;
  /** a create-message body's cache breakpoints (undefined: none, a count file, or not a body) */
  cache: Omit<CacheView, 'prefixes'> | undefined;
}

export function checkRequestText(text: string, fileName: string, s: DiagnosticSettings): RequestCheck {
  const validation = validateText(text, formatOf(fileName), {
    endpoint: s.endpoint,
    betas: [...s.betas],
    ...(s.models ? { models: s.models } : {}),
    ...(s.now ? { now: s.now } : {}),
  });
  const body = validation.parsed.value;
  if (s.endpoint !== 'messages' || !body || typeof body !== 'object' || Array.isArray(body))
    return { validation, cache: undefined };
  const obj = body as Record<string, unknown>;
  const breakpoints = breakpointsOf(obj, s.cacheMinimumTokens ? { overrides: s.cacheMinimumTokens } : {});
  return { validation, cache: breakpoints.length ? { body: obj, breakpoints } : undefined };
}

/** The breakpoints with what is known of each prefix: the service's count where there is one, else the estimate. */
export function cacheViewOf(c: RequestCheck, counts?: PrefixCounts): CacheView | undefined {
  if (!c.cache) return undefined;
  const o = { counting: !!counts?.counting };
  return { ...c.cache, prefixes: c.cache.breakpoints.map(b => prefixOf(b, counts?.of(b.request), o)) };
}

/** The file's diagnostics, in the order of the text. */
export function requestProblems(c: RequestCheck, counts?: PrefixCounts): Problem[] {
  const view = cacheViewOf(c, counts);
  const cache = view ? underMinimumWarnings(c.validation.parsed, view) : [];
  return cache.length
    ? [...c.validation.problems, ...cache].sort((a, b) => a.start - b.start || a.end - b.end)
    : c.validation.problems;
}

/** A file's diagnostics at once: `check`'s (no counts), or a front end's that has them. */
export function requestDiagnostics(
  text: string,
  fileName: string,
  s: DiagnosticSettings,
  counts?: PrefixCounts,
): Problem[] {
  return requestProblems(checkRequestText(text, fileName, s), counts);
}
