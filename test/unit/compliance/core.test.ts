// The compliance core (doc3): the rate limiter on a fake clock, the filters, the scopes a 403 names, the
// typed client and the export against the fake service, and how records read in a tree.
import * as assert from 'node:assert/strict';
import { ApiError, InputError } from '../../../src/core/api/errors';
import { Http } from '../../../src/core/api/http';
import { ComplianceClient } from '../../../src/core/compliance/client';
import { exportActivities, csvField } from '../../../src/core/compliance/export';
import { filterProblems, filterQuery, isRfc3339 } from '../../../src/core/compliance/filters';
import { RateLimiter } from '../../../src/core/compliance/limiter';
import { explainComplianceError, parseScopeError, SCOPES } from '../../../src/core/compliance/scopes';
import { activityLabel, type Activity } from '../../../src/core/compliance/types';
import { chatView, isFile, organizationTree, parseIds } from '../../../src/core/compliance/view';
import { count } from '../../../src/core/text';
import { useFake } from '../../support/fake';

const FULL = 'sk-vendor-api01-full';
const READONLY = 'sk-vendor-api01-readonly';

/** A clock that only moves when something sleeps on it. */
function fakeClock() {
  const clock = {
    t: 0,
    sleeps: [] as number[],
    now: () => clock.t,
    sleep: (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) return Promise.reject(new Error('aborted'));
      clock.sleeps.push(ms);
      clock.t += ms;
      return Promise.resolve();
    },
  };
  return clock;
}

describe('compliance rate limiter (doc3 §8, fake clock)', () => {
  it('starts 600 requests at once, then waits for the oldest to leave the minute, and a margin', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(600, 60_000, clock);
    for (let i = 0; i < 600; i++) await limiter.acquire();
    assert.equal(clock.t, 0);
    await limiter.acquire();
    // 1% of the window: a request that left later may arrive sooner, and the service counts arrivals
    assert.equal(clock.t, 60_600);
    assert.equal(limiter.inWindow(), 1);
  });

  it('with the margin, requests that arrive up to marginMs out of order still fit the budget', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(600, 60_000, clock);
    const arrivals: number[] = [];
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2_000; i++) {
      await limiter.acquire();
      // each on its way for 0 to 599 ms, in an order unrelated to when it left
      arrivals.push(clock.t + Math.floor(random() * 600));
      clock.t += 3;
    }
    arrivals.sort((a, b) => a - b);
    let most = 0;
    for (let i = 0, j = 0; j < arrivals.length; j++) {
      while (arrivals[j]! - arrivals[i]! >= 60_000) i++;
      most = Math.max(most, j - i + 1);
    }
    assert.ok(most <= 600, `${most} arrived in one window`);
  });

  it('never lets more than the limit start in any window over a long run', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(600, 60_000, clock);
    const starts: number[] = [];
    for (let i = 0; i < 3_000; i++) {
      await limiter.acquire();
      starts.push(clock.t);
      clock.t += 7; // the request itself takes a little time
    }
    let most = 0;
    for (let i = 0, j = 0; j < starts.length; j++) {
      while (starts[j]! - starts[i]! >= 60_000) i++;
      most = Math.max(most, j - i + 1);
    }
    assert.equal(most, 600);
    // and it does not wait more than it must: 3,000 requests need four more minutes after the first 600
    assert.ok(clock.t < 5 * 60_000, `took ${clock.t} ms`);
  });

  it("a 429's retry-after pauses every caller until it has passed", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(600, 60_000, clock);
    await limiter.acquire();
    limiter.pause(5_000);
    await limiter.acquire();
    assert.equal(clock.t, 5_000);
  });

  it('a cancelled wait rejects', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(1, 60_000, clock);
    await limiter.acquire();
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(limiter.acquire(abort.signal), /aborted/);
  });
});

describe('Activity Feed filters (doc3 §4)', () => {
  it('takes only full RFC 3339 timestamps with a time and a zone, and real ones', () => {
    for (const ok of ['2026-01-31T09:00:00Z', '2026-01-31t09:00:00.123+05:30', '2024-02-29T23:59:60-00:00'])
      assert.ok(isRfc3339(ok), ok);
    for (const bad of [
      '2026-01-31',
      '2026-01-31T09:00:00',
      '2026-01-31 09:00:00Z',
      '2026-02-30T09:00:00Z',
      '2025-02-29T09:00:00Z',
      '2026-01-31T24:00:00Z',
      '2026-01-31T09:00Z',
      '1769850000',
      '2026-01-31T09:00:00+0100',
    ])
      assert.ok(!isRfc3339(bad), bad);
  });

  it('names the parameter and echoes the value, as the service would', () => {
    const problems = filterProblems({ created: { gte: '2026-01-31' }, updated: { lt: '2026-01-31T09:00:00Z' } });
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /^created_at\.gte must be a full RFC 3339 timestamp.*got "2026-01-31"/);
  });

  it('sends the parameters under the names the spec gives', () => {
    assert.deepEqual(filterQuery({ types: ['model_chat_created'], created: { gt: 'A' }, updated: { lte: 'B' } }), {
      'activity_types[]': ['model_chat_created'],
      'created_at.gt': 'A',
      'updated_at.lte': 'B',
    });
  });
});

describe('activity types in words', () => {
  it('reads every type the spec lists, and one it does not, as a person would', () => {
    assert.equal(activityLabel('model_chat_created'), 'Chat created');
    assert.equal(activityLabel('model_project_document_uploaded'), 'Project document uploaded');
    assert.equal(activityLabel('org_deleted_via_bulk'), 'Organization deleted via bulk');
    assert.equal(activityLabel('workspace_member_added'), 'Workspace member added');
    assert.equal(activityLabel('__'), '__', 'nothing to read: the name as it is');
  });
});

describe('compliance scopes (doc3 §5, §7)', () => {
  it('reads Got: and Needed: from a 403', () => {
    assert.deepEqual(
      parseScopeError(
        'Missing required scopes. Got: read:compliance_activities, read:compliance_user_data. ' +
          'Needed: delete:compliance_user_data.',
      ),
      { got: ['read:compliance_activities', 'read:compliance_user_data'], needed: ['delete:compliance_user_data'] },
    );
    assert.deepEqual(parseScopeError('missing required scopes Got: [] Needed: [read:compliance_org_data]'), {
      got: [],
      needed: ['read:compliance_org_data'],
    });
    assert.equal(parseScopeError('forbidden'), undefined);
  });
  it("reads a long 403 message in time linear in its length (the service's text is a stranger's input)", () => {
    const t0 = performance.now();
    assert.deepEqual(parseScopeError(`${'Got'.repeat(300_000)}\nx`)?.needed, []);
    assert.ok(performance.now() - t0 < 500, `${performance.now() - t0} ms`);
  });

  it('says what the key cannot do and what it lacks; a standard key is the wrong kind', () => {
    const e403 = new ApiError(
      403,
      'permission_error',
      'Missing required scopes. Got: read:compliance_activities. Needed: delete:compliance_user_data.',
      'req_test',
      {},
    );
    assert.equal(
      explainComplianceError(e403, 'compliance'),
      'This key cannot delete: it lacks delete:compliance_user_data (it has read:compliance_activities).',
    );
    const e401 = new ApiError(401, 'authentication_error', 'invalid x-api-key', 'req_test', {});
    assert.match(explainComplianceError(e401, 'compliance')!, /needs a Compliance Access Key.*not a standard API key/);
    assert.match(explainComplianceError(e401, 'admin')!, /Admin key reads only the Activity Feed/);
    assert.match(
      explainComplianceError(e401, 'compliance', 'sk-vendor-api01')!,
      /Compliance Access Key was refused: it is unknown, deleted or disabled/,
    );
    assert.equal(
      explainComplianceError(new ApiError(404, 'not_found_error', 'x', 'req_test', {}), 'compliance'),
      undefined,
    );
  });
});

describe('compliance client (doc3 §4, against the fake)', () => {
  const fake = useFake();
  const http = (key = FULL, extra = {}) =>
    new Http({ baseUrl: fake.url, complianceKey: key, adminKey: fake.adminKey, sleep: async () => {}, ...extra });
  const client = (key = FULL) => new ComplianceClient(http(key));

  it('pages the feed: after_id is the previous last_id, until has_more is false', async () => {
    const pages = [];
    for await (const p of client().activities({}, { pageSize: 700 })) pages.push(p);
    assert.deepEqual(
      pages.map(p => p.data.length),
      [700, 700, 600],
    );
    const sent = fake.requests.map(r => r.params);
    assert.equal(sent[0]!.get('after_id'), null);
    assert.equal(sent[1]!.get('after_id'), pages[0]!.last_id);
    assert.equal(sent[2]!.get('after_id'), pages[1]!.last_id);
    assert.ok(sent.every(q => q.get('limit') === '700'));
    assert.equal(new Set(pages.flatMap(p => p.data.map(a => a.id))).size, 2000);
  });

  it('gives its hooks to every request and page, before a call’s own: a shared client waits on them', async () => {
    const attempts: string[] = [];
    const c = new ComplianceClient(http(), 'compliance', {
      beforeAttempt: async () => void attempts.push(fake.requests.length.toString()),
    });
    for await (const _page of c.activities({}, { pageSize: 700 })) void _page;
    await c.organizations();
    assert.equal(attempts.length, 4, 'three pages and the organizations');
    assert.equal(fake.requests.length, 4);
    // a call's own hooks run after the client's: the limiter still applies
    let own = 0;
    await c.organizations({ beforeAttempt: async () => void own++ });
    assert.deepEqual([attempts.length, own], [5, 1]);
  });

  it('goes back with before_id (the previous first_id)', async () => {
    const c = client();
    const second = await c.activityPage(
      {},
      { pageSize: 10, after: (await c.activityPage({}, { pageSize: 10 })).last_id! },
    );
    const back = await c.activityPage({}, { pageSize: 10, before: second.first_id! });
    assert.equal(fake.requests.at(-1)!.params.get('before_id'), second.first_id);
    assert.equal(back.data.length, 10);
    assert.ok(!back.data.some(a => second.data.some(b => b.id === a.id)));
  });

  it('filters by type with activity_types[]', async () => {
    const page = await client().activityPage(
      { types: ['model_file_uploaded', 'org_deleted_via_bulk'] },
      { pageSize: 50 },
    );
    assert.ok(page.data.length > 0);
    assert.ok(
      page.data.every(a => a.activity_type === 'model_file_uploaded' || a.activity_type === 'org_deleted_via_bulk'),
    );
    assert.deepEqual(fake.requests[0]!.params.getAll('activity_types[]'), [
      'model_file_uploaded',
      'org_deleted_via_bulk',
    ]);
  });

  it('refuses a bad timestamp, a bad limit and chats without users before sending anything', () => {
    assert.throws(() => client().activities({ created: { gte: '2026-01-31' } }), InputError);
    assert.throws(() => client().activities({}, { pageSize: 0 }), InputError);
    assert.throws(() => client().activities({}, { pageSize: 1001 }), InputError);
    assert.throws(() => client().chats([' ']), /at least one user id/);
    assert.equal(fake.requests.length, 0);
  });

  it('lists the linked organizations, chats of users and project attachments (page tokens)', async () => {
    const c = client();
    const orgs = await c.organizations();
    assert.equal(orgs.length, 7);
    const user = fake.compliance.users[0]!.id;
    const chats = [];
    for await (const p of c.chats([user], [], { pageSize: 8 })) chats.push(...p.data);
    assert.equal(chats.length, 30);
    assert.ok(
      chats.some(x => x.deleted_at),
      'soft-deleted chats stay readable',
    );
    const attachments = [];
    const tokens: (string | null)[] = [];
    for await (const p of c.attachments('model_proj_01')) {
      attachments.push(...p.data);
      tokens.push(p.next_page);
    }
    assert.equal(attachments.length, 45);
    assert.equal(tokens.at(-1), null);
    const asked = fake.requests.filter(r => r.path.includes('/attachments'));
    assert.equal(asked[0]!.params.get('page'), null);
    assert.equal(asked[1]!.params.get('page'), tokens[0]);
  });

  it('deletes a chat; a project with chats is a 409; a read-only key gets a 403 naming scopes', async () => {
    const c = client();
    const user = fake.compliance.users[1]!.id;
    const first = (await c.chats([user]).next()).value!.data[0]!;
    assert.equal((await c.deleteChat(first.id)).id, first.id);
    await assert.rejects(c.deleteProject('model_proj_01'), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.status, 409);
      assert.equal(e.type, 'conflict_error');
      return true;
    });
    await assert.rejects(client(READONLY).deleteChat('model_chat_0002'), (e: unknown) => {
      assert.ok(e instanceof ApiError && e.status === 403);
      assert.deepEqual(parseScopeError(e.message)!.needed, [SCOPES.delete]);
      return true;
    });
  });

  it('an Admin key reads the feed only; a standard API key is unauthenticated', async () => {
    const admin = new ComplianceClient(http(FULL), 'admin');
    assert.equal((await admin.activityPage({}, { pageSize: 5 })).data.length, 5);
    assert.equal(fake.requests[0]!.headers['x-api-key'], fake.adminKey);
    await assert.rejects(new ComplianceClient(http(fake.adminKey)).organizations(), (e: unknown) => {
      assert.ok(e instanceof ApiError && e.status === 403);
      assert.match(explainComplianceError(e, 'admin')!, /cannot read organizations/);
      return true;
    });
    await assert.rejects(client(fake.apiKey).organizations(), (e: unknown) => {
      assert.ok(e instanceof ApiError && e.status === 401);
      assert.match(explainComplianceError(e, 'compliance')!, /not a standard API key/);
      return true;
    });
  });
});

describe('Activity Feed export (doc3 §7 rule 2, §8)', function () {
  // a budget so small the export meets 429s: 4 requests in any 400 ms, so 20 pages take 2 s at the least
  this.timeout(10_000);
  const fake = useFake({ complianceRate: { limit: 4, windowMs: 400 } });

  /** The export's own loop handles the 429s: the transport does not retry (maxRetries 0). */
  const client = () => new ComplianceClient(new Http({ baseUrl: fake.url, complianceKey: FULL, maxRetries: 0 }));
  /** retry-after is in whole seconds; a tenth of it is enough for a 400 ms window and keeps the test fast */
  const shortSleep = (ms: number) => new Promise<void>(r => setTimeout(r, ms / 10));

  it('JSON Lines: 2,000 records in feed order, none lost or doubled, the refused cursor asked again', async () => {
    let out = '';
    const progress: number[] = [];
    const waits: number[] = [];
    const done = await exportActivities(client(), {}, chunk => void (out += chunk), {
      format: 'jsonl',
      pageSize: 100,
      sleep: shortSleep,
      onRateLimited: ms => waits.push(ms),
      onProgress: p => progress.push(p.records),
    });
    const lines = out.trimEnd().split('\n');
    assert.equal(lines.length, 2000);
    assert.deepEqual(done, { records: 2000, pages: 20 });
    const ids = lines.map(l => (JSON.parse(l) as Activity).id);
    assert.equal(new Set(ids).size, 2000);
    assert.deepEqual(
      ids,
      [...fake.compliance.activities()].map(a => a.id),
    );
    assert.deepEqual(progress.slice(0, 3), [100, 200, 300]);
    const refused = fake.requests.filter(r => r.status === 429);
    assert.ok(refused.length > 0, 'the budget was met');
    // each wait is told first (the editor pauses its shared limiter with it), in retry-after's seconds
    assert.equal(waits.length, refused.length);
    assert.ok(waits.every(ms => ms === 1000));
    // every refused request was asked again with the same cursor, and that cursor was then answered
    const cursor = (r: (typeof refused)[number]) => r.params.get('after_id');
    for (const r of refused)
      assert.ok(
        fake.requests.some(x => x.at > r.at && cursor(x) === cursor(r) && x.status === 200),
        `after_id ${cursor(r)}`,
      );
  });

  it('CSV: a header and one row per record, fields quoted as RFC 4180 says', async () => {
    let out = '';
    await exportActivities(client(), { types: ['model_chat_created'] }, chunk => void (out += chunk), {
      format: 'csv',
      pageSize: 1000,
      sleep: shortSleep,
    });
    const rows = out.trimEnd().split('\r\n');
    assert.equal(rows[0], 'id,activity_type,created_at,updated_at,record');
    assert.ok(rows.length > 10);
    assert.ok(rows.slice(1).every(r => /^activity_\w+,model_chat_created,/.test(r)));
    assert.equal(csvField('a,"b"'), '"a,""b"""');
    assert.equal(csvField(null), '');
  });

  it('CSV: a field a spreadsheet would run as a formula gets a leading apostrophe', async () => {
    for (const [field, written] of [
      ['=HYPERLINK("https://evil.example","x")', `"'=HYPERLINK(""https://evil.example"",""x"")"`],
      ['+1+1', "'+1+1"],
      ['-2+3', "'-2+3"],
      ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
      ['\t=1', "'\t=1"],
      ['\r=1', `"'\r=1"`],
      ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
      ['a=1', 'a=1'],
      ['1-2', '1-2'],
      ["'quoted", "'quoted"],
    ] as const)
      assert.equal(csvField(field), written, field);
    // through the export, as the CLI and the Activity Feed panel write it
    const compliance = fake.compliance;
    const own = compliance.activity.bind(compliance);
    compliance.activity = (k: number): ReturnType<typeof own> => ({
      ...own(k),
      activity_type: '=HYPERLINK("https://evil.example","open")',
      created_at: '@now',
    });
    let out = '';
    try {
      await exportActivities(client(), {}, chunk => void (out += chunk), {
        format: 'csv',
        pageSize: 1000,
        sleep: shortSleep,
      });
    } finally {
      compliance.activity = own;
    }
    const row = out.split('\r\n')[1]!;
    assert.match(row, /^activity_\d+,"'=HYPERLINK\(""https:\/\/evil\.example"",""open""\)",'@now,/);
  });

  it('stops when cancelled', async () => {
    const abort = new AbortController();
    const run = exportActivities(client(), {}, () => abort.abort(), {
      format: 'jsonl',
      pageSize: 10,
      signal: abort.signal,
    });
    await assert.rejects(run);
    assert.ok(fake.requests.length < 5);
  });
});

describe('compliance records in a tree', () => {
  it('nests organizations by parent_id; a missing parent or a cycle cannot hide one', () => {
    const t = organizationTree([
      { id: 'a', parent_id: null },
      { id: 'b', parent_id: 'a' },
      { id: 'c', parent_id: 'b' },
      { id: 'd', parent_id: 'gone' },
      { id: 'x', parent_id: 'y' },
      { id: 'y', parent_id: 'x' },
    ]);
    assert.deepEqual(
      t.roots.map(o => o.id),
      ['a', 'd', 'x'],
    );
    assert.deepEqual(
      t.children.get('a')!.map(o => o.id),
      ['b'],
    );
    assert.deepEqual(
      t.children.get('x')!.map(o => o.id),
      ['y'],
    );
    assert.deepEqual(t.children.get('y'), []);
    const shown = (ids: string[]): string[] =>
      ids.flatMap(id => [id, ...shown((t.children.get(id) ?? []).map(o => o.id))]);
    assert.deepEqual(shown(t.roots.map(o => o.id)).sort(), ['a', 'b', 'c', 'd', 'x', 'y']);
  });

  it('dims a chat its user soft-deleted and says so; project documents are not files', () => {
    const v = chatView({ id: 'model_chat_1', name: 'Plan', deleted_at: '2026-06-02T10:00:00Z', user_id: 'u1' });
    assert.equal(v.dim, true);
    assert.match(v.description, /^deleted by its user 2026-06-02 · u1$/);
    assert.equal(chatView({ id: 'model_chat_2', deleted_at: null }).dim, false);
    assert.equal(isFile({ id: 'model_file_1', type: 'file' }), true);
    assert.equal(isFile({ id: 'model_proj_doc_1', type: 'project_document' }), false);
  });

  it('reads identifiers and counts as people write them', () => {
    assert.deepEqual(parseIds(' u1, u2 u1,,'), ['u1', 'u2']);
    assert.equal(count(1, 'chat'), '1 chat');
    assert.equal(count(2000, 'record'), '2,000 records');
  });
});
