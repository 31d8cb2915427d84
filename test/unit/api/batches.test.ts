// The Message Batches client against the fake: every endpoint, its headers, paging both ways, and a 429 on
// each (retried after retry-after; a list never advances past a page that did not arrive).
import * as assert from 'node:assert/strict';
import {
  BATCHES_BETA,
  batchError,
  BatchesClient,
  type BatchRequest,
  type BatchResultLine,
} from '../../../src/core/api/batches';
import { Http } from '../../../src/core/api/http';
import { AbortedError, ApiError } from '../../../src/core/api/errors';
import { collect } from '../../../src/core/api/paging';
import { startFake, type Fake } from '../../fake/server';

const params = (text: string) => ({
  model: 'model-opus-4-7',
  max_tokens: 100,
  messages: [{ role: 'user', content: text }],
});
const requests = (n: number, text = (i: number) => `question ${i}`): BatchRequest[] =>
  Array.from({ length: n }, (_, i) => ({ custom_id: `r${i}`, params: params(text(i)) }));

describe('Message Batches client against the fake', () => {
  let fake: Fake;
  let waits: number[];
  const client = (betas: string[] = []) =>
    new BatchesClient(
      new Http({
        baseUrl: fake.url,
        apiKey: fake.apiKey,
        maxRetries: 2,
        betas,
        sleep: async ms => {
          waits.push(ms);
        },
      }),
    );
  const ended = async (id: string) => {
    for (;;) {
      const { batch } = await client().retrieve(id);
      if (batch.processing_status === 'ended') return batch;
      await new Promise(r => setTimeout(r, 20));
    }
  };
  const results = async (id: string) => {
    const out: BatchResultLine[] = [];
    for await (const line of client().results(id)) out.push(line);
    return out;
  };

  before(async () => {
    fake = await startFake({ batchProcessingMs: 60 });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.clear();
    waits = [];
  });

  it('create sends the requests with vendor-beta message-batches-2024-09-24 and the configured betas', async () => {
    const { batch, requestId } = await client(['pdfs-2024-09-25']).create(requests(3));
    assert.match(batch.id, /^msgbatch_/);
    assert.equal(batch.processing_status, 'in_progress');
    assert.deepEqual(batch.request_counts, { processing: 3, succeeded: 0, errored: 0, canceled: 0, expired: 0 });
    assert.equal(batch.results_url, null);
    assert.ok(Date.parse(batch.expires_at) - Date.parse(batch.created_at) >= 24 * 3600_000 - 1000);
    assert.match(requestId!, /^req_fake_/);
    const sent = fake.requests[0]!;
    assert.equal(sent.method, 'POST');
    assert.equal(sent.path, '/v1/messages/batches');
    assert.equal(sent.headers['vendor-beta'], `pdfs-2024-09-25,${BATCHES_BETA}`);
    assert.deepEqual((sent.body as { requests: BatchRequest[] }).requests, requests(3));
  });

  it('create leaves out stream: a request in a batch is answered whole', async () => {
    await client().create([{ custom_id: 'a', params: { ...params('x'), stream: true } }]);
    const sent = (fake.requests[0]!.body as { requests: BatchRequest[] }).requests[0]!;
    assert.equal('stream' in sent.params, false);
  });

  it('create refuses, before sending, no requests, a custom_id of the wrong form, or one given twice', async () => {
    await assert.rejects(client().create([]), RangeError);
    await assert.rejects(client().create([{ custom_id: 'has space', params: params('x') }]), /not allowed/);
    await assert.rejects(client().create([{ custom_id: 'x'.repeat(65), params: params('x') }]), /not allowed/);
    await assert.rejects(
      client().create([
        { custom_id: 'a', params: params('x') },
        { custom_id: 'a', params: params('y') },
      ]),
      /given twice/,
    );
    assert.equal(fake.requests.length, 0);
  });

  it('retrieve polls a batch until it ends; then results_url and the counts are set', async () => {
    const { batch } = await client().create(requests(4));
    const done = await ended(batch.id);
    assert.equal(done.processing_status, 'ended');
    assert.deepEqual(done.request_counts, { processing: 0, succeeded: 4, errored: 0, canceled: 0, expired: 0 });
    assert.equal(done.results_url, `${fake.url}/v1/messages/batches/${batch.id}/results`);
    assert.ok(done.ended_at);
    const polls = fake.requests.filter(r => r.method === 'GET');
    assert.ok(polls.every(r => r.headers['vendor-beta'] === BATCHES_BETA));
  });

  it('results: every line, matched by custom_id, in an order of their own; errored and expired ones too', async () => {
    const text = (i: number) => (i === 3 ? 'q #errored' : i === 5 ? 'q #expired' : `question ${i}`);
    const { batch } = await client().create(requests(40, text));
    await ended(batch.id);
    const lines = await results(batch.id);
    assert.equal(lines.length, 40);
    assert.notDeepEqual(
      lines.map(l => l.custom_id),
      requests(40).map(r => r.custom_id),
      'shuffled',
    );
    const by = new Map(lines.map(l => [l.custom_id, l.result]));
    const ok = by.get('r7')!;
    assert.equal(ok.type, 'succeeded');
    if (ok.type === 'succeeded') {
      assert.equal(ok.message.usage.service_tier, 'batch');
      assert.match(JSON.stringify(ok.message.content), /question 7/);
    }
    const bad = by.get('r3')!;
    assert.equal(bad.type, 'errored');
    if (bad.type === 'errored') assert.deepEqual(batchError(bad.error).type, 'invalid_request_error');
    assert.equal(by.get('r5')!.type, 'expired');
    const asked = fake.requests.find(r => r.path.endsWith('/results'))!;
    assert.equal(asked.headers['vendor-beta'], BATCHES_BETA);
  });

  it('results before the batch has ended are a 400 the caller sees', async () => {
    const slow = await startFake({ batchProcessingMs: 60_000 });
    try {
      const c = new BatchesClient(new Http({ baseUrl: slow.url, apiKey: slow.apiKey, maxRetries: 0 }));
      const { batch } = await c.create(requests(1));
      await assert.rejects(
        (async () => {
          for await (const _ of c.results(batch.id)) void _;
        })(),
        (e: unknown) => e instanceof ApiError && e.status === 400,
      );
    } finally {
      await slow.close();
    }
  });

  it('cancel: canceling, then ended with what was not reached canceled', async () => {
    const slow = await startFake({ batchProcessingMs: 60_000 });
    try {
      const c = new BatchesClient(new Http({ baseUrl: slow.url, apiKey: slow.apiKey }));
      const { batch } = await c.create(requests(5));
      const { batch: canceling } = await c.cancel(batch.id);
      assert.equal(canceling.processing_status, 'canceling');
      assert.ok(canceling.cancel_initiated_at);
      assert.equal(slow.requests.at(-1)!.path, `/v1/messages/batches/${batch.id}/cancel`);
      assert.equal(slow.requests.at(-1)!.method, 'POST');
      await new Promise(r => setTimeout(r, 80));
      const { batch: done } = await c.retrieve(batch.id);
      assert.equal(done.processing_status, 'ended');
      assert.equal(done.request_counts.canceled, 5);
      const types = [];
      for await (const l of c.results(batch.id)) types.push(l.result.type);
      assert.deepEqual(types, ['canceled', 'canceled', 'canceled', 'canceled', 'canceled']);
    } finally {
      await slow.close();
    }
  });

  it('a batch that expires before it is processed ends with its requests expired', async () => {
    const f = await startFake({ batchProcessingMs: 10_000, batchExpiresAfterMs: 30 });
    try {
      const c = new BatchesClient(new Http({ baseUrl: f.url, apiKey: f.apiKey }));
      const { batch } = await c.create(requests(3));
      await new Promise(r => setTimeout(r, 60));
      const { batch: done } = await c.retrieve(batch.id);
      assert.equal(done.processing_status, 'ended');
      assert.equal(done.request_counts.expired, 3);
    } finally {
      await f.close();
    }
  });

  it('lists batches newest first, a page at a time, forward with after_id and back with before_id', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await client().create(requests(1))).batch.id);
    fake.requests.length = 0;
    const pages = [];
    for await (const p of client().pages({ pageSize: 2 })) pages.push(p);
    assert.deepEqual(
      pages.map(p => p.data.map(b => b.id)),
      [[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]],
    );
    assert.deepEqual(
      fake.requests.map(r => [r.query.limit, r.query.after_id]),
      [
        ['2', undefined],
        ['2', ids[3]],
        ['2', ids[1]],
      ],
    );
    const back = await collect(client().pages({ pageSize: 2, before: ids[1] }));
    assert.deepEqual(
      back.map(b => b.id),
      [ids[3], ids[2], ids[4]],
      'backwards, a page at a time: the two before ids[1], then the one before those',
    );
    assert.throws(() => client().pages({ pageSize: 1001 }), RangeError);
  });

  describe('a 429 on each endpoint', () => {
    const limited = (path: string, method: string) =>
      fake.fail({ path, method, status: 429, headers: { 'retry-after': '3' } });

    it('create: retried after retry-after, one batch made', async () => {
      limited('/v1/messages/batches', 'POST');
      const { batch } = await client().create(requests(2));
      assert.deepEqual(waits, [3000]);
      assert.equal(fake.batches.all.length, 1);
      assert.equal(fake.batches.all[0]!.id, batch.id);
    });

    it('create: a 429 that outlasts the retries is the caller’s, with nothing made', async () => {
      fake.fail({ path: '/v1/messages/batches', method: 'POST', status: 429, headers: { 'retry-after': '3' } }, 3);
      await assert.rejects(
        client().create(requests(2)),
        (e: unknown) => e instanceof ApiError && e.status === 429 && !!e.requestId,
      );
      assert.equal(fake.batches.all.length, 0);
    });

    it('retrieve, cancel and results: retried after retry-after', async () => {
      const { batch } = await client().create(requests(2));
      await ended(batch.id);
      waits = [];
      limited(`/${batch.id}`, 'GET');
      assert.equal((await client().retrieve(batch.id)).batch.id, batch.id);
      limited('/cancel', 'POST');
      assert.equal((await client().cancel(batch.id)).batch.processing_status, 'ended');
      limited('/results', 'GET');
      assert.equal((await results(batch.id)).length, 2);
      assert.deepEqual(waits, [3000, 3000, 3000]);
    });

    it('list: a 429 on the second page retries that page; the cursor never advances past it', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await client().create(requests(1))).batch.id);
      fake.requests.length = 0;
      fake.fail({ path: '/v1/messages/batches', method: 'GET', status: 429, headers: { 'retry-after': '3' } });
      // the fault takes the first list request: the first page is asked for twice, then the second
      const got = await collect(client().pages({ pageSize: 2 }));
      assert.deepEqual(
        got.map(b => b.id),
        [ids[2], ids[1], ids[0]],
      );
      assert.deepEqual(
        fake.requests.map(r => [r.status, r.query.after_id]),
        [
          [429, undefined],
          [200, undefined],
          [200, ids[1]],
        ],
      );
    });
  });

  it('results are read as a stream: a cancel mid-body ends the read and closes the connection', async () => {
    const { batch } = await client().create(requests(3000, i => `question ${i} ${'x'.repeat(200)}`));
    await ended(batch.id);
    const ctl = new AbortController();
    let n = 0;
    await assert.rejects(
      (async () => {
        for await (const _ of client().results(batch.id, { signal: ctl.signal })) {
          void _;
          if (++n === 10) ctl.abort();
        }
      })(),
      AbortedError,
    );
    assert.ok(n >= 10 && n < 3000, `stopped early (${n})`);
    const r = fake.requests.find(x => x.path.endsWith('/results'))!;
    for (let i = 0; i < 50 && r.closedAt === undefined; i++) await new Promise(res => setTimeout(res, 10));
    assert.ok(r.closedAt, 'the fake saw the connection close');
  });
});
