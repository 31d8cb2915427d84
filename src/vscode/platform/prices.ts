import type { PriceTable } from '../../core/cost/prices';
import type { Config } from './config';
import { coreBundle } from './lazy';
import type { Log } from './log';

/** The setting's value whose problems were last said: each distinct value is reported once, not at every run. */
let said = '';

/**
 * The price table in use: `promptwright.prices` over the built-in table (core/cost/prices.ts). An entry of the
 * setting that is not a price is left out, and the log says why (once per value of the setting).
 */
export function pricesOf(config: Config, log: Log): PriceTable {
  const core = coreBundle();
  const raw = config.prices;
  const { prices, problems } = core.parsePrices(raw);
  const key = JSON.stringify(raw);
  if (problems.length && key !== said) log.warn(`promptwright.prices: ${problems.join('; ')}`);
  said = key;
  return core.priceTable(prices);
}
