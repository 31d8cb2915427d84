// `promptwright admin …` against the fake service: every command, its formats and exit codes, and every
// refusal made before a request (checked against the requests the fake saw).
import * as assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/main';
import { useFake } from '../../support/fake';

interface Run {
  code: number;
  out: string;
  err: string;
}

describe('promptwright admin (CLI, against the fake)', () => {
  const fake = useFake();
  let env: Record<string, string>;
  before(async () => {
    env = { PROMPTWRIGHT_BASE_URL: fake.url, PROMPTWRIGHT_ADMIN_KEY: fake.adminKey, PROMPTWRIGHT_MAX_RETRIES: '0' };
  });

  async function admin(args: string, o: { env?: Record<string, string>; confirm?: boolean } = {}): Promise<Run> {
    let out = '';
    let err = '';
    const code = await runCli(['admin', ...args.split(' ').filter(Boolean)], {
      stdout: { write: s => (out += s) },
      stderr: { write: s => (err += s) },
      env: o.env ?? env,
      ...(o.confirm !== undefined ? { interactive: true, confirm: () => Promise.resolve(o.confirm!) } : {}),
    });
    assert.ok(!`${out}${err}`.includes(fake.adminKey), 'the key never appears in any output');
    return { code, out, err };
  }
  const json = (r: Run): unknown => JSON.parse(r.out);
  const refusedWithoutRequest = async (args: string, message: RegExp) => {
    const r = await admin(args);
    assert.equal(r.code, 2, `${args}: ${r.err}`);
    assert.match(r.err, message);
    assert.equal(fake.requests.length, 0, `${args} sent a request`);
  };

  it('org: the organization, as JSON or as key/value text', async () => {
    assert.deepEqual(json(await admin('org --format json')), fake.admin.organization);
    const t = await admin('org');
    assert.equal(t.code, 0);
    assert.match(t.out, /^id\s+org_fake$/m);
  });

  it('users list --format json: ONE array of every page; --limit caps the total and sets the page size', async () => {
    const all = json(await admin('users list --format json')) as { id: string }[];
    assert.deepEqual(
      all.map(u => u.id),
      fake.admin.users.map(u => u.id),
    );
    fake.clear();
    const some = json(await admin('users list --limit 30 --format json')) as unknown[];
    assert.equal(some.length, 30);
    assert.deepEqual(
      fake.requests.map(r => r.query.limit),
      ['30'],
    );
  });

  it('users list: an aligned table; --email filters', async () => {
    const u = fake.admin.users[5]!;
    const r = await admin(`users list --email ${u.email}`);
    assert.equal(r.code, 0);
    const [head, row, extra] = r.out.split('\n');
    assert.match(head!, /^ID\s+NAME\s+EMAIL\s+ROLE\s+ADDED$/);
    assert.equal(row!.indexOf(u.email), head!.indexOf('EMAIL'));
    assert.equal(extra, '');
    assert.equal(fake.requests[0]!.query.email, u.email);
  });

  it('users get, set-role; invites create, get, list', async () => {
    const u = fake.admin.users.find(x => x.role === 'user')!;
    assert.equal((json(await admin(`users get ${u.id} --format json`)) as { email: string }).email, u.email);
    assert.equal(
      (json(await admin(`users set-role ${u.id} billing --format json`)) as { role: string }).role,
      'billing',
    );
    const inv = json(await admin('invites create someone@example.com developer --format json')) as { id: string };
    assert.equal((json(await admin(`invites get ${inv.id} --format json`)) as { status: string }).status, 'pending');
    const list = await admin('invites list');
    assert.match(list.out, /^ID\s+EMAIL\s+ROLE\s+STATUS\s+EXPIRES$/m);
    assert.match(list.out, /someone@example\.com/);
  });

  it('workspaces: list (archived only on request), get, create with defaults and tags, update', async () => {
    const active = json(await admin('workspaces list --format json')) as { archived_at: string | null }[];
    assert.ok(active.every(w => w.archived_at === null));
    const every = json(await admin('workspaces list --include-archived --format json')) as unknown[];
    assert.equal(every.length, fake.admin.workspaces.length);
    const w = json(
      await admin(
        'workspaces create Research --tag team=ml --tag cost=lab --allowed-geos us,eu --default-geo eu --format json',
      ),
    ) as { id: string; tags: object; data_residency: object };
    assert.deepEqual(w.tags, { team: 'ml', cost: 'lab' });
    assert.deepEqual(w.data_residency, {
      workspace_geo: 'us',
      allowed_inference_geos: ['us', 'eu'],
      default_inference_geo: 'eu',
    });
    assert.equal((json(await admin(`workspaces get ${w.id} --format json`)) as { id: string }).id, w.id);
    const up = json(await admin(`workspaces update ${w.id} --name Research2 --format json`)) as { name: string };
    assert.equal(up.name, 'Research2');
    const table = await admin('workspaces list');
    assert.match(table.out, /^ID\s+NAME\s+GEO\s+ALLOWED\s+DEFAULT\s+TAGS\s+CREATED\s+ARCHIVED$/m);
    assert.match(table.out, /Research2\s+us\s+us,eu\s+eu\s+team=ml,cost=lab/);
  });

  it('refused before any request (exit 2): roles, tag keys, geos, workspace_geo on update, limits, usage', async () => {
    await refusedWithoutRequest('users set-role user_01 admin', /admin role cannot be given/);
    await refusedWithoutRequest('users set-role user_01 owner', /not a role/);
    await refusedWithoutRequest('invites create a@b.c admin', /admin role/);
    await refusedWithoutRequest('workspaces create X --tag vendor_x=1', /begins with "vendor"/);
    await refusedWithoutRequest('workspaces create X --allowed-geos us --default-geo eu', /"eu" must be one of/);
    await refusedWithoutRequest('workspaces create X --allowed-geos eu', /"global" must be one of/);
    await refusedWithoutRequest('workspaces update wrkspc_01 --workspace-geo eu', /workspace_geo cannot be changed/);
    await refusedWithoutRequest('workspaces update wrkspc_01', /nothing to update/);
    await refusedWithoutRequest('users list --limit 0', /--limit must be a whole number from 1 to 1000/);
    await refusedWithoutRequest('invites list --limit 1001', /1 to 1000/);
    await refusedWithoutRequest('users list --limit many', /whole number/);
    await refusedWithoutRequest('users list --nope', /unknown option --nope/);
    await refusedWithoutRequest('users get', /expected ID/);
    await refusedWithoutRequest('workspaces create X --tag novalue', /KEY=VALUE/);
    await refusedWithoutRequest('users list --format xml', /--format must be text or json/);
    await refusedWithoutRequest('frobnicate now', /unknown command/);
    const none = await admin('org', { env: { PROMPTWRIGHT_BASE_URL: fake.url } });
    assert.equal(none.code, 2);
    assert.match(none.err, /PROMPTWRIGHT_ADMIN_KEY/);
    assert.equal(fake.requests.length, 0);
  });

  it('destructive verbs: without --yes a script is refused (exit 2, nothing sent); a person is asked', async () => {
    const u = fake.admin.users.find(x => x.role === 'developer')!;
    await refusedWithoutRequest(`users remove ${u.id}`, /refused without --yes/);
    await refusedWithoutRequest('workspaces archive wrkspc_02', /refused without --yes/);
    await refusedWithoutRequest('invites delete invite_01', /refused without --yes/);
    const declined = await admin(`users remove ${u.id}`, { confirm: false });
    assert.equal(declined.code, 2);
    assert.match(declined.err, /Not confirmed: nothing was done/);
    assert.equal(fake.requests.length, 0);
    const accepted = await admin(`users remove ${u.id} --format json`, { confirm: true });
    assert.deepEqual(json(accepted), { id: u.id, type: 'user_deleted' });
    const yes = await admin('workspaces archive wrkspc_02 --yes --format json');
    assert.ok((json(yes) as { archived_at: string }).archived_at);
    assert.equal(
      (json(await admin('invites delete invite_01 --yes --format json')) as { type: string }).type,
      'invite_deleted',
    );
  });

  it('service errors exit 1 with status, error.type, message and request-id', async () => {
    const r = await admin('users get user_nope');
    assert.equal(r.code, 1);
    assert.match(r.err, /404 not_found_error: .*user_nope.* \(request-id req_fake_\d+\)/);
    const wrongKey = await admin('org', { env: { ...env, PROMPTWRIGHT_ADMIN_KEY: fake.apiKey } });
    assert.equal(wrongKey.code, 1);
    assert.match(wrongKey.err, /403 permission_error/);
    fake.fail({ status: 500, headers: { 'x-should-retry': 'false' } });
    assert.equal((await admin('org')).code, 1);
  });
});
