// `promptwright test --batch --format jsonl` on a dataset, as a user runs it: the built dist/cli.js against the fake
// over TCP. The suite goes through a spool on disk, so its records are those of `--format json`, a run submitted
// with --no-wait is resumed and collected as before, a problem sends nothing, and the CLI's peak memory on many
// rows stays that of a thousand: PW_BATCH_MEMORY_ROWS rows (default 30,000; bench/batch.ts runs 100,000).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliEnv, useFake, withFake } from '../../support/fake';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';

const ROWS = Number(process.env.PW_BATCH_MEMORY_ROWS) || 30_000;

/** A dataset of `rows` rows `wN,contains: wN` (a row in `failing` expects what the reply does not say). */
function writeRows(dir: string, name: string, rows: number, failing: (i: number) => boolean = () => false): void {
  const out = fs.openSync(path.join(dir, `${name}.csv`), 'w');
  fs.writeSync(out, 'word,__expected\n');
  for (let from = 0; from < rows; from += 1000) {
    const block: string[] = [];
    for (let i = from; i < Math.min(rows, from + 1000); i++)
      block.push(`w${i},contains: ${failing(i) ? 'nowhere' : `w${i}`}\n`);
    fs.writeSync(out, block.join(''));
  }
  fs.closeSync(out);
  fs.writeFileSync(path.join(dir, `${name}.cases.yaml`), `request: say.prompt.yaml\ndataset: ${name}.csv\n`);
}

interface CellRecord {
  case: string;
  case_id: string;
  pass: boolean;
  batch_id?: string;
  samples?: { batch_id?: string }[];
}

/** A cell's record without the batch it came in (two runs make two batches). */
function withoutBatch(r: CellRecord): unknown {
  const { batch_id: _b, samples, ...rest } = r;
  return { ...rest, ...(samples ? { samples: samples.map(({ batch_id: _s, ...s }) => s) } : {}) };
}

describe('test --batch --format jsonl: a suite of any size through a spool on disk', function () {
  this.timeout(300_000);
  const fake = useFake({ keepAliveMs: 60_000, batchProcessingMs: 200 });
  let dir: string;
  let env: Record<string, string | undefined>;
  const creates = () => fake.requests.filter(q => q.method === 'POST' && q.path === '/v1/messages/batches');
  const cli = (args: string[]): Promise<Ran> => runCli(fake, args, { cwd: dir, env, killAfterMs: 120_000 });
  const records = (r: Ran) =>
    r.out
      .trimEnd()
      .split('\n')
      .map(l => JSON.parse(l) as CellRecord)
      .sort((a, b) => a.case_id.localeCompare(b.case_id));

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-batch-spool-'));
    env = {
      ...process.env,
      ...cliEnv(fake),
      PROMPTWRIGHT_CACHE_DIR: path.join(dir, 'cache'),
      PROMPTWRIGHT_BATCH_POLL_MS: '50,200',
    };
    fs.writeFileSync(
      path.join(dir, 'say.prompt.yaml'),
      'model: model-haiku-4-5\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "{{word}}"\n',
    );
    writeRows(dir, 'some', 300, i => i % 100 === 7);
    writeRows(dir, 'thousand', 1000);
    writeRows(dir, 'many', ROWS);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints the records --format json prints, one a line, with the same exit; collect reads them back', async () => {
    const args = ['test', 'some.cases.yaml', '--batch', '--repeat', '2', '--model', 'model-sonnet-4-6'];
    const jsonl = await cli([...args, '--format', 'jsonl', '--max-requests', '600']);
    assert.equal(jsonl.code, 1, jsonl.err);
    assertPrompt(jsonl);
    assert.equal(creates().length, 1);
    assert.equal((creates()[0]!.body as { requests: unknown[] }).requests.length, 600);
    const lines = records(jsonl);
    assert.equal(lines.length, 300);
    assert.equal(lines.filter(l => !l.pass).length, 3);
    assert.equal(fs.readdirSync(path.join(dir, 'cache', 'batches', 'spool')).length, 0, 'the spool is removed');
    const json = await cli([...args, '--format', 'json', '--max-requests', '600']);
    assert.equal(json.code, 1, json.err);
    const whole = (JSON.parse(json.out) as CellRecord[]).sort((a, b) => a.case_id.localeCompare(b.case_id));
    assert.deepEqual(lines.map(withoutBatch), whole.map(withoutBatch));
    const collected = await cli(['batch', 'collect', lines[0]!.batch_id!, '--format', 'json']);
    assert.equal(collected.code, 1, collected.err);
    const again = (JSON.parse(collected.out) as CellRecord[]).sort((a, b) => a.case_id.localeCompare(b.case_id));
    assert.deepEqual(again.map(withoutBatch), lines.map(withoutBatch));
  });

  it('--no-wait submits and exits; the same command again resumes it, sending nothing twice', async () => {
    // a fake of its own, whose batch is still processing when --no-wait asks
    await withFake({ keepAliveMs: 60_000, batchProcessingMs: 3000 }, async slow => {
      const run = (args: string[]) =>
        runCli(slow, args, { cwd: dir, env: { ...env, ...cliEnv(slow) }, killAfterMs: 120_000 });
      const args = ['test', 'some.cases.yaml', '--batch', '--format', 'jsonl'];
      const submitted = await run([...args, '--no-wait']);
      assert.equal(submitted.code, 0, submitted.err);
      assert.match(submitted.out, /^msgbatch_\w+\n$/);
      assert.match(submitted.err, /300 requests in 1 batch, processing; collect the cells with: promptwright test /);
      const resumed = await run(args);
      assert.equal(resumed.code, 1, resumed.err);
      assert.match(resumed.err, /resuming msgbatch_\w+: nothing is sent again/);
      assert.equal(slow.requests.filter(q => q.method === 'POST' && q.path === '/v1/messages/batches').length, 1);
      const cells = records(resumed);
      assert.equal(cells.length, 300);
      assert.ok(cells.every(r => r.batch_id === submitted.out.trim()));
    });
  });

  it('a row with a problem sends nothing (exit 2); over --max-requests, nothing either', async () => {
    fs.writeFileSync(path.join(dir, 'bad.csv'), 'word,__expected\nok,contains: ok\n"not closed\n');
    fs.writeFileSync(path.join(dir, 'bad.cases.yaml'), 'request: say.prompt.yaml\ndataset: bad.csv\n');
    const bad = await cli(['test', 'bad.cases.yaml', '--batch', '--format', 'jsonl']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^bad\.csv:3:1: error dataset-syntax: /m);
    assert.match(bad.err, /nothing sent: 1 error \(above\)/);
    const over = await cli(['test', 'thousand.cases.yaml', '--batch', '--format', 'jsonl', '--repeat', '2']);
    assert.equal(over.code, 2);
    assert.match(
      over.err,
      /nothing sent: this run would send 2,000 requests \(2,000 replies\), over --max-requests 1000/,
    );
    assert.equal(fake.requests.length, 0);
  });

  it(`peak memory on ${ROWS.toLocaleString('en-US')} rows: at most 1.5× that on 1,000 of the same shape`, async () => {
    const peakScript = path.join(dir, 'peak.cjs');
    fs.writeFileSync(
      peakScript,
      "process.on('exit', () => require('fs').writeFileSync(process.env.PW_PEAK_FILE, " +
        'String(process.resourceUsage().maxRSS)));\n',
    );
    /** Peak resident memory (maxRSS, KB) of `test NAME.cases.yaml --batch --format jsonl`, and what it printed. */
    const peak = async (name: string) => {
      const file = path.join(dir, `peak-${process.hrtime.bigint()}`);
      const args = ['test', `${name}.cases.yaml`, '--batch', '--format', 'jsonl', '--max-requests', '1000000'];
      const child = spawn(process.execPath, ['--require', peakScript, path.resolve('dist/cli.js'), ...args], {
        cwd: dir,
        env: { ...env, PW_PEAK_FILE: file },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let lines = 0;
      let err = '';
      child.stdout.on('data', (d: Buffer) => (lines += d.toString().split('\n').length - 1));
      child.stderr.on('data', d => (err += String(d)));
      const code = await new Promise<number | null>(resolve => child.on('close', resolve));
      assert.equal(code, 0, err);
      return { kb: Number(fs.readFileSync(file, 'utf8')), lines };
    };
    const small = await peak('thousand');
    assert.equal(small.lines, 1000);
    const large = await peak('many');
    assert.equal(large.lines, ROWS);
    assert.ok(
      large.kb <= 1.5 * small.kb,
      `${ROWS.toLocaleString('en-US')} rows: ${Math.round(large.kb / 1024)} MB, ` +
        `1,000 rows: ${Math.round(small.kb / 1024)} MB`,
    );
  });
});
