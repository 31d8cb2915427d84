// The fake's compliance interface against the spec (doc3 §2.2, §2.3, §4, §5, §6, §7, §8), over plain HTTP.
import * as assert from 'node:assert/strict';
import { ACTIVITY_TYPES } from '../../../src/core/compliance/filters';
import { parseRfc3339 } from '../../../src/core/demo/timeFilters';
import { startFake, type Fake, type FakeOptions } from '../../fake/server';

const FULL = 'sk-vendor-api01-full';
const READONLY = 'sk-vendor-api01-readonly';

// the body stays as loose as Response.json() gives it: these tests read it field by field
async function got(r: Response) {
  return { status: r.status, body: await r.json(), headers: r.headers };
}
type Got = Awaited<ReturnType<typeof got>>;

function assertError(r: Got, status: number, type: string, words?: RegExp) {
  assert.equal(r.status, status, JSON.stringify(r.body).slice(0, 300));
  assert.equal(r.body.error.type, type);
  if (words) assert.match(r.body.error.message, words);
  assert.ok(r.headers.get('request-id'));
}

const qs = (params: Record<string, string | string[]>) => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of [v].flat()) u.append(k, x);
  return u.toString();
};

describe('fake: compliance interface (doc3)', () => {
  let fake: Fake;
  const start = async (o: FakeOptions = {}) => {
    fake = await startFake(o);
  };
  afterEach(async () => {
    await fake.close();
  });

  /** key null sends no x-api-key header */
  function call(method: string, path: string, key: string | null = FULL): Promise<Got> {
    const headers: Record<string, string> = { 'vendor-version': '2023-06-01' };
    if (key !== null) headers['x-api-key'] = key;
    return fetch(`${fake.url}/v1/compliance${path}`, { method, headers }).then(got);
  }
  const get = (path: string, key?: string | null) => call('GET', path, key);
  const del = (path: string, key?: string | null) => call('DELETE', path, key);

  /** every record of a cursor list from the first page on, following last_id */
  async function all(path: string, params: Record<string, string | string[]>, key?: string) {
    const ids: string[] = [];
    let pages = 0;
    let after: string | undefined;
    for (;;) {
      const r = await get(`${path}?${qs({ ...params, ...(after ? { after_id: after } : {}) })}`, key);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      pages++;
      ids.push(...r.body.data.map((x: { id: string }) => x.id));
      if (!r.body.has_more) return { ids, pages };
      after = r.body.last_id;
    }
  }

  describe('authentication and scopes (doc3 §5, §7)', () => {
    beforeEach(() => start());

    it('a missing, empty, unknown or standard key is 401 and uses no quota', async () => {
      for (const key of [null, '', 'sk-vendor-api01-unknown', fake.apiKey])
        assertError(await get('/activities', key), 401, 'authentication_error');
      assert.equal(fake.compliance.log.length, 0);
      assert.equal(fake.compliance.maxInAnyWindow(), 0);
    });

    it('a key without the scope is 403 with Got/Needed, and uses one unit', async () => {
      const r = await get('/organizations', fake.adminKey);
      assertError(r, 403, 'permission_error');
      assert.equal(
        r.body.error.message,
        'Missing required scopes. Got: read:compliance_activities. Needed: read:compliance_org_data.',
      );
      assert.equal(fake.compliance.log.length, 1);
      assert.equal(r.headers.get('vendor-ratelimit-requests-remaining'), '599');
      const ro = await del('/apps/chats/model_chat_0001', READONLY);
      assertError(ro, 403, 'permission_error');
      assert.equal(
        ro.body.error.message,
        'Missing required scopes. Got: read:compliance_activities, read:compliance_org_data, ' +
          'read:compliance_user_data. Needed: delete:compliance_user_data.',
      );
      assert.equal(fake.compliance.log.length, 2);
      assert.ok(fake.compliance.chats.some(c => c.id === 'model_chat_0001'));
    });

    it('the Admin key reads the Activity Feed only', async () => {
      assert.equal((await get('/activities?limit=1', fake.adminKey)).status, 200);
      assertError(await get('/apps/chats?user_ids[]=user_01', fake.adminKey), 403, 'permission_error');
      assertError(await del('/apps/files/model_file_0001', fake.adminKey), 403, 'permission_error');
    });

    it('keys and their scopes are options', async () => {
      await fake.close();
      await start({ complianceKeys: { 'sk-vendor-api01-orgs': ['read:compliance_org_data'] } });
      assert.equal((await get('/organizations', 'sk-vendor-api01-orgs')).status, 200);
      const r = await get('/activities', 'sk-vendor-api01-orgs');
      assert.match(r.body.error.message, /Got: read:compliance_org_data\. Needed: read:compliance_activities\./);
      assertError(await get('/activities', FULL), 401, 'authentication_error');
    });

    it('unknown routes are 404 and wrong methods 405, after authentication', async () => {
      assertError(await get('/apps/messages'), 404, 'not_found_error');
      const r = await get('/apps/chats/model_chat_0001');
      assert.equal(r.status, 405);
      assert.equal(r.headers.get('allow'), 'DELETE');
      assert.equal(fake.compliance.log.length, 2);
    });

    it('every response after authentication carries the budget headers; injected faults apply', async () => {
      fake.fail({ status: 503, path: '/activities' });
      const responses = [
        await get('/activities'),
        await get('/activities?limit=0'),
        await get('/apps/chats'),
        await del('/apps/chats/model_chat_9999'),
        await get('/organizations', fake.adminKey),
        await get('/activities'),
      ];
      assert.equal(responses[0]!.status, 503);
      assert.deepEqual(
        responses.map(r => r.status),
        [503, 400, 400, 404, 403, 200],
      );
      responses.forEach((r, i) => {
        assert.equal(r.headers.get('vendor-ratelimit-requests-limit'), '600');
        assert.equal(r.headers.get('vendor-ratelimit-requests-remaining'), String(599 - i));
        const reset = Date.parse(r.headers.get('vendor-ratelimit-requests-reset') ?? '');
        assert.ok(reset > Date.now() && reset <= Date.now() + 60_000);
      });
    });
  });

  describe('the shared budget (doc3 §8)', () => {
    beforeEach(() => start({ complianceRate: { limit: 6, windowMs: 1000 } }));

    it('one budget for all keys and endpoints; over it 429 with retry-after; whole again after it', async () => {
      const seq = [
        await get('/activities?limit=1', FULL),
        await get('/organizations', READONLY),
        await get('/activities?limit=1', fake.adminKey),
        await get('/apps/chats?user_ids[]=user_02', FULL),
        await get('/apps/projects/model_proj_01/attachments', READONLY),
        await del('/apps/chats/model_chat_9999', FULL),
      ];
      assert.deepEqual(
        seq.map(r => r.headers.get('vendor-ratelimit-requests-remaining')),
        ['5', '4', '3', '2', '1', '0'],
      );
      const over = await get('/activities?limit=1', fake.adminKey);
      assertError(over, 429, 'rate_limit_error');
      const wait = Number(over.headers.get('retry-after'));
      assert.ok(Number.isInteger(wait) && wait >= 1 && wait <= 2, String(wait));
      assert.equal(over.headers.get('vendor-ratelimit-requests-remaining'), '0');
      const reset = Date.parse(over.headers.get('vendor-ratelimit-requests-reset') ?? '');
      assert.ok(reset <= Date.now() + wait * 1000);
      assert.equal(fake.compliance.log.length, 6);
      assert.equal(fake.compliance.throttled.length, 1);
      assert.equal(fake.compliance.maxInAnyWindow(), 7, 'the client sent one more than the budget');
      // a 401 is answered before the limiter, even when the budget is spent
      assertError(await get('/activities', 'nope'), 401, 'authentication_error');
      await new Promise(r => setTimeout(r, wait * 1000 + 20));
      const after = await get('/activities?limit=1', READONLY);
      assert.equal(after.status, 200);
      assert.equal(after.headers.get('vendor-ratelimit-requests-remaining'), '5');
    });

    it('a scope 403 is counted, so it can use the last unit', async () => {
      for (let i = 0; i < 5; i++) assert.equal((await get('/activities?limit=1')).status, 200);
      assert.equal((await get('/organizations', fake.adminKey)).status, 403);
      assert.equal((await get('/organizations', fake.adminKey)).status, 429);
    });

    it('maxInAnyWindow counts the requests sent within any span, so a paced client stays within it', async () => {
      for (let i = 0; i < 9; i++) {
        assert.equal((await get('/activities?limit=1')).status, 200);
        await new Promise(r => setTimeout(r, 180));
      }
      assert.equal(fake.compliance.throttled.length, 0);
      assert.ok(fake.compliance.maxInAnyWindow() <= 6);
      assert.equal(fake.compliance.maxInAnyWindow(10_000), 9);
      fake.clear();
      assert.equal(fake.compliance.log.length, 0);
    });
  });

  describe('Activity Feed (doc3 §4, §6)', () => {
    beforeEach(() => start());

    it('about 2,000 records of all eleven types, newest first with ties by id', () => {
      const acts = [...fake.compliance.activities()];
      assert.equal(acts.length, 2000);
      assert.deepEqual(new Set(acts.map(a => a.activity_type)), new Set(ACTIVITY_TYPES));
      for (let i = 1; i < acts.length; i++) {
        const [a, b] = [acts[i - 1]!, acts[i]!];
        assert.ok(a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id));
      }
      assert.ok(acts.some((a, i) => i > 0 && a.created_at === acts[i - 1]!.created_at));
      assert.ok(acts.some(a => a.updated_at !== a.created_at));
      for (const a of acts.slice(0, 50)) {
        assert.match(a.id, /^activity_\d+$/);
        assert.equal(a.type, 'activity');
      }
    });

    it('paging is exact: every record once, in order; limit defaults to 100', async () => {
      const expected = [...fake.compliance.activities()].map(a => a.id);
      const { ids, pages } = await all('/activities', { limit: '300' });
      assert.deepEqual(ids, expected);
      assert.equal(pages, 7);
      const first = await get('/activities');
      assert.equal(first.body.data.length, 100);
      assert.equal(first.body.has_more, true);
      assert.equal(typeof first.body.first_id, 'string');
      assert.notEqual(first.body.last_id, first.body.data.at(-1).id, 'cursors are not object ids');
    });

    it('filters: types and created/updated bounds, with exact paging', async () => {
      const acts = [...fake.compliance.activities()];
      const from = acts[1500]!.created_at;
      const to = acts[300]!.created_at;
      const updatedAfter = '2026-01-02T00:00:00Z';
      const types = ['model_chat_created', 'org_deleted_via_bulk'];
      const expected = acts
        .filter(a => types.includes(a.activity_type))
        .filter(a => a.created_at > from && a.created_at <= to && a.updated_at >= updatedAfter)
        .map(a => a.id);
      assert.ok(expected.length > 30);
      const { ids } = await all('/activities', {
        'activity_types[]': types,
        'created_at.gt': from,
        'created_at.lte': to,
        'updated_at.gte': updatedAfter,
        limit: '13',
      });
      assert.deepEqual(ids, expected);
      const lt = await all('/activities', { 'created_at.lt': from, 'created_at.gte': from, limit: '1000' });
      assert.deepEqual(lt.ids, []);
      const unknownType = await get('/activities?activity_types[]=model_something_else');
      assert.deepEqual(unknownType.body.data, []);
    });

    it('a zone offset is honoured (a + encoded as %2B)', async () => {
      const acts = [...fake.compliance.activities()];
      const t = acts[1000]!.created_at; // e.g. 2026-01-02T22:50:00Z
      const ms = Date.parse(t);
      const shifted = new Date(ms + 2 * 3_600_000).toISOString().replace('.000Z', '+02:00');
      const a = await get(`/activities?limit=1000&created_at.lte=${encodeURIComponent(t)}`);
      const b = await get(`/activities?limit=1000&created_at.lte=${encodeURIComponent(shifted)}`);
      assert.equal(b.status, 200, JSON.stringify(b.body));
      assert.deepEqual(b.body.data, a.body.data);
      assert.equal(parseRfc3339('2026-01-01T02:00:00.5+02:00'), Date.parse('2026-01-01T00:00:00.500Z'));
    });

    it('before_id pages back towards newer records', async () => {
      const expected = [...fake.compliance.activities()].slice(0, 250).map(a => a.id);
      const p3 = await get(`/activities?limit=100&after_id=${(await get('/activities?limit=250')).body.last_id}`);
      const back: string[] = [];
      let before: string = p3.body.first_id;
      for (;;) {
        const r = await get(`/activities?limit=100&before_id=${before}`);
        back.unshift(...r.body.data.map((x: { id: string }) => x.id));
        if (!r.body.has_more) break;
        before = r.body.first_id;
      }
      assert.deepEqual(back, expected);
    });

    it('a timestamp without time or zone is 400 naming the parameter and echoing the value', async () => {
      for (const [param, value] of [
        ['created_at.gte', '2026-01-01'],
        ['created_at.lt', '2026-01-01T00:00:00'],
        ['updated_at.gt', '2026-13-01T00:00:00Z'],
        ['updated_at.lte', '2026-02-30T00:00:00Z'],
        ['created_at.gt', 'yesterday'],
        ['created_at.lte', '2026-01-01T00:00:00 02:00'],
      ] as const) {
        const r = await get(`/activities?${qs({ [param]: value })}`);
        assertError(r, 400, 'invalid_request_error');
        assert.ok(r.body.error.message.includes(param), r.body.error.message);
        assert.ok(r.body.error.message.includes(value), r.body.error.message);
      }
    });

    it('a + left unencoded arrives as a space and is refused', async () => {
      const r = await get('/activities?created_at.gte=2026-01-01T00:00:00+02:00');
      assertError(r, 400, 'invalid_request_error', /created_at\.gte/);
    });

    it('limit outside 1..1000 and an undecodable or foreign cursor are 400', async () => {
      for (const l of ['0', '1001', '-1', 'x'])
        assertError(await get(`/activities?limit=${l}`), 400, 'invalid_request_error', /limit.*1 and 1000/);
      assertError(await get('/activities?after_id=activity_00001999'), 400, 'invalid_request_error', /after_id/);
      assertError(await get('/activities?before_id=bm9wZQ'), 400, 'invalid_request_error', /before_id/);
      const chatCursor = (await get('/apps/chats?user_ids[]=user_01&limit=1')).body.last_id;
      assertError(await get(`/activities?after_id=${chatCursor}`), 400, 'invalid_request_error', /after_id/);
    });

    it('generates 100,000+ records lazily and pages them quickly', async () => {
      await fake.close();
      await start({ activities: 150_000 });
      const t0 = Date.now();
      const first = await get('/activities?limit=1000');
      assert.equal(first.body.data[0].id, 'activity_00150000');
      let after = first.body.last_id;
      for (let i = 0; i < 5; i++) after = (await get(`/activities?limit=1000&after_id=${after}`)).body.last_id;
      const old = await get(`/activities?limit=10&${qs({ 'created_at.lt': '2026-01-01T00:10:00Z' })}`);
      assert.deepEqual(
        old.body.data.map((a: { id: string }) => a.id),
        ['activity_00000004', 'activity_00000003', 'activity_00000002', 'activity_00000001'],
      );
      assert.ok(Date.now() - t0 < 3000, `${Date.now() - t0} ms`);
    });
  });

  describe('organizations (doc3 §4, §7)', () => {
    it('the tree of linked organizations, unpaged', async () => {
      await start();
      const r = await get('/organizations');
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body), ['data']);
      const ids = new Set(r.body.data.map((o: { id: string }) => o.id));
      assert.equal(r.body.data.filter((o: { parent_id: string | null }) => o.parent_id === null).length, 1);
      for (const o of r.body.data) {
        assert.match(o.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        assert.ok(o.parent_id === null || ids.has(o.parent_id));
        assert.equal(typeof o.name, 'string');
      }
    });

    it('1,000 is fine; more is a 500 api_error saying the list exceeds its cap', async () => {
      await start({ organizationsCount: 1000 });
      assert.equal((await get('/organizations')).body.data.length, 1000);
      await fake.close();
      await start({ organizationsCount: 1001 });
      const r = await get('/organizations');
      assertError(r, 500, 'api_error', /cap/);
      assert.equal(r.headers.get('x-should-retry'), 'false');
    });
  });

  describe('chats, projects, attachments and files (doc3 §2.3, §4, §7)', () => {
    beforeEach(() => start());

    it('chats need at least one user id; pages are exact; soft-deleted chats stay readable', async () => {
      assertError(await get('/apps/chats'), 400, 'invalid_request_error', /user_ids\[\]/);
      assertError(await get('/apps/chats?user_ids=user_01'), 400, 'invalid_request_error', /user_ids\[\]/);
      const mine = fake.compliance.chats.filter(c => c.user_id === 'user_01' || c.user_id === 'user_03');
      assert.ok(mine.length > 30);
      const { ids, pages } = await all('/apps/chats', { 'user_ids[]': ['user_01', 'user_03'], limit: '8' });
      assert.deepEqual(
        ids,
        mine.map(c => c.id),
      );
      assert.ok(pages >= 5);
      const soft = mine.filter(c => c.deleted_at !== null);
      assert.ok(soft.length >= 2);
      const page = await get('/apps/chats?user_ids[]=user_03&limit=1000');
      for (const c of page.body.data) {
        assert.match(c.id, /^model_chat_/);
        assert.equal(c.type, 'chat');
        assert.ok(c.deleted_at === null || typeof c.deleted_at === 'string');
      }
      assert.equal((await get('/apps/chats?user_ids[]=user_04')).body.data.length, 0);
      assertError(await get('/apps/chats?user_ids[]=user_01&limit=0'), 400, 'invalid_request_error', /limit/);
    });

    it('project_ids[] narrows to the chats of those projects', async () => {
      const r = await get(
        `/apps/chats?${qs({ 'user_ids[]': ['user_01', 'user_02', 'user_03'], 'project_ids[]': 'model_proj_01' })}`,
      );
      const expected = fake.compliance.chats.filter(c => c.project_id === 'model_proj_01').map(c => c.id);
      assert.equal(expected.length, 4);
      assert.deepEqual(
        r.body.data.map((c: { id: string }) => c.id),
        expected,
      );
    });

    it('a project with chats is 409 until each chat is deleted; then it goes, attachments and all', async () => {
      const r = await del('/apps/projects/model_proj_01');
      assertError(r, 409, 'conflict_error', /chat/);
      const chats = await get(
        `/apps/chats?${qs({ 'user_ids[]': fake.compliance.users.map(u => u.id), 'project_ids[]': 'model_proj_01' })}`,
      );
      for (const c of chats.body.data) {
        const d = await del(`/apps/chats/${c.id}`);
        assert.deepEqual(d.body, { id: c.id, type: 'chat_deleted' });
      }
      assert.ok(!fake.compliance.chats.some(c => c.project_id === 'model_proj_01'));
      assertError(await del(`/apps/chats/${chats.body.data[0].id}`), 404, 'not_found_error');
      const ok = await del('/apps/projects/model_proj_01');
      assert.deepEqual(ok.body, { id: 'model_proj_01', type: 'project_deleted' });
      assertError(await get('/apps/projects/model_proj_01/attachments'), 404, 'not_found_error', /model_proj_01/);
      assertError(await del('/apps/projects/model_proj_01'), 404, 'not_found_error');
    });

    it('a project without chats deletes at once; unknown ones are 404', async () => {
      assert.deepEqual((await del('/apps/projects/model_proj_03')).body, {
        id: 'model_proj_03',
        type: 'project_deleted',
      });
      assertError(await del('/apps/projects/model_proj_99'), 404, 'not_found_error', /model_proj_99/);
    });

    it('attachments page with opaque page tokens: every one once, in order', async () => {
      const expected = fake.compliance.attachments('model_proj_01')!.map(a => a.id);
      assert.ok(expected.length > 20);
      const ids: string[] = [];
      let page: string | null = null;
      let pages = 0;
      do {
        const r: Got = await get(`/apps/projects/model_proj_01/attachments${page ? `?page=${page}` : ''}`);
        assert.equal(r.status, 200);
        assert.deepEqual(Object.keys(r.body).sort(), ['data', 'has_more', 'next_page']);
        ids.push(...r.body.data.map((a: { id: string }) => a.id));
        assert.equal(r.body.has_more, r.body.next_page !== null);
        page = r.body.next_page;
        pages++;
      } while (page);
      assert.deepEqual(ids, expected);
      assert.ok(pages >= 3);
      const types = new Set(fake.compliance.attachments('model_proj_01')!.map(a => a.type));
      assert.deepEqual([...types].sort(), ['file', 'project_document']);
      assertError(
        await get('/apps/projects/model_proj_01/attachments?page=model_proj_doc_0001'),
        400,
        'invalid_request_error',
        /page/,
      );
      const otherToken = (await get('/apps/projects/model_proj_01/attachments')).body.next_page;
      assertError(
        await get(`/apps/projects/model_proj_02/attachments?page=${otherToken}`),
        400,
        'invalid_request_error',
      );
      assertError(await get('/apps/projects/model_proj_99/attachments'), 404, 'not_found_error');
    });

    it('files delete from chats and projects; a project document is not a file; then 404', async () => {
      const projectFile = fake.compliance.attachments('model_proj_01')!.find(a => a.type === 'file')!;
      const projectDoc = fake.compliance.attachments('model_proj_01')!.find(a => a.type === 'project_document')!;
      const chatFile = fake.compliance.chatFiles[0]!;
      for (const id of [projectFile.id, chatFile.id]) {
        assert.deepEqual((await del(`/apps/files/${id}`)).body, { id, type: 'file_deleted' });
        assertError(await del(`/apps/files/${id}`), 404, 'not_found_error', new RegExp(id));
      }
      assert.ok(!fake.compliance.attachments('model_proj_01')!.some(a => a.id === projectFile.id));
      assertError(await del(`/apps/files/${projectDoc.id}`), 404, 'not_found_error');
      assertError(await del('/apps/files/model_file_9999', READONLY), 403, 'permission_error');
    });
  });
});
