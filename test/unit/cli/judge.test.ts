// `promptwright test` with rubrics, samples and costs, as a user runs it: dist/cli.js spawned against the fake
// over TCP (its stand-in judge: the phrases the criteria quote, looked for in the reply). A rubric that passes
// and one that fails, each with the judge's reason in JSON; a second run that asks the judge nothing (verdicts
// kept in PROMPTWRIGHT_CACHE_DIR) and --no-cache that asks again; --repeat 5 --min-pass 4 sending 5 requests a
// cell; a flaky cell in text, JSON and JUnit; --prices and max-cost; the exit codes, and a prompt exit.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliEnv, useFake } from '../../support/fake';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';

const REQUEST = `model: model-sonnet-4-6
max_tokens: 100
messages:
  - role: user
    content: "{{question}}"
`;

/** The fake answers "Hello! You said: <question>": its stand-in judge finds what the question says. */
const RUBRICS = `request: q.prompt.yaml
judge: { model: model-haiku-4-5 }
cases:
  - name: refund
    vars: { question: "Puis-je être remboursé sous 30 jours ?" }
    assert:
      - rubric: 'Says a refund is possible within "30 jours"'
      - rubric: { criteria: 'Thanks the customer: "merci"', threshold: 0.5 }
`;

const FLAKY = `request: q.prompt.yaml
repeat: 4
min-pass: 2
cases:
  - name: steady
    vars: { question: "Hi" }
    assert: [{ contains: Hello }]
  - name: flaky
    vars: { question: "Hi #flaky" }
    assert: [{ contains: Hello }]
`;

const COSTS = `request: q.prompt.yaml
models: [model-sonnet-4-6, model-quill-1]
cases:
  - name: cheap
    vars: { question: "Hi" }
    assert: [{ max-cost: 0.01 }]
`;

interface Sample {
  pass: boolean;
  text: string;
  cost_usd: number | null;
  assertions: { type: string; pass: boolean; message: string; cached?: boolean; error?: { type: string } }[];
  judge?: { calls: number; cost_usd: number | null };
}
interface Cell {
  case: string;
  model: string;
  pass: boolean;
  status: string;
  assertions: Sample['assertions'];
  samples: Sample[];
  passed_samples: number;
  min_pass: number;
  flaky: boolean;
  cost_usd: number | null;
  judge_cost_usd: number | null;
}

describe('promptwright test: rubrics, samples and cost (the CLI as a process, against the fake)', function () {
  this.timeout(30_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let dir: string;
  let cache: string;
  let env: Record<string, string | undefined>;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-judge-'));
    cache = path.join(dir, 'cache');
    env = { ...process.env, ...cliEnv(fake, { PROMPTWRIGHT_CACHE_DIR: cache }), PROMPTWRIGHT_JUDGE_MODEL: undefined };
    fs.writeFileSync(path.join(dir, 'q.prompt.yaml'), REQUEST);
    fs.writeFileSync(path.join(dir, 'rubric.cases.yaml'), RUBRICS);
    fs.writeFileSync(path.join(dir, 'flaky.cases.yaml'), FLAKY);
    fs.writeFileSync(path.join(dir, 'costs.cases.yaml'), COSTS);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cli = (args: string[], extra: Record<string, string | undefined> = {}): Promise<Ran> =>
    runCli(fake, args, { cwd: dir, env: { ...env, ...extra } });
  const json = (r: Ran) => JSON.parse(r.out) as Cell[];
  const judged = () => fake.requests.filter(q => JSON.stringify(q.body).includes('"json_schema"'));
  const replies = () =>
    fake.requests.filter(q => q.path === '/v1/messages' && !JSON.stringify(q.body).includes('"json_schema"'));

  it('a rubric that passes and one that fails, each with the judge’s reason in JSON; exit 1', async () => {
    fs.rmSync(cache, { recursive: true, force: true });
    const r = await cli(['test', 'rubric.cases.yaml', '--format', 'json']);
    assert.equal(r.code, 1, r.err);
    const [c] = json(r);
    assert.deepEqual([c!.pass, c!.status], [false, 'failed']);
    const [held, failed] = c!.assertions;
    assert.deepEqual([held!.type, held!.pass, held!.cached], ['rubric', true, false]);
    assert.equal(
      held!.message,
      'rubric “Says a refund is possible within "30 jours"”: The reply has "30 jours". (score 1)',
    );
    assert.equal(failed!.pass, false);
    assert.equal(
      failed!.message,
      'rubric “Thanks the customer: "merci"”: The reply lacks "merci". (score 0, below 0.5)',
    );
    // the judge's requests: one a rubric, non-streaming, on the case file's judge model; their cost apart
    assert.equal(judged().length, 2);
    assert.ok(judged().every(q => (q.body as { model: string }).model === 'model-haiku-4-5'));
    assert.ok(judged().every(q => (q.body as { stream?: boolean }).stream === undefined));
    assert.equal(c!.samples[0]!.judge!.calls, 2);
    assert.ok(c!.judge_cost_usd! > 0 && c!.cost_usd! > 0);
    assertPrompt(r);
  });

  it('a second run asks the judge nothing (its verdicts were kept); --no-cache asks again', async () => {
    fs.rmSync(cache, { recursive: true, force: true });
    await cli(['test', 'rubric.cases.yaml']);
    assert.equal(judged().length, 2);
    fake.clear();
    const again = await cli(['test', 'rubric.cases.yaml']);
    assert.equal(again.code, 1, again.err);
    assert.equal(judged().length, 0, 'no judge request');
    assert.equal(replies().length, 1, 'the reply is asked for again');
    assert.match(again.out, /✗ rubric “Thanks the customer: "merci"”: The reply lacks "merci"/);
    assert.match(again.out, /^judge: 0 requests sent, 2 verdicts from the cache$/m);
    assert.match(again.out, /· \$0\.\d+, judge \$0$/m);
    fake.clear();
    const fresh = await cli(['test', 'rubric.cases.yaml', '--no-cache']);
    assert.equal(fresh.code, 1);
    assert.equal(judged().length, 2);
    assertPrompt(fresh);
  });

  it('--repeat 5 --min-pass 4: five requests a cell, "PASS 5/5", and the samples in JSON', async () => {
    const r = await cli(['test', 'flaky.cases.yaml', '--repeat', '5', '--min-pass', '4', '--format', 'json']);
    const [steady, flaky] = json(r);
    assert.equal(replies().length, 10);
    const asked = (s: string) => replies().filter(q => JSON.stringify(q.body).includes(s)).length;
    assert.deepEqual([asked('"Hi"'), asked('Hi #flaky')], [5, 5]);
    assert.deepEqual([steady!.samples.length, steady!.passed_samples, steady!.min_pass], [5, 5, 4]);
    // the fake declines every second request of the same body: 3 of 5 (or 2 of 5): below 4 either way
    assert.deepEqual([flaky!.status, flaky!.flaky], ['failed', true]);
    assert.ok(flaky!.passed_samples === 2 || flaky!.passed_samples === 3, String(flaky!.passed_samples));
    assert.equal(r.code, 1, 'a cell below min-pass fails the run');
    assertPrompt(r);
  });

  it('a flaky cell: "PASS 2/4 … flaky" in text with the failing samples under it, and in JUnit', async () => {
    const r = await cli(['test', 'flaky.cases.yaml']);
    assert.equal(r.code, 0, `both pass at min-pass 2: ${r.out}${r.err}`);
    assert.match(r.out, /^ {2}PASS 4\/4 {2}steady · model-sonnet-4-6 {2}\(.*\)$/m);
    assert.match(r.out, /^ {2}PASS 2\/4 {2}flaky · model-sonnet-4-6 {2}\(.*\) {2}flaky$/m);
    assert.match(r.out, /^ {12}sample \d: ✗ contains "Hello": not found in the reply .*Sorry, I cannot help/m);
    assert.match(r.out, /^2 cells: 2 passed, 0 failed, 1 flaky; 6 of 8 assertions held · \$0\.\d+$/m);
    const junit = await cli(['test', 'flaky.cases.yaml', '--min-pass', '3', '--format', 'junit']);
    assert.equal(junit.code, 1);
    assert.match(junit.out, /<testsuites name="promptwright test" tests="2" failures="1" errors="0"/);
    assert.match(
      junit.out,
      /<failure message="2 of 4 samples passed \(3 needed\): sample \d: contains &quot;Hello&quot;: not found/,
    );
    assert.match(junit.out, /sample \d: ✗ contains "Hello": not found[^<]*\n[^<]*sample \d: ✗ contains/);
  });

  it('--prices FILE replaces a model’s price; max-cost; a model with no price is an error said once', async () => {
    const prices = path.join(dir, 'prices.json');
    fs.writeFileSync(
      prices,
      JSON.stringify({
        'model-sonnet-4-6': { input: 1000, output: 1000, cache_write_5m: 0, cache_write_1h: 0, cache_read: 0 },
      }),
    );
    const plain = await cli(['test', 'costs.cases.yaml', '--format', 'json']);
    const [sonnet, quill] = json(plain);
    assert.equal(plain.code, 1);
    assert.deepEqual([sonnet!.status, quill!.status], ['passed', 'error']);
    assert.equal(quill!.cost_usd, null);
    assert.match(quill!.assertions[0]!.message, /max-cost \$0\.0100: cannot be checked: no price for model-quill-1/);
    assert.equal(quill!.assertions[0]!.error!.type, 'no_price');
    const said = plain.err.split('\n').filter(l => l.includes('no price for model-quill-1'));
    assert.equal(said.length, 1, plain.err);
    const dear = await cli(['test', 'costs.cases.yaml', '--prices', prices, '--model', 'model-sonnet-4-6']);
    assert.equal(dear.code, 1, dear.err);
    assert.match(dear.out, /✗ max-cost \$0\.0100: \$0\.\d+, over \$0\.0100/);
    const bad = path.join(dir, 'bad-prices.json');
    fs.writeFileSync(bad, JSON.stringify({ 'model-sonnet-4-6': { input: 1 } }));
    fake.clear();
    const refused = await cli(['test', 'costs.cases.yaml', '--prices', bad]);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /--prices .*bad-prices\.json: "model-sonnet-4-6" needs output, cache_write_5m/);
    assert.equal(fake.requests.length, 0, 'nothing sent');
  });

  it('JSON carries a person’s grade where one matches the reply (kept in the repository’s results)', async () => {
    const results = path.join(dir, '.promptwright', 'results');
    fs.mkdirSync(results, { recursive: true });
    const text = 'Hello! You said: Hi';
    const hash = crypto.createHash('sha256').update(text).digest('hex');
    const saved = {
      version: 1,
      caseFile: 'flaky.cases.yaml',
      savedAt: new Date().toISOString(),
      results: [],
      grades: [{ case: 'steady', text: hash, grade: 'down', note: 'Too curt', at: new Date().toISOString() }],
    };
    fs.writeFileSync(path.join(results, 'flaky.cases.yaml.json'), JSON.stringify(saved));
    try {
      const r = await cli(['test', 'flaky.cases.yaml', '--repeat', '1', '--min-pass', '1', '--format', 'json']);
      const [steady, flaky] = json(r);
      assert.deepEqual((steady as unknown as { human_grade: unknown }).human_grade, {
        grade: 'down',
        note: 'Too curt',
      });
      assert.deepEqual(
        steady!.samples.map(s => (s as unknown as { human_grade?: unknown }).human_grade),
        [{ grade: 'down', note: 'Too curt' }],
      );
      assert.equal('human_grade' in flaky!, false, 'another case’s reply: no grade');
    } finally {
      fs.rmSync(path.join(dir, '.promptwright'), { recursive: true, force: true });
    }
  });

  it('exit 2 before anything is sent: a rubric with no judge model, min-pass over repeat', async () => {
    fs.writeFileSync(path.join(dir, 'nojudge.cases.yaml'), RUBRICS.replace('judge: { model: model-haiku-4-5 }\n', ''));
    const none = await cli(['test', 'nojudge.cases.yaml']);
    assert.equal(none.code, 2);
    assert.match(
      none.err,
      /nojudge\.cases\.yaml: error: its rubric assertions have no judge model.*PROMPTWRIGHT_JUDGE_MODEL/,
    );
    const viaEnv = await cli(['test', 'nojudge.cases.yaml', '--format', 'json'], {
      PROMPTWRIGHT_JUDGE_MODEL: 'model-opus-4-7',
    });
    assert.equal(viaEnv.code, 1);
    assert.ok(judged().every(q => (q.body as { model: string }).model === 'model-opus-4-7'));
    fake.clear();
    fs.writeFileSync(path.join(dir, 'over.cases.yaml'), FLAKY.replace('min-pass: 2', 'min-pass: 5'));
    const over = await cli(['test', 'over.cases.yaml']);
    assert.equal(over.code, 2);
    assert.match(
      over.err,
      /over\.cases\.yaml:3:11: error min-pass-over-repeat: 5 samples must pass, but each cell runs 4/,
    );
    const usage = await cli(['test', 'flaky.cases.yaml', '--repeat', '2', '--min-pass', '3']);
    assert.equal(usage.code, 2);
    assert.match(usage.err, /--min-pass 3 asks for more samples than --repeat 2 runs/);
    assert.equal(fake.requests.length, 0);
  });
});
