// The fake's administration interface against the spec (doc2 §2.2–§2.6, §3, §4.2), over plain HTTP.
import * as assert from 'node:assert/strict';
import { useFake } from '../../support/fake';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

// the body stays as loose as Response.json() gives it: these tests read it field by field
async function got(r: Response) {
  return { status: r.status, body: await r.json(), headers: r.headers };
}
type Got = Awaited<ReturnType<typeof got>>;

describe('fake: administration interface (doc2 §4.2)', () => {
  // a new fake for every test: the tests change its data
  const fake = useFake({}, 'test');

  async function call(method: string, path: string, body?: unknown, key = fake.adminKey): Promise<Got> {
    const r = await fetch(`${fake.url}/v1/organizations${path}`, {
      method,
      headers: { 'x-api-key': key, 'vendor-version': '2023-06-01', 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return got(r);
  }
  const get = (path: string, key?: string) => call('GET', path, undefined, key);
  const post = (path: string, body?: unknown) => call('POST', path, body);

  function assertError(r: Got, status: number, type: string, words?: RegExp) {
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.type, 'error');
    assert.equal(r.body.error.type, type);
    if (words) assert.match(r.body.error.message, words);
    assert.ok(r.headers.get('request-id'));
  }

  /** every record of a list, following last_id, with the pages' sizes */
  async function all(path: string, limit: number): Promise<{ ids: string[]; pages: number[] }> {
    const ids: string[] = [];
    const pages: number[] = [];
    let after: string | null = null;
    const sep = path.includes('?') ? '&' : '?';
    for (;;) {
      const cursor: string = after ? `&after_id=${encodeURIComponent(after)}` : '';
      const r = await get(`${path}${sep}limit=${limit}${cursor}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      ids.push(...r.body.data.map((x: { id: string }) => x.id));
      pages.push(r.body.data.length);
      if (!r.body.has_more) return { ids, pages };
      after = r.body.last_id;
    }
  }

  it('GET /me is the organization', async () => {
    const r = await get('/me');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body).sort(), ['id', 'name', 'type']);
    assert.equal(r.body.type, 'organization');
  });

  it('the standard API key gets 403 permission_error on every administration route', async () => {
    for (const p of ['/me', '/workspaces', '/users', '/invites'])
      assertError(await get(p, fake.apiKey), 403, 'permission_error', /Admin API key/);
    assertError(await get('/users', 'sk-vendor-admin-wrong'), 401, 'authentication_error');
  });

  describe('workspaces', () => {
    it('are seeded: about 25, wrkspc_demo among them, a few archived, both geos, hex colours', () => {
      const ws = fake.admin.workspaces;
      assert.ok(ws.length >= 20);
      assert.ok(ws.some(w => w.id === 'wrkspc_demo'));
      assert.ok(ws.filter(w => w.archived_at).length >= 3);
      assert.deepEqual([...new Set(ws.map(w => w.data_residency.workspace_geo))].sort(), ['eu', 'us']);
      assert.ok(!ws.some(w => /default workspace/i.test(w.name)));
      for (const w of ws) {
        assert.match(w.id, /^wrkspc_/);
        assert.match(w.display_color, /^#[0-9A-F]{6}$/i);
        assert.match(w.created_at, RFC3339);
        assert.equal(w.type, 'workspace');
        for (const k of Object.keys(w.tags)) assert.ok(!k.startsWith('vendor'));
      }
    });

    it('list pages are exact: every active workspace once, in creation order; archived only when asked', async () => {
      const active = fake.admin.workspaces.filter(w => !w.archived_at).map(w => w.id);
      const { ids, pages } = await all('/workspaces', 4);
      assert.deepEqual(ids, active);
      assert.ok(pages.length > 3);
      const withArchived = await all('/workspaces?include_archived=true', 7);
      assert.deepEqual(
        withArchived.ids,
        fake.admin.workspaces.map(w => w.id),
      );
      assert.equal((await get('/workspaces')).body.data.length, 20, 'limit defaults to 20');
    });

    it('before_id pages backwards from a first_id; has_more looks in that direction', async () => {
      const everything = fake.admin.workspaces.filter(w => !w.archived_at).map(w => w.id);
      const last = await get('/workspaces?limit=5&after_id=' + (await get('/workspaces?limit=15')).body.last_id);
      const back: string[] = [];
      let before: string = last.body.first_id;
      for (;;) {
        const r = await get(`/workspaces?limit=5&before_id=${before}`);
        back.unshift(...r.body.data.map((w: { id: string }) => w.id));
        if (!r.body.has_more) break;
        before = r.body.first_id;
      }
      assert.deepEqual(back, everything.slice(0, 15));
    });

    it('an empty page has null ids', async () => {
      const { body } = await get('/workspaces?include_archived=true&limit=1000');
      const r = await get(`/workspaces?include_archived=true&after_id=${body.last_id}`);
      assert.deepEqual(r.body, { data: [], first_id: null, has_more: false, last_id: null });
    });

    it('limit outside 1..1000, an undecodable cursor or an id as cursor give 400 naming them', async () => {
      for (const l of ['0', '1001', 'abc', '2.5'])
        assertError(await get(`/workspaces?limit=${l}`), 400, 'invalid_request_error', /limit.*1 and 1000/);
      assertError(await get('/workspaces?after_id=%%%'), 400, 'invalid_request_error', /after_id/);
      assertError(await get('/workspaces?before_id=wrkspc_demo'), 400, 'invalid_request_error', /before_id/);
      const usersCursor = (await get('/users?limit=1')).body.last_id;
      assertError(await get(`/workspaces?after_id=${usersCursor}`), 400, 'invalid_request_error', /after_id/);
      assertError(await get('/workspaces?include_archived=yes'), 400, 'invalid_request_error', /include_archived/);
    });

    it('get, and 404 naming an unknown id', async () => {
      assert.equal((await get('/workspaces/wrkspc_demo')).body.name, 'Demo');
      assertError(await get('/workspaces/wrkspc_nope'), 404, 'not_found_error', /wrkspc_nope/);
      assertError(await post('/workspaces/wrkspc_nope', { name: 'x' }), 404, 'not_found_error', /wrkspc_nope/);
      assertError(await post('/workspaces/wrkspc_nope/archive'), 404, 'not_found_error', /wrkspc_nope/);
    });

    it('create applies the data_residency defaults and lists the new one last', async () => {
      const r = await post('/workspaces', { name: 'New team', tags: { team: 'x' } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.data_residency, {
        workspace_geo: 'us',
        allowed_inference_geos: 'unrestricted',
        default_inference_geo: 'global',
      });
      assert.match(r.body.id, /^wrkspc_/);
      assert.equal(r.body.archived_at, null);
      assert.equal(r.body.type, 'workspace');
      assert.match(r.body.display_color, /^#[0-9A-F]{6}$/i);
      assert.match(r.body.created_at, RFC3339);
      assert.deepEqual(r.body.tags, { team: 'x' });
      const { ids } = await all('/workspaces', 1000);
      assert.equal(ids.at(-1), r.body.id);
      const eu = await post('/workspaces', {
        name: 'EU only',
        data_residency: { workspace_geo: 'eu', allowed_inference_geos: ['eu'], default_inference_geo: 'eu' },
      });
      assert.equal(eu.status, 200);
      assert.equal(eu.body.data_residency.workspace_geo, 'eu');
    });

    it('create refuses a missing or empty name, a vendor tag key and a default geo outside the allowed', async () => {
      assertError(await post('/workspaces', {}), 400, 'invalid_request_error', /name/);
      assertError(await post('/workspaces', { name: '' }), 400, 'invalid_request_error', /name/);
      assertError(await post('/workspaces', { name: '  ' }), 400, 'invalid_request_error', /name/);
      assertError(
        await post('/workspaces', { name: 'a', tags: { vendor_team: 'x' } }),
        400,
        'invalid_request_error',
        /vendor/,
      );
      assertError(
        await post('/workspaces', {
          name: 'a',
          data_residency: { allowed_inference_geos: ['eu'], default_inference_geo: 'us' },
        }),
        400,
        'invalid_request_error',
        /default_inference_geo/,
      );
      const free = await post('/workspaces', {
        name: 'a',
        data_residency: { allowed_inference_geos: 'unrestricted', default_inference_geo: 'eu' },
      });
      assert.equal(free.status, 200);
      assert.equal(fake.admin.workspaces.filter(w => w.name === 'a').length, 1);
    });

    it('update changes name, tags and inference geos; workspace_geo is immutable', async () => {
      const r = await post('/workspaces/wrkspc_01', {
        name: 'Renamed',
        tags: { a: 'b' },
        data_residency: { allowed_inference_geos: ['us', 'eu'], default_inference_geo: 'eu' },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.name, 'Renamed');
      assert.deepEqual(r.body.tags, { a: 'b' });
      assert.equal(r.body.data_residency.default_inference_geo, 'eu');
      assert.equal(r.body.data_residency.workspace_geo, 'us');
      assertError(
        await post('/workspaces/wrkspc_01', { data_residency: { workspace_geo: 'eu' } }),
        400,
        'invalid_request_error',
        /workspace_geo/,
      );
      assertError(
        await post('/workspaces/wrkspc_01', { data_residency: { default_inference_geo: 'jp' } }),
        400,
        'invalid_request_error',
        /default_inference_geo/,
      );
      assertError(await post('/workspaces/wrkspc_01', { name: '' }), 400, 'invalid_request_error', /name/);
      assertError(
        await post('/workspaces/wrkspc_01', { tags: { vendorx: '1' } }),
        400,
        'invalid_request_error',
        /vendor/,
      );
      assert.equal(fake.admin.workspaces.find(w => w.id === 'wrkspc_01')!.name, 'Renamed');
    });

    it('archive sets archived_at and returns the workspace; archiving again keeps it', async () => {
      const r = await post('/workspaces/wrkspc_demo/archive');
      assert.equal(r.status, 200);
      assert.equal(r.body.id, 'wrkspc_demo');
      assert.match(r.body.archived_at, RFC3339);
      const again = await post('/workspaces/wrkspc_demo/archive');
      assert.equal(again.body.archived_at, r.body.archived_at);
      const { ids } = await all('/workspaces', 1000);
      assert.ok(!ids.includes('wrkspc_demo'));
    });

    it('an unknown method is 405 and an unknown route 404; the rate-limit routes are unchanged', async () => {
      const r = await call('DELETE', '/workspaces/wrkspc_demo');
      assert.equal(r.status, 405);
      assert.match(r.headers.get('allow') ?? '', /GET/);
      assertError(await get('/workspaces/wrkspc_demo/members/x'), 404, 'not_found_error');
      assertError(await get('/nothing'), 404, 'not_found_error');
      assert.equal((await get('/workspaces/wrkspc_demo/rate_limits')).body.data[0].type, 'workspace_rate_limit');
      assert.equal((await get('/rate_limits')).body.data[0].type, 'rate_limit');
    });

    it('injected faults apply to these routes too', async () => {
      fake.fail({ status: 529, path: '/workspaces' });
      assertError(await get('/workspaces'), 529, 'overloaded_error');
      assert.equal((await get('/workspaces')).status, 200);
    });
  });

  describe('users', () => {
    it('are seeded: 45 or more, roles mixed with an admin, added_at increasing', () => {
      const us = fake.admin.users;
      assert.ok(us.length >= 45);
      assert.ok(us.some(u => u.role === 'admin'));
      assert.ok(new Set(us.map(u => u.role)).size >= 4);
      assert.equal(new Set(us.map(u => u.email)).size, us.length);
      assert.equal(us[0]!.email, 'ada.lovelace@example.com');
      for (let i = 1; i < us.length; i++) assert.ok(us[i]!.added_at > us[i - 1]!.added_at);
      for (const u of us) {
        assert.match(u.id, /^user_/);
        assert.equal(u.type, 'user');
        assert.match(u.added_at, RFC3339);
      }
    });

    it('list pages are exact in creation order, forwards and backwards', async () => {
      const everything = fake.admin.users.map(u => u.id);
      assert.deepEqual((await all('/users', 7)).ids, everything);
      const first = await get('/users?limit=20');
      assert.equal(first.body.has_more, true);
      const back = await get(`/users?limit=20&before_id=${first.body.last_id}`);
      assert.deepEqual(
        back.body.data.map((u: { id: string }) => u.id),
        everything.slice(0, 19),
      );
      assert.equal(back.body.has_more, false);
    });

    it('the email filter is exact and case-insensitive', async () => {
      const r = await get('/users?email=ADA.Lovelace@Example.com');
      assert.deepEqual(
        r.body.data.map((u: { email: string }) => u.email),
        ['ada.lovelace@example.com'],
      );
      assert.equal((await get('/users?email=ada')).body.data.length, 0);
    });

    it('role changes take the four assignable roles; admin, others or none give 400', async () => {
      const r = await post('/users/user_02', { role: 'billing' });
      assert.equal(r.status, 200);
      assert.equal(r.body.role, 'billing');
      assert.equal((await get('/users/user_02')).body.role, 'billing');
      assertError(await post('/users/user_02', { role: 'admin' }), 400, 'invalid_request_error', /admin/);
      assertError(await post('/users/user_02', { role: 'owner' }), 400, 'invalid_request_error', /role/);
      assertError(await post('/users/user_02', {}), 400, 'invalid_request_error', /role/);
      assertError(await post('/users/user_nope', { role: 'user' }), 404, 'not_found_error', /user_nope/);
    });

    it('delete answers user_deleted and the user is gone', async () => {
      const before = fake.admin.users.length;
      const r = await call('DELETE', '/users/user_05');
      assert.deepEqual(r.body, { id: 'user_05', type: 'user_deleted' });
      assert.equal(fake.admin.users.length, before - 1);
      assertError(await get('/users/user_05'), 404, 'not_found_error', /user_05/);
      assertError(await call('DELETE', '/users/user_05'), 404, 'not_found_error');
      assert.ok(!(await all('/users', 1000)).ids.includes('user_05'));
    });

    it('a cursor stays good when its record is deleted', async () => {
      const p = await get('/users?limit=3');
      await call('DELETE', `/users/${p.body.data[2].id}`);
      const next = await get(`/users?limit=2&after_id=${p.body.last_id}`);
      assert.deepEqual(
        next.body.data.map((u: { id: string }) => u.id),
        fake.admin.users.slice(2, 4).map(u => u.id),
      );
    });
  });

  describe('invites', () => {
    it('are seeded in all four statuses; expired ones expired in the past, pending ones later', () => {
      const inv = fake.admin.invites;
      assert.ok(inv.length >= 10);
      assert.deepEqual([...new Set(inv.map(i => i.status))].sort(), ['accepted', 'deleted', 'expired', 'pending']);
      const now = new Date().toISOString();
      for (const i of inv) {
        assert.match(i.id, /^invite_/);
        assert.equal(i.type, 'invite');
        if (i.status === 'expired') assert.ok(i.expires_at < now);
        if (i.status === 'pending') assert.ok(i.expires_at > now);
      }
    });

    it('list pages are exact in creation order', async () => {
      assert.deepEqual(
        (await all('/invites', 5)).ids,
        fake.admin.invites.map(i => i.id),
      );
    });

    it('create makes a pending invite that expires in 21 days; admin and missing fields give 400', async () => {
      const r = await post('/invites', { email: 'new.person@example.com', role: 'developer' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.status, 'pending');
      assert.equal(r.body.type, 'invite');
      const days = (Date.parse(r.body.expires_at) - Date.parse(r.body.invited_at)) / 86_400_000;
      assert.equal(days, 21);
      assert.ok(Math.abs(Date.parse(r.body.invited_at) - Date.now()) < 5000);
      assert.deepEqual((await get(`/invites/${r.body.id}`)).body, r.body);
      assert.equal((await all('/invites', 100)).ids.at(-1), r.body.id);
      assertError(await post('/invites', { email: 'x@example.com', role: 'admin' }), 400, 'invalid_request_error');
      assertError(await post('/invites', { email: 'x@example.com' }), 400, 'invalid_request_error', /role/);
      assertError(await post('/invites', { role: 'user' }), 400, 'invalid_request_error', /email/);
      assertError(await post('/invites', { email: '', role: 'user' }), 400, 'invalid_request_error', /email/);
    });

    it('delete answers invite_deleted; the invite keeps its place with status deleted', async () => {
      const r = await call('DELETE', '/invites/invite_12');
      assert.deepEqual(r.body, { id: 'invite_12', type: 'invite_deleted' });
      assert.equal((await get('/invites/invite_12')).body.status, 'deleted');
      assertError(await call('DELETE', '/invites/invite_99'), 404, 'not_found_error', /invite_99/);
    });
  });
});
