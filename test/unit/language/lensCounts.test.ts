// What the service counted of the lenses, kept once for both editors (core/language/lensCounts.ts).
import * as assert from 'node:assert/strict';
import type { PrefixRequest } from '../../../src/core/cache/prefix';
import { LensCounts, notCountedWords } from '../../../src/core/language/lensCounts';

describe('LensCounts: what the service counted of the lenses, in both editors', () => {
  const whole = (text: string): PrefixRequest => ({ kind: 'whole', body: { model: 'm', messages: [text] } });
  const a = whole('a');
  const b = whole('bb');

  /** A count_tokens that answers each body's JSON length, fails where `failing` says, or waits for `gate`. */
  function service(o: { failing?: string; gate?: Promise<void> } = {}) {
    const seen: (AbortSignal | undefined)[] = [];
    const counts = new LensCounts(async (body, signal) => {
      seen.push(signal);
      await o.gate;
      if (signal?.aborted) throw new Error('aborted');
      const text = JSON.stringify(body);
      if (o.failing && text.includes(o.failing))
        throw Object.assign(new Error('overloaded'), { type: 'overloaded_error', requestId: 'req_1' });
      return text.length;
    }, 2);
    return { counts, seen };
  }

  it('counts each prefix once, says what it knows after, and marks a new generation', async () => {
    const { counts } = service();
    const before = counts.generation;
    assert.equal(counts.prefixCounts(false, true)?.of(a), undefined, 'nothing counted yet');
    const results = await counts.count('file:///p.json', [a, b, undefined]);
    assert.deepEqual(results?.slice(0, 2), [
      { tokens: JSON.stringify(a.body).length },
      { tokens: JSON.stringify(b.body).length },
    ]);
    assert.ok(results && 'error' in results[2]!, 'a prefix with nothing to count against');
    assert.ok(counts.generation > before);
    assert.equal(counts.isCounting('file:///p.json'), false);
    assert.equal(counts.prefixCounts(false, true)?.of(a), JSON.stringify(a.body).length);
    await counts.count('file:///p.json', [a, b]);
    assert.equal(counts.counter.calls, 2, 'an unchanged body is not sent again');
  });

  it('without counts in force the prefixes are estimates; counting says so', async () => {
    const { counts } = service();
    await counts.count('file:///p.json', [a]);
    assert.equal(counts.prefixCounts(false, false), undefined);
    const counting = counts.prefixCounts(true, false);
    assert.equal(counting?.counting, true);
    assert.equal(counting?.of(a), undefined, 'counted, but the counts are not in force');
    assert.equal(counts.prefixCounts(false, true, () => 7)?.of(a), 7, "the front end's own lookup");
  });

  it('a failed count is the error the lenses show, asked again only when a person asks', async () => {
    const { counts } = service({ failing: '"bb"' });
    const results = await counts.count('file:///p.json', [a, b]);
    const failed = results?.[1];
    assert.ok(failed && 'error' in failed);
    assert.equal(notCountedWords(failed.error), 'overloaded_error overloaded request-id=req_1');
    assert.equal(notCountedWords({ message: 'refused' }), ' refused');
    assert.deepEqual(counts.prefixCounts(false, true)?.of(b), { error: { message: 'overloaded' } });
    await counts.count('file:///p.json', [a, b]);
    assert.equal(counts.counter.calls, 2, 'a failure is not asked again by itself');
    await counts.count('file:///p.json', [a, b], true);
    assert.equal(counts.counter.calls, 3, 'again: the failed one is sent again');
  });

  it('a count stopped (the file changed or closed) answers nothing, and its calls are aborted', async () => {
    let open!: () => void;
    const { counts, seen } = service({ gate: new Promise<void>(r => (open = r)) });
    const counting = counts.count('file:///p.json', [a, b]);
    assert.equal(counts.isCounting('file:///p.json'), true);
    assert.equal(counts.prefixCounts(true, true)?.counting, true);
    counts.forget('file:///p.json');
    assert.equal(counts.isCounting('file:///p.json'), false);
    open();
    assert.equal(await counting, undefined);
    assert.ok(seen.length && seen.every(s => s?.aborted));
  });

  it('clear: another service or key, nothing known any more', async () => {
    const { counts } = service();
    await counts.count('file:///p.json', [a]);
    const before = counts.generation;
    counts.clear();
    assert.equal(counts.prefixCounts(false, true)?.of(a), undefined);
    assert.ok(counts.generation > before);
  });

  it('dispose stops every count in flight', async () => {
    let open!: () => void;
    const { counts } = service({ gate: new Promise<void>(r => (open = r)) });
    const one = counts.count('file:///p.json', [a]);
    const two = counts.count('file:///q.json', [b]);
    counts.dispose();
    open();
    assert.deepEqual(await Promise.all([one, two]), [undefined, undefined]);
  });
});
