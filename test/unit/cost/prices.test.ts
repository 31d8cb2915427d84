// The price table and what a usage costs: each kind of token at its own price (cache writes by ttl, cache reads
// apart), batch at half, US-only inference at 1.1× where the spec says, web searches; a person's prices over
// the table, each entry whole; no price: null and why, never a guess.
import * as assert from 'node:assert/strict';
import { costOf, inputCostOf, sumCosts } from '../../../src/core/cost/cost';
import { formatUsd } from '../../../src/core/cost/format';
import {
  BUILT_IN_PRICES,
  parsePrices,
  PRICE_KEYS,
  priceOf,
  priceTable,
  PRICES_DATE,
  PRICES_SOURCE,
} from '../../../src/core/cost/prices';
import { MODELS } from '../../../src/core/request/models';

const close = (a: number | null, b: number) => assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${a} ≈ ${b}`);
const table = priceTable();

describe('cost: the price table', () => {
  it('says where its prices come from and when they were read', () => {
    assert.match(PRICES_SOURCE, /^https:\/\/platform\.claude\.com\/docs\/en\/about-claude\/pricing$/);
    assert.match(PRICES_DATE, /^\d{4}-\d{2}-\d{2}$/);
  });
  it('uses the spec’s neutral model names only, each entry complete', () => {
    const known = new Map(MODELS.map(m => [m.id, m]));
    for (const [model, p] of Object.entries(BUILT_IN_PRICES)) {
      assert.ok(known.has(model), `${model} is a model of the table`);
      assert.deepEqual(Object.keys(p), [...PRICE_KEYS], model);
      // the page's multipliers for the current models: 5-minute writes 1.25×, 1-hour writes 2×, reads 0.1×
      if (known.get(model)!.status === 'retired') continue;
      close(p.cache_write_5m, p.input * 1.25);
      close(p.cache_write_1h, p.input * 2);
      close(p.cache_read, Math.round(p.input * 0.1 * 100) / 100);
    }
  });
  it('a dated id takes its model’s price; a model with no row has none', () => {
    assert.deepEqual(priceOf('model-haiku-4-5-20251001', table), BUILT_IN_PRICES['model-haiku-4-5']);
    assert.deepEqual(priceOf('model-opus-4-20250514', table), BUILT_IN_PRICES['model-opus-4-0']);
    assert.equal(priceOf('model-mythos-preview', table), undefined);
    assert.equal(priceOf('model-quill-1', table), undefined);
    assert.equal(priceOf('constructor', table), undefined, 'no inherited key is a price');
  });
});

describe('cost: what a usage cost', () => {
  it('input, output, cache writes 5m and 1h, and cache reads each at their own price', () => {
    const c = costOf(
      {
        input_tokens: 1_000,
        output_tokens: 2_000,
        cache_creation_input_tokens: 3_000,
        cache_creation: { ephemeral_5m_input_tokens: 1_000, ephemeral_1h_input_tokens: 2_000 },
        cache_read_input_tokens: 10_000,
      },
      'model-sonnet-4-6',
      table,
    );
    // 1,000 × $3 + 2,000 × $15 + 1,000 × $3.75 + 2,000 × $6 + 10,000 × $0.30, per million
    close(c.usd, (3_000 + 30_000 + 3_750 + 12_000 + 3_000) / 1e6);
  });
  it('cache writes without their split by ttl are priced as 5-minute writes (the default ttl)', () => {
    const c = costOf(
      { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 1_000_000 },
      'model-haiku-4-5',
      table,
    );
    close(c.usd, 1.25);
  });
  it('a cache read costs a tenth of an input token: the same tokens read cost less than sent', () => {
    const sent = costOf({ input_tokens: 100_000, output_tokens: 0 }, 'model-opus-4-7', table).usd!;
    const read = costOf(
      { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 100_000 },
      'model-opus-4-7',
      table,
    ).usd!;
    close(read, sent / 10);
  });
  it('batch: half of everything, asked for or said by service_tier', () => {
    const usage = { input_tokens: 1_000_000, output_tokens: 1_000_000 };
    close(costOf(usage, 'model-haiku-4-5', table, { batch: true }).usd, 3);
    close(costOf({ ...usage, service_tier: 'batch' }, 'model-haiku-4-5', table).usd, 3);
    close(costOf(usage, 'model-haiku-4-5', table).usd, 6);
  });
  it('US-only inference costs 1.1× on the models released after February 1, 2026, not on older ones', () => {
    const usage = { input_tokens: 1_000_000, output_tokens: 0, inference_geo: 'us' };
    close(costOf(usage, 'model-opus-4-6', table).usd, 5.5);
    close(costOf(usage, 'model-haiku-4-5', table).usd, 1);
  });
  it('web searches at $10 per 1,000', () => {
    const c = costOf(
      { input_tokens: 0, output_tokens: 0, server_tool_use: { web_search_requests: 3 } },
      'model-sonnet-4-6',
      table,
    );
    close(c.usd, 0.03);
  });
  it('no price: null, and the reason names the model and the way to give one; no usage: null too', () => {
    const c = costOf({ input_tokens: 5, output_tokens: 5 }, 'model-quill-1', table);
    assert.equal(c.usd, null);
    assert.ok(
      c.usd === null && /no price for model-quill-1: add it to promptwright\.prices.*--prices FILE/.test(c.why),
    );
    assert.equal(costOf(undefined, 'model-haiku-4-5', table).usd, null);
    assert.equal(inputCostOf(1000, 'model-quill-1', table), null);
    close(inputCostOf(1_000_000, 'model-sonnet-4-6', table), 3);
  });
  it('a total is unknown as soon as one part is', () => {
    assert.equal(sumCosts([0.1, 0.2]), 0.1 + 0.2);
    assert.equal(sumCosts([0.1, null]), null);
    assert.equal(sumCosts([]), 0);
  });
  it('formats dollars as people read them', () => {
    assert.deepEqual([0, 0.0132, 0.0021, 1.25, 12, 0.000012].map(formatUsd), [
      '$0',
      '$0.0132',
      '$0.0021',
      '$1.25',
      '$12.00',
      '$0.000012',
    ]);
  });
});

describe('cost: a person’s prices', () => {
  const mine = {
    'model-sonnet-4-6': { input: 1, output: 2, cache_write_5m: 3, cache_write_1h: 4, cache_read: 0.5 },
    'model-quill-1': { input: 10, output: 20, cache_write_5m: 12.5, cache_write_1h: 20, cache_read: 1 },
  };
  it('replace a model’s entry whole, and price a model the table does not know', () => {
    const { prices, problems } = parsePrices(mine);
    assert.deepEqual(problems, []);
    const t = priceTable(prices);
    assert.deepEqual(t['model-sonnet-4-6'], mine['model-sonnet-4-6']);
    assert.deepEqual(t['model-haiku-4-5'], BUILT_IN_PRICES['model-haiku-4-5'], 'the others stay');
    close(costOf({ input_tokens: 1_000_000, output_tokens: 0 }, 'model-quill-1', t).usd, 10);
  });
  it('an entry that is not a whole price is left out, with why; the file must be an object', () => {
    const { prices, problems } = parsePrices({
      'model-a': { input: 1, output: 2 },
      'model-b': { input: 1, output: 2, cache_write_5m: 1, cache_write_1h: 1, cache_read: -1 },
      'model-c': { ...mine['model-quill-1'], cache_hit: 1 },
      'model-d': 3,
    });
    assert.deepEqual(Object.keys(prices), []);
    assert.equal(problems.length, 4);
    assert.match(problems[0]!, /"model-a" needs cache_write_5m, cache_write_1h, cache_read as numbers/);
    assert.match(problems[1]!, /"model-b" needs cache_read/);
    assert.match(problems[2]!, /"model-c" has no "cache_hit"/);
    assert.match(problems[3]!, /"model-d": an object of input, output/);
    assert.equal(parsePrices([1]).problems.length, 1);
  });
});
