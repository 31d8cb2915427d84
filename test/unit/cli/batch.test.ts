// `promptwright batch …` and `promptwright test --batch` as a user runs them: the built dist/cli.js spawned
// against the fake over TCP (keep-alive on), with its own PROMPTWRIGHT_CACHE_DIR: output, exit code, what was
// sent, and an exit as soon as the work is done.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiClient } from '../../../src/core/api/client';
import { BatchStore, recordOf } from '../../../src/core/batches/store';
import { startFake, type Fake } from '../../fake/server';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';

const params = (text: string) => ({
  model: 'model-haiku-4-5',
  max_tokens: 50,
  messages: [{ role: 'user', content: text }],
});

describe('promptwright batch list|status|cancel as a process', function () {
  this.timeout(30_000);
  let fake: Fake;
  let dir: string;
  let cache: string;
  let env: Record<string, string | undefined>;
  const client = () => new ApiClient({ baseUrl: fake.url, apiKey: fake.apiKey }).batches;
  const cli = (args: string[], needsRequest = true): Promise<Ran> =>
    runCli(fake, args, { cwd: dir, env, needsRequest });

  before(async () => {
    fake = await startFake({ keepAliveMs: 60_000, batchProcessingMs: 60_000 });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.clear();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-batch-cli-'));
    cache = path.join(dir, 'cache');
    env = {
      ...process.env,
      PROMPTWRIGHT_BASE_URL: fake.url,
      PROMPTWRIGHT_API_KEY: fake.apiKey,
      PROMPTWRIGHT_CACHE_DIR: cache,
    };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A batch made on the service and kept in the CLI's state, as `test --batch` keeps it. */
  async function submitted(n: number, files = ['support.cases.yaml']) {
    const { batch } = await client().create(
      Array.from({ length: n }, (_, i) => ({ custom_id: `c${i}`, params: params(`q${i}`) })),
    );
    await new BatchStore(path.join(cache, 'batches')).addBatch(recordOf(batch, { key: 'k', cwd: dir, files }, n), {});
    return batch;
  }

  it('list: the batches submitted from here, with case files, status, counts, age and expiry', async () => {
    const a = await submitted(3, ['a.cases.yaml']);
    const b = await submitted(2, ['b.cases.yaml', 'c.cases.yaml']);
    fake.requests.length = 0;
    const r = await cli(['batch', 'list']);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trim().split('\n');
    assert.match(lines[0]!, /^ID\s+STATUS\s+REQUESTS\s+CASE FILES\s+CREATED\s+EXPIRES\s+COLLECTED$/);
    assert.match(
      lines[1]!,
      new RegExp(
        `^${b.id}\\s+in_progress\\s+2 processing\\s+b.cases.yaml, c.cases.yaml\\s+` +
          `\\d+ s ago\\s+in 2[34] h \\d\\d min\\s+no$`,
      ),
    );
    assert.match(lines[2]!, new RegExp(`^${a.id}\\s+in_progress\\s+3 processing\\s+a.cases.yaml`));
    assert.deepEqual(
      fake.requests.map(x => `${x.method} ${x.path}`).sort(),
      [`GET /v1/messages/batches/${a.id}`, `GET /v1/messages/batches/${b.id}`].sort(),
      'each pending batch asked for once',
    );
    assertPrompt(r);
  });

  it('list --format json: the service’s objects, with what this machine knows of each', async () => {
    const a = await submitted(1);
    const r = await cli(['batch', 'list', '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    const rows = JSON.parse(r.out) as Record<string, unknown>[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.id, a.id);
    assert.equal(rows[0]!.type, 'message_batch');
    assert.deepEqual(rows[0]!.promptwright, {
      case_files: ['support.cases.yaml'],
      folder: dir,
      requests: 1,
      collected_at: null,
    });
  });

  it('list with nothing submitted says so and sends nothing', async () => {
    const r = await cli(['batch', 'list'], false);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^no batches submitted from here/);
    assert.equal(fake.requests.length, 0);
  });

  it('list --all: the service’s list a page at a time, ours marked with their case files', async () => {
    await client().create([{ custom_id: 'x', params: params('other tool') }]);
    const ours = await submitted(1);
    fake.requests.length = 0;
    const r = await cli(['batch', 'list', '--all', '--limit', '1']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`${ours.id}\\s+in_progress\\s+1 processing\\s+support.cases.yaml`));
    assert.equal(r.out.trim().split('\n').length, 2);
    assert.deepEqual(
      fake.requests.map(x => [x.path, x.query.limit]),
      [['/v1/messages/batches', '1']],
    );
  });

  it('status ID: the batch as the service says it, and its case files', async () => {
    const a = await submitted(4);
    const r = await cli(['batch', 'status', a.id]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`^id\\s+${a.id}$`, 'm'));
    assert.match(r.out, /^processing_status\s+in_progress$/m);
    assert.match(r.out, /^request_counts\s+4 processing$/m);
    assert.match(r.out, /^case_files\s+support\.cases\.yaml$/m);
    assert.match(r.out, /^results_url\s+-$/m);
    const json = await cli(['batch', 'status', a.id, '--format', 'json']);
    assert.equal((JSON.parse(json.out) as { request_counts: { processing: number } }).request_counts.processing, 4);
    assertPrompt(r);
  });

  it('status of an unknown batch: the service’s 404 with its request-id, exit 1', async () => {
    const r = await cli(['batch', 'status', 'msgbatch_nope']);
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /^promptwright batch status: 404 not_found_error: .*msgbatch_nope.*\(request-id req_fake_\d+\)/m,
    );
  });

  it('cancel without --yes from a script: refused, nothing sent (exit 2)', async () => {
    const a = await submitted(2);
    fake.requests.length = 0;
    const r = await cli(['batch', 'cancel', a.id], false);
    assert.equal(r.code, 2);
    assert.match(r.err, /refused without --yes/);
    assert.equal(fake.requests.length, 0);
  });

  it('cancel --yes: the batch goes canceling, and the state says so', async () => {
    const a = await submitted(2);
    const r = await cli(['batch', 'cancel', a.id, '--yes']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^processing_status\s+canceling$/m);
    assert.match(r.err, /Requests not yet processed end as canceled; `promptwright batch collect msgbatch_\w+` prints/);
    assert.equal(fake.requests.at(-1)!.path, `/v1/messages/batches/${a.id}/cancel`);
    const kept = await new BatchStore(path.join(cache, 'batches')).batch(a.id);
    assert.equal(kept!.processingStatus, 'canceling');
    assertPrompt(r);
  });

  it('batch with no verb prints the usage (exit 2); an unknown verb is a usage error', async () => {
    const r = await cli(['batch'], false);
    assert.equal(r.code, 2);
    assert.match(r.out, /promptwright batch list/);
    const u = await cli(['batch', 'frobnicate'], false);
    assert.equal(u.code, 2);
    assert.match(u.err, /unknown batch command 'frobnicate'/);
  });
});
