// `promptwright batch …` and `promptwright test --batch` as a user runs them: the built dist/cli.js spawned
// against the fake over TCP (keep-alive on), with its own PROMPTWRIGHT_CACHE_DIR: output, exit code, what was
// sent, and an exit as soon as the work is done.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BatchesClient } from '../../../src/core/api/batches';
import { Http } from '../../../src/core/api/http';
import { BatchStore, recordOf } from '../../../src/core/batches/store';
import { startFake, type Fake } from '../../fake/server';
import { assertPrompt, runCli, spawnCli, type Ran } from '../../support/spawnCli';

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
  const client = () => new BatchesClient(new Http({ baseUrl: fake.url, apiKey: fake.apiKey }));
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
    assert.match(u.err, /unknown command 'batch frobnicate'/);
  });
});

/** A suite of `cases` × two models: each case says its word, asserted to be there; every seventh fails. */
function suite(dir: string, cases: number, words: (i: number) => string = i => `word${i}`) {
  fs.writeFileSync(
    path.join(dir, 'say.prompt.yaml'),
    'model: model-opus-4-7\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "Say {{word}}"\n',
  );
  const lines = ['request: say.prompt.yaml', 'models: [model-sonnet-4-6, model-haiku-4-5]', 'cases:'];
  for (let i = 0; i < cases; i++) {
    const check = i % 7 === 3 ? '{ regex: "^Bonjour" }' : `{ contains: "${words(i).split(' ')[0]}" }`;
    lines.push(`  - { name: "case ${i}", vars: { word: "${words(i)}" }, assert: [${check}] }`);
  }
  fs.writeFileSync(path.join(dir, 'say.cases.yaml'), `${lines.join('\n')}\n`);
}

interface Cell {
  case: string;
  model: string;
  pass: boolean;
  status: string;
  text: string;
  batch_id?: string;
  error?: { type: string; message: string };
  assertions: { type: string; pass: boolean; message: string }[];
  cost_usd: number | null;
  usage: { service_tier?: string } | null;
}

describe('promptwright test --batch as a process', function () {
  this.timeout(60_000);
  let fake: Fake;
  let dir: string;
  let env: Record<string, string | undefined>;
  const cli = (args: string[]): Promise<Ran> => runCli(fake, args, { cwd: dir, env, needsRequest: true });
  const creates = () => fake.requests.filter(r => r.method === 'POST' && r.path === '/v1/messages/batches');
  const messages = () => fake.requests.filter(r => r.method === 'POST' && r.path === '/v1/messages');

  before(async () => {
    fake = await startFake({ keepAliveMs: 60_000, batchProcessingMs: 400 });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.clear();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-test-batch-'));
    env = {
      ...process.env,
      PROMPTWRIGHT_BASE_URL: fake.url,
      PROMPTWRIGHT_API_KEY: fake.apiKey,
      PROMPTWRIGHT_CACHE_DIR: path.join(dir, 'cache'),
      PROMPTWRIGHT_BATCH_POLL_MS: '100,300',
    };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('300 cells: one create, no POST /v1/messages for the cells, and the verdicts of a direct run', async () => {
    suite(dir, 150);
    const batch = await cli(['test', 'say.cases.yaml', '--batch', '--format', 'json']);
    assert.equal(batch.code, 1, batch.err);
    assert.equal(creates().length, 1);
    assert.equal(messages().length, 0);
    const sent = (creates()[0]!.body as { requests: { custom_id: string; params: Record<string, unknown> }[] })
      .requests;
    assert.equal(sent.length, 300);
    assert.ok(sent.every(r => /^[a-zA-Z0-9_-]{1,64}$/.test(r.custom_id) && !('stream' in r.params)));
    assertPrompt(batch);
    const batched = JSON.parse(batch.out) as Cell[];
    const id = fake.batches.all[0]!.id;
    fake.clear();
    const direct = await cli(['test', 'say.cases.yaml', '--format', 'json', '--concurrency', '16']);
    assert.equal(direct.code, 1, direct.err);
    assert.equal(messages().length, 300);
    const direct_ = JSON.parse(direct.out) as Cell[];
    const verdicts = (cells: Cell[]) =>
      cells.map(c => [c.case, c.model, c.status, c.text, c.assertions.map(a => [a.type, a.pass, a.message])]);
    assert.deepEqual(verdicts(batched), verdicts(direct_));
    assert.equal(batched.filter(c => !c.pass).length, 2 * 21);
    // each cell says its batch, and costs half as much: every token at the batch price
    assert.ok(batched.every(c => c.batch_id === id && c.usage?.service_tier === 'batch'));
    assert.ok(direct_.every(c => c.batch_id === undefined));
    const sum = (cells: Cell[]) => cells.reduce((n, c) => n + (c.cost_usd ?? 0), 0);
    assert.ok(Math.abs(sum(batched) * 2 - sum(direct_)) < 1e-9, `${sum(batched)} vs ${sum(direct_)}`);
  });

  it('text: the cells as test prints them, each with its batch; the progress on stderr', async () => {
    suite(dir, 2);
    const r = await cli(['test', 'say.cases.yaml', '--batch']);
    assert.equal(r.code, 0, r.err);
    const id = fake.batches.all[0]!.id;
    assert.match(
      r.out,
      new RegExp(`^  PASS      case 0 · model-sonnet-4-6  \\(in \\d+ · out \\d+ · \\$[\\d.]+ · ${id}\\)$`, 'm'),
    );
    assert.match(r.out, /^4 cells: 4 passed, 0 failed; 4 of 4 assertions held · \$[\d.]+$/m);
    assert.match(r.err, new RegExp(`^promptwright test: submitted ${id}: 4 requests at the batch price`, 'm'));
    assert.match(r.err, new RegExp(`^promptwright test: ${id} ended · 4 succeeded`, 'm'));
  });

  it('an errored cell is an ERROR with its type and message; an expired one is EXPIRED; exit 1', async () => {
    suite(dir, 3, i => (i === 1 ? 'broken #errored' : i === 2 ? 'late #expired' : 'fine'));
    const r = await cli(['test', 'say.cases.yaml', '--batch', '--format', 'json']);
    assert.equal(r.code, 1, r.err);
    const cells = JSON.parse(r.out) as Cell[];
    const of = (name: string) => cells.filter(c => c.case === name);
    assert.deepEqual(
      of('case 0').map(c => c.status),
      ['passed', 'passed'],
    );
    for (const c of of('case 1')) {
      assert.equal(c.status, 'error');
      assert.equal(c.error?.type, 'invalid_request_error');
      assert.match(c.error.message, /refused in the batch/);
    }
    for (const c of of('case 2')) {
      assert.equal(c.status, 'expired');
      assert.equal(c.pass, false);
      assert.equal(c.error?.type, 'expired');
    }
    const text = await cli(['batch', 'collect', fake.batches.all[0]!.id]);
    assert.equal(text.code, 1, text.err);
    assert.match(
      text.out,
      /^ {2}ERROR {5}case 1 · model-haiku-4-5 .*\n {12}invalid_request_error: the request was refused/m,
    );
    assert.match(text.out, /^ {2}EXPIRED {3}case 2 · model-sonnet-4-6 /m);
    assert.match(text.out, /2 expired \(their batch ended before they ran\)/);
    assert.equal(creates().length, 1, 'collect never submits');
  });

  it('Ctrl-C while waiting leaves the batch running and says how to resume (130); a re-run resumes it', async () => {
    fake.batches.clear();
    suite(dir, 3);
    const slow = { ...env, PROMPTWRIGHT_BATCH_POLL_MS: '100,100' };
    // the batch takes longer than the wait: the fake's batch processing is 400 ms, so interrupt soon after create
    const run = spawnCli(['test', 'say.cases.yaml', '--batch'], { cwd: dir, env: slow });
    for (let i = 0; i < 200 && !run.err.includes('submitted'); i++) await new Promise(r => setTimeout(r, 10));
    run.child.kill('SIGINT');
    const code = await run.exited;
    await run.closed;
    assert.equal(code, 130, run.err);
    assert.match(
      run.err,
      /the batch goes on at the service; resume with: promptwright test say\.cases\.yaml --batch\n/,
    );
    assert.match(run.err, /\(or: promptwright batch collect msgbatch_\w+\)/);
    assert.equal(run.out, '', 'no cell is printed: none was cancelled');
    const again = await cli(['test', 'say.cases.yaml', '--batch']);
    assert.equal(again.code, 0, again.err);
    assert.match(again.err, /resuming msgbatch_\w+: nothing is sent again/);
    assert.match(again.out, /^6 cells: 6 passed, 0 failed;/m);
    assert.equal(creates().length, 1, 'one create in all');
  });

  it('--no-wait submits, prints the batch id and how to collect (0); a re-run collects, sending nothing', async () => {
    suite(dir, 2);
    const first = await cli(['test', 'say.cases.yaml', '--batch', '--no-wait']);
    assert.equal(first.code, 0, first.err);
    const id = fake.batches.all[0]!.id;
    assert.equal(first.out, `${id}\n`);
    assert.match(
      first.err,
      /collect the cells with: promptwright test say\.cases\.yaml --batch \(or: promptwright batch collect/,
    );
    assertPrompt(first);
    const second = await cli(['test', 'say.cases.yaml', '--batch']);
    assert.equal(second.code, 0, second.err);
    assert.match(second.out, /^4 cells: 4 passed/m);
    assert.equal(creates().length, 1);
    // collected: the same command now runs the suite again, as a new batch
    const third = await cli(['test', 'say.cases.yaml', '--batch', '--no-wait']);
    assert.equal(third.code, 0, third.err);
    assert.equal(creates().length, 2);
  });

  it('a 429 on create is waited out (retry-after): one batch made', async () => {
    suite(dir, 1);
    fake.fail({ path: '/v1/messages/batches', method: 'POST', status: 429, headers: { 'retry-after': '1' } });
    const r = await cli(['test', 'say.cases.yaml', '--batch']);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(
      creates().map(x => x.status),
      [429, 200],
    );
    assert.equal(fake.batches.all.length, 1);
  });

  it('batch collect ID prints that batch’s cells, not a later submission’s, nor what the files say now', async () => {
    suite(dir, 2);
    const first = await cli(['test', 'say.cases.yaml', '--batch', '--no-wait']);
    const a = first.out.trim();
    assert.match(a, /^msgbatch_\w+$/);
    // collected once: the same suite is then submitted again, as a batch of its own
    assert.equal((await cli(['batch', 'collect', a])).code, 0);
    const second = await cli(['test', 'say.cases.yaml', '--batch', '--no-wait']);
    const b = second.out.trim();
    assert.notEqual(a, b);
    // and the case file changes: a case renamed, another's value edited
    suite(dir, 2, i => (i === 0 ? 'changed' : `word${i}`));
    fs.writeFileSync(
      path.join(dir, 'say.cases.yaml'),
      fs.readFileSync(path.join(dir, 'say.cases.yaml'), 'utf8').replace('case 1', 'case one'),
    );
    const r = await cli(['batch', 'collect', a, '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    const cells = JSON.parse(r.out) as Cell[];
    assert.deepEqual(
      cells.map(c => [c.case, c.model, c.status, c.batch_id]),
      [
        ['case 0', 'model-sonnet-4-6', 'passed', a],
        ['case 0', 'model-haiku-4-5', 'passed', a],
        ['case 1', 'model-sonnet-4-6', 'passed', a],
        ['case 1', 'model-haiku-4-5', 'passed', a],
      ],
    );
    assert.match(cells[0]!.text, /word0/, 'the reply to what the batch sent');
    assert.ok(!r.err.includes('missing_result'), r.err);
    assertPrompt(r);
  });

  it('without a terminal, a batch wait prints a status line at least every PROMPTWRIGHT_BATCH_STATUS_MS', async () => {
    await fake.close();
    fake = await startFake({ keepAliveMs: 60_000, batchProcessingMs: 2500 });
    try {
      suite(dir, 1);
      const quiet = {
        ...env,
        PROMPTWRIGHT_BASE_URL: fake.url,
        PROMPTWRIGHT_BATCH_POLL_MS: '2000,2000',
        PROMPTWRIGHT_BATCH_STATUS_MS: '300',
      };
      const r = await runCli(fake, ['test', 'say.cases.yaml', '--batch'], { cwd: dir, env: quiet, needsRequest: true });
      assert.equal(r.code, 0, r.err);
      // nothing changes for 2.5 s, and polls are 2 s apart: the lines come from the status timer
      const waiting = r.err
        .split('\n')
        .filter(l => /^promptwright test: msgbatch_\w+ in_progress · 2 processing · \d+ s$/.test(l));
      assert.ok(waiting.length >= 4, r.err);
      assertPrompt(r);
    } finally {
      await fake.close();
      fake = await startFake({ keepAliveMs: 60_000, batchProcessingMs: 400 });
    }
  });

  it('batch collect of a batch not submitted from here: a usage error, nothing sent', async () => {
    const r = await runCli(fake, ['batch', 'collect', 'msgbatch_other'], { cwd: dir, env });
    assert.equal(r.code, 2);
    assert.match(r.err, /msgbatch_other was not submitted from here/);
    assert.equal(fake.requests.length, 0);
  });

  it('--no-wait without --batch, and --batch with --base, are usage errors', async () => {
    suite(dir, 1);
    for (const args of [
      ['test', 'say.cases.yaml', '--no-wait'],
      ['test', 'say.cases.yaml', '--batch', '--base', 'HEAD'],
    ]) {
      const r = await runCli(fake, args, { cwd: dir, env });
      assert.equal(r.code, 2, args.join(' '));
    }
  });
});
