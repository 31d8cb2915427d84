import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/main';
import { globMatcher } from '../../../src/core/files';
import { cliEnv, useFake, withFake } from '../../support/fake';
import { spawnCli } from '../../support/spawnCli';

async function cli(args: string[], cwd: string, env: Record<string, string> = {}) {
  let out = '',
    err = '';
  const prev = process.cwd();
  process.chdir(cwd);
  try {
    const code = await runCli(args, { stdout: { write: s => (out += s) }, stderr: { write: s => (err += s) }, env });
    return { code, out, err };
  } finally {
    process.chdir(prev);
  }
}

describe('promptwright check (CLI)', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-cli-'));
    fs.mkdirSync(path.join(dir, 'p'));
    fs.writeFileSync(
      path.join(dir, 'p', 'ok.prompt.json'),
      JSON.stringify({ model: 'model-opus-4-7', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
    );
    fs.writeFileSync(
      path.join(dir, 'p', 'bad.prompt.yaml'),
      'model: model-opus-4-7\nmax_tokens: 5\nmessages:\n  - role: tool\n    content: x\n',
    );
    fs.writeFileSync(path.join(dir, 'p', 'latin1.prompt.json'), Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]));
  });
  it('exit 0 when no file has errors', async () => {
    const r = await cli(['check', 'p/ok.prompt.json'], dir);
    assert.equal(r.code, 0);
    assert.match(r.out, /1 file checked: 0 errors/);
  });
  it('exit 1 and text lines file:line:col when a file has an error', async () => {
    const r = await cli(['check', 'p/*.prompt.yaml'], dir);
    assert.equal(r.code, 1);
    assert.match(r.out, /p\/bad\.prompt\.yaml:4:11: error invalid-value: "role" must be "user" or "assistant"/);
  });
  it('--format json prints records with 1-based positions and a JSON pointer', async () => {
    const r = await cli(['check', '--format', 'json', 'p/bad.prompt.yaml'], dir);
    const recs = JSON.parse(r.out) as Record<string, unknown>[];
    assert.deepEqual(recs[0], {
      file: 'p/bad.prompt.yaml',
      line: 4,
      column: 11,
      endLine: 4,
      endColumn: 15,
      severity: 'error',
      code: 'invalid-value',
      message: recs[0]!.message,
      path: '/messages/0/role',
    });
  });
  it('invalid UTF-8 gets a clear error', async () => {
    const r = await cli(['check', '--format=json', 'p/latin1.prompt.json'], dir);
    const recs = JSON.parse(r.out) as { code: string; message: string; column: number }[];
    assert.equal(recs[0]!.code, 'invalid-utf8');
    assert.match(recs[0]!.message, /Invalid UTF-8 at byte 2/);
    assert.equal(r.code, 1);
  });
  it('globs with ** and directories expand; unknown options and no match are reported', async () => {
    const r = await cli(['check', '**/*.prompt.{json,yaml}'], dir);
    assert.match(r.out, /3 files checked/);
    assert.equal((await cli(['check', 'p'], dir)).out.includes('3 files checked'), true);
    assert.equal((await cli(['check', '--nope', 'p'], dir)).code, 2);
    const none = await cli(['check', 'nothing/*.json'], dir);
    assert.equal(none.code, 1);
    assert.match(none.err, /no files match/);
  });
  it('a case file is checked as a case file (and a folder includes it), never as a request', async () => {
    const cases = path.join(dir, 'c');
    fs.mkdirSync(cases);
    fs.copyFileSync('test/fixtures/steered/support.prompt.yaml', path.join(cases, 'support.prompt.yaml'));
    fs.copyFileSync('test/fixtures/steered/support.cases.yaml', path.join(cases, 'support.cases.yaml'));
    const ok = await cli(['check', 'c/support.cases.yaml'], dir);
    assert.equal(ok.code, 0, ok.out);
    assert.match(ok.out, /^1 file checked: 0 errors, 0 other problems$/m);
    assert.match((await cli(['check', 'c'], dir)).out, /2 files checked: 0 errors/);
    fs.writeFileSync(
      path.join(cases, 'bad.cases.yaml'),
      'request: support.prompt.yaml\ncases:\n  - name: a\n    vars: { question: q, mood: x }\n' +
        '    assert: [ { contain: x } ]\n',
    );
    const bad = await cli(['check', 'c/bad.cases.yaml', 'c/support.prompt.yaml'], dir);
    assert.equal(bad.code, 1);
    const lines = bad.out.trim().split('\n');
    assert.deepEqual(
      lines.map(l => /^(\S+?:\d+:\d+): (\w+ [\w-]+)/.exec(l)?.slice(1).join(' ')),
      [
        'c/bad.cases.yaml:4:5 error undefined-placeholder', // case "a" gives {{tone}} no value
        'c/bad.cases.yaml:4:26 warning unused-var', // mood
        'c/bad.cases.yaml:5:17 error unknown-assertion',
        'c/support.prompt.yaml:6:74 error undefined-placeholder', // at {{tone}}
        undefined,
      ],
      bad.out,
    );
    assert.doesNotMatch(bad.out, /missing-field|unknown-field/);
    const run = await cli(['run', 'c/support.cases.yaml'], dir, { PROMPTWRIGHT_API_KEY: 'k' });
    assert.equal(run.code, 2);
    assert.match(run.err, /is a case file: run its cases with `promptwright test c\/support\.cases\.yaml`/);
  });
  it('one bad file never costs the others: a 100,000-deep file and an unreadable one are reported', async () => {
    const deep =
      '{"model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"x"}],' +
      `"metadata":${'['.repeat(100_000)}`;
    fs.writeFileSync(path.join(dir, 'p', 'deep.prompt.json'), deep);
    try {
      const r = await cli(
        ['check', '--format', 'json', 'p/deep.prompt.json', '/proc/self/mem', 'p/ok.prompt.json', 'p/bad.prompt.yaml'],
        dir,
      );
      const recs = JSON.parse(r.out) as { file: string; code: string; severity: string }[];
      const mem = recs.find(x => x.file.endsWith('proc/self/mem'))?.file;
      assert.deepEqual(
        [...new Set(recs.map(x => x.file))].sort(),
        [mem, 'p/bad.prompt.yaml', 'p/deep.prompt.json'].sort(),
      );
      assert.ok(recs.some(x => x.file === 'p/deep.prompt.json' && x.code === 'json-syntax'));
      assert.ok(recs.some(x => x.file === 'p/deep.prompt.json' && x.code === 'nesting-depth'));
      assert.ok(recs.some(x => x.file === mem && x.code === 'internal-error'));
      assert.ok(recs.some(x => x.file === 'p/bad.prompt.yaml' && x.code === 'invalid-value'));
      assert.equal(r.code, 1);
      const text = await cli(['check', '/proc/self/mem', 'p/ok.prompt.json'], dir);
      assert.match(text.out, /1 file checked: 0 errors, 0 other problems; 1 file could not be checked/);
    } finally {
      fs.rmSync(path.join(dir, 'p', 'deep.prompt.json'));
    }
  });
  it('--endpoint count_tokens checks a body as count_tokens takes it; *.count.* files by default', async () => {
    const countBody = { model: 'model-opus-4-7', system: 's', messages: [{ role: 'user', content: 'x' }] };
    fs.writeFileSync(path.join(dir, 'p', 'body.prompt.json'), JSON.stringify(countBody));
    fs.writeFileSync(path.join(dir, 'p', 'body.count.json'), JSON.stringify(countBody));
    fs.writeFileSync(path.join(dir, 'p', 'empty.count.yaml'), 'model: model-opus-4-7\nmessages: []\n');
    try {
      const asMessages = await cli(['check', 'p/body.prompt.json'], dir);
      assert.equal(asMessages.code, 1);
      assert.match(asMessages.out, /missing-field: .*max_tokens/);
      const asCount = await cli(['check', '--endpoint', 'count_tokens', 'p/body.prompt.json'], dir);
      assert.equal(asCount.code, 0, asCount.out);
      const byName = await cli(['check', 'p/body.count.json'], dir);
      assert.equal(byName.code, 0, byName.out);
      assert.match(byName.out, /1 file checked: 0 errors/);
      // the rules count_tokens shares with messages still hold, and --endpoint overrides the name
      const empty = await cli(['check', 'p/empty.count.yaml'], dir);
      assert.equal(empty.code, 1);
      assert.match(empty.out, /p\/empty\.count\.yaml:2:\d+: error/);
      const forced = await cli(['check', '--endpoint=messages', 'p/body.count.json'], dir);
      assert.match(forced.out, /missing-field: .*max_tokens/);
      const folder = await cli(['check', 'p', '--format', 'json'], dir);
      assert.ok((JSON.parse(folder.out) as { file: string }[]).some(r => r.file === 'p/empty.count.yaml'));
      const bad = await cli(['check', '--endpoint', 'batches', 'p/body.count.json'], dir);
      assert.equal(bad.code, 2);
      assert.match(bad.err, /--endpoint must be messages or count_tokens, got "batches"/);
      const run = await cli(['run', 'p/body.count.json'], dir, { PROMPTWRIGHT_API_KEY: 'k' });
      assert.equal(run.code, 2);
      assert.match(run.err, /is a count_tokens body .*count it with `promptwright count p\/body\.count\.json`/);
    } finally {
      for (const f of ['body.prompt.json', 'body.count.json', 'empty.count.yaml']) fs.rmSync(path.join(dir, 'p', f));
    }
  });
  it('globMatcher', () => {
    assert.ok(globMatcher('**/*.prompt.json').test('a/b/c.prompt.json'));
    assert.ok(globMatcher('**/*.prompt.json').test('c.prompt.json'));
    assert.ok(!globMatcher('*.json').test('a/c.json'));
    assert.ok(globMatcher('p/*.{prompt,count}.{json,y*ml}').test('p/a.count.yml'));
    assert.ok(!globMatcher('p/*.{prompt,count}.json').test('p/a.cases.json'));
    assert.ok(globMatcher('a{b').test('a{b'), 'a brace no brace closes is a character');
    assert.ok(globMatcher('').test('') && !globMatcher('').test('a'));
  });
  it('globMatcher: as the regular expression a glob stands for, on random globs and paths', () => {
    // the glob as a regular expression, as the matcher replaced it: a brace is a choice of globs without braces
    const part = (glob: string): string => {
      let re = '';
      for (let i = 0; i < glob.length; i++) {
        const c = glob[i]!;
        if (c === '*' && glob[i + 1] === '*') {
          i++;
          if (glob[i + 1] === '/') {
            i++;
            re += '(?:.*/)?';
          } else re += '.*';
        } else if (c === '*') re += '[^/]*';
        else if (c === '?') re += '[^/]';
        else re += c.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
      }
      return re;
    };
    const asRegExp = (glob: string): RegExp => {
      let re = '';
      for (let i = 0; i < glob.length;) {
        const end = glob[i] === '{' ? glob.indexOf('}', i) : -1;
        if (end >= 0) {
          re += `(?:${glob
            .slice(i + 1, end)
            .split(',')
            .map(part)
            .join('|')})`;
          i = end + 1;
        } else {
          const next = glob.indexOf('{', i + 1);
          re += part(glob.slice(i, next < 0 ? glob.length : next));
          i = next < 0 ? glob.length : next;
        }
      }
      return new RegExp(`^${re}$`);
    };
    const globs = fc
      .array(fc.constantFrom('a', 'b', '/', '.', '*', '**', '**/', '?', '{a,b*}', '{,a/}', '{', '}', ','), {
        maxLength: 8,
      })
      .map(parts => parts.join(''));
    const paths = fc.array(fc.constantFrom('a', 'b', '/', '.', '{', '}', ','), { maxLength: 10 }).map(p => p.join(''));
    fc.assert(
      fc.property(globs, paths, (glob, p) => globMatcher(glob).test(p) === asRegExp(glob).test(p)),
      { numRuns: 5000 },
    );
  });
  it('globMatcher: time linear in the path, whatever the glob (a regular expression backtracked for hours)', () => {
    const glob = `${'*a'.repeat(12)}*b`;
    const name = 'a'.repeat(4000);
    const t0 = performance.now();
    assert.equal(globMatcher(glob).test(name), false);
    assert.equal(globMatcher(`**/${glob}`).test(`x/${name}`), false);
    assert.ok(performance.now() - t0 < 500, `${performance.now() - t0} ms`);
  });
});

describe('promptwright count / run (CLI, against the fake service)', () => {
  let dir: string;
  const fake = useFake();
  let env: Record<string, string>;
  before(async () => {
    env = cliEnv(fake, { PROMPTWRIGHT_MAX_RETRIES: '0' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-cli-run-'));
    fs.writeFileSync(
      path.join(dir, 'a.prompt.json'),
      JSON.stringify({
        model: 'model-opus-4-7',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Hi there #thinking #tool' }],
      }),
    );
    fs.writeFileSync(
      path.join(dir, 'cut.prompt.yaml'),
      'model: model-opus-4-7\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "x #error #long=30"\n',
    );
    fs.writeFileSync(path.join(dir, 'bad.prompt.json'), '{"model": "model-opus-4-7"}');
  });
  it('count prints the input token count', async () => {
    const r = await cli(['count', 'a.prompt.json'], dir, env);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^\d+\n$/);
  });
  it('run streams the text, shows thinking and tool use, and ends with usage and stop reason', async () => {
    const r = await cli(['run', 'a.prompt.json'], dir, env);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /\[thinking\] Let me think/);
    assert.match(r.out, /Hello! You said: Hi there/);
    assert.match(r.out, /\[tool_use get_weather\] \{"location":"Paris"/);
    assert.match(
      r.err,
      /stop_reason: tool_use · \d+ input tokens \(no cache read or written\) and \d+ output tokens · \$[\d.]+ · request-id req_fake_stream_/,
    );
  });
  it('run keeps the partial reply when the stream fails, and says why', async () => {
    const r = await cli(['run', 'cut.prompt.yaml'], dir, env);
    assert.equal(r.code, 1);
    assert.match(r.out, /w0 w1 /);
    assert.match(r.err, /the stream failed: overloaded_error: Overloaded/);
  });
  it('run: a file with errors is not sent, unless --force; a missing key names the environment variable', async () => {
    fs.writeFileSync(
      path.join(dir, 'nomax.prompt.json'),
      JSON.stringify({ model: 'model-opus-4-7', messages: [{ role: 'user', content: 'hi' }] }),
    );
    const n = fake.requests.length;
    const r = await cli(['run', 'nomax.prompt.json'], dir, env);
    assert.equal(r.code, 2, 'refused before any request');
    assert.match(r.err, /Missing required field "max_tokens"/);
    assert.match(r.err, /not sent .*--force sends it anyway/);
    assert.equal(fake.requests.length, n);
    const forced = await cli(['run', '--force', 'nomax.prompt.json'], dir, env);
    assert.equal(fake.requests.length, n + 1);
    assert.match(forced.err, /sending despite 1 error \(--force\)/);
    assert.match(forced.err, /400 invalid_request_error: /); // the fake, like the service, wants max_tokens
    const k = await cli(['count', 'a.prompt.json'], dir, { PROMPTWRIGHT_BASE_URL: fake.url });
    assert.match(k.err, /no API key: set the environment variable PROMPTWRIGHT_API_KEY/);
    assert.equal(k.code, 2, 'a missing key is refused before any request');
    assert.doesNotMatch(k.err, /Set API Key/);
    const u = await cli(['count', 'a.prompt.json'], dir, { PROMPTWRIGHT_API_KEY: 'k' });
    assert.match(u.err, /PROMPTWRIGHT_BASE_URL to the address of the service, without \/v1/);
    // said in words: the spec's placeholder means nothing in a terminal
    assert.doesNotMatch(u.err, /\{base_url\}/);
    assert.equal((await cli(['run', 'a.prompt.json', '--nope'], dir, env)).code, 2);
  });
  it('count takes what count_tokens takes: a file without max_tokens is counted', async () => {
    fs.writeFileSync(
      path.join(dir, 'count.prompt.yaml'),
      'model: model-opus-4-7\nmessages:\n  - role: user\n    content: count me\n',
    );
    const r = await cli(['count', 'count.prompt.yaml'], dir, env);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^\d+\n$/);
    const sent = fake.requests[fake.requests.length - 1]!;
    assert.equal(sent.path, '/v1/messages/count_tokens');
    assert.deepEqual(Object.keys(sent.body as object).sort(), ['messages', 'model']);
    const none = await cli(['count', 'bad.prompt.json'], dir, env);
    assert.equal(none.code, 2, 'refused before any request');
    assert.match(none.err, /Missing required field "messages"/);
    assert.doesNotMatch(none.err, /max_tokens/);
  });
});

describe('promptwright run: Ctrl-C (the built dist/cli.js)', () => {
  it('SIGINT cancels the stream cleanly: partial text, a note, exit 130', async function () {
    this.timeout(20000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-cli-int-'));
    fs.writeFileSync(
      path.join(dir, 's.prompt.json'),
      JSON.stringify({
        model: 'model-opus-4-7',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'x #slow=40 #long=500' }],
      }),
    );
    await withFake({}, async fake => {
      const run = spawnCli(['run', 's.prompt.json'], { cwd: dir, env: { ...process.env, ...cliEnv(fake) } });
      const { child } = run;
      child.stdout.on('data', () => {
        if (run.out.includes('w5 ') && !child.killed) child.kill('SIGINT');
      });
      const code = await run.exited;
      await run.closed;
      const { out, err } = run;
      assert.equal(code, 130, err);
      assert.match(out, /w0 w1 w2/);
      assert.ok(!out.includes('w499'));
      assert.match(err, /Cancelled; the partial reply is above/);
    });
  });
});
