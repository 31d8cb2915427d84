// `promptwright models` and `promptwright check --models` as a user runs them: the built dist/cli.js spawned
// against the fake over TCP, the fake keeping idle connections open for a minute (keep-alive on). Output,
// exit code, and an exit within 1 s of the last response; `check --models` sends nothing at all.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fakeModels } from '../../fake/models';
import type { Fake } from '../../fake/server';
import { cliEnv, useFake, withFake } from '../../support/fake';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';

describe('promptwright models and check --models, as processes', function () {
  this.timeout(30_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let dir: string;
  let env: Record<string, string>;

  before(async () => {
    env = cliEnv(fake);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-models-'));
    const write = (name: string, body: object) => fs.writeFileSync(path.join(dir, name), JSON.stringify(body, null, 2));
    const hi = [{ role: 'user', content: 'Hi' }];
    write('quill.prompt.json', {
      model: 'model-quill-1',
      max_tokens: 64_000,
      thinking: { type: 'adaptive' },
      messages: hi,
    });
    write('fine.prompt.json', { model: 'model-quill-1', max_tokens: 1000, messages: hi });
    write('opus.prompt.json', { model: 'model-opus-4-7', max_tokens: 1000, messages: hi });
  });
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the CLI against the suite's fake, or the fake `on` (whose requests must all be answered). */
  const cli = (args: string[], extraEnv: Record<string, string> = {}, on: Fake = fake): Promise<Ran> =>
    runCli(on, args, { cwd: dir, env: { ...process.env, ...env, ...extraEnv } });

  const promptly = assertPrompt;

  it('models: a table of every model, newest first, from one page of 1,000; exit 0', async () => {
    const r = await cli(['models']);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID\s+NAME\s+CONTEXT\s+MAX OUTPUT\s+CREATED$/);
    assert.deepEqual(
      lines.slice(1).map(l => l.split(/\s+/)[0]),
      fakeModels().map(m => m.id),
    );
    assert.match(lines[1]!, /^model-quill-1-20261101\s+Quill 1\s+400,000\s+32,000\s+2026-11-01$/);
    assert.deepEqual(
      fake.requests.map(q => [q.path, q.query.limit]),
      [['/v1/models', '1000']],
    );
    promptly(r);
  });

  it('models --format json: the service’s objects as they came, in one array', async () => {
    const r = await cli(['models', '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), fakeModels());
    promptly(r);
  });

  it('models: every page, each asked after the last one’s last_id (1,205 models: two pages)', async () => {
    const many = Array.from({ length: 1205 }, (_, i) => ({ type: 'model' as const, id: `model-gen-${i}` }));
    await withFake({ keepAliveMs: 60_000, models: many }, async big => {
      const r = await cli(['models', '--format', 'json'], { PROMPTWRIGHT_BASE_URL: big.url }, big);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(
        (JSON.parse(r.out) as { id: string }[]).map(m => m.id),
        many.map(m => m.id),
      );
      assert.equal(big.requests.length, 2);
      assert.equal(big.requests[0]!.query.after_id, undefined);
      assert.ok(big.requests[1]!.query.after_id, 'the second page asks after the first one’s last_id');
      promptly(r);
    });
  });

  it('models after a 429: the same page again after retry-after, then the list; exit 0', async () => {
    fake.fail({ path: '/v1/models', status: 429, headers: { 'retry-after': '0' } });
    const r = await cli(['models', '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    assert.equal((JSON.parse(r.out) as unknown[]).length, fakeModels().length);
    assert.deepEqual(
      fake.requests.map(q => [q.status, q.query.after_id]),
      [
        [429, undefined],
        [200, undefined],
      ],
    );
    promptly(r);
  });

  it('models ID: an alias answers with the model it points to, capabilities in words; exit 0', async () => {
    const r = await cli(['models', 'model-quill-1']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^id\s+model-quill-1-20261101$/m);
    assert.match(r.out, /^max_input_tokens\s+400,000$/m);
    assert.match(r.out, /^max_tokens\s+32,000$/m);
    assert.match(r.out, /^thinking\s+no$/m);
    assert.match(r.out, /^image input\s+no$/m);
    const json = await cli(['models', 'model-lyra-2', '--format', 'json']);
    assert.deepEqual(JSON.parse(json.out), fakeModels()[1]);
    promptly(json);
  });

  it("models ID, unknown: exit 1 with the service's 404 as error.type, message and request-id", async () => {
    const r = await cli(['models', 'model-nope-9']);
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    assert.match(
      r.err,
      /^promptwright models: 404 not_found_error: model: model-nope-9 was not found \(request-id req_fake_\d+\)/,
    );
    assert.doesNotMatch(r.err, /at .*\.js:\d+/);
    promptly(r);
  });

  it('models with a usage error or no key: exit 2, nothing sent', async () => {
    const two = await cli(['models', 'a', 'b']);
    assert.equal(two.code, 2);
    assert.match(two.err, /expected at most one model id/);
    const noKey = await cli(['models'], { PROMPTWRIGHT_API_KEY: '' });
    assert.equal(noKey.code, 2);
    assert.match(noKey.err, /PROMPTWRIGHT_API_KEY/);
    assert.equal(fake.requests.length, 0);
  });

  it('check --models FILE (saved from `models --format json`): the list’s rules, offline; exit 1', async () => {
    const saved = await cli(['models', '--format', 'json']);
    fs.writeFileSync(path.join(dir, 'models.json'), saved.out);
    fake.clear();
    const r = await cli(['check', '--models', 'models.json', 'quill.prompt.json', 'fine.prompt.json']);
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.out,
      /quill\.prompt\.json:\d+:\d+: error max-tokens-above-model-limit: max_tokens 64,000 is above 32,000/,
    );
    assert.match(r.out, /quill\.prompt\.json:\d+:\d+: error thinking-unsupported: model-quill-1 does not support/);
    assert.doesNotMatch(r.out, /unknown-model/);
    assert.match(r.out, /2 files checked: 2 errors, 0 other problems\n$/);
    assert.equal(fake.requests.length, 0, 'check sends nothing');
  });

  it('check without --models: the built-in table, as before (model-quill-1 is unknown, so no error)', async () => {
    const r = await cli(['check', 'quill.prompt.json', 'fine.prompt.json', 'opus.prompt.json']);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /quill\.prompt\.json:\d+:\d+: info unknown-model/);
    assert.match(r.out, /3 files checked: 0 errors, 2 other problems/);
  });

  it('PROMPTWRIGHT_MODELS names the same file; --format json carries the codes', async () => {
    fs.copyFileSync(path.resolve('test/fixtures/models/catalog.json'), path.join(dir, 'saved.json'));
    const r = await cli(['check', '--format', 'json', 'quill.prompt.json'], { PROMPTWRIGHT_MODELS: 'saved.json' });
    assert.equal(r.code, 1);
    assert.deepEqual(
      (JSON.parse(r.out) as { code: string }[]).map(x => x.code),
      ['max-tokens-above-model-limit', 'thinking-unsupported'],
    );
  });

  it('a bad catalog: exit 2 with what is wrong and where, never a crash; nothing is checked', async () => {
    fs.writeFileSync(path.join(dir, 'broken.json'), '[{"type": "model", "id": "a", "max_tokens": "lots"}]');
    fs.writeFileSync(path.join(dir, 'notjson.json'), '{"data": [');
    const cases: [string, RegExp][] = [
      ['broken.json', /--models broken\.json: model 1 of 1: "a": "max_tokens" must be a positive whole number/],
      ['notjson.json', /--models notjson\.json: not JSON/],
      ['missing.json', /--models missing\.json: cannot be read \(ENOENT/],
      ['quill.prompt.json', /--models quill\.prompt\.json: not a list of models/],
    ];
    for (const [file, message] of cases) {
      const r = await cli(['check', '--models', file, 'fine.prompt.json']);
      assert.equal(r.code, 2, `${file}: ${r.err}`);
      assert.match(r.err, message);
      assert.equal(r.out, '');
      assert.doesNotMatch(r.err, /at .*\.js:\d+|TypeError|SyntaxError:/);
    }
  });
});
