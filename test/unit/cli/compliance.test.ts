// `promptwright compliance …` against the fake service: every command, its formats and exit codes, paging
// exactness, the client-side budget and 429s, scopes and key kinds, the 409 flow, confirmations, and every
// refusal made before a request (checked against the requests the fake saw).
import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { groupUsage } from '../../../src/cli/args';
import { COMPLIANCE } from '../../../src/cli/compliance';
import { runCli } from '../../../src/cli/main';
import { DEFAULT_COMPLIANCE_KEYS, type Chat } from '../../../src/core/demo/compliance';
import type { Fake } from '../../fake/server';
import { useFake, withFake } from '../../support/fake';

const FULL = 'sk-vendor-api01-full';
const READONLY = 'sk-vendor-api01-readonly';

interface Run {
  code: number;
  out: string;
  err: string;
  /** stdout as it was written, chunk by chunk */
  writes: string[];
  /** the questions asked */
  asked: string[];
}

interface RunOptions {
  env?: Record<string, string>;
  confirm?: boolean;
  signal?: AbortSignal;
  onWrite?: (s: string) => void;
}

describe('promptwright compliance (CLI, against the fake)', function () {
  this.timeout(10_000);
  const fake = useFake();
  let env: Record<string, string>;
  before(async () => {
    env = envFor(fake);
  });

  const envFor = (f: Fake, extra: Record<string, string> = {}): Record<string, string> => ({
    PROMPTWRIGHT_BASE_URL: f.url,
    PROMPTWRIGHT_COMPLIANCE_KEY: FULL,
    PROMPTWRIGHT_MAX_RETRIES: '0',
    ...extra,
  });

  async function compliance(args: string, o: RunOptions = {}): Promise<Run> {
    let out = '';
    let err = '';
    const writes: string[] = [];
    const asked: string[] = [];
    const code = await runCli(['compliance', ...args.split(' ').filter(Boolean)], {
      stdout: {
        write: s => {
          out += s;
          writes.push(s);
          o.onWrite?.(s);
        },
      },
      stderr: { write: s => (err += s) },
      env: o.env ?? env,
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.confirm !== undefined
        ? {
            interactive: true,
            confirm: (q: string) => {
              asked.push(q);
              return Promise.resolve(o.confirm!);
            },
          }
        : {}),
    });
    for (const key of [FULL, READONLY, fake.adminKey, fake.apiKey]) {
      assert.ok(!`${out}${err}`.includes(key), 'a key never appears in any output');
    }
    return { code, out, err, writes, asked };
  }
  const json = (r: Run): unknown => JSON.parse(r.out);
  const lines = (r: Run): string[] => r.out.split('\n').filter(Boolean);
  const feedIds = (f: Fake = fake) => [...f.compliance.activities()].map(a => a.id);
  const feedRequests = (f: Fake = fake) => f.requests.filter(r => r.path === '/v1/compliance/activities');
  const refusedWithoutRequest = async (args: string, message: RegExp, o: RunOptions = {}) => {
    const r = await compliance(args, o);
    assert.equal(r.code, 2, `${args}: ${r.err}`);
    assert.match(r.err, message);
    assert.equal(r.out, '', `${args} wrote to stdout`);
    assert.equal(fake.requests.length, 0, `${args} sent a request`);
  };

  describe('activities', () => {
    it('--format jsonl: all 2,000 once and in order, written page by page as they arrive', async () => {
      const r = await compliance('activities --format jsonl');
      assert.equal(r.code, 0, r.err);
      const got = lines(r).map(l => JSON.parse(l) as { id: string });
      assert.deepEqual(
        got.map(a => a.id),
        feedIds(),
      );
      assert.deepEqual(got[0], fake.compliance.activity(1999));
      assert.ok(r.writes.length >= 2, 'one write per page, not one at the end');
      const reqs = feedRequests();
      assert.deepEqual(
        reqs.map(q => q.query.limit),
        ['1000', '1000'],
      );
      assert.equal(reqs[0]!.query.after_id, undefined);
      assert.ok(reqs[1]!.query.after_id, 'the second page continues after the first page’s last_id');
    });

    it('--format json: ONE array holding every record of every page', async () => {
      const all = json(await compliance('activities --format json')) as { id: string }[];
      assert.deepEqual(
        all.map(a => a.id),
        feedIds(),
      );
      assert.equal(feedRequests().length, 2);
    });

    it('--format csv: the header, then one row per record (the record itself as JSON)', async () => {
      const r = await compliance('activities --format csv');
      assert.equal(r.code, 0, r.err);
      const rows = r.out.split('\r\n');
      assert.equal(rows[0], 'id,activity_type,created_at,updated_at,record');
      assert.equal(rows.length, 2000 + 2); // header, rows, and the empty string after the last CRLF
      const a = fake.compliance.activity(1999);
      assert.equal(
        rows[1],
        `${a.id},${a.activity_type},${a.created_at},${a.updated_at},"${JSON.stringify(a).replace(/"/g, '""')}"`,
      );
    });

    it('--limit caps the total and sets the page size, in every format', async () => {
      const some = json(await compliance('activities --limit 30 --format json')) as { id: string }[];
      assert.deepEqual(
        some.map(a => a.id),
        feedIds().slice(0, 30),
      );
      assert.deepEqual(
        feedRequests().map(q => q.query.limit),
        ['30'],
      );
      fake.clear();
      const jl = await compliance('activities --limit 5 --format jsonl');
      assert.deepEqual(
        lines(jl).map(l => (JSON.parse(l) as { id: string }).id),
        feedIds().slice(0, 5),
      );
      assert.deepEqual(
        feedRequests().map(q => q.query.limit),
        ['5'],
      );
      fake.clear();
      const csv = await compliance('activities --limit 3 --format csv');
      assert.equal(csv.out.split('\r\n').length, 1 + 3 + 1);
      fake.clear();
      const table = await compliance('activities --limit 1000 --format text');
      assert.equal(lines(table).length, 1 + 1000);
      assert.deepEqual(
        feedRequests().map(q => q.query.limit),
        ['1000'],
      );
    });

    it('--format jsonl to a slow reader waits for drain; a reader that goes away stops the export', async () => {
      /** stdout as a stream: every write asks to wait, then drains (or fails with `code`) a moment later */
      const stream = (code?: string) => {
        const s = Object.assign(new EventEmitter(), { out: '', destroyed: false });
        return Object.assign(s, {
          write: (chunk: string) => {
            s.out += chunk;
            setTimeout(() =>
              code ? s.emit('error', Object.assign(new Error(`write ${code}`), { code })) : s.emit('drain'),
            );
            return false;
          },
        });
      };
      const runWith = async (s: ReturnType<typeof stream>) => {
        let err = '';
        const code = await runCli(['compliance', 'activities', '--format', 'jsonl'], {
          stdout: s,
          stderr: { write: (x: string) => (err += x) },
          env,
        });
        return { code, err };
      };
      const slow = stream();
      assert.equal((await runWith(slow)).code, 0);
      assert.equal(slow.out.split('\n').filter(Boolean).length, 2000);
      fake.clear();
      const gone = stream('EPIPE');
      assert.deepEqual(await runWith(gone), { code: 0, err: '' });
      assert.equal(fake.requests.length, 1, 'no page fetched after the reader went away');
      fake.clear();
      const full = await runWith(stream('ENOSPC'));
      assert.equal(full.code, 1);
      assert.match(full.err, /write ENOSPC/);
      assert.equal(fake.requests.length, 1);
    });

    it('text: an aligned table ID TYPE CREATED ACTOR (the actor’s e-mail)', async () => {
      const r = await compliance('activities --limit 3');
      assert.equal(r.code, 0, r.err);
      const [head, first, ...more] = lines(r);
      assert.match(head!, /^ID\s+TYPE\s+CREATED\s+ACTOR$/);
      assert.equal(more.length, 2);
      const a = fake.compliance.activity(1999);
      assert.equal(first!.indexOf(a.actor.email), head!.indexOf('ACTOR'));
      assert.equal(first!.indexOf(a.activity_type), head!.indexOf('TYPE'));
      assert.match(first!, new RegExp(`^${a.id}\\s+${a.activity_type}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+`));
    });

    it('filters go out as the spec names them: activity_types[], created_at.gte, updated_at.lt', async () => {
      const types = ['model_chat_created', 'model_file_uploaded'];
      const r = await compliance(
        `activities --type ${types[0]} --type ${types[1]} --created-gte 2026-01-02T00:00:00Z ` +
          '--updated-lt 2026-01-04T00:00:00+02:00 --format json',
      );
      assert.equal(r.code, 0, r.err);
      const got = json(r) as { activity_type: string; created_at: string; updated_at: string }[];
      assert.ok(got.length > 0);
      assert.deepEqual([...new Set(got.map(a => a.activity_type))].sort(), types);
      assert.ok(got.every(a => a.created_at >= '2026-01-02T00:00:00Z' && a.updated_at < '2026-01-03T22:00:00Z'));
      const q = feedRequests()[0]!.query;
      assert.equal(q['created_at.gte'], '2026-01-02T00:00:00Z');
      assert.equal(q['updated_at.lt'], '2026-01-04T00:00:00+02:00');
      assert.ok(types.includes(q['activity_types[]']!));
    });

    it('a type the spec does not name is sent as given, with a note on stderr', async () => {
      const r = await compliance('activities --type model_chat_renamed --format json');
      assert.equal(r.code, 0);
      assert.deepEqual(json(r), []);
      assert.match(r.err, /"model_chat_renamed" is not a type the spec names; sent as given/);
    });

    it('an Admin key reads the feed when no compliance key is set (and only the feed)', async () => {
      const adminOnly = { PROMPTWRIGHT_BASE_URL: fake.url, PROMPTWRIGHT_ADMIN_KEY: fake.adminKey };
      const r = await compliance('activities --limit 10 --format json', { env: adminOnly });
      assert.equal(r.code, 0, r.err);
      assert.equal((json(r) as unknown[]).length, 10);
      assert.equal(fake.requests[0]!.headers['x-api-key'], fake.adminKey);
      fake.clear();
      await compliance('activities --limit 1 --format json', {
        env: { ...env, PROMPTWRIGHT_ADMIN_KEY: fake.adminKey },
      });
      assert.equal(fake.requests[0]!.headers['x-api-key'], FULL, 'the compliance key first when both are set');
      fake.clear();
      await refusedWithoutRequest('chats --user user_01', /PROMPTWRIGHT_COMPLIANCE_KEY/, { env: adminOnly });
      await refusedWithoutRequest('orgs', /PROMPTWRIGHT_COMPLIANCE_KEY/, { env: adminOnly });
    });
  });

  it('orgs: the tree as JSON, or ID NAME PARENT', async () => {
    assert.deepEqual(json(await compliance('orgs --format json')), fake.compliance.organizations);
    const r = await compliance('orgs');
    assert.equal(r.code, 0);
    const [head, root, child] = lines(r);
    assert.match(head!, /^ID\s+NAME\s+PARENT$/);
    const [o0, o1] = fake.compliance.organizations;
    assert.match(root!, new RegExp(`^${o0!.id}\\s+${o0!.name}$`));
    assert.match(child!, new RegExp(`^${o1!.id}\\s+${o1!.name}\\s+${o0!.id}$`));
  });

  it('orgs: over the cap of 1,000 organizations the 500 is said plainly (exit 1)', async () => {
    await withFake({ organizationsCount: 1001 }, async big => {
      const r = await compliance('orgs', { env: envFor(big, { PROMPTWRIGHT_MAX_RETRIES: '2' }) });
      assert.equal(r.code, 1);
      assert.match(r.err, /500 api_error: .* \(request-id req_fake_\d+\)/);
      assert.match(r.err, /More than 1,000 linked organizations: .*not paginated/);
      assert.equal(big.requests.length, 1, 'x-should-retry: false is not retried');
    });
  });

  it('chats: per user (one --user or more), --project narrows, soft-deleted ones show deleted_at', async () => {
    const mine = (users: string[], project?: string) =>
      fake.compliance.chats.filter(c => users.includes(c.user_id) && (!project || c.project_id === project));
    assert.deepEqual(json(await compliance('chats --user user_03 --format json')), mine(['user_03']));
    const inProject = json(
      await compliance('chats --user user_01 --user user_02 --user user_03 --project model_proj_01 --format json'),
    ) as Chat[];
    assert.deepEqual(inProject, mine(['user_01', 'user_02', 'user_03'], 'model_proj_01'));
    assert.equal(inProject.length, 4);
    const r = await compliance('chats --user user_03');
    const [head, ...rows] = lines(r);
    assert.match(head!, /^ID\s+USER\s+PROJECT\s+NAME\s+CREATED\s+DELETED$/);
    const gone = mine(['user_03']).find(c => c.deleted_at && c.project_id)!;
    const row = rows.find(x => x.startsWith(gone.id))!;
    assert.ok(row.endsWith(gone.deleted_at!.replace('T', ' ').slice(0, 16)), row);
    assert.ok(row.includes('model_proj_01'));
    fake.clear();
    const two = json(await compliance('chats --user user_01 --limit 2 --format json')) as Chat[];
    assert.equal(two.length, 2);
    assert.deepEqual(
      fake.requests.map(q => [q.query.limit, q.query['user_ids[]']]),
      [['2', 'user_01']],
    );
  });

  it('attachments: every page (page tokens) as one array, or ID TYPE NAME CREATED; 404 exits 1', async () => {
    const all = json(await compliance('attachments model_proj_01 --format json'));
    assert.deepEqual(all, fake.compliance.attachments('model_proj_01'));
    assert.equal(fake.requests.length, 3);
    assert.ok(fake.requests[1]!.query.page, 'the second page is asked for with next_page');
    const r = await compliance('attachments model_proj_02');
    assert.match(lines(r)[0]!, /^ID\s+TYPE\s+NAME\s+CREATED$/);
    assert.match(lines(r)[1]!, /^model_proj_doc_\d+\s+project_document\s+section-1\.md\s+2026-05-21 \d\d:\d\d$/);
    const missing = await compliance('attachments model_proj_99');
    assert.equal(missing.code, 1);
    assert.match(missing.err, /404 not_found_error: .*model_proj_99.* \(request-id req_fake_\d+\)/);
  });

  it('refused before any request (exit 2): timestamps, --limit, formats, --user, arguments, settings', async () => {
    await refusedWithoutRequest('activities --created-gte 2026-01-01', /created_at\.gte must be a full RFC 3339/);
    await refusedWithoutRequest('activities --updated-lt 2026-01-01T10:00:00', /updated_at\.lt must be a full RFC/);
    await refusedWithoutRequest('activities --created-lt 2026-02-30T10:00:00Z --format csv', /created_at\.lt/);
    await refusedWithoutRequest('activities --updated-gte yesterday --format jsonl', /updated_at\.gte/);
    await refusedWithoutRequest('activities --limit 0', /--limit must be a whole number from 1 to 1000/);
    await refusedWithoutRequest('activities --limit 1001 --format jsonl', /1 to 1000/);
    await refusedWithoutRequest('activities --limit lots', /whole number/);
    await refusedWithoutRequest('chats --user user_01 --limit 5000', /1 to 1000/);
    await refusedWithoutRequest('activities --format xml', /--format must be text, json, jsonl or csv/);
    await refusedWithoutRequest('orgs --format csv', /--format must be text or json/);
    await refusedWithoutRequest('activities --since 2026-01-01T00:00:00Z', /unknown option --since/);
    await refusedWithoutRequest('chats', /give at least one --user USER_ID/);
    await refusedWithoutRequest('chats --project model_proj_01', /--user/);
    await refusedWithoutRequest('attachments', /expected PROJECT_ID/);
    await refusedWithoutRequest('orgs extra', /expected no arguments/);
    await refusedWithoutRequest('delete chat', /expected ID/);
    await refusedWithoutRequest(
      'delete file model_file_0001 --yes',
      /unknown command 'compliance delete file'; did you mean 'compliance delete/,
    );
    await refusedWithoutRequest('frobnicate', /unknown command/);
    await refusedWithoutRequest('orgs', /PROMPTWRIGHT_COMPLIANCE_RATE must be LIMIT\/WINDOW_MS/, {
      env: { ...env, PROMPTWRIGHT_COMPLIANCE_RATE: 'fast' },
    });
    await refusedWithoutRequest('activities --format csv', /PROMPTWRIGHT_COMPLIANCE_KEY/, {
      env: { PROMPTWRIGHT_BASE_URL: fake.url },
    });
    await refusedWithoutRequest('orgs', /PROMPTWRIGHT_BASE_URL/, { env: { PROMPTWRIGHT_COMPLIANCE_KEY: FULL } });
  });

  it('usage: compliance --help (exit 0), bare compliance (exit 2), and the main usage names it', async () => {
    const help = await compliance('--help');
    assert.equal(help.code, 0);
    assert.equal(help.out, groupUsage(COMPLIANCE));
    assert.match(help.out, /PROMPTWRIGHT_COMPLIANCE_RATE .*LIMIT\/WINDOW_MS \(default 600\/60000/);
    assert.equal((await compliance('')).code, 2);
    let usage = '';
    await runCli(['--help'], { stdout: { write: s => (usage += s) }, stderr: { write: () => true }, env: {} });
    assert.match(usage, /^ {2}compliance … /m);
    assert.match(usage, /PROMPTWRIGHT_COMPLIANCE_KEY/);
    assert.equal(fake.requests.length, 0);
  });

  it('a standard API key is the wrong kind of key: 401 explained (exit 1), no quota used', async () => {
    const r = await compliance('orgs', { env: { ...env, PROMPTWRIGHT_COMPLIANCE_KEY: fake.apiKey } });
    assert.equal(r.code, 1);
    assert.match(r.err, /401 authentication_error: .*\(request-id req_fake_\d+\)/);
    assert.match(r.err, /needs a Compliance Access Key \(sk-vendor-api01…\), not a standard API key/);
    assert.equal(fake.compliance.log.length, 0);
  });

  describe('budget and 429s', () => {
    it('the client-side limiter keeps a run inside the budget: no 429, never above it in any window', async () => {
      await withFake({ complianceRate: { limit: 1, windowMs: 500 } }, async f => {
        const t0 = Date.now();
        const r = await compliance('activities --format jsonl', {
          env: envFor(f, { PROMPTWRIGHT_COMPLIANCE_RATE: '1/600' }),
        });
        assert.equal(r.code, 0, r.err);
        assert.deepEqual(
          lines(r).map(l => (JSON.parse(l) as { id: string }).id),
          feedIds(f),
        );
        assert.ok(Date.now() - t0 >= 590, 'the second page waited for the window');
        assert.equal(f.compliance.throttled.length, 0);
        assert.ok(f.compliance.maxInAnyWindow() <= 1);
      });
    });

    it('--format jsonl under injected 429s: the same page again after retry-after, every record once', async () => {
      await withFake({ complianceRate: { limit: 25, windowMs: 1000 } }, async f => {
        f.fail({ status: 429, headers: { 'retry-after': '1' }, path: '/v1/compliance/activities' }, 2);
        // the first 429 is retried by the client (MAX_RETRIES 1), the second by the export's own loop
        const r = await compliance('activities --format jsonl', {
          env: envFor(f, { PROMPTWRIGHT_COMPLIANCE_RATE: '20/1000', PROMPTWRIGHT_MAX_RETRIES: '1' }),
        });
        assert.equal(r.code, 0, r.err);
        const ids = lines(r).map(l => (JSON.parse(l) as { id: string }).id);
        assert.deepEqual(ids, feedIds(f));
        assert.equal(new Set(ids).size, 2000);
        assert.deepEqual(
          feedRequests(f).map(q => q.query.after_id === undefined),
          [true, true, true, false],
        );
        assert.ok(f.compliance.maxInAnyWindow() <= 25);
      });
    });

    it('a 429 from the service’s own budget on a later page: asked for again with the same cursor', async () => {
      await withFake({ complianceRate: { limit: 1, windowMs: 1000 } }, async f => {
        // the CLI is told it may send more than the service takes, so the service says 429
        const r = await compliance('activities --format csv', {
          env: envFor(f, { PROMPTWRIGHT_COMPLIANCE_RATE: '10/1000' }),
        });
        assert.equal(r.code, 0, r.err);
        const rows = r.out.split('\r\n').slice(1, -1);
        assert.deepEqual(
          rows.map(x => x.split(',')[0]),
          feedIds(f),
        );
        assert.equal(f.compliance.throttled.length, 1);
        const [first, refused, again] = feedRequests(f);
        assert.equal(first!.query.after_id, undefined);
        assert.ok(refused!.query.after_id);
        assert.equal(again!.query.after_id, refused!.query.after_id);
      });
    });

    it('Ctrl-C: the signal aborts the run, exit 130 with "Cancelled."', async () => {
      const ctl = new AbortController();
      const r = await compliance('activities --format jsonl', {
        env: { ...env, PROMPTWRIGHT_COMPLIANCE_RATE: '1/60000' },
        signal: ctl.signal,
        onWrite: () => ctl.abort(),
      });
      assert.equal(r.code, 130);
      assert.match(r.err, /promptwright compliance activities: Cancelled\./);
      assert.equal(lines(r).length, 1000, 'the first page was written; the second never asked for');
      assert.equal(fake.requests.length, 1);
    });
  });

  describe('deletes (immediate and permanent)', () => {
    it('without --yes: a script is refused (exit 2, nothing sent); a person is asked', async () => {
      const chat = fake.compliance.chats.find(c => c.user_id === 'user_05')!;
      await refusedWithoutRequest(`delete chat ${chat.id}`, /immediate and permanent.*refused without --yes/);
      await refusedWithoutRequest('delete project model_proj_03', /refused without --yes/);
      const declined = await compliance(`delete chat ${chat.id}`, { confirm: false });
      assert.equal(declined.code, 2);
      assert.match(declined.err, /Not confirmed: nothing was done/);
      assert.match(declined.asked[0]!, /^Delete chat model_chat_\d+ now \(immediate and permanent/);
      assert.equal(fake.requests.length, 0);
      const accepted = await compliance(`delete chat ${chat.id} --format json`, { confirm: true });
      assert.equal(accepted.code, 0, accepted.err);
      assert.deepEqual(json(accepted), { id: chat.id, type: 'chat_deleted' });
      assert.ok(!fake.compliance.chats.some(c => c.id === chat.id));
      const again = await compliance(`delete chat ${chat.id} --yes`);
      assert.equal(again.code, 1);
      assert.match(again.err, /404 not_found_error/);
    });

    it('a read-only key is refused on delete: the Got/Needed 403 explained (exit 1), nothing deleted', async () => {
      const chat = fake.compliance.chats.find(c => c.user_id === 'user_05')!;
      const r = await compliance(`delete chat ${chat.id} --yes`, {
        env: { ...env, PROMPTWRIGHT_COMPLIANCE_KEY: READONLY },
      });
      assert.equal(r.code, 1);
      assert.match(r.err, /403 permission_error: .*Got: .*Needed: delete:compliance_user_data/);
      assert.match(r.err, /This key cannot delete: it lacks delete:compliance_user_data/);
      assert.deepEqual(DEFAULT_COMPLIANCE_KEYS[READONLY]?.includes('delete:compliance_user_data'), false);
      assert.ok(fake.compliance.chats.some(c => c.id === chat.id));
    });

    it('a project with chats: 409 with the way out; list its chats, delete each, then the project', async () => {
      const refused = await compliance('delete project model_proj_01 --yes');
      assert.equal(refused.code, 1);
      assert.match(refused.err, /409 conflict_error: .*\(request-id req_fake_\d+\)/);
      assert.match(refused.err, /promptwright compliance chats --user USER_ID .*--project model_proj_01/);
      assert.match(refused.err, /promptwright compliance delete chat CHAT_ID/);
      const users = fake.compliance.users.map(u => `--user ${u.id}`).join(' ');
      const chats = json(await compliance(`chats ${users} --project model_proj_01 --format json`)) as Chat[];
      assert.equal(chats.length, 4, 'the soft-deleted one too: it is still attached');
      for (const c of chats) assert.equal((await compliance(`delete chat ${c.id} --yes`)).code, 0);
      const done = await compliance('delete project model_proj_01 --yes');
      assert.equal(done.code, 0, done.err);
      assert.match(done.out, /^type\s+project_deleted$/m);
      assert.ok(!fake.compliance.projects.some(p => p.id === 'model_proj_01'));
    });
  });
});
