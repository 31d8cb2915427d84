// A run as Message Batches against the fake: submitted once, resumed rather than sent again, split where the
// caps say, waited for, its results matched by custom_id, and submitted anew once collected.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BatchesClient } from '../../../src/core/api/batches';
import { Http } from '../../../src/core/api/http';
import { ApiError } from '../../../src/core/api/errors';
import { customIds } from '../../../src/core/batches/requests';
import { BatchSession, RunNotFound, type BatchJob, type SessionEvent } from '../../../src/core/batches/session';
import { BatchStore } from '../../../src/core/batches/store';
import { startFake, type Fake } from '../../fake/server';

const FAST = { firstMs: 10, maxMs: 40, factor: 2 };

function jobsOf(n: number, text = (i: number) => `question ${i}`): BatchJob[] {
  const refs = Array.from({ length: n }, (_, i) => ({
    file: 'a.cases.yaml',
    caseName: `case ${i}`,
    model: 'model-haiku-4-5',
    sample: 0,
  }));
  const params = refs.map((_, i) => ({
    model: 'model-haiku-4-5',
    max_tokens: 50,
    messages: [{ role: 'user', content: text(i) }],
  }));
  const ids = customIds(refs.map((r, i) => ({ ...r, body: params[i]! })));
  return refs.map((ref, i) => ({ customId: ids[i]!, ref, params: params[i]! }));
}

describe('a run as Message Batches (session)', () => {
  let fake: Fake;
  let dir: string;
  let events: SessionEvent[];
  const session = (jobs: BatchJob[], o: { maxRequests?: number; maxRetries?: number } = {}) =>
    new BatchSession({
      client: new BatchesClient(new Http({ baseUrl: fake.url, apiKey: fake.apiKey, maxRetries: o.maxRetries ?? 0 })),
      store: new BatchStore(dir),
      jobs,
      run: { cwd: '/repo', files: ['a.cases.yaml'], args: {} },
      caps: { maxRequests: o.maxRequests ?? 100_000, maxBytes: 256 * 1024 * 1024 },
      pace: FAST,
      onEvent: e => events.push(e),
    });
  const creates = () => fake.requests.filter(r => r.method === 'POST' && r.path === '/v1/messages/batches');

  before(async () => {
    fake = await startFake({ batchProcessingMs: 50 });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.clear();
    events = [];
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-session-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('submits once, waits, and matches every result to its request, whatever their order', async () => {
    const jobs = jobsOf(30, i => (i === 4 ? 'q #errored' : `question ${i}`));
    const s = session(jobs);
    const { created, resumed } = await s.submit();
    assert.equal(resumed, false);
    assert.equal(created.length, 1);
    const ended = await s.wait();
    assert.equal(ended[0]!.processing_status, 'ended');
    const got = new Map<string, string>();
    const order: string[] = [];
    for await (const m of s.results()) {
      got.set(m.job.customId, m.result.type === 'succeeded' ? JSON.stringify(m.result.message.content) : m.result.type);
      order.push(m.job.customId);
      assert.equal(m.batchId, created[0]!.id);
    }
    assert.equal(got.size, 30);
    assert.notDeepEqual(
      order,
      jobs.map(j => j.customId),
      'the fake shuffles',
    );
    for (const [i, j] of jobs.entries())
      if (i === 4) assert.equal(got.get(j.customId), 'errored');
      else assert.match(got.get(j.customId)!, new RegExp(`question ${i}\\b`));
    assert.ok(events.some(e => e.kind === 'status' && e.batch.processing_status === 'ended'));
  });

  it('the same run again while pending resumes it: no second submission', async () => {
    const jobs = jobsOf(5);
    await session(jobs).submit();
    const again = session(jobs);
    assert.equal(await again.pending(), true);
    const r = await again.submit();
    assert.equal(r.resumed, true);
    assert.equal(r.created.length, 0);
    assert.equal(creates().length, 1);
    assert.ok(events.some(e => e.kind === 'resumed'));
    await again.wait();
    let n = 0;
    for await (const _ of again.results()) n++;
    assert.equal(n, 5);
  });

  it('a changed suite is another run; a collected run submits anew', async () => {
    await session(jobsOf(3)).submit();
    const changed = session(jobsOf(3, i => `changed ${i}`));
    assert.equal(await changed.pending(), false);
    const first = session(jobsOf(3));
    await first.submit();
    await first.wait();
    await first.collected();
    assert.equal(await session(jobsOf(3)).pending(), false);
    const r = await session(jobsOf(3)).submit();
    assert.equal(r.resumed, false);
    assert.equal(creates().length, 2);
  });

  it('splits at the caps; a split cut short goes on where it stopped when run again', async () => {
    const jobs = jobsOf(7);
    // the second create is refused (a 500 the service says not to retry): the run stops after the first batch
    const cut = new BatchSession({
      client: new BatchesClient(new Http({ baseUrl: fake.url, apiKey: fake.apiKey, maxRetries: 0 })),
      store: new BatchStore(dir),
      jobs,
      run: { cwd: '/repo', files: ['a.cases.yaml'], args: {} },
      caps: { maxRequests: 3, maxBytes: 1e9 },
      onEvent: e => {
        if (e.kind === 'created')
          fake.fail({ path: '/batches', method: 'POST', status: 500, headers: { 'x-should-retry': 'false' } });
      },
    });
    await assert.rejects(cut.submit(), (e: unknown) => e instanceof ApiError && e.status === 500);
    assert.deepEqual(
      fake.batches.all.map(b => b.requests),
      [3],
    );
    const again = session(jobs, { maxRequests: 3 });
    const r = await again.submit();
    assert.equal(r.resumed, true);
    assert.equal(r.created.length, 2, 'only what the first batch does not hold');
    assert.deepEqual(
      fake.batches.all.map(b => b.requests),
      [3, 3, 1],
    );
    assert.equal(again.batchIds.length, 3);
    await again.wait();
    const matched = new Set<string>();
    for await (const m of again.results()) matched.add(m.job.customId);
    assert.equal(matched.size, 7);
    assert.deepEqual(again.missing(matched), []);
  });

  it('a cancel between two creates stops before the next; the batch made is kept, and a re-run goes on', async () => {
    const jobs = jobsOf(5);
    const ctl = new AbortController();
    const s = new BatchSession({
      client: new BatchesClient(new Http({ baseUrl: fake.url, apiKey: fake.apiKey })),
      store: new BatchStore(dir),
      jobs,
      run: { cwd: '/repo', files: ['a.cases.yaml'], args: {} },
      caps: { maxRequests: 2, maxBytes: 1e9 },
      onEvent: e => e.kind === 'created' && ctl.abort(),
    });
    const r = await s.submit(ctl.signal);
    assert.equal(r.created.length, 1);
    assert.deepEqual(await new BatchStore(dir).cells(r.created[0]!.id), {
      [jobs[0]!.customId]: jobs[0]!.ref,
      [jobs[1]!.customId]: jobs[1]!.ref,
    });
    const again = await session(jobs, { maxRequests: 2 }).submit();
    assert.equal(again.created.length, 2);
    assert.equal(creates().length, 3);
  });

  it('collect: reads a run already submitted (collected or not) and never submits', async () => {
    const jobs = jobsOf(4);
    const first = session(jobs);
    await first.submit();
    await first.wait();
    await first.collected();
    const collect = new BatchSession({
      client: new BatchesClient(new Http({ baseUrl: fake.url, apiKey: fake.apiKey })),
      store: new BatchStore(dir),
      // the case file changed since: one request is another now; the run is found by its key all the same
      jobs: [...jobs.slice(0, 3), ...jobsOf(5, i => `changed ${i}`).slice(4)],
      run: { cwd: '/repo', files: ['a.cases.yaml'], args: {} },
      pace: FAST,
      collect: { runKey: first.key },
      onEvent: e => events.push(e),
    });
    const r = await collect.submit();
    assert.deepEqual(r, { created: [], resumed: true });
    await collect.wait();
    const matched = new Set<string>();
    for await (const m of collect.results()) matched.add(m.job.customId);
    assert.equal(matched.size, 3);
    assert.ok(events.some(e => e.kind === 'unmatched' && /no request of this run/.test(e.problem)));
    assert.equal(creates().length, 1);
    const unknown = new BatchSession({
      client: new BatchesClient(new Http({ baseUrl: fake.url, apiKey: fake.apiKey })),
      store: new BatchStore(dir),
      jobs,
      run: { cwd: '/repo', files: [], args: {} },
      collect: { runKey: 'nope' },
    });
    await assert.rejects(unknown.submit(), RunNotFound);
  });

  it('a create refused by the service leaves the run with what was created, and nothing lost', async () => {
    const jobs = jobsOf(7);
    fake.fail({ path: '/v1/messages/batches', method: 'POST', status: 500, headers: { 'x-should-retry': 'false' } });
    await assert.rejects(session(jobs, { maxRequests: 3 }).submit(), (e: unknown) => e instanceof ApiError);
    assert.equal(fake.batches.all.length, 0);
    const again = session(jobs, { maxRequests: 3 });
    const r = await again.submit();
    assert.equal(r.resumed, false, 'nothing was created: a fresh run');
    assert.deepEqual(
      fake.batches.all.map(b => b.requests),
      [3, 3, 1],
    );
  });
});
