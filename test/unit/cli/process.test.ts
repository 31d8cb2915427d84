// The CLI as a user runs it: the built dist/cli.js spawned as a child process against the fake over TCP,
// with the fake keeping idle connections open for a minute (keep-alive on). For every command that talks
// to the service: its output, its exit code, and that the process exits within 1 s of the last response's
// end. In-process tests cannot see a timer or a socket that keeps the process alive; this can.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliEnv, useFake } from '../../support/fake';
import { assertPrompt, runCli, spawnCli, type Ran } from '../../support/spawnCli';

const COMPLIANCE_KEY = 'sk-vendor-api01-full';

describe('the CLI as a process: output, exit code, and an exit as soon as the work is done', function () {
  this.timeout(30_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let dir: string;
  let env: Record<string, string>;

  before(async () => {
    env = cliEnv(fake, { PROMPTWRIGHT_ADMIN_KEY: fake.adminKey, PROMPTWRIGHT_COMPLIANCE_KEY: COMPLIANCE_KEY });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-process-'));
    const request = (content: string) =>
      JSON.stringify({ model: 'model-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content }] }, null, 2);
    fs.writeFileSync(path.join(dir, 'hello.prompt.json'), request('Hi there'));
    fs.writeFileSync(path.join(dir, 'long.prompt.json'), request('A long reply please #long=400 #slow=5'));
    fs.writeFileSync(
      path.join(dir, 'greet.prompt.yaml'),
      'model: model-opus-4-7\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "Say {{word}}"\n',
    );
    fs.writeFileSync(
      path.join(dir, 'greet.cases.yaml'),
      [
        'request: greet.prompt.yaml',
        'models: [model-sonnet-4-6, model-haiku-4-5]',
        'cases:',
        '  - { name: hello, vars: { word: hello }, assert: [{ contains: hello }] }',
        '  - { name: thanks, vars: { word: thanks }, assert: [{ contains: thanks }] }',
        '  - { name: fails, vars: { word: nope }, assert: [{ regex: "^Bonjour" }] }',
        '',
      ].join('\n'),
    );
  });
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const cli = (args: string[]): Promise<Ran> =>
    runCli(fake, args, { cwd: dir, env: { ...process.env, ...env }, needsRequest: true });

  const promptly = assertPrompt;

  it('count: prints the count (one file: the number alone) and exits 0', async () => {
    const r = await cli(['count', 'hello.prompt.json']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^\d+\n$/);
    promptly(r);
  });

  it('run: prints the whole reply and the stop line, exits 0', async () => {
    const r = await cli(['run', 'hello.prompt.json']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Hi there/);
    assert.match(
      r.err,
      /stop_reason: end_turn · \d+ input tokens \(no cache read or written\) and \d+ output tokens · \$[\d.]+ · request-id req_fake_/,
    );
    assert.equal(fake.requests.length, 1);
    promptly(r);
  });

  it('run: a 400 from the service exits 1 with its type, message and request-id', async () => {
    fake.fail({ status: 400, message: 'messages: text content blocks must be non-empty' });
    const r = await cli(['run', 'hello.prompt.json']);
    assert.equal(r.code, 1);
    assert.match(r.err, /invalid_request_error.*text content blocks must be non-empty.*req_fake_/s);
    promptly(r);
  });

  it('run into a reader that goes away (| head): exits 0 at once, without a stack trace', async () => {
    const run = spawnCli(['run', 'long.prompt.json'], { cwd: dir, env: { ...process.env, ...env } });
    // the reader takes the first bytes of the reply, then closes its end of the pipe
    run.child.stdout.once('data', () => run.child.stdout.destroy());
    const t0 = Date.now();
    const code = await run.exited;
    const err = run.err;
    assert.equal(code, 0, err);
    assert.doesNotMatch(err, /EPIPE|Unhandled|at .*\.js:\d+/);
    assert.ok(Date.now() - t0 < 10_000);
  });

  it('test: six cells, one row failing on purpose: exit 1 and the verdicts', async () => {
    const r = await cli(['test', 'greet.cases.yaml']);
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /6 cells: 4 passed, 2 failed/);
    assert.equal(fake.requests.filter(q => q.path === '/v1/messages').length, 6);
    promptly(r);
  });

  it('admin users list: a table of every user, exit 0', async () => {
    const r = await cli(['admin', 'users', 'list']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /user_/);
    promptly(r);
  });

  it('compliance activities --format jsonl: an export of two pages, one record a line, exit 0', async () => {
    const r = await cli(['compliance', 'activities', '--format', 'jsonl']);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trimEnd().split('\n');
    assert.equal(lines.length, 2000);
    assert.ok(lines.every(l => (JSON.parse(l) as { id: string }).id.startsWith('activity_')));
    assert.equal(fake.requests.length, 2);
    promptly(r);
  });
});
