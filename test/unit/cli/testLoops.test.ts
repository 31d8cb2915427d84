// `promptwright test` on a suite of tool-use loops, as a user runs it: dist/cli.js spawned against the fake, whose
// scripted model (test/fake/toolScripts.ts) calls tools a turn at a time. Its text, JSON and JUnit output, its exit
// code, and that it exits as soon as the work is done.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliEnv, useFake } from '../../support/fake';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';

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

  it('--batch refuses a suite with loops (one request per cell), and sends nothing', async () => {
    const r = await runCli(fake, ['test', 'agent.cases.yaml', '--batch'], {
      cwd: dir,
      env: { ...process.env, ...cliEnv(fake) },
    });
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /--batch sends one request per cell: run the tool-use loops of these files without it/);
    assert.equal(fake.requests.length, 0);
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
