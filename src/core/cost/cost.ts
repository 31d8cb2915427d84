// What a reply cost, from its usage (doc1 §2.7) and the price table (prices.ts): input, output, cache writes
// for 5 minutes and for 1 hour, and cache reads each at its own price; web searches at theirs; half for a
// batch; 1.1× for US-only inference where the spec says so. A model with no price has no cost: null, with why,
// never a guessed number.
import type { Usage } from '../api/types';
import { formatUsd } from './format';
import {
  BATCH_MULTIPLIER,
  priceOf,
  US_ONLY_MULTIPLIER,
  usOnlyPremium,
  WEB_SEARCH_USD,
  type PriceTable,
} from './prices';

/** A cost in US dollars, or null and why there is none. */
export type Cost = { usd: number } | { usd: null; why: string };

const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const PER = 1_000_000;

/** The words for a model without a price, said once wherever costs are shown. */
function noPrice(model: string): string {
  return `no price for ${model}: add it to promptwright.prices (the CLI: --prices FILE)`;
}

/**
 * What a reply's usage cost on `model`. `batch` prices it as a Message Batches request (so does a usage whose
 * `service_tier` is `batch`).
 */
export function costOf(usage: Usage | undefined, model: string, table: PriceTable, o: { batch?: boolean } = {}): Cost {
  if (!usage) return { usd: null, why: 'the reply has no usage' };
  const p = priceOf(model, table);
  if (!p) return { usd: null, why: noPrice(model) };
  // the cache writes by ttl when the usage says; else all of them at the 5-minute price (the default ttl)
  const written = n(usage.cache_creation_input_tokens);
  const by = usage.cache_creation;
  const oneHour = by ? n(by.ephemeral_1h_input_tokens) : 0;
  const fiveMinutes = by ? n(by.ephemeral_5m_input_tokens) : written;
  let usd =
    (n(usage.input_tokens) * p.input +
      n(usage.output_tokens) * p.output +
      fiveMinutes * p.cache_write_5m +
      oneHour * p.cache_write_1h +
      n(usage.cache_read_input_tokens) * p.cache_read) /
    PER;
  if (o.batch || usage.service_tier === 'batch') usd *= BATCH_MULTIPLIER;
  if (usage.inference_geo === 'us' && usOnlyPremium(model)) usd *= US_ONLY_MULTIPLIER;
  usd += n(usage.server_tool_use?.web_search_requests) * WEB_SEARCH_USD;
  return { usd };
}

/** What `tokens` input tokens cost at the model's input price (a count's cost), or null without a price. */
export function inputCostOf(tokens: number, model: string, table: PriceTable): number | null {
  const p = priceOf(model, table);
  return p ? (tokens * p.input) / PER : null;
}

/** Sums costs: null as soon as one is unknown (a total that leaves something out would mislead). */
export function sumCosts(costs: readonly (number | null)[]): number | null {
  let total = 0;
  for (const c of costs) {
    if (c === null) return null;
    total += c;
  }
  return total;
}

/** A cost in words: `$0.0132`, or `cost unknown (why)`. */
export function costWords(cost: Cost): string {
  return cost.usd === null ? `cost unknown (${cost.why})` : formatUsd(cost.usd);
}
