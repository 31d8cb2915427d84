// The model facts of the spec, as data: one table that is easy to update when the service changes.
// Sources: doc1 §2.1 (ids), §2.2 rules 4-5, §4.3 (effort and thinking), §8 (context windows);
// doc3 §9.4 (retired and deprecated models); public reports of the service's messages for the models the
// spec does not name (RULES.md, "Where model facts come from"). The service's own model list, when
// Promptwright has it, is merged over this table (core/models/catalog.ts).
import type { ServiceModel } from './types';

type ThinkingMode =
  | 'any' // no rule stated
  | 'adaptive-only' // manual budget_tokens not supported (opus-4-7)
  | 'adaptive-preferred' // budget_tokens accepted but deprecated (opus-4-6, sonnet-4-6)
  | 'manual' // manual thinking with budget_tokens (opus-4-5)
  | 'adaptive-default' // adaptive when thinking is absent; disabled accepted; manual rejected (sonnet-5)
  | 'adaptive-default-no-disable'; // adaptive by default; thinking disabled is rejected (mythos-preview)

export interface ModelInfo {
  id: string;
  /** the undated alias a dated id belongs to (dated ids follow their model's rules) */
  base?: string;
  status: 'active' | 'deprecated' | 'retired';
  /** ISO date of a scheduled retirement */
  retires?: string;
  /** effort levels accepted; undefined = effort not supported */
  effort?: readonly Effort[];
  thinking: ThinkingMode;
  contextWindow: number;
  /**
   * The most output tokens `max_tokens` may ask for; undefined where no report of the service's message gives
   * the limit (no rule then).
   */
  maxOutputTokens?: number;
  prefill: boolean;
  temperatureAndTopPExclusive: boolean;
  /**
   * Outside the spec: the public SDKs document that models released after model-opus-4-6 take only
   * temperature 1, no top_k, and top_p of at least 0.99 (a warning).
   */
  fixedSampling?: boolean;
  /**
   * Reports of the service's message ("`temperature` is deprecated for this model") show that it refuses
   * a temperature other than 1, and any top_p or top_k (errors; replaces `fixedSampling`). `'temperature'`:
   * the reports show the message for temperature only.
   */
  samplingDeprecated?: boolean | 'temperature';
  /**
   * Whether `speed: "fast"` is taken (true), refused with "'<model>' does not support the speed parameter" (false),
   * or not known (undefined: no rule).
   */
  fastMode?: boolean;
  /**
   * Images and PDF pages one request may hold, where a report shows the service refusing more although the context
   * window is over 200k (the 4.6 generation); 200k-window models have the limit anyway (request/rules/media.ts).
   */
  maxMedia?: number;
  // ---- what only the service's model list says (core/models/catalog.ts) --------------------------------
  /** the service's name for the model */
  displayName?: string;
  /** the thinking types the model takes; when known, it decides over `thinking` which type is refused */
  thinkingTypes?: { adaptive: boolean; enabled: boolean };
  /** whether image blocks and PDF documents are taken (undefined: not known) */
  imageInput?: boolean;
  pdfInput?: boolean;
  /** the service's own record of the model */
  service?: ServiceModel;
  /** for an alias: the model the service answers it with */
  resolved?: string;
}

/** The effort levels, lowest first: `output_config.effort`'s values. */
export const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Effort = (typeof EFFORTS)[number];

const STD: readonly Effort[] = ['low', 'medium', 'high'];
const WITH_MAX: readonly Effort[] = ['low', 'medium', 'high', 'max'];
const K200 = 200_000;
const M1 = 1_000_000;

const base = (id: string, o: Partial<ModelInfo> = {}): ModelInfo => ({
  id,
  status: 'active',
  thinking: 'any',
  contextWindow: K200,
  prefill: true,
  temperatureAndTopPExclusive: false,
  ...o,
});
/** A dated id of a model: the same facts, and `base` naming the model. */
const dated = (model: ModelInfo, date: string): ModelInfo => ({ ...model, id: `${model.id}-${date}`, base: model.id });

// Facts from outside the spec come from public reports that quote the service's 400 message (the rejected
// corpus, test/fixtures/rejected): max output tokens of 64,000 for the 4-5 models; no prefill on
// model-sonnet-4-6; no adaptive thinking on the 4-5 models; temperature and top_p refused together on the
// sonnet 4-5 and 4-6 models; sampling parameters deprecated on model-opus-4-7.
// Fast mode (`speed: "fast"`) from the reports quoted under speed-unsupported in RULES.md: taken by
// model-opus-4-6 and model-opus-4-8, refused by model-opus-4-7 and the sonnet, haiku and older opus models. The
// 100-images-and-pages limit holds for the 4.6 generation too (too-much-media in RULES.md).
const OPUS_4_6 = base('model-opus-4-6', {
  effort: WITH_MAX,
  thinking: 'adaptive-preferred',
  contextWindow: M1,
  prefill: false,
  fastMode: true,
  maxMedia: 100,
});
const HAIKU_4_5 = base('model-haiku-4-5', { thinking: 'manual', maxOutputTokens: 64_000, fastMode: false });
const OPUS_4_5 = base('model-opus-4-5', {
  effort: STD,
  thinking: 'manual',
  maxOutputTokens: 64_000,
  fastMode: false,
});
const SONNET_4_5 = base('model-sonnet-4-5', {
  thinking: 'manual',
  maxOutputTokens: 64_000,
  temperatureAndTopPExclusive: true,
  fastMode: false,
});
const OPUS_4_1 = base('model-opus-4-1', { temperatureAndTopPExclusive: true, fastMode: false });
const OPUS_4_0 = base('model-opus-4-0', { status: 'deprecated', retires: '2026-06-15' });
const SONNET_4_0 = base('model-sonnet-4-0', { status: 'deprecated', retires: '2026-06-15' });

// Two models the spec does not name, from public reports of 2026 (RULES.md, "Where model facts come from"):
// model-opus-4-8 refuses manual thinking, a prefill, sampling parameters and max_tokens above 128,000, as
// model-opus-4-7 does; model-sonnet-5 thinks adaptively unless told not to, and refuses manual thinking, a
// prefill and a temperature other than 1. Both take every effort level and have a 1M context window.
const OPUS_4_8 = base('model-opus-4-8', {
  effort: EFFORTS,
  thinking: 'adaptive-only',
  contextWindow: M1,
  maxOutputTokens: 128_000,
  prefill: false,
  samplingDeprecated: true,
  fastMode: true,
});
const SONNET_5 = base('model-sonnet-5', {
  effort: EFFORTS,
  thinking: 'adaptive-default',
  contextWindow: M1,
  prefill: false,
  samplingDeprecated: 'temperature',
  fixedSampling: true,
});

/** Every model id the spec names, and the newer ones public reports describe. */
export const MODELS: readonly ModelInfo[] = [
  OPUS_4_8,
  SONNET_5,
  base('model-opus-4-7', {
    effort: EFFORTS,
    thinking: 'adaptive-only',
    samplingDeprecated: true,
    fastMode: false,
  }),
  base('model-mythos-preview', { effort: WITH_MAX, thinking: 'adaptive-default-no-disable', fixedSampling: true }),
  OPUS_4_6,
  base('model-sonnet-4-6', {
    effort: WITH_MAX,
    thinking: 'adaptive-preferred',
    contextWindow: M1,
    prefill: false,
    temperatureAndTopPExclusive: true,
    fastMode: false,
    maxMedia: 100,
  }),
  HAIKU_4_5,
  dated(HAIKU_4_5, '20251001'),
  OPUS_4_5,
  dated(OPUS_4_5, '20251101'),
  SONNET_4_5,
  dated(SONNET_4_5, '20250929'),
  OPUS_4_1,
  dated(OPUS_4_1, '20250805'),
  OPUS_4_0,
  { ...OPUS_4_0, id: 'model-opus-4-20250514', base: 'model-opus-4-0' },
  SONNET_4_0,
  { ...SONNET_4_0, id: 'model-sonnet-4-20250514', base: 'model-sonnet-4-0' },
  base('model-3-haiku-20240307', { status: 'retired' }),
  base('model-3-7-sonnet-20250219', { status: 'retired' }),
  base('model-3-5-haiku-20241022', { status: 'retired' }),
  base('model-3-opus-20240229', { status: 'retired' }),
];

/**
 * Retired families (doc3 §9.4): the listed 3.x models under any alias (`-latest`, other dates), the 3.5
 * sonnet models, and the 2.0, 2.1 and 3 sonnet generations. An alias points at a model of its family, so
 * the alias of a retired family is retired too.
 */
const RETIRED_PATTERNS: readonly RegExp[] = [
  /^model-3-(opus|haiku|sonnet)(-|$)/,
  /^model-3-5-(sonnet|haiku)(-|$)/,
  /^model-3-7-sonnet(-|$)/,
  /^model-2([-.]\d)?(-|$)/,
];

/** Models to offer in place of a retired or deprecated one, best first. */
const CURRENT_MODELS = ['model-opus-4-7', 'model-sonnet-4-6', 'model-haiku-4-5'] as const;

/** Current models to offer instead of `id`: the same family first (a retired haiku becomes a haiku). */
export function replacementsFor(id: string): string[] {
  const family = /opus|sonnet|haiku/.exec(id)?.[0];
  const same = CURRENT_MODELS.filter(m => family && m.includes(family));
  return [...same, ...CURRENT_MODELS.filter(m => !same.includes(m))];
}

const byId = new Map(MODELS.map(m => [m.id, m]));

export interface ModelLookup {
  /** the facts that apply (a dated id unknown to the spec follows its undated model) */
  info?: ModelInfo;
  /** how the id was recognised (`alias`: the service's model list has the model the alias points to) */
  match: 'exact' | 'dated' | 'alias' | 'retired-family' | 'unknown';
}

/** Where the rules read model facts: this table, or the service's model list merged over it. */
export interface ModelFacts {
  lookup(id: string): ModelLookup;
}

export function lookupModel(id: string): ModelLookup {
  const exact = byId.get(id);
  if (exact) return { info: exact, match: 'exact' };
  if (RETIRED_PATTERNS.some(r => r.test(id))) return { info: base(id, { status: 'retired' }), match: 'retired-family' };
  const dated = /^(.*)-\d{8}$/.exec(id);
  if (dated) {
    const b = byId.get(dated[1]!);
    if (b) return { info: { ...b, id, base: b.id }, match: 'dated' };
  }
  return { match: 'unknown' };
}

function effortOrder(e: Effort): number {
  return EFFORTS.indexOf(e);
}

/** The current models (no dated ids) that offer effort, or the given level of it: for messages. */
export function effortModels(level?: Effort): string[] {
  return MODELS.filter(m => m.status === 'active' && !m.base && m.effort && (!level || m.effort.includes(level))).map(
    m => m.id,
  );
}

/** The current models (no dated ids) that take `speed: "fast"`. */
export function fastModels(): string[] {
  return MODELS.filter(m => m.status === 'active' && !m.base && m.fastMode).map(m => m.id);
}

/** The supported effort closest to the wanted one (ties go to the lower, cheaper level). */
export function nearestEffort(wanted: Effort, supported: readonly Effort[]): Effort | undefined {
  let best: Effort | undefined;
  let bestD = Infinity;
  for (const s of supported) {
    const dd = Math.abs(effortOrder(s) - effortOrder(wanted));
    if (dd < bestD || (dd === bestD && best !== undefined && effortOrder(s) < effortOrder(best))) {
      best = s;
      bestD = dd;
    }
  }
  return best;
}

/**
 * Edit distance for "did you mean" suggestions and the nearest value of a set: insertions, deletions, substitutions
 * and adjacent swaps (`fromat` is one edit from `format`), the optimal string alignment distance.
 */
export function editDistance(a: string, b: string): number {
  return distanceUnder(a, b, Number.POSITIVE_INFINITY);
}

/** Three rows of the distance table, kept from call to call: "did you mean" weighs up to a hundred names a problem. */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)] as const;

/**
 * The edit distance of `a` and `b` when it is under `limit`; otherwise some number at least `limit`. Each row of the
 * table holds a lower bound of the distance, so the work stops at the first row that reaches the limit.
 */
function distanceUnder(a: string, b: string, limit: number): number {
  if (rows[0].length <= b.length) {
    const n = b.length * 2 + 1;
    rows = [new Int32Array(n), new Int32Array(n), new Int32Array(n)];
  }
  let [before, above, dp] = rows;
  for (let j = 0; j <= b.length; j++) dp[j] = j;
  for (let i = 1; i <= a.length; i++) {
    [before, above, dp] = [above, dp, before];
    dp[0] = i;
    let least = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(above[j]! + 1, dp[j - 1]! + 1, above[j - 1]! + (ca === cb ? 0 : 1));
      // an adjacent swap: ab against ba
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb)
        d = Math.min(d, before[j - 2]! + 1);
      dp[j] = d;
      if (d < least) least = d;
    }
    if (least >= limit) return least;
  }
  return dp[b.length]!;
}

/**
 * The candidate nearest to `word` by edit distance, when at most `maxDistance` edits away (ties: the first).
 * `ignoreCase` compares them in lower case.
 */
export function closest(
  word: string,
  candidates: readonly string[],
  maxDistance = 3,
  { ignoreCase = false }: { ignoreCase?: boolean } = {},
): string | undefined {
  const w = ignoreCase ? word.toLowerCase() : word;
  let best: string | undefined;
  let bestD = maxDistance + 1;
  for (const c of candidates) {
    // the distance is at least the difference in length: no table to fill for a word that far
    if (Math.abs(c.length - w.length) >= bestD) continue;
    const dd = distanceUnder(w, ignoreCase ? c.toLowerCase() : c, bestD);
    if (dd < bestD) {
      best = c;
      bestD = dd;
    }
  }
  return best;
}
