// `promptwright cases generate` and `promptwright improve` as a user runs them: the built dist/cli.js spawned
// against the fake over TCP (its stand-in co-author answers, src/core/demo/coauthor.ts). What is written, what is
// said, the exit code, an exit within a second of the last response, and nothing written when the answer is
// not what was asked.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as YAML from 'yaml';
import { cliEnv, useFake } from '../../support/fake';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';

const REQUEST = `# The support prompt: {{question}} and {{tone}} are filled by each case.
model: model-sonnet-4-6
max_tokens: 400
temperature: 0.3
system: >-
  You answer the customers of an online shop in a {{tone}} tone.
  Say which language you answered in.
tools:
  - name: get_weather
    description: Current weather for a city.
    input_schema: { type: object, properties: { location: { type: string } }, required: [location] }
messages:
  - role: user
    content: "{{question}}" # each case's question
`;

const CASES = `# Two cases written by hand.
request: support.prompt.yaml
cases:
  - name: refund
    vars: { question: "Can I get a refund?", tone: formal } # the classic
  - name: typical 1
    vars: { question: "Where is my order?", tone: friendly }
`;

describe('promptwright cases generate and improve, as processes', function () {
  this.timeout(30_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-coauthor-'));
    fs.writeFileSync(path.join(dir, 'support.prompt.yaml'), REQUEST);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cli = (args: string[]): Promise<Ran> =>
    runCli(fake, args, { cwd: dir, env: { ...process.env, ...cliEnv(fake) } });
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

  it('cases generate --count 5 --out: 5 cases that check passes (without assertions: warned); exit 0', async () => {
    const r = await cli(['cases', 'generate', 'support.prompt.yaml', '--count', '5', '--out', 'new.cases.yaml']);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, '');
    assert.match(
      r.err,
      /^promptwright cases generate: 5 cases written to new\.cases\.yaml \(model-sonnet-4-6 · \d+ input tokens .* · \$0\.\d+ · request-id req_fake_\w+\)\n$/,
    );
    assertPrompt(r);
    const file = YAML.parse(read('new.cases.yaml')) as { request: string; cases: { name: string; vars: object }[] };
    assert.equal(file.request, 'support.prompt.yaml');
    assert.equal(file.cases.length, 5);
    for (const c of file.cases) assert.deepEqual(Object.keys(c.vars), ['tone', 'question']);
    assert.equal(fake.requests.length, 1);
    const sent = fake.requests[0]!.body as { output_config: unknown; messages: { content: string }[] };
    assert.match(sent.messages[0]!.content, /Write 5 test cases/);
    const check = await cli(['check', 'new.cases.yaml']);
    assert.equal(check.code, 0, check.out + check.err);
    assert.match(check.out, /^1 file checked: 0 errors, 5 other problems$/m);
    assert.equal(check.out.match(/ warning case-without-assertions: /g)?.length, 5);
  });

  it('cases generate --append: the existing cases and comments stay, a clashing name gets a suffix', async () => {
    fs.writeFileSync(path.join(dir, 'support.cases.yaml'), CASES);
    const r = await cli(['cases', 'generate', 'support.prompt.yaml', '--count', '2', '--append', 'support.cases.yaml']);
    assert.equal(r.code, 0, r.err);
    assertPrompt(r);
    const text = read('support.cases.yaml');
    assert.ok(text.startsWith(CASES), text);
    const file = YAML.parse(text) as { cases: { name: string }[] };
    assert.deepEqual(
      file.cases.map(c => c.name),
      ['refund', 'typical 1', 'adversarial 3', 'in French 4'],
    );
    assert.match(r.err, /2 cases added to support\.cases\.yaml/);
    const prompt = (fake.requests[0]!.body as { messages: { content: string }[] }).messages[0]!.content;
    assert.match(prompt, /<existing_cases>\n- refund: \{"question":"Can I get a refund\?","tone":"formal"\}/);
    assert.equal((await cli(['check', 'support.cases.yaml'])).code, 0);
  });

  it('cases generate --rubrics: rubric assertions the case-file check knows; --prices prices the answer', async () => {
    fs.writeFileSync(
      path.join(dir, 'prices.json'),
      JSON.stringify({
        'model-sonnet-4-6': { input: 0, output: 0, cache_write_5m: 0, cache_write_1h: 0, cache_read: 0 },
      }),
    );
    const r = await cli([
      'cases',
      'generate',
      'support.prompt.yaml',
      '--count',
      '2',
      '--rubrics',
      '--out',
      'r.cases.yaml',
      '--prices',
      'prices.json',
    ]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, / · \$0 · request-id /);
    const file = YAML.parse(read('r.cases.yaml')) as { cases: { assert: { rubric: string }[] }[] };
    assert.deepEqual(file.cases[0]!.assert, [{ rubric: 'Answers the typical case about "A typical question,"' }]);
    assert.deepEqual(file.cases[1]!.assert, [{ rubric: 'Answers the edge: empty case about "?"' }]);
    const check = await cli(['check', 'r.cases.yaml']);
    assert.equal(check.code, 0, check.out + check.err);
  });

  it('cases generate to stdout; a short answer is said plainly', async () => {
    fs.writeFileSync(path.join(dir, 'support.prompt.yaml'), REQUEST.replace('online shop', 'online shop #fewer'));
    const r = await cli(['cases', 'generate', 'support.prompt.yaml', '--count', '4']);
    assert.equal(r.code, 0, r.err);
    assert.equal((YAML.parse(r.out) as { cases: unknown[] }).cases.length, 2);
    assert.match(r.err, /2 cases written to stdout .*\n {2}- 2 cases of the 4 asked for\n$/);
  });

  it('a request without placeholders exits 2 with what to do, and sends nothing', async () => {
    fs.writeFileSync(
      path.join(dir, 'hello.prompt.yaml'),
      'model: model-sonnet-4-6\nmax_tokens: 5\nmessages: [{ role: user, content: Hi }]\n',
    );
    const r = await cli(['cases', 'generate', 'hello.prompt.yaml']);
    assert.equal(r.code, 2);
    assert.match(
      r.err,
      /hello\.prompt\.yaml has no \{\{placeholders\}\}: add a `\{\{name\}\}` where cases should differ/,
    );
    assert.equal(fake.requests.length, 0);
  });

  it('an answer that is not JSON writes nothing and exits 1 with its reason', async () => {
    fs.writeFileSync(path.join(dir, 'support.prompt.yaml'), REQUEST.replace('online shop', 'online shop #malformed'));
    const r = await cli(['cases', 'generate', 'support.prompt.yaml', '--out', 'new.cases.yaml']);
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /the model's answer is not JSON: "Here are some ideas for your prompt!" \(request-id req_fake_\w+\)/,
    );
    assert.ok(!fs.existsSync(path.join(dir, 'new.cases.yaml')));
    assertPrompt(r);
  });

  it('usage errors exit 2 before anything is sent', async () => {
    const both = await cli([
      'cases',
      'generate',
      'support.prompt.yaml',
      '--out',
      'a.cases.yaml',
      '--append',
      'b.cases.yaml',
    ]);
    assert.equal(both.code, 2);
    assert.match(both.err, /give --out FILE or --append FILE, not both/);
    const count = await cli(['cases', 'generate', 'support.prompt.yaml', '--count', '0']);
    assert.match(count.err, /--count must be a whole number from 1 to 50, got "0"/);
    fs.writeFileSync(path.join(dir, 'other.cases.yaml'), CASES.replace('support.prompt.yaml', 'other.prompt.yaml'));
    const other = await cli(['cases', 'generate', 'support.prompt.yaml', '--append', 'other.cases.yaml']);
    assert.equal(other.code, 2);
    assert.match(other.err, /other\.cases\.yaml runs other\.prompt\.yaml, not support\.prompt\.yaml/);
    assert.equal(fake.requests.length, 0);
  });

  it('improve: every field but the texts, every comment and every placeholder kept; reasons on stderr', async () => {
    const r = await cli(['improve', 'support.prompt.yaml', '--goal', 'handles refunds politely']);
    assert.equal(r.code, 0, r.err);
    assertPrompt(r);
    const before = YAML.parse(REQUEST) as Record<string, unknown>;
    const after = YAML.parse(r.out) as Record<string, unknown>;
    assert.equal(after.system, `${before.system as string}\nAbove all: handles refunds politely.`);
    assert.deepEqual({ ...after, system: before.system }, before);
    assert.equal(r.out.replace(/system: >-[\s\S]*?\ntools:/, ''), REQUEST.replace(/system: >-[\s\S]*?\ntools:/, ''));
    for (const p of ['{{question}}', '{{tone}}']) assert.ok(r.out.includes(p), p);
    assert.match(r.err, /^promptwright improve: 1 text improved \(model-sonnet-4-6 · .* request-id req_fake_\w+\)\n/);
    assert.match(r.err, /\n {2}input tokens: \d+ → \d+ {2}\(\+\d+, \+[\d.]+%\)\n/);
    assert.match(
      r.err,
      /\n {2}- Added a closing instruction to "system": The goal asks for it \("handles refunds politely"\)/,
    );
    const check = await cli(['check', '--format', 'json', 'support.prompt.yaml']);
    fs.writeFileSync(path.join(dir, 'improved.prompt.yaml'), r.out);
    const checkAfter = await cli(['check', '--format', 'json', 'improved.prompt.yaml']);
    const codes = (x: Ran) => (JSON.parse(x.out) as { code: string }[]).map(p => p.code);
    assert.deepEqual(codes(checkAfter), codes(check));
  });

  it('improve --out writes the file; an answer that drops a placeholder is not offered (exit 1)', async () => {
    const ok = await cli(['improve', 'support.prompt.yaml', '--out', 'better.prompt.yaml']);
    assert.equal(ok.code, 0, ok.err);
    assert.equal(ok.out, '');
    assert.match(read('better.prompt.yaml'), /Answer in at most three sentences/);
    fs.writeFileSync(
      path.join(dir, 'drop.prompt.yaml'),
      REQUEST.replace('online shop', 'online shop #drop-placeholder'),
    );
    const r = await cli(['improve', 'drop.prompt.yaml', '--out', 'dropped.prompt.yaml']);
    assert.equal(r.code, 1);
    assert.match(r.err, /the new text of "system" drops \{\{tone\}\}: it is not offered/);
    assert.ok(!fs.existsSync(path.join(dir, 'dropped.prompt.yaml')));
  });

  it('cases generate --rubrics writes a file test runs as written: its judge model is named in it', async () => {
    const out = await cli('cases generate support.prompt.yaml --count 2 --rubrics --out r.cases.yaml'.split(' '));
    assert.equal(out.code, 0, out.err);
    assert.deepEqual((YAML.parse(read('r.cases.yaml')) as { judge: unknown }).judge, { model: 'model-sonnet-4-6' });
    fs.writeFileSync(path.join(dir, 'support.cases.yaml'), CASES);
    const appended = await cli([
      'cases',
      'generate',
      'support.prompt.yaml',
      '--rubrics',
      '--append',
      'support.cases.yaml',
    ]);
    assert.equal(appended.code, 0, appended.err);
    assert.match(
      read('support.cases.yaml'),
      /^# Two cases written by hand\.\nrequest: support\.prompt\.yaml\njudge: \{ model: "model-sonnet-4-6" \}\ncases:\n/,
    );
    for (const file of ['r.cases.yaml', 'support.cases.yaml']) {
      assert.equal((await cli(['check', file])).code, 0, file);
      fake.clear();
      const run = await cli(['test', file]);
      assert.notEqual(run.code, 2, `${file}: ${run.err}`);
      assert.ok(!/no judge model/.test(run.err), run.err);
    }
  });

  it('improve --out refuses a file that exists (unless --force) and never overwrites its request', async () => {
    fs.writeFileSync(path.join(dir, 'better.prompt.yaml'), 'kept\n');
    const exists = await cli(['improve', 'support.prompt.yaml', '--out', 'better.prompt.yaml']);
    assert.equal(exists.code, 2);
    assert.match(exists.err, /better\.prompt\.yaml exists: --force replaces it/);
    assert.equal(read('better.prompt.yaml'), 'kept\n');
    const itself = await cli(['improve', 'support.prompt.yaml', '--out', './support.prompt.yaml', '--force']);
    assert.equal(itself.code, 2);
    assert.match(itself.err, /is the request itself/);
    assert.equal(read('support.prompt.yaml'), REQUEST);
    assert.equal(fake.requests.length, 0, 'refused before anything is sent');
    const forced = await cli(['improve', 'support.prompt.yaml', '--out', 'better.prompt.yaml', '--force']);
    assert.equal(forced.code, 0, forced.err);
    assert.match(read('better.prompt.yaml'), /Answer in at most three sentences/);
  });

  it('improve and cases generate take no --format: a usage error naming their options', async () => {
    for (const args of [
      ['improve', 'support.prompt.yaml', '--format', 'json'],
      ['cases', 'generate', 'support.prompt.yaml', '--format', 'json'],
    ]) {
      const r = await cli(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.err, /unknown option --format: it takes --/);
    }
    assert.equal(fake.requests.length, 0);
  });
});
