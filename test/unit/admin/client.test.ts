// The administration client against the fake service: cursor paging as the spec defines it, every rule
// refused before a request, errors typed by the service's error.type.
import * as assert from 'node:assert/strict';
import { AdminClient } from '../../../src/core/admin/client';
import { parseGeos, residencyProblem, roleProblem, tagProblems } from '../../../src/core/admin/rules';
import { inviteView, userView, workspaceView } from '../../../src/core/admin/view';
import { ApiError, InputError } from '../../../src/core/api/errors';
import { Http } from '../../../src/core/api/http';
import { collect } from '../../../src/core/api/paging';
import { useFake } from '../../support/fake';

describe('administration client (doc2 §4.2, against the fake)', () => {
  const fake = useFake();
  let admin: AdminClient;
  before(async () => {
    admin = new AdminClient(
      new Http({ baseUrl: fake.url, adminKey: fake.adminKey, maxRetries: 2, sleep: async () => {} }),
    );
  });

  it('reads the organization with the Admin key', async () => {
    const org = await admin.org();
    assert.equal(org.type, 'organization');
    assert.equal(fake.requests[0]!.headers['x-api-key'], fake.adminKey);
  });

  it('pages users 20 at a time: after_id is the previous last_id, until has_more is false', async () => {
    const pages = [];
    for await (const p of admin.users({ pageSize: 20 })) pages.push(p);
    assert.deepEqual(
      pages.map(p => p.data.length),
      [20, 20, fake.admin.users.length - 40],
    );
    const afters = fake.requests.map(r => r.query.after_id);
    assert.deepEqual(afters, [undefined, pages[0]!.last_id, pages[1]!.last_id]);
    assert.deepEqual(
      fake.requests.map(r => r.query.limit),
      ['20', '20', '20'],
    );
    const ids = pages.flatMap(p => p.data.map(u => u.id));
    assert.deepEqual(
      ids,
      fake.admin.users.map(u => u.id),
    );
  });

  it('a max caps the total and the last page size; the email filter is sent as the spec names it', async () => {
    const some = await collect(admin.users({ pageSize: 20, max: 25 }), 25);
    assert.equal(some.length, 25);
    assert.deepEqual(
      fake.requests.map(r => r.query.limit),
      ['20', '5'],
    );
    fake.clear();
    const u = fake.admin.users[3]!;
    const found = await collect(admin.users({ email: u.email.toUpperCase() }));
    assert.deepEqual(
      found.map(x => x.id),
      [u.id],
    );
    assert.equal(fake.requests[0]!.query.email, u.email.toUpperCase());
  });

  it('a 429 retries the same cursor: no record lost or doubled', async () => {
    fake.fail({ path: '/v1/organizations/users', status: 429, headers: { 'retry-after': '0' } });
    const all: string[] = [];
    let n = 0;
    for await (const p of admin.users({ pageSize: 20 })) {
      all.push(...p.data.map(u => u.id));
      if (n++ === 0) fake.fail({ path: '/v1/organizations/users', status: 429, headers: { 'retry-after': '0' } });
    }
    assert.deepEqual(
      all,
      fake.admin.users.map(u => u.id),
    );
    const cursors = fake.requests.map(r => r.query.after_id ?? '-');
    // the refused request and its retry ask for the same page
    assert.equal(cursors[0], cursors[1]);
    assert.equal(cursors[2], cursors[3]);
  });

  it('workspaces: only active ones unless include_archived; creation applies the service defaults', async () => {
    const active = await collect(admin.workspaces());
    assert.ok(active.every(w => w.archived_at === null));
    const every = await collect(admin.workspaces({ includeArchived: true }));
    assert.ok(every.length > active.length);
    assert.equal(fake.requests.at(-1)!.query.include_archived, 'true');
    const w = await admin.createWorkspace({ name: 'Research', tags: { team: 'ml' } });
    assert.deepEqual(w.data_residency, {
      workspace_geo: 'us',
      allowed_inference_geos: 'unrestricted',
      default_inference_geo: 'global',
    });
    const edited = await admin.updateWorkspace(w.id, {
      name: 'Research 2',
      data_residency: { allowed_inference_geos: ['eu'], default_inference_geo: 'eu' },
    });
    assert.equal(edited.name, 'Research 2');
    const archived = await admin.archiveWorkspace(w.id);
    assert.ok(archived.archived_at);
  });

  it('refuses before any request: admin role, vendor tags, default geo, workspace_geo change, limit', async () => {
    const before = fake.requests.length;
    const refused = async (p: Promise<unknown>, re: RegExp) => {
      await assert.rejects(p, (e: unknown) => e instanceof InputError && re.test(e.message));
    };
    await refused(admin.setRole('user_01', 'admin'), /admin role cannot be given/);
    await refused(admin.setRole('user_01', 'owner'), /not a role/);
    await refused(admin.createInvite('a@b.c', 'admin'), /admin role/);
    await refused(admin.createWorkspace({ name: 'x', tags: { vendor_team: 'a' } }), /begins with "vendor"/);
    await refused(
      admin.createWorkspace({ name: 'x', data_residency: { allowed_inference_geos: ['eu'] } }),
      /"global" must be one of/,
    );
    await refused(admin.createWorkspace({ name: '  ' }), /needs a name/);
    await refused(
      admin.updateWorkspace('wrkspc_01', { data_residency: { workspace_geo: 'eu' } as never }),
      /workspace_geo cannot be changed/,
    );
    await assert.rejects(async () => admin.users({ pageSize: 1001 }).next(), InputError);
    assert.equal(fake.requests.length, before);
  });

  it('users and invites: role change, removal, invite, delete; unknown ids are a typed 404', async () => {
    const u = fake.admin.users.find(x => x.role === 'user')!;
    assert.equal((await admin.setRole(u.id, 'developer')).role, 'developer');
    assert.deepEqual(await admin.removeUser(u.id), { id: u.id, type: 'user_deleted' });
    const inv = await admin.createInvite('new.person@example.com', 'billing');
    assert.equal(inv.status, 'pending');
    assert.equal((await admin.deleteInvite(inv.id)).type, 'invite_deleted');
    await assert.rejects(
      admin.user('user_nope'),
      (e: unknown) => e instanceof ApiError && e.status === 404 && e.type === 'not_found_error',
    );
  });

  it('a standard API key gets one typed 403', async () => {
    const wrong = new AdminClient(new Http({ baseUrl: fake.url, adminKey: fake.apiKey, maxRetries: 0 }));
    await assert.rejects(
      wrong.org(),
      (e: unknown) => e instanceof ApiError && e.status === 403 && e.type === 'permission_error',
    );
  });
});

describe('administration rules and views (pure)', () => {
  it('roles, tags, geos', () => {
    assert.equal(roleProblem('developer'), undefined);
    assert.match(roleProblem('admin')!, /cannot be given/);
    assert.deepEqual(tagProblems({ team: 'a', vendorX: 'b', Vendor: 'c' }), [
      'Tag key "vendorX" begins with "vendor", which workspace tags may not.',
    ]);
    assert.equal(residencyProblem({ allowed_inference_geos: 'unrestricted', default_inference_geo: 'eu' }), undefined);
    assert.equal(residencyProblem({ allowed_inference_geos: ['us', 'eu'], default_inference_geo: 'eu' }), undefined);
    assert.match(
      residencyProblem({ allowed_inference_geos: ['us'], default_inference_geo: 'eu' })!,
      /must be one of the allowed geos \(us\)/,
    );
    assert.deepEqual(parseGeos(' us, eu ,'), ['us', 'eu']);
    assert.equal(parseGeos('unrestricted'), 'unrestricted');
  });
  it('views: archived workspaces and expired invites are dimmed; descriptions say what matters', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    const w = workspaceView({
      id: 'wrkspc_1',
      type: 'workspace',
      name: 'Prod',
      created_at: '2026-01-01T00:00:00Z',
      archived_at: '2026-06-01T00:00:00Z',
      display_color: '#ff0000',
      tags: { team: 'a' },
      data_residency: { workspace_geo: 'eu', allowed_inference_geos: ['eu'], default_inference_geo: 'eu' },
    });
    assert.equal(w.description, 'eu · default eu · 1 tag · archived 2026-06-01');
    assert.equal(w.dim, true);
    assert.match(w.tooltip, /fixed when the workspace was created/);
    const base = {
      id: 'invite_1',
      type: 'invite' as const,
      email: 'a@b.c',
      role: 'user' as const,
      invited_at: '2026-11-01T00:00:00Z',
    };
    assert.equal(inviteView({ ...base, status: 'pending', expires_at: '2026-11-22T00:00:00Z' }, now).dim, true);
    assert.equal(inviteView({ ...base, status: 'pending', expires_at: '2026-12-22T00:00:00Z' }, now).dim, false);
    assert.equal(
      userView({
        id: 'user_1',
        type: 'user',
        name: 'Ada',
        email: 'ada@x.org',
        role: 'billing',
        added_at: '2026-01-01T00:00:00Z',
      }).description,
      'ada@x.org · billing',
    );
  });
});
