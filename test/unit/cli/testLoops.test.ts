// `promptwright test` on a suite of tool-use loops, as a user runs it: dist/cli.js spawned against the fake, whose
// scripted model (test/fake/toolScripts.ts) calls tools a turn at a time. Its text, JSON and JUnit output, its exit
// code, and that it exits as soon as the work is done.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliEnv, useFake } from '../../support/fake';
import { assertPrompt, runCli, spawnCli, type Ran } from '../../support/spawnCli';
import { tempRepo } from '../../support/tempRepo';

describe('promptwright test: tool-use loops against the fake’s scripted model', function () {
  this.timeout(40_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let dir: string;
  const cli = (args: string[]): Promise<Ran> =>
    runCli(fake, args, { cwd: dir, env: { ...process.env, ...cliEnv(fake) }, needsRequest: true });

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-loops-'));
    fs.mkdirSync(path.join(dir, '.git'));
    for (const f of ['agent.prompt.yaml', 'agent.cases.yaml'])
      fs.copyFileSync(path.join('test/fixtures/agent', f), path.join(dir, f));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('text: each loop cell’s verdict; a failing cell shows its turns and calls; exit 1', async () => {
    const r = await cli(['test', 'agent.cases.yaml']);
    assert.equal(r.code, 1, r.err);
    const lines = r.out.split('\n');
    assert.match(r.out, /^ {2}PASS {6}shipped order · model-sonnet-4-6/m);
    assert.match(r.out, /^ {2}PASS {6}rainy case/m);
    assert.match(r.out, /^ {2}PASS {6}gives up/m);
    assert.match(
      r.out,
      /^ {2}ERROR {5}unknown order.*\n {12}no_tool_answer: no answer for lookup_order \{"order_id":"999"\}\n/m,
    );
    const forever = lines.findIndex(l => l.includes('FAIL      loops forever'));
    assert.ok(forever > 0, r.out);
    assert.match(lines[forever + 1]!, /✗ max-turns 6 reached: the model still calls tools after 6 requests/);
    assert.equal(lines[forever + 2]!.trim(), '6 model requests, 5 tool calls');
    assert.equal(lines[forever + 3]!.trim(), 'turn 1: lookup_order {"order_id":"1234"} → file: {"status":"shipped"}');
    assert.match(r.out, /5 cells: 3 passed, 1 failed, 1 could not run/);
    // 3 + 3 + 1 + 2 + 6 model requests: nothing more for the cell whose call had no answer
    assert.equal(fake.requests.filter(q => q.path === '/v1/messages').length, 15);
    assertPrompt(r);
  });

  it('json: turns, tool_calls in call order with their source, usage summed, the final reply’s text', async () => {
    const r = await cli(['test', 'agent.cases.yaml', '--format', 'json']);
    assert.equal(r.code, 1, r.err);
    const records = JSON.parse(r.out) as Record<string, unknown>[];
    const shipped = records.find(x => x.case === 'shipped order')!;
    assert.equal(shipped.turns, 3);
    assert.deepEqual(shipped.tool_calls, [
      {
        name: 'lookup_order',
        input: { order_id: '1234' },
        result: '{"status":"shipped"}',
        is_error: false,
        source: 'file',
        turn: 1,
      },
      {
        name: 'get_weather',
        input: { city: 'Paris' },
        result: 'Sunny, 21 C',
        is_error: false,
        source: 'file',
        turn: 2,
      },
    ]);
    assert.equal(shipped.text, 'Here is what I found: {"status":"shipped"}; Sunny, 21 C.');
    assert.equal(shipped.stop_reason, 'end_turn');
    // usage is the three turns' summed (the engine's unit test checks the sums): more than the first turn's alone
    const usage = shipped.usage as { input_tokens: number; output_tokens: number };
    const first = records.find(x => x.case === 'unknown order')!.usage as { input_tokens: number };
    assert.ok(usage.input_tokens > 2 * first.input_tokens, JSON.stringify(usage));
    const rainy = records.find(x => x.case === 'rainy case')!;
    assert.deepEqual(
      (rainy.tool_calls as { source: string; result: string }[]).map(c => [c.source, c.result]),
      [
        ['file', '{"status":"shipped"}'],
        ['case', 'Rain'],
      ],
    );
    const unknown = records.find(x => x.case === 'unknown order')!;
    assert.equal(unknown.status, 'error');
    assert.deepEqual(unknown.error, {
      type: 'no_tool_answer',
      message: 'no answer for lookup_order {"order_id":"999"}',
    });
    assert.equal(unknown.turns, 1);
    const gaveUp = records.find(x => x.case === 'gives up')!;
    assert.deepEqual(
      (gaveUp.tool_calls as { is_error: boolean }[]).map(c => c.is_error),
      [true],
    );
    assertPrompt(r);
  });

  /** The environment of a batch run: the test's own store, fast polls. */
  let cache = '';
  beforeEach(() => (cache = fs.mkdtempSync(path.join(dir, 'cache-'))));
  const batchEnv = () => ({
    ...process.env,
    ...cliEnv(fake, { PROMPTWRIGHT_CACHE_DIR: cache, PROMPTWRIGHT_BATCH_POLL_MS: '50,100' }),
  });
  const creates = () => fake.requests.filter(q => q.method === 'POST' && q.path === '/v1/messages/batches');
  const roundSizes = () => creates().map(q => (q.body as { requests: unknown[] }).requests.length);
  /** What a direct run and a batch run must agree on, cell by cell. */
  const verdicts = (out: string) =>
    (JSON.parse(out) as Record<string, unknown>[]).map(c => [
      c.case,
      c.status,
      c.turns,
      c.tool_calls,
      c.text,
      c.stop_reason,
      c.error ?? null,
      (c.assertions as { type: string; pass: boolean; message: string }[]).map(a => [a.type, a.pass, a.message]),
    ]);

  it('--batch: each round of the loops goes as one batch; verdicts, turns, tool_calls: a direct run’s', async () => {
    const direct = await cli(['test', 'agent.cases.yaml', '--format', 'json']);
    assert.equal(direct.code, 1, direct.err);
    fake.clear();
    const r = await runCli(fake, ['test', 'agent.cases.yaml', '--batch', '--format', 'json'], {
      cwd: dir,
      env: batchEnv(),
      needsRequest: true,
    });
    assert.equal(r.code, 1, r.err);
    assertPrompt(r);
    assert.deepEqual(verdicts(r.out), verdicts(direct.out));
    // 5 cells in the first round; then those still calling tools: 4, 3, and the one that loops until max-turns 6
    assert.deepEqual(roundSizes(), [5, 4, 3, 1, 1, 1]);
    assert.equal(fake.requests.filter(q => q.path === '/v1/messages').length, 0, 'nothing sent direct');
    assert.match(r.err, /round 2 of the tool-use loops: 4 requests of the cells still calling tools/);
    const cells = JSON.parse(r.out) as { case: string; batch_id?: string; usage?: { service_tier?: string } }[];
    const shipped = cells.find(c => c.case === 'shipped order')!;
    // the cell's batch is its last round's, and every turn was at the batch price
    assert.equal(shipped.batch_id, fake.batches.all[2]!.id);
    assert.equal(shipped.usage?.service_tier, 'batch');
  });

  it('--batch --no-wait goes on a round per run: the rounds are kept between runs, none is sent twice', async () => {
    const direct = await cli(['test', 'agent.cases.yaml', '--format', 'json']);
    fake.clear();
    const args = ['test', 'agent.cases.yaml', '--batch', '--no-wait', '--format', 'json'];
    let last: Ran | undefined;
    for (let run = 0; run < 20 && !last; run++) {
      const before = creates().length;
      const r = await runCli(fake, args, { cwd: dir, env: batchEnv(), needsRequest: true });
      assert.ok(creates().length - before <= 1, `one round at most per run\n${r.err}`);
      assertPrompt(r);
      if (r.out.startsWith('[')) last = r;
      else {
        assert.equal(r.code, 0, r.err);
        assert.equal(r.out, `${fake.batches.all.at(-1)!.id}\n`);
        assert.match(
          r.err,
          /round \d of the tool-use loops in 1 batch, processing; go on with: promptwright test agent\.cases\.yaml --batch --format json\n/,
        );
        // the fake's batch ends after its processing time: the next run finds it ended
        await new Promise(done => setTimeout(done, 350));
      }
    }
    assert.ok(last, 'the suite ended');
    assert.equal(last.code, 1, last.err);
    assert.deepEqual(roundSizes(), [5, 4, 3, 1, 1, 1]);
    assert.deepEqual(verdicts(last.out), verdicts(direct.out));
    // collected: the same command now starts the suite anew
    const again = await runCli(fake, args, { cwd: dir, env: batchEnv(), needsRequest: true });
    assert.equal(again.code, 0, again.err);
    assert.deepEqual(roundSizes(), [5, 4, 3, 1, 1, 1, 5]);
  });

  it('--batch: Ctrl-C during a round leaves it at the service (130); running again resumes that round', async () => {
    const run = spawnCli(['test', 'agent.cases.yaml', '--batch'], { cwd: dir, env: batchEnv() });
    for (let i = 0; i < 1000 && (run.err.match(/submitted/g) ?? []).length < 2; i++)
      await new Promise(done => setTimeout(done, 10));
    run.child.kill('SIGINT');
    assert.equal(await run.exited, 130, run.err);
    await run.closed;
    assert.match(
      run.err,
      /the batch goes on at the service; resume with: promptwright test agent\.cases\.yaml --batch\n/,
    );
    assert.equal(run.out, '');
    assert.equal(creates().length, 2);
    // a round is not collected alone: the suite goes on a round at a time
    const round = fake.batches.all[1]!.id;
    const collect = await runCli(fake, ['batch', 'collect', round], { cwd: dir, env: batchEnv() });
    assert.equal(collect.code, 2, collect.err);
    assert.match(
      collect.err,
      new RegExp(
        `${round} is round 2 of a suite of tool-use loops, which goes on a round at a time: run ` +
          '`promptwright test agent\\.cases\\.yaml --batch` in .+ to resume it',
      ),
    );
    assert.equal(creates().length, 2);
    const again = await runCli(fake, ['test', 'agent.cases.yaml', '--batch'], {
      cwd: dir,
      env: batchEnv(),
      needsRequest: true,
    });
    assert.equal(again.code, 1, again.err);
    assert.match(again.err, /resuming msgbatch_\w+: nothing is sent again/);
    assert.deepEqual(roundSizes(), [5, 4, 3, 1, 1, 1]);
    assert.match(again.out, /5 cells: 3 passed, 1 failed, 1 could not run/);
  });

  it('repeat, min-pass and rubrics: each sample is a loop of its own; the judge reads the final reply', async () => {
    const file = [
      'request: agent.prompt.yaml',
      'judge: { model: model-haiku-4-5 }',
      'repeat: 2',
      'min-pass: 2',
      'tools:',
      '  lookup_order: { result: { status: shipped } }',
      '  get_weather: "Sunny"',
      'cases:',
      '  - name: final reply judged',
      '    vars: { question: "Where is order 1234? #script=order" }',
      '    assert:',
      '      - rubric: Says "Here is what I found" and "shipped"',
      '      - tool-sequence: [lookup_order, get_weather]',
      '  - name: first turn not judged',
      '    vars: { question: "Where is order 1234? #script=order" }',
      '    assert:',
      '      - rubric: Says "Let me check"',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'judged.cases.yaml'), file);
    const records = async (extra: string[]) => {
      const r = await runCli(fake, ['test', 'judged.cases.yaml', '--format', 'json', ...extra], {
        cwd: dir,
        env: batchEnv(),
        needsRequest: true,
      });
      assert.equal(r.code, 1, r.err);
      assertPrompt(r);
      type Sample = { status: string; turns: number; tool_calls: unknown[]; text: string };
      const cells = JSON.parse(r.out) as {
        case: string;
        status: string;
        passed_samples: number;
        samples: Sample[];
        assertions: { type: string; pass: boolean; message: string }[];
      }[];
      return cells.map(c => [
        c.case,
        c.status,
        c.passed_samples,
        c.samples.map(s => [s.status, s.turns, s.tool_calls.length, s.text]),
        c.assertions.map(a => [a.type, a.pass, a.message]),
      ]);
    };
    const direct = await records([]);
    const found = 'Here is what I found: {"status":"shipped"}; Sunny.';
    assert.deepEqual(direct, [
      [
        'final reply judged',
        'passed',
        2,
        [
          ['passed', 3, 2, found],
          ['passed', 3, 2, found],
        ],
        [
          [
            'rubric',
            true,
            'rubric “Says "Here is what I found" and "shipped"”: The reply has "Here is what I found", ' +
              '"shipped". (score 1)',
          ],
          [
            'tool-sequence',
            true,
            'tool-sequence lookup_order → get_weather: in order among lookup_order → get_weather',
          ],
        ],
      ],
      [
        'first turn not judged',
        'failed',
        0,
        [
          ['failed', 3, 2, found],
          ['failed', 3, 2, found],
        ],
        [['rubric', false, 'rubric “Says "Let me check"”: The reply lacks "Let me check". (score 0)']],
      ],
    ]);
    // the same suite as Message Batches: the same samples, verdicts and judge's reasons
    assert.deepEqual(await records(['--batch']), direct);
  });

  it('test --base: a loop cell on the files at a revision and now, and what the change did', async () => {
    const repo = tempRepo('pw-loops-base-');
    try {
      for (const f of ['agent.prompt.yaml', 'agent.cases.yaml'])
        repo.write(f, fs.readFileSync(path.join('test/fixtures/agent', f), 'utf8'));
      repo.commit('the agent');
      // the order's answer changes: the shipped order's reply no longer says "shipped"
      const cases = fs.readFileSync(path.join('test/fixtures/agent', 'agent.cases.yaml'), 'utf8');
      repo.write('agent.cases.yaml', cases.replace('result: { status: shipped }', 'result: { status: lost }'));
      const r = await runCli(fake, ['test', 'agent.cases.yaml', '--base', 'HEAD', '--format', 'json'], {
        cwd: repo.dir,
        env: { ...process.env, ...cliEnv(fake) },
        needsRequest: true,
      });
      assert.equal(r.code, 1, r.err);
      type Rec = { case: string; change: string; turns?: number; base: { pass: boolean | null } | null };
      const recs = JSON.parse(r.out) as Rec[];
      const shipped = recs.find(x => x.case === 'shipped order')!;
      assert.equal(shipped.change, 'broke');
      assert.equal(shipped.base?.pass, true);
      assert.equal(shipped.turns, 3);
      // the rainy case asserts only its own weather: the same verdict on both sides
      assert.equal(recs.find(x => x.case === 'rainy case')!.change, 'same');
      // both sides ran every loop: 15 model requests each (see the text test above)
      assert.equal(fake.requests.filter(q => q.path === '/v1/messages').length, 30);
      assertPrompt(r);
    } finally {
      repo.dispose();
    }
  });

  it('junit: the trajectory in the testcase’s output', async () => {
    const r = await cli(['test', 'agent.cases.yaml', '--format', 'junit']);
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.out,
      /<testcase classname="agent.cases.yaml" name="shipped order on model-sonnet-4-6"[^>]*>\n {6}<system-out>3 model requests, 2 tool calls\n {2}turn 1: lookup_order \{&quot;order_id&quot;:&quot;1234&quot;\}|<system-out>3 model requests, 2 tool calls\n {2}turn 1: lookup_order \{"order_id":"1234"\} → file: \{"status":"shipped"\}\n {2}turn 2: get_weather \{"city":"Paris"\} → file: Sunny, 21 C\nHere is what I found/,
    );
    assertPrompt(r);
  });
});
