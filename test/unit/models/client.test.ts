// The models client against the fake (doc3 §9.5; the public Messages API for the shapes): the list in cursor
// pages, newest first, every page once and in order; a 429 asks the same page again; one model by id or by
// alias; an unknown id is the service's 404, typed, with its request-id.
import * as assert from 'node:assert/strict';
import { ApiError, InputError } from '../../../src/core/api/errors';
import { Http } from '../../../src/core/api/http';
import { collect } from '../../../src/core/api/paging';
import { ModelsClient } from '../../../src/core/models/client';
import { startDemoServer, DEMO_KEYS } from '../../../src/core/demo/server';
import { useFake } from '../../support/fake';
import { fakeModels } from '../../fake/models';

describe('models client (doc3 §9.5, against the fake)', () => {
  const fake = useFake();
  let waits: number[];
  const client = (o: { apiKey?: string; maxRetries?: number } = {}) =>
    new ModelsClient(
      new Http({
        baseUrl: fake.url,
        apiKey: o.apiKey ?? fake.apiKey,
        maxRetries: o.maxRetries ?? 2,
        sleep: async ms => {
          waits.push(ms);
        },
      }),
    );
  const listed = () => fake.requests.filter(r => r.path === '/v1/models');
  beforeEach(() => {
    waits = [];
  });

  it('lists every model newest first, in one request of 1,000 with the API key and vendor-version', async () => {
    const all = await client().all();
    assert.deepEqual(
      all.map(m => m.id),
      fakeModels().map(m => m.id),
    );
    assert.equal(all[0]!.id, 'model-quill-1-20261101');
    const sorted = [...all].sort((a, b) => b.created_at!.localeCompare(a.created_at!));
    assert.deepEqual(all, sorted, 'newest first');
    const [r] = listed();
    assert.equal(listed().length, 1);
    assert.equal(r!.query.limit, '1000');
    assert.equal(r!.headers['x-api-key'], fake.apiKey);
    assert.equal(r!.headers['vendor-version'], '2023-06-01');
  });

  it('pages: after_id is the last_id of the page before, until has_more is false; no model twice', async () => {
    const pages = [];
    for await (const p of client().pages({ pageSize: 5 })) pages.push(p);
    const total = fakeModels().length;
    assert.deepEqual(
      pages.map(p => p.data.length),
      [5, 5, total - 10],
    );
    assert.deepEqual(
      pages.map(p => p.has_more),
      [true, true, false],
    );
    assert.deepEqual(
      listed().map(r => r.query.after_id),
      [undefined, pages[0]!.last_id, pages[1]!.last_id],
    );
    // cursors are the service's, not model ids
    assert.ok(pages.every(p => !p.data.some(m => m.id === p.last_id)));
    const ids = pages.flatMap(p => p.data.map(m => m.id));
    assert.equal(new Set(ids).size, total);
  });

  it('pages backwards from a first_id with before_id', async () => {
    const pages = [];
    for await (const p of client().pages({ pageSize: 5 })) pages.push(p);
    fake.clear();
    const back = await collect(client().pages({ pageSize: 5, before: pages[2]!.first_id! }));
    assert.deepEqual(back.map(m => m.id).sort(), [...pages[0]!.data, ...pages[1]!.data].map(m => m.id).sort());
    assert.equal(listed()[0]!.query.before_id, pages[2]!.first_id);
  });

  it('never advances the cursor after a 429: the same page is asked again after retry-after', async () => {
    const it = client().pages({ pageSize: 5 });
    const first = await it.next();
    fake.fail({ path: '/v1/models', status: 429, headers: { 'retry-after': '3' } });
    const second = await it.next();
    assert.equal((second.value as { data: unknown[] }).data.length, 5);
    const cursors = listed().map(r => r.query.after_id);
    assert.deepEqual(cursors, [
      undefined,
      (first.value as { last_id: string }).last_id,
      (first.value as { last_id: string }).last_id,
    ]);
    assert.deepEqual(
      listed().map(r => r.status),
      [200, 429, 200],
    );
    assert.deepEqual(waits, [3000]);
    await it.return(undefined);
  });

  it('a page still failing after its retries fails the list; the same cursor was asked each time', async () => {
    const pages = client({ maxRetries: 1 }).pages({ pageSize: 5 });
    const first = await pages.next();
    fake.fail({ path: '/v1/models', status: 529 }, 2);
    await assert.rejects(pages.next(), (e: unknown) => e instanceof ApiError && e.status === 529);
    const last = (first.value as { last_id: string }).last_id;
    assert.deepEqual(
      listed().map(r => r.query.after_id),
      [undefined, last, last],
    );
  });

  it('stops asking when the consumer stops', async () => {
    for await (const _ of client().pages({ pageSize: 2 })) break;
    assert.equal(listed().length, 1);
  });

  it('checks the page size before sending (1 to 1000)', () => {
    for (const pageSize of [0, 1001, 2.5]) assert.throws(() => client().pages({ pageSize }), InputError);
    assert.equal(fake.requests.length, 0);
  });

  it('gets one model by id, and an alias answers with the model it points to', async () => {
    const m = await client().get('model-quill-1-20261101');
    assert.equal(m.display_name, 'Quill 1');
    assert.equal(m.max_input_tokens, 400_000);
    const alias = await client().get('model-quill-1');
    assert.equal(alias.id, 'model-quill-1-20261101');
    const haiku = await client().get('model-haiku-4-5');
    assert.equal(haiku.id, 'model-haiku-4-5-20251001');
    assert.deepEqual(
      fake.requests.map(r => r.path),
      ['/v1/models/model-quill-1-20261101', '/v1/models/model-quill-1', '/v1/models/model-haiku-4-5'],
    );
  });

  it("an unknown id is the service's 404: not_found_error, its message and request-id, not retried", async () => {
    const e = await client()
      .get('model-nope-9')
      .catch((x: unknown) => x);
    assert.ok(e instanceof ApiError);
    assert.equal(e.status, 404);
    assert.equal(e.type, 'not_found_error');
    assert.match(e.message, /model-nope-9/);
    assert.match(e.requestId!, /^req_fake_/);
    assert.equal(fake.requests.length, 1);
  });

  it('a wrong key is a 401 authentication_error', async () => {
    const e = await client({ apiKey: 'wrong' })
      .all()
      .catch((x: unknown) => x);
    assert.ok(e instanceof ApiError);
    assert.equal(e.type, 'authentication_error');
  });
});

describe('the fake and the demo serve the models interface as the public API shapes it', () => {
  const fake = useFake();
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const r = await fetch(`${fake.url}${path}`, {
      headers: { 'x-api-key': fake.apiKey, 'vendor-version': '2023-06-01', ...headers },
    });
    return {
      status: r.status,
      requestId: r.headers.get('request-id'),
      body: (await r.json()) as Record<string, unknown>,
    };
  };
  it('a page is {data, first_id, last_id, has_more}; limit defaults to 20, and 1 to 1000 is checked', async () => {
    const r = await get('/v1/models');
    assert.deepEqual(Object.keys(r.body).sort(), ['data', 'first_id', 'has_more', 'last_id']);
    assert.equal((r.body.data as unknown[]).length, Math.min(20, fakeModels().length));
    for (const limit of ['0', '1001', 'x']) {
      const bad = await get(`/v1/models?limit=${limit}`);
      assert.equal(bad.status, 400);
      assert.equal((bad.body.error as { type: string }).type, 'invalid_request_error');
    }
    const cursor = await get('/v1/models?after_id=model-opus-4-7');
    assert.equal(cursor.status, 400, 'a model id is not a cursor');
  });

  it('a model: {type: "model", id, display_name, created_at, max_input_tokens, max_tokens, capabilities}', async () => {
    const r = await get('/v1/models/model-lyra-2');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body).sort(), [
      'capabilities',
      'created_at',
      'display_name',
      'id',
      'max_input_tokens',
      'max_tokens',
      'type',
    ]);
    const caps = r.body.capabilities as Record<string, { supported: boolean; types?: object }>;
    assert.deepEqual(caps.thinking, {
      supported: true,
      types: { adaptive: { supported: true }, enabled: { supported: false } },
    });
    assert.equal(caps.pdf_input!.supported, false);
  });

  it('404: {type: "error", error: {type: "not_found_error", message}, request_id} (the header value)', async () => {
    const r = await get('/v1/models/model-none');
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, {
      type: 'error',
      error: { type: 'not_found_error', message: 'model: model-none was not found' },
      request_id: r.requestId,
    });
  });

  it('auth and the version header come first', async () => {
    assert.equal((await get('/v1/models', { 'x-api-key': 'nope' })).status, 401);
    assert.equal((await get('/v1/models', { 'vendor-version': '2020-01-01' })).status, 400);
  });

  it('the demo lists the built-in table’s current models, and resolves their aliases', async () => {
    const demo = await startDemoServer({ delayMs: 0 });
    try {
      const c = new ModelsClient(new Http({ baseUrl: demo.url, apiKey: DEMO_KEYS.api, maxRetries: 0 }));
      const ids = (await c.all()).map(m => m.id);
      assert.ok(ids.includes('model-opus-4-7') && ids.includes('model-haiku-4-5-20251001'));
      assert.ok(!ids.some(id => id.startsWith('model-quill')), 'the demo shows only models the table knows');
      assert.equal((await c.get('model-sonnet-4-5')).id, 'model-sonnet-4-5-20250929');
    } finally {
      await demo.close();
    }
  });
});
