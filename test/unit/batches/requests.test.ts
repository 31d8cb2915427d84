import * as assert from 'node:assert/strict';
import { CUSTOM_ID, type BatchRequest } from '../../../src/core/api/batches';
import {
  BATCH_CAPS,
  customIdOf,
  customIds,
  RequestTooLarge,
  splitIntoBatches,
  type JobIdentity,
} from '../../../src/core/batches/requests';

const body = (text: string, model = 'model-opus-4-7') => ({
  model,
  max_tokens: 100,
  messages: [{ role: 'user', content: text }],
});
const job = (o: Partial<JobIdentity> = {}): JobIdentity => ({
  file: 'support.cases.yaml',
  caseName: 'refund in French',
  model: 'model-opus-4-7',
  sample: 0,
  body: body('Puis-je être remboursé ?'),
  ...o,
});

describe('custom ids', () => {
  it('are stable: the same suite unchanged gives the same ids', () => {
    assert.equal(customIdOf(job()), customIdOf(job()));
    assert.equal(customIdOf(job()), customIdOf({ ...job(), body: body('Puis-je être remboursé ?') }));
  });

  it('say the case, and match ^[a-zA-Z0-9_-]{1,64}$ whatever the case is called', () => {
    assert.match(customIdOf(job()), /^refund-in-French_[0-9a-f]{10}_s0_[0-9a-f]{12}$/);
    for (const caseName of ['', '日本語だけ', 'a'.repeat(500), '--x--', 'x y/z\\w"q', '🎉🎉']) {
      const id = customIdOf(job({ caseName }));
      assert.match(id, CUSTOM_ID, caseName);
      assert.ok(id.length <= 64);
    }
    assert.match(customIdOf(job({ sample: 99 })), /_s99_/);
  });

  it('differ when any of case file, case, model, sample or the filled request differs', () => {
    const base = customIdOf(job());
    const variants = [
      job({ file: 'other.cases.yaml' }),
      job({ caseName: 'refund in German' }),
      job({ model: 'model-haiku-4-5' }),
      job({ sample: 1 }),
      job({ body: body('Puis-je être remboursé ?!') }),
      job({ body: { ...body('Puis-je être remboursé ?'), temperature: 0 } }),
    ];
    const ids = variants.map(customIdOf);
    assert.equal(new Set([base, ...ids]).size, variants.length + 1);
  });

  it('are unique in a suite: a request that comes twice is told apart, in order', () => {
    const ids = customIds([job(), job({ sample: 1 }), job(), job()]);
    assert.equal(new Set(ids).size, 4);
    assert.equal(ids[2], `${ids[0]}-2`);
    assert.equal(ids[3], `${ids[0]}-3`);
    assert.ok(ids.every(id => CUSTOM_ID.test(id)));
  });

  it('are unique across a 10,000-request suite', () => {
    const jobs = Array.from({ length: 10_000 }, (_, i) =>
      job({ caseName: `case ${i % 500}`, model: i % 2 ? 'model-opus-4-7' : 'model-haiku-4-5', sample: i % 10 }),
    );
    assert.equal(new Set(customIds(jobs)).size, 10_000);
  });
});

describe('splitting into batches', () => {
  const reqs = (n: number, size = 10): BatchRequest[] =>
    Array.from({ length: n }, (_, i) => ({ custom_id: `r${i}`, params: body('x'.repeat(size)) }));
  const bytesOf = (batch: BatchRequest[]) => Buffer.byteLength(JSON.stringify({ requests: batch }));

  it('one batch when under both caps', () => {
    const r = reqs(5);
    assert.deepEqual(splitIntoBatches(r), [r]);
    assert.deepEqual(splitIntoBatches([]), []);
  });

  it('at the request cap: 100,000 in a batch, the rest in the next', () => {
    const r = reqs(100_001, 0);
    const split = splitIntoBatches(r);
    assert.deepEqual(
      split.map(b => b.length),
      [100_000, 1],
    );
    assert.equal(split[1]![0]!.custom_id, 'r100000');
    assert.deepEqual(
      splitIntoBatches(reqs(10), { maxRequests: 3, maxBytes: 1e9 }).map(b => b.length),
      [3, 3, 3, 1],
    );
  });

  it('at the byte cap: each create body (envelope and commas counted) is within the cap, and as full as can be', () => {
    const r = reqs(50, 100);
    const one = Math.max(...r.map(x => bytesOf([x])));
    for (const maxBytes of [one, one + 50, 3 * one, 1000, 4321]) {
      const split = splitIntoBatches(r, { maxRequests: 100_000, maxBytes });
      assert.deepEqual(split.flat(), r, 'every request once, in order');
      for (const [i, b] of split.entries()) {
        assert.ok(bytesOf(b) <= maxBytes, `batch ${i} is ${bytesOf(b)} bytes, over ${maxBytes}`);
        const next = split[i + 1]?.[0];
        if (next) assert.ok(bytesOf([...b, next]) > maxBytes, 'the next request would not have fit');
      }
    }
  });

  it('the default caps are the public API’s: 100,000 requests and 256 MB', () => {
    assert.deepEqual(BATCH_CAPS, { maxRequests: 100_000, maxBytes: 256 * 1024 * 1024 });
  });

  it('a request no batch can hold is refused by name', () => {
    const r = reqs(3, 10);
    r[1] = { custom_id: 'huge', params: body('y'.repeat(2000)) };
    assert.throws(
      () => splitIntoBatches(r, { maxRequests: 10, maxBytes: 1000 }),
      (e: unknown) => e instanceof RequestTooLarge && e.customId === 'huge' && e.maxBytes === 1000,
    );
  });
});
