// The price table: what each model's tokens cost, in US dollars per million tokens, from the vendor's public
// pricing page (its "Model pricing" table, and "Batch processing": every token at 50 %). One table, here,
// under the spec's neutral model names; a person's own prices (the setting `promptwright.prices`, the CLI's
// `--prices FILE`) replace a model's entry whole. A model with no entry has no price: its cost is null and
// says so, never a guess. How a reply's usage is priced is cost.ts's.
import { lookupModel } from '../request/models';

/** US dollars per million tokens, by kind of token (the override file's keys). */
export interface ModelPrice {
  input: number;
  output: number;
  /** tokens written to the prompt cache with the 5-minute ttl (the default) */
  cache_write_5m: number;
  /** tokens written with the 1-hour ttl */
  cache_write_1h: number;
  /** tokens read from the prompt cache */
  cache_read: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** Where the built-in prices come from, and when they were read. */
export const PRICES_SOURCE = 'https://platform.claude.com/docs/en/about-claude/pricing';
export const PRICES_DATE = '2026-11-27';

/** The keys of a price, in the order the override file is documented with. */
export const PRICE_KEYS = ['input', 'output', 'cache_write_5m', 'cache_write_1h', 'cache_read'] as const;

const price = (input: number, output: number, write5m: number, write1h: number, read: number): ModelPrice => ({
  input,
  output,
  cache_write_5m: write5m,
  cache_write_1h: write1h,
  cache_read: read,
});

// The page's rows, each a model of the spec's table (core/request/models.ts) under its neutral name. Dated ids
// take their model's price (priceOf). model-mythos-preview has no row on the page: it has no price here.
const OPUS_NEW = price(5, 25, 6.25, 10, 0.5);
const OPUS_OLD = price(15, 75, 18.75, 30, 1.5);
const SONNET = price(3, 15, 3.75, 6, 0.3);

export const BUILT_IN_PRICES: PriceTable = {
  'model-opus-4-8': OPUS_NEW,
  'model-opus-4-7': OPUS_NEW,
  'model-opus-4-6': OPUS_NEW,
  'model-opus-4-5': OPUS_NEW,
  'model-opus-4-1': OPUS_OLD,
  'model-opus-4-0': OPUS_OLD,
  // the model's own page on the same site gives its prices
  'model-sonnet-5': price(2, 10, 2.5, 4, 0.2),
  'model-sonnet-4-6': SONNET,
  'model-sonnet-4-5': SONNET,
  'model-sonnet-4-0': SONNET,
  'model-haiku-4-5': price(1, 5, 1.25, 2, 0.1),
  // retired models: their replies are history, still priced as they were billed
  'model-3-7-sonnet-20250219': SONNET,
  'model-3-5-haiku-20241022': price(0.8, 4, 1, 1.6, 0.08),
  'model-3-opus-20240229': OPUS_OLD,
  'model-3-haiku-20240307': price(0.25, 1.25, 0.3, 0.5, 0.03),
};

/**
 * Models released after February 1, 2026 cost 1.1× with US-only inference (doc1 §8, `inference_geo`): a reply
 * whose usage says `inference_geo: "us"` is priced so.
 */
const US_ONLY_PREMIUM = new Set([
  'model-opus-4-8',
  'model-opus-4-7',
  'model-opus-4-6',
  'model-sonnet-5',
  'model-sonnet-4-6',
  'model-mythos-preview',
]);
export const US_ONLY_MULTIPLIER = 1.1;

/** Every token of a Message Batches request costs half (the pricing page's "Batch processing"). */
export const BATCH_MULTIPLIER = 0.5;

/** Web search, a server tool: US dollars per search (the pricing page: $10 per 1,000 searches). */
export const WEB_SEARCH_USD = 0.01;

/** The table in use: the built-in one with a person's entries over it (each replaces a model's entry whole). */
export function priceTable(overrides: PriceTable = {}): PriceTable {
  return { ...BUILT_IN_PRICES, ...overrides };
}

/**
 * A model's price: its own entry, else its model's (a dated id, `model-haiku-4-5-20251001`, is priced as
 * `model-haiku-4-5`), else undefined: no price.
 */
export function priceOf(model: string, table: PriceTable): ModelPrice | undefined {
  if (Object.hasOwn(table, model)) return table[model];
  const base = lookupModel(model).info?.base ?? /^(.*)-\d{8}$/.exec(model)?.[1];
  return base && Object.hasOwn(table, base) ? table[base] : undefined;
}

/** Whether US-only inference costs more for this model (its own id or its model's). */
export function usOnlyPremium(model: string): boolean {
  const base = lookupModel(model).info?.base ?? model;
  return US_ONLY_PREMIUM.has(model) || US_ONLY_PREMIUM.has(base);
}

/**
 * A person's prices (the setting's value, or the file `--prices` names, parsed): `{model: {input, output,
 * cache_write_5m, cache_write_1h, cache_read}}`, every key a number of dollars per million tokens, at least 0.
 * Entries that are not that are left out, each with a problem saying why.
 */
export function parsePrices(raw: unknown): { prices: Record<string, ModelPrice>; problems: string[] } {
  const prices: Record<string, ModelPrice> = {};
  const problems: string[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { prices, problems: ['the prices must be an object: {"model-id": {"input": 3, "output": 15, …}}'] };
  }
  for (const [model, entry] of Object.entries(raw as Record<string, unknown>)) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.push(`"${model}": an object of ${PRICE_KEYS.join(', ')} (dollars per million tokens)`);
      continue;
    }
    const e = entry as Record<string, unknown>;
    const missing = PRICE_KEYS.filter(k => typeof e[k] !== 'number' || !Number.isFinite(e[k]) || Number(e[k]) < 0);
    const unknown = Object.keys(e).filter(k => !(PRICE_KEYS as readonly string[]).includes(k));
    if (missing.length || unknown.length) {
      const why = [
        ...(missing.length ? [`needs ${missing.join(', ')} as numbers of at least 0`] : []),
        ...(unknown.length
          ? [`has no ${unknown.map(k => `"${k}"`).join(', ')} (known: ${PRICE_KEYS.join(', ')})`]
          : []),
      ];
      problems.push(`"${model}" ${why.join('; ')}: left out`);
      continue;
    }
    Object.defineProperty(prices, model, {
      value: price(
        e.input as number,
        e.output as number,
        e.cache_write_5m as number,
        e.cache_write_1h as number,
        e.cache_read as number,
      ),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { prices, problems };
}
