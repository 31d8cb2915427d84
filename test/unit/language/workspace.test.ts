// What both editors keep of a workspace (core/language/workspace.ts): the pause before a check, the case index.
import * as assert from 'node:assert/strict';
import type { PrefixRequest } from '../../../src/core/cache/prefix';
import { CaseIndex, checkDelay, LensCounts, notCountedWords } from '../../../src/core/language/workspace';

describe('checkDelay: the pause before a file is checked, in both editors', () => {
  it('is the setting for a small file, a millisecond more per 20,000 characters, at most a second more', () => {
    const settings = { validationDebounceMs: 250 };
    assert.equal(checkDelay(settings, 1_000), 250);
    assert.equal(checkDelay(settings, 200_000), 260);
    assert.equal(checkDelay(settings, 50_000_000), 1250);
  });
  it('is no pause at all when the setting is 0, whatever the size', () => {
    assert.equal(checkDelay({ validationDebounceMs: 0 }, 50_000_000), 0);
  });
});

describe('CaseIndex: which case files read which files, in both editors', () => {
  /** A case file's check as a front end keeps it: the files it names, by URI. */
  interface Checked {
    request?: string;
    judge?: string;
    dataset?: string;
  }
  const index = () =>
    new CaseIndex<string, Checked>(
      uri => uri,
      c => ({ request: c.request, files: [c.request, c.judge, c.dataset] }),
    );

  it('finds the case files naming a request file, and the case files reading a file in any role', () => {
    const cases = index();
    cases.set('a.cases.yaml', { request: 'p.prompt.yaml', dataset: 'rows.csv' });
    cases.set('b.cases.yaml', { request: 'p.prompt.yaml', judge: 'judge.md' });
    cases.set('c.cases.yaml', { request: 'q.prompt.yaml' });
    assert.deepEqual(
      cases.forRequest('p.prompt.yaml').map(c => c.key),
      ['a.cases.yaml', 'b.cases.yaml'],
    );
    assert.deepEqual(cases.forRequest('rows.csv'), [], 'a dataset is no request');
    assert.deepEqual(cases.readers('rows.csv'), ['a.cases.yaml']);
    assert.deepEqual(cases.readers('judge.md'), ['b.cases.yaml']);
    assert.deepEqual(cases.readers('other.yaml'), []);
    assert.deepEqual(cases.get('b.cases.yaml'), { request: 'p.prompt.yaml', judge: 'judge.md' });
  });

  it('follows a case file that names another request, and one forgotten', () => {
    const cases = index();
    assert.equal(cases.set('a.cases.yaml', { request: 'p.prompt.yaml' }), undefined);
    assert.equal(cases.set('a.cases.yaml', { request: 'q.prompt.yaml' }), 'p.prompt.yaml', 'the request it named');
    assert.deepEqual(cases.forRequest('p.prompt.yaml'), []);
    assert.deepEqual(
      cases.forRequest('q.prompt.yaml').map(c => c.key),
      ['a.cases.yaml'],
    );
    assert.deepEqual(cases.forget('a.cases.yaml'), { request: 'q.prompt.yaml' });
    assert.equal(cases.has('a.cases.yaml'), false);
    assert.deepEqual(cases.readers('q.prompt.yaml'), []);
    assert.equal(cases.forget('a.cases.yaml'), undefined);
  });

  it('drops a check that ends after a newer one started, or after its file was forgotten', () => {
    const cases = index();
    const first = cases.begin('a.cases.yaml');
    const second = cases.begin('a.cases.yaml');
    assert.equal(first(), false);
    assert.equal(second(), true);
    const other = cases.begin('b.cases.yaml');
    assert.equal(second(), true, 'another file has checks of its own');
    cases.forget('b.cases.yaml');
    assert.equal(other(), false);
  });

  it("keys files the front end's way: two URI objects of one file are one file", () => {
    const cases = new CaseIndex<URL, Checked>(
      u => u.href,
      c => ({ request: c.request ? new URL(c.request) : undefined, files: [] }),
    );
    cases.set(new URL('file:///w/a.cases.yaml'), { request: 'file:///w/p.prompt.yaml' });
    assert.equal(cases.has(new URL('file:///w/a.cases.yaml')), true);
    assert.deepEqual(
      cases.forRequest(new URL('file:///w/p.prompt.yaml')).map(c => c.key.href),
      ['file:///w/a.cases.yaml'],
    );
  });

  describe('a file event asks for the case files to check again', () => {
    const cases = index();
    cases.set('a.cases.yaml', { request: 'p.prompt.yaml', dataset: 'rows.csv' });
    cases.set('b.cases.yaml', { request: 'p.prompt.yaml' });

    it('an edit: the case file itself, or every case file reading the file edited', () => {
      assert.deepEqual(cases.changed('a.cases.yaml', true, { kind: 'text' }), { check: ['a.cases.yaml'] });
      assert.deepEqual(cases.changed('new.cases.yaml', true, { kind: 'text' }), { check: ['new.cases.yaml'] });
      assert.deepEqual(cases.changed('p.prompt.yaml', false, { kind: 'text' }), {
        check: ['a.cases.yaml', 'b.cases.yaml'],
      });
      assert.deepEqual(cases.changed('rows.csv', false, { kind: 'text' }), { check: ['a.cases.yaml'] });
      assert.deepEqual(cases.changed('unread.json', false, { kind: 'text' }), { check: [] });
    });

    it('on disk: a file the editor holds changes with its text, not the disk, unless it was deleted', () => {
      const disk = (deleted: boolean, open: boolean) => ({ kind: 'disk' as const, deleted, open });
      assert.deepEqual(cases.changed('a.cases.yaml', true, disk(false, false)), { check: ['a.cases.yaml'] });
      assert.deepEqual(cases.changed('a.cases.yaml', true, disk(false, true)), { check: [] });
      assert.deepEqual(cases.changed('a.cases.yaml', true, disk(true, false)), { check: [], forget: 'a.cases.yaml' });
      assert.deepEqual(cases.changed('p.prompt.yaml', false, disk(false, false)), {
        check: ['a.cases.yaml', 'b.cases.yaml'],
      });
      assert.deepEqual(cases.changed('p.prompt.yaml', false, disk(false, true)), { check: [] });
      assert.deepEqual(cases.changed('rows.csv', false, disk(true, true)), { check: ['a.cases.yaml'] });
    });
  });
});

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
