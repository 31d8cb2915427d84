// The CLI as a process on hostile input: files from a stranger's pull request and a service that misbehaves. A
// case file's regex that backtracks without end, files built to make a check quadratic, and answers that never end
// each end with a clear error, promptly, and the process exits as soon as it is done.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PATTERN_TIME_LIMIT_MS } from '../../../src/core/cases/regex';
import { cliEnv, useFake } from '../../support/fake';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';

describe('the CLI on hostile input: bounded time and memory, a clear error', function () {
  this.timeout(60_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    env = cliEnv(fake, { PROMPTWRIGHT_MAX_RETRIES: '0' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-hostile-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cli = (args: string[], needsRequest = true): Promise<Ran> =>
    runCli(fake, args, { cwd: dir, env: { ...process.env, ...env }, needsRequest });
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);

  it('test: a regex that backtracks without end is stopped at its time limit, an ERROR of its sample', async () => {
    write(
      'say.prompt.json',
      JSON.stringify({ model: 'model-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content: '{{q}}' }] }),
    );
    // the reply is `Hello! You said: "aaa…a` (34 a): the pattern tries every way to split the a's
    write(
      'redos.cases.yaml',
      [
        'request: say.prompt.json',
        'cases:',
        `  - name: evil`,
        `    vars: { q: '"${'a'.repeat(34)}' }`,
        `    assert: [{ regex: '^.*"(a+)+!' }, { contains: 'aaa' }]`,
        '',
      ].join('\n'),
    );
    const t0 = Date.now();
    const r = await cli(['test', 'redos.cases.yaml']);
    assert.ok(Date.now() - t0 < 15_000, `took ${Date.now() - t0} ms`);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /ERROR/);
    assert.match(r.out, /The regex \/\^\.\*"\(a\+\)\+!\/ ran for more than 1,000 ms on a reply of 52 characters/);
    // the reply is judged after it ended: the time limit, then the exit
    assert.ok(r.exitAfterMs < PATTERN_TIME_LIMIT_MS + 1000, `exited ${r.exitAfterMs} ms after the last response`);
  });

  it('check: files built to be quadratic end at once, with the first problems of each rule', async () => {
    // 2,000 placeholders no case of 2,000 gives, and a request with 50,000 unknown keys: 78 s and 2 GB before
    fs.mkdirSync(path.join(dir, 'quadratic'));
    const names = Array.from({ length: 2000 }, (_, i) => `{{p${i}}}`).join(' ');
    const keys = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, 1]));
    const body = { model: 'model-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content: names }] };
    write('quadratic/r.prompt.json', JSON.stringify({ ...body, ...keys }));
    write(
      'quadratic/a.cases.json',
      JSON.stringify({ request: 'r.prompt.json', cases: Array.from({ length: 2000 }, (_, i) => ({ name: `c${i}` })) }),
    );
    const t0 = Date.now();
    const r = await cli(['check', 'quadratic'], false);
    assert.ok(Date.now() - t0 < 15_000, `took ${Date.now() - t0} ms`);
    assert.equal(r.code, 1, r.err);
    const lines = r.out.trimEnd().split('\n');
    const of = (file: string, code: string) =>
      lines.filter(l => l.startsWith(`quadratic/${file}:`) && l.includes(` ${code}: `));
    assert.equal(of('a.cases.json', 'undefined-placeholder').length, 1001);
    assert.equal(of('r.prompt.json', 'undefined-placeholder').length, 1001);
    assert.equal(of('r.prompt.json', 'unknown-field').length, 1001);
    assert.equal(of('a.cases.json', 'case-without-assertions').length, 1001);
    assert.match(
      r.out,
      /a\.cases\.json:\d+:\d+: error undefined-placeholder: 3,999,000 more undefined-placeholder problems/,
    );
    assert.match(r.out, /r\.prompt\.json:\d+:\d+: warning unknown-field: 49,000 more unknown-field problems/);
    assert.match(lines.at(-1)!, /^2 files checked: 2,002 errors, 2,002 other problems$/);
  });

  describe('answers without end, at the real limits: a clear error, an exit once the connection is closed', () => {
    const sse = { 'content-type': 'text/event-stream' };
    before(() =>
      write(
        'hi.prompt.json',
        JSON.stringify({ model: 'model-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] }),
      ),
    );

    it('count: an error body without end (1 MiB read) is the error of its status', async () => {
      fake.fail({ status: 500, endless: { repeat: 'Internal error. ' } });
      const r = await cli(['count', 'hi.prompt.json']);
      assert.equal(r.code, 1, r.err);
      assert.match(
        r.err,
        /500 api_error: the service's error body was longer than 1 MiB; reading stopped there.*\(request-id req_fake_/,
      );
      assertPrompt(r);
    });

    it('count: a JSON answer without end (16 MiB read) is response_too_large', async () => {
      fake.fail({ endless: { head: '{"input_tokens": [', repeat: '1,' } });
      const r = await cli(['count', 'hi.prompt.json']);
      assert.equal(r.code, 1, r.err);
      assert.match(
        r.err,
        /200 response_too_large: The service answered POST \/v1\/messages\/count_tokens with more than 16 MiB/,
      );
      assertPrompt(r);
    });

    it('run: a stream whose line never ends (64 MiB read) is response_too_large', async () => {
      fake.fail({ headers: sse, endless: { head: 'event: message_start\ndata: ', repeat: 'x' } });
      const r = await cli(['run', 'hi.prompt.json']);
      assert.equal(r.code, 1, r.err);
      assert.match(
        r.err,
        /^promptwright run: the stream failed: response_too_large: A line of the event stream is longer than 64 MiB after 0 events \(0 characters of reply\), more than any answer of the service holds; reading stopped there and the connection was closed\. \[request-id req_fake_\d+\]$/m,
      );
      assertPrompt(r);
    });
  });
});
