// `--prices FILE` of `test`, `run` and `count`: a person's prices over the built-in table (core/cost/prices.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parsePrices, priceTable, type PriceTable } from '../core/cost/prices';
import { one, UsageError, type Option, type Parsed } from './args';

export const PRICES: Option = {
  name: 'prices',
  value: 'FILE',
  help: 'a JSON file of prices per million tokens, each model over the built-in table',
};

/**
 * `--prices FILE`: a JSON file of {model: {input, output, cache_write_5m, cache_write_1h, cache_read}} in US
 * dollars per million tokens, each entry replacing the built-in one whole. A file that cannot be read, or an
 * entry that is not that shape, is a usage error: the run would be priced wrong.
 */
export function pricesOption(p: Parsed, cwd: string): PriceTable {
  const file = one(p, 'prices');
  if (file === undefined) return priceTable();
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.resolve(cwd, file), 'utf8'));
  } catch (e) {
    throw new UsageError(`--prices ${file}: cannot be read as JSON (${(e as Error).message})`);
  }
  const { prices, problems } = parsePrices(raw);
  if (problems.length) throw new UsageError(`--prices ${file}: ${problems.join('; ')}`);
  return priceTable(prices);
}
