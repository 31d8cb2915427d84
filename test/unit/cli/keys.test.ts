// Where the CLI's keys go, as a user runs it (dist/cli.js spawned against the fake over TCP): a key the service (or
// a gateway before it) echoes back in an error reaches no output, in any format (text, JSON, JUnit, markdown, and
// stderr); a redirect is refused with the address it pointed at, and that address hears nothing, whichever key the
// command uses; PROMPTWRIGHT_DEBUG says the whole address each request goes to.
import * as assert from 'node:assert/strict';
import { startFake, type Fake } from '../../fake/server';
import { useFake } from '../../support/fake';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';
import { tempRepo, type TempRepo } from '../../support/tempRepo';

const API_KEY = 'sk-vendor-api03-user-0123456789';
const ADMIN_KEY = 'sk-vendor-admin-user-0123456789';
const COMPLIANCE_KEY = 'sk-vendor-api01-full';
const KEYS = [API_KEY, ADMIN_KEY, COMPLIANCE_KEY];
/** what a gateway answers: every key it was given, in words and as a header */
const ECHO = `the key ${API_KEY} (admin ${ADMIN_KEY}, compliance ${COMPLIANCE_KEY}) is not allowed here`;

function request(content: string): string {
  const body = { model: 'model-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content }] };
  return `${JSON.stringify(body, null, 2)}\n`;
}

describe('the CLI as a process: no key in any output, and none sent where a redirect points', function () {
  this.timeout(60_000);
  const fake = useFake({ keepAliveMs: 60_000, apiKey: API_KEY, adminKey: ADMIN_KEY });
  let elsewhere: Fake;
  let r: TempRepo;

  before(async () => {
    elsewhere = await startFake();
    r = tempRepo('pw-keys-');
    r.write('hello.prompt.json', request('Hi there'));
    r.write(
      'greet.prompt.yaml',
      'model: model-opus-4-7\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "Say {{w}}"\n',
    );
    r.write(
      'greet.cases.yaml',
      'request: greet.prompt.yaml\ncases:\n  - { name: hi, vars: { w: hi }, assert: [{ contains: hi }] }\n',
    );
    // a reply that quotes the key (the fake answers "Hello! You said: …", as a gateway might echo what it got)
    const quote = `{ name: quote, vars: { w: "${API_KEY}" }, assert: [{ contains: Say }] }`;
    r.write('quote.cases.yaml', `request: greet.prompt.yaml\ncases:\n  - ${quote}\n`);
    r.commit('base');
    r.write(
      'greet.prompt.yaml',
      'model: model-opus-4-7\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "Now {{w}}"\n',
    );
  });
  after(async () => {
    await elsewhere.close();
    r.dispose();
  });
  beforeEach(() => elsewhere.clear());

  const env = (extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH,
    PROMPTWRIGHT_BASE_URL: fake.url,
    PROMPTWRIGHT_API_KEY: API_KEY,
    PROMPTWRIGHT_ADMIN_KEY: ADMIN_KEY,
    PROMPTWRIGHT_COMPLIANCE_KEY: COMPLIANCE_KEY,
    PROMPTWRIGHT_CACHE_DIR: `${r.dir}/.cache`,
    ...extra,
  });
  const cli = (args: string[], extra?: Record<string, string>): Promise<Ran> =>
    runCli(fake, args, { cwd: r.dir, env: env(extra), needsRequest: true });
  const noKey = (ran: Ran) => {
    for (const k of KEYS)
      assert.ok(!`${ran.out}\n${ran.err}`.includes(k), `a key in the output:\n${ran.out}\n${ran.err}`);
  };
  const echoing = (path: string, status = 400) => fake.fail({ path, status, message: ECHO }, 10);

  describe('a key echoed back in an error', () => {
    it('run: stderr says the error, without the keys', async () => {
      echoing('/v1/messages');
      const ran = await cli(['run', 'hello.prompt.json']);
      assert.equal(ran.code, 1, ran.err);
      assert.match(ran.err, /the key \[redacted\] \(admin \[redacted\], compliance \[redacted\]\) is not allowed/);
      noKey(ran);
      assertPrompt(ran);
    });

    for (const format of ['text', 'json', 'junit'])
      it(`test --format ${format}: the failed cell's error, without the keys`, async () => {
        echoing('/v1/messages');
        const ran = await cli(['test', 'greet.cases.yaml', '--format', format]);
        assert.equal(ran.code, 1, ran.err);
        assert.match(ran.out, /\[redacted\]/);
        if (format === 'json') assert.doesNotThrow(() => JSON.parse(ran.out) as unknown);
        noKey(ran);
        assertPrompt(ran);
      });

    it('test --base HEAD --format markdown: the pull-request comment, its replies without the keys', async () => {
      const ran = await cli(['test', '--base', 'HEAD', 'quote.cases.yaml', '--format', 'markdown']);
      assert.equal(ran.code, 1, ran.err);
      assert.match(ran.out, /^<!-- promptwright:test -->/);
      // the word diff of the two replies, the key in neither
      assert.ok(ran.out.includes('Hello! You said: [-Say-]{+Now+} [redacted]'), ran.out);
      noKey(ran);
    });

    it('count --format json, models, admin org, compliance orgs: each key kind', async () => {
      echoing('/v1/messages/count_tokens');
      const count = await cli(['count', 'hello.prompt.json', '--format', 'json']);
      assert.equal(count.code, 1, count.err);
      noKey(count);
      for (const [args, path, status] of [
        [['models'], '/v1/models', 401],
        [['admin', 'org'], '/v1/organizations/me', 403],
        [['compliance', 'orgs', '--format', 'json'], '/v1/compliance/organizations', 400],
      ] as const) {
        fake.clear();
        echoing(path, status);
        const ran = await cli([...args]);
        assert.equal(ran.code, 1, `${args.join(' ')}: ${ran.err}`);
        assert.match(ran.err, /\[redacted\]/, args.join(' '));
        noKey(ran);
      }
    });
  });

  describe('a redirect', () => {
    for (const [args, path] of [
      [['count', 'hello.prompt.json'], '/v1/messages/count_tokens'],
      [['admin', 'org'], '/v1/organizations/me'],
      [['compliance', 'orgs'], '/v1/compliance/organizations'],
    ] as const)
      it(`${args.join(' ')}: a 307 to another origin exits 1 naming it; that origin hears nothing`, async () => {
        const target = `${elsewhere.url}${path}`;
        fake.fail({ path, status: 307, headers: { location: target } });
        const ran = await cli([...args]);
        assert.equal(ran.code, 1, ran.err);
        assert.ok(ran.err.includes(`redirected to ${target}`), ran.err);
        assert.match(ran.err, /no redirect is followed/);
        assert.deepEqual(elsewhere.requests, []);
        assertPrompt(ran);
      });

    it('PROMPTWRIGHT_DEBUG: each request line names the whole address it went to', async () => {
      const ran = await cli(['count', 'hello.prompt.json'], { PROMPTWRIGHT_DEBUG: '1' });
      assert.equal(ran.code, 0, ran.err);
      assert.ok(ran.err.includes(`[promptwright] → POST ${fake.url}/v1/messages/count_tokens`), ran.err);
      noKey(ran);
    });
  });
});
