// What a newcomer expects of `run` and `test`, each as a user runs it: the built dist/cli.js spawned against the
// fake over TCP, its output, its exit code, and an exit as soon as the work is done. Latency that is the service's
// (the CLI's own waiting said apart), options that do what they say or are refused, a run that stops when the key is
// refused or a model is unknown, a summary that says which kind of failure, costs with two significant digits,
// cases with nothing to check said as such, fail fast, and reports written beside the terminal's output.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatUsd } from '../../../src/core/cost/format';
import { startFake, type Fake } from '../../fake/server';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';

const REQUEST = 'model: model-sonnet-4-6\nmax_tokens: 100\nmessages:\n  - role: user\n    content: "{{question}}"\n';

interface Cell {
  case: string;
  model: string;
  status: string;
  latency_ms: number | null;
  waited_ms: number | null;
  cost_usd: number | null;
  assertions: { pass: boolean; message: string }[];
}

describe('run and test as a newcomer expects them (the CLI as a process, against the fake)', function () {
  this.timeout(60_000);
  let fake: Fake;
  let dir: string;
  let env: Record<string, string | undefined>;
  const cli = (
    args: string[],
    o: { env?: Record<string, string>; needsRequest?: boolean; on?: Fake } = {},
  ): Promise<Ran> =>
    runCli(o.on ?? fake, args, { cwd: dir, env: { ...env, ...o.env }, needsRequest: o.needsRequest ?? false });
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  const sent = () => fake.requests.filter(r => r.method === 'POST' && r.path === '/v1/messages');
  /** A case file of `n` cases on q.prompt.yaml, each asserting `assert` (YAML, or none). */
  const cases = (n: number, assertion?: string, head = '') =>
    `request: q.prompt.yaml\n${head}cases:\n` +
    Array.from(
      { length: n },
      (_, i) => `  - name: c${i}\n    vars: { question: "q${i}" }\n${assertion ? `    assert: [${assertion}]\n` : ''}`,
    ).join('');

  before(async () => {
    fake = await startFake({ keepAliveMs: 60_000 });
  });
  after(() => fake.close());
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-honest-'));
    env = {
      ...process.env,
      PROMPTWRIGHT_BASE_URL: fake.url,
      PROMPTWRIGHT_API_KEY: fake.apiKey,
      PROMPTWRIGHT_MAX_RETRIES: '0',
      PROMPTWRIGHT_CACHE_DIR: path.join(dir, 'cache'),
    };
    write('q.prompt.yaml', REQUEST);
  });
  afterEach(() => {
    fake.clear();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('run', () => {
    it('--format json prints the message object; jsonl each event as it came; xml is a usage error', async () => {
      write('hello.prompt.yaml', REQUEST.replace('"{{question}}"', 'Hi there'));
      const json = await cli(['run', 'hello.prompt.yaml', '--format', 'json'], { needsRequest: true });
      assert.equal(json.code, 0, json.err);
      const message = JSON.parse(json.out) as { type: string; content: { text: string }[]; usage: object };
      assert.equal(message.type, 'message');
      assert.equal(message.content[0]!.text, 'Hello! You said: Hi there');
      assert.match(json.err, /^stop_reason: end_turn · /m);
      assertPrompt(json);
      const jsonl = await cli(['run', 'hello.prompt.yaml', '--format', 'jsonl'], { needsRequest: true });
      const events = jsonl.out
        .trim()
        .split('\n')
        .map(l => (JSON.parse(l) as { type: string }).type);
      assert.equal(events[0], 'message_start');
      assert.equal(events.at(-1), 'message_stop');
      assert.ok(events.includes('content_block_delta'));
      fake.clear();
      const xml = await cli(['run', 'hello.prompt.yaml', '--format', 'xml']);
      assert.equal(xml.code, 2);
      assert.equal(xml.err, 'promptwright run: --format must be text, json or jsonl, got "xml"\n');
      assert.equal(fake.requests.length, 0);
    });

    it('refuses {{placeholders}} without a value, naming them; --var fills them', async () => {
      const bare = await cli(['run', 'q.prompt.yaml']);
      assert.equal(bare.code, 2);
      assert.match(bare.err, /not sent: \{\{question\}\} has no value: give --var question=…/);
      const typo = await cli(['run', 'q.prompt.yaml', '--var', 'questoin=Hi']);
      assert.equal(typo.code, 2);
      assert.match(typo.err, /q\.prompt\.yaml has no \{\{questoin\}\}/);
      assert.equal(fake.requests.length, 0);
      const filled = await cli(['run', 'q.prompt.yaml', '--var', 'question=Bonjour ?'], { needsRequest: true });
      assert.equal(filled.code, 0, filled.err);
      assert.equal(filled.out, 'Hello! You said: Bonjour ?\n');
      assert.deepEqual((sent()[0]!.body as { messages: unknown[] }).messages, [{ role: 'user', content: 'Bonjour ?' }]);
    });

    it('--force sends past rule errors, never a file that does not parse', async () => {
      write(
        'broken.prompt.yaml',
        'model: model-sonnet-4-6\nmax_tokens: 100\nmessages:\n  - role: user\n   content: [\n',
      );
      const r = await cli(['run', 'broken.prompt.yaml', '--force']);
      assert.equal(r.code, 2);
      assert.match(r.err, /error yaml-syntax/);
      assert.match(r.err, /does not read as one request body \(--force does not change that\)/);
      assert.equal(fake.requests.length, 0);
      write(
        'rule.prompt.yaml',
        'model: model-sonnet-4-6\nmax_tokens: 100\nmessages:\n  - role: usr\n    content: Hi\n',
      );
      const forced = await cli(['run', 'rule.prompt.yaml', '--force']);
      assert.match(forced.err, /sending despite 1 error \(--force\)/);
      assert.equal(sent().length, 1);
    });
  });

  describe('test', () => {
    it('max-latency-ms counts the service, not the pacer: the wait is waited_ms, and said on stderr', async () => {
      // two requests in any 3 s: the third waits for the window, in the CLI's pacer, before it is sent
      const paced = await startFake({ keepAliveMs: 60_000, requestLimit: { limit: 2, windowMs: 3000 } });
      try {
        write('fast.cases.yaml', cases(4, '{ max-latency-ms: 1500 }'));
        const args = ['test', 'fast.cases.yaml', '--concurrency', '1', '--format', 'json'];
        const r = await cli(args, { on: paced, env: { PROMPTWRIGHT_BASE_URL: paced.url }, needsRequest: true });
        const cells = JSON.parse(r.out) as Cell[];
        assert.equal(r.code, 0, `${r.err}\n${JSON.stringify(cells.map(c => [c.latency_ms, c.waited_ms]))}`);
        assert.ok(cells.every(c => c.latency_ms! < 1500));
        assert.ok(Math.max(...cells.map(c => c.waited_ms!)) >= 2000, JSON.stringify(cells.map(c => c.waited_ms)));
        assert.match(r.err, /^promptwright: waiting for the rate limit: [23] s$/m);
        assert.equal(paced.requestBudget.throttled.length, 0, 'no 429: the pacer waited instead');
        assertPrompt(r);
      } finally {
        await paced.close();
      }
    });

    it('--min-pass above the samples run is a usage error, not capped in silence', async () => {
      write('one.cases.yaml', cases(1, '{ contains: Hello }'));
      const r = await cli(['test', 'one.cases.yaml', '--min-pass', '3']);
      assert.equal(r.code, 2);
      assert.match(r.err, /one\.cases\.yaml: error: --min-pass 3 asks for more samples than its repeat \(1\) runs/);
      assert.equal(fake.requests.length, 0);
      write('five.cases.yaml', cases(1, '{ contains: Hello }', 'repeat: 5\nmin-pass: 4\n'));
      const fewer = await cli(['test', 'five.cases.yaml', '--repeat', '2']);
      assert.equal(fewer.code, 2);
      assert.match(fewer.err, /its min-pass 4 asks for more samples than --repeat 2 runs/);
    });

    it('a refused key stops the run: one request, the others skipped, one line naming the variable', async () => {
      write('ten.cases.yaml', cases(10, '{ contains: Hello }'));
      const wrong = { PROMPTWRIGHT_API_KEY: 'not-the-key' };
      const r = await cli(['test', 'ten.cases.yaml', '--concurrency', '1'], { env: wrong, needsRequest: true });
      assert.equal(r.code, 1, r.err);
      assert.equal(sent().length, 1, 'the other nine were never sent');
      assert.equal(r.out.match(/^ {2}ERROR /gm)?.length, 1, r.out);
      assert.equal(r.out.match(/^ {2}SKIPPED /gm)?.length, 9, r.out);
      assert.match(r.out, /1 could not run \(the request failed\), 9 skipped \(not sent\)/);
      const said = r.err.split('\n').filter(l => l.includes('PROMPTWRIGHT_API_KEY'));
      assert.equal(said.length, 1, r.err);
      assert.match(said[0]!, /the service refused the key \(authentication_error: .*\): set PROMPTWRIGHT_API_KEY/);
      assert.match(said[0]!, /9 cells not sent/);
      assertPrompt(r);
      fake.clear();
      const parallel = await cli(['test', 'ten.cases.yaml'], { env: wrong, needsRequest: true });
      assert.ok(sent().length <= 4, `at most the four in flight: ${sent().length}`);
      assert.equal(parallel.code, 1);
    });

    it('a model the service does not know stops its column; the other model runs', async () => {
      write('three.cases.yaml', cases(3, '{ contains: Hello }'));
      fake.fail({ path: '/v1/messages', status: 404, errorType: 'not_found_error', message: 'model: gone' });
      const args = ['test', 'three.cases.yaml', '--concurrency', '1', '--model', 'model-opus-4-7'];
      const r = await cli([...args, '--model', 'model-haiku-4-5', '--format', 'json'], { needsRequest: true });
      assert.equal(r.code, 1, r.err);
      const cells = JSON.parse(r.out) as Cell[];
      assert.deepEqual(
        cells.map(c => [c.case, c.model, c.status]),
        [
          ['c0', 'model-opus-4-7', 'error'],
          ['c0', 'model-haiku-4-5', 'passed'],
          ['c1', 'model-opus-4-7', 'skipped'],
          ['c1', 'model-haiku-4-5', 'passed'],
          ['c2', 'model-opus-4-7', 'skipped'],
          ['c2', 'model-haiku-4-5', 'passed'],
        ],
      );
      assert.deepEqual(
        sent().map(q => (q.body as { model: string }).model),
        ['model-opus-4-7', 'model-haiku-4-5', 'model-haiku-4-5', 'model-haiku-4-5'],
      );
      assert.match(
        r.err,
        /the service does not know model-opus-4-7 \(not_found_error: model: gone.*\): its column stopped/,
      );
    });

    it('the summary says which kind of failure; costs have two significant digits, the total is exact', async () => {
      write(
        'judged.cases.yaml',
        [
          'request: q.prompt.yaml',
          'judge: { model: model-haiku-4-5 }',
          'cases:',
          '  - { name: refused, vars: { question: a }, assert: [{ contains: Hello }] }',
          '  - { name: unjudged, vars: { question: b }, assert: [{ rubric: "Says #malformed" }] }',
          '  - { name: fine, vars: { question: c }, assert: [{ contains: Hello }] }',
          '',
        ].join('\n'),
      );
      write('priced.cases.yaml', cases(1, '{ max-cost: 0.01 }', 'models: [model-quill-1]\n'));
      // ten dollars a million tokens: a reply of a few dozen tokens costs a few ten-thousandths of a dollar
      const price = { input: 10, output: 10, cache_write_5m: 10, cache_write_1h: 10, cache_read: 10 };
      write('prices.json', JSON.stringify({ 'model-sonnet-4-6': price }));
      fake.fail({ path: '/v1/messages', status: 400, message: 'bad request' });
      const args = ['test', 'judged.cases.yaml', 'priced.cases.yaml', '--concurrency', '1', '--prices', 'prices.json'];
      const r = await cli(args, { needsRequest: true });
      assert.equal(r.code, 1, r.err);
      assert.match(
        r.out,
        /^4 cells: 1 passed, 0 failed, 1 could not run \(the request failed\), 1 not judged \(the judge failed\), 1 not priced \(no price for max-cost\);/m,
      );
      const costs = [...r.out.matchAll(/\$(0\.\d+)/g)].map(m => m[1]!);
      assert.ok(costs.length >= 2, r.out);
      for (const c of costs) assert.match(c, /^0\.0*[1-9]\d/, `two significant digits at least: $${c}`);
      fake.clear();
      const json = await cli([...args, '--format', 'json']);
      const cells = JSON.parse(json.out) as Cell[];
      const sum = cells.reduce((n, c) => n + (c.cost_usd ?? 0), 0);
      const line = r.out.split('\n').find(l => l.startsWith('4 cells'))!;
      assert.ok(line.includes(`· ${formatUsd(sum)}`) || line.includes('cost unknown'), line);
    });

    it('a case with no assertions shows NO ASSERTIONS, not PASS, and check warns of it', async () => {
      write(
        'bare.cases.yaml',
        `${cases(1)}  - { name: checked, vars: { question: x }, assert: [{ contains: Hello }] }\n`,
      );
      const r = await cli(['test', 'bare.cases.yaml'], { needsRequest: true });
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^ {2}NO ASSERTIONS c0 · model-sonnet-4-6/m);
      assert.match(r.out, /^ {2}PASS {6}checked · model-sonnet-4-6/m);
      assert.match(r.out, /^2 cells: 1 passed, 0 failed, 1 with no assertions;/m);
      const check = await cli(['check', 'bare.cases.yaml']);
      assert.equal(check.code, 0);
      assert.match(check.out, /^bare\.cases\.yaml:3:11: warning case-without-assertions: Case "c0" has no assertions/m);
    });

    it('-x stops sending after the first failed cell; what ran is reported', async () => {
      write('six.cases.yaml', cases(6, '{ regex: "^Bonjour" }'));
      const r = await cli(['test', 'six.cases.yaml', '-x', '--concurrency', '1'], { needsRequest: true });
      assert.equal(r.code, 1);
      assert.equal(sent().length, 1);
      assert.match(r.out, /^ {2}FAIL {6}c0 · /m);
      assert.equal(r.out.match(/^ {2}SKIPPED /gm)?.length, 5);
      assert.match(r.err, /--fail-fast: the run stopped at the first cell that did not pass, 5 cells not sent/);
      assertPrompt(r);
      const batch = await cli(['test', 'six.cases.yaml', '--fail-fast', '--batch']);
      assert.equal(batch.code, 2);
      assert.match(batch.err, /a batch sends every cell at once/);
    });

    it('--junit FILE and --output FILE write the report beside the terminal output, by extension', async () => {
      write(
        'two.cases.yaml',
        `${cases(1, '{ contains: Hello }')}  - { name: bad, vars: { question: x }, assert: [{ regex: "^No" }] }\n`,
      );
      fs.mkdirSync(path.join(dir, 'reports'));
      const outputs = ['reports/r.json', 'reports/r.jsonl', 'reports/r.md', 'reports/r.xml'].flatMap(o => [
        '--output',
        o,
      ]);
      const r = await cli(['test', 'two.cases.yaml', '--junit', 'reports/junit.xml', ...outputs], {
        needsRequest: true,
      });
      assert.equal(r.code, 1);
      assert.match(r.out, /^ {2}FAIL {6}bad · /m, 'the terminal shows the text report');
      const read = (f: string) => fs.readFileSync(path.join(dir, 'reports', f), 'utf8');
      assert.deepEqual(
        (JSON.parse(read('r.json')) as Cell[]).map(c => c.status),
        ['passed', 'failed'],
      );
      assert.deepEqual(
        read('r.jsonl')
          .trim()
          .split('\n')
          .map(l => (JSON.parse(l) as Cell).case),
        ['c0', 'bad'],
      );
      assert.match(read('r.md'), /^\| FAIL \| `two\.cases\.yaml` \| bad \| `model-sonnet-4-6` \| ✗ regex/m);
      assert.equal(read('junit.xml'), read('r.xml'));
      assert.match(read('junit.xml'), /<testsuites name="promptwright test" tests="2" failures="1"/);
      assert.match(r.err, /^promptwright test: wrote reports\/junit\.xml$/m);
      fake.clear();
      const txt = await cli(['test', 'two.cases.yaml', '--output', 'r.txt']);
      assert.equal(txt.code, 2);
      assert.match(txt.err, /--output r\.txt: the extension says which report: \.json, \.jsonl, \.md or \.xml/);
      const nowhere = await cli(['test', 'two.cases.yaml', '--junit', 'missing/junit.xml']);
      assert.equal(nowhere.code, 2);
      assert.equal(fake.requests.length, 0, 'refused before anything is sent');
    });
  });
});
