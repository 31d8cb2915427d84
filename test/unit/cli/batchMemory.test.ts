// `promptwright test --batch` on a dataset, as a user runs it: the built dist/cli.js against the fake over TCP. The
// suite goes through a spool on disk in every format, so its JSON Lines records are those of `--format json`, what
// every format prints and every report file holds is what `batch collect` (which holds the cells in memory) makes of
// the same batch, byte for byte, a run submitted with --no-wait is resumed and collected as before, a problem sends
// nothing, a killed run's spool is removed by the next, and the CLI's peak memory on many rows stays that of a
// thousand: PW_BATCH_MEMORY_ROWS rows (default 30,000; bench/batch.ts runs 100,000).
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
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

describe('test --batch: a suite of any size through a spool on disk', function () {
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
    // a second case file, two of whose rows fail at the service: one errored, one expired
    const few = (i: number) => `f${i}${i === 8 ? ' #errored' : i === 13 ? ' #expired' : ''}`;
    const rows = Array.from({ length: 20 }, (_, i) => `${few(i)},contains: ${i % 5 === 3 ? 'nowhere' : `f${i}`}\n`);
    fs.writeFileSync(path.join(dir, 'few.csv'), `word,__expected\n${rows.join('')}`);
    fs.writeFileSync(path.join(dir, 'few.cases.yaml'), 'request: say.prompt.yaml\ndataset: few.csv\n');
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

  it('prints and writes, in every format and report file, what collect makes of the same batch', async () => {
    const files = ['some.cases.yaml', 'few.cases.yaml'];
    const reports = ['xml', 'json', 'md', 'jsonl'];
    const outputs = (name: string) => [
      '--junit',
      `${name}.xml`,
      ...reports.slice(1).flatMap(ext => ['--output', `${name}.${ext}`]),
    ];
    const read = (name: string, ext: string) => fs.readFileSync(path.join(dir, `${name}.${ext}`), 'utf8');
    const printed: Record<string, string> = {};
    for (const format of ['text', 'json', 'junit', 'markdown']) {
      const args = ['--batch', '--repeat', '2', '--max-requests', '640', '--format', format];
      const ran = await cli(['test', ...files, ...args, ...outputs(`spooled-${format}`)]);
      assert.equal(ran.code, 1, ran.err);
      const id = /submitted (msgbatch_\w+)/.exec(ran.err)?.[1];
      assert.ok(id, ran.err);
      // the fake hands the results back shuffled: cells end in any order, and are printed in theirs
      const held = await cli(['batch', 'collect', id, '--format', format, ...outputs(`held-${format}`)]);
      assert.equal(held.code, 1, held.err);
      assert.equal(ran.out, held.out, `--format ${format}`);
      printed[format] = ran.out;
      for (const ext of reports) assert.equal(read(`spooled-${format}`, ext), read(`held-${format}`, ext), ext);
      const wrote = reports.map(ext => `promptwright test: wrote spooled-${format}.${ext}\n`).join('');
      assert.ok(ran.err.endsWith(wrote), ran.err);
    }
    assert.match(
      read('spooled-text', 'xml'),
      /<testsuites name="promptwright test" tests="320" failures="5" errors="2" /,
    );
    assert.match(
      printed.text!,
      /^320 cells: 313 passed, 5 failed, 1 could not run \(the request failed\), 1 expired \(their batch ended /m,
    );
    assert.equal(JSON.parse(read('spooled-json', 'json')).length, 320);
    assert.deepEqual(
      fs.readdirSync(dir).filter(f => f.endsWith('.tmp')),
      [],
      'no file aside is left beside the reports',
    );
    assert.equal(fs.readdirSync(path.join(dir, 'cache', 'batches', 'spool')).length, 0, 'the spool is removed');
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

  it('a case file with errors of its own: those said first, as test says them, and nothing sent (exit 2)', async () => {
    fs.writeFileSync(path.join(dir, 'twice.csv'), 'word,__expected\nok,contains: ok\n"not closed\n');
    const twice = 'request: say.prompt.yaml\ndataset: twice.csv\ncases:\n  - name: a\n  - name: a\n';
    fs.writeFileSync(path.join(dir, 'twice.cases.yaml'), twice);
    const batch = await cli(['test', 'twice.cases.yaml', '--batch', '--format', 'jsonl']);
    const direct = await cli(['test', 'twice.cases.yaml', '--format', 'jsonl']);
    for (const r of [batch, direct]) {
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, /^twice\.cases\.yaml:5:\d+: error duplicate-case-name: /m);
      // the dataset is not read while its case file has errors of its own
      assert.doesNotMatch(r.err, /twice\.csv/);
      assert.match(r.err, /nothing sent: 1 error \(above\)/);
    }
    assert.equal(fake.requests.length, 0);
    // check reads on and lists every problem
    const check = await cli(['check', 'twice.cases.yaml']);
    assert.equal(check.code, 1, check.err);
    assert.match(check.out + check.err, /twice\.csv:3:1: error dataset-syntax: /);
  });

  it("removes the spools and report files aside of killed runs over a minute old, and no other's", async () => {
    const spools = path.join(dir, 'cache', 'batches', 'spool');
    // a pid no process has: one that has exited
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const old = Date.now() - 120_000;
    const left = [`${dead}-${old}`, `${dead}-${Date.now()}`, `${process.pid}-${old}`, 'notes'];
    for (const name of left) {
      fs.mkdirSync(path.join(spools, name), { recursive: true });
      fs.writeFileSync(path.join(spools, name, 'requests.jsonl'), '{}\n');
    }
    // and what one left beside its report file, written as the cells end and renamed onto its name at the end
    const asides = [`stale.xml.${dead}.tmp`, `stale.xml.${dead}.body.tmp`, `stale.xml.${process.pid}.tmp`];
    for (const name of asides) fs.writeFileSync(path.join(dir, name), '<');
    for (const name of asides.slice(0, 2)) fs.utimesSync(path.join(dir, name), old / 1000, old / 1000);
    fs.writeFileSync(path.join(dir, `stale.xml.${dead}.tmp.keep`), '');
    const ran = await cli(['test', 'few.cases.yaml', '--batch', '--junit', 'stale.xml']);
    assert.equal(ran.code, 1, ran.err);
    assert.deepEqual(fs.readdirSync(spools).sort(), left.slice(1).sort());
    const beside = fs.readdirSync(dir).filter(f => f.startsWith('stale.xml'));
    assert.deepEqual(beside.sort(), ['stale.xml', `stale.xml.${dead}.tmp.keep`, asides[2]].sort());
    for (const name of left.slice(1)) fs.rmSync(path.join(spools, name), { recursive: true });
    for (const name of beside) fs.rmSync(path.join(dir, name));
  });

  const rows = ROWS.toLocaleString('en-US');
  it(`peak memory on ${rows} rows: at most 1.5× that on 1,000, in JSON Lines, text with --junit, JSON`, async () => {
    const peakScript = path.join(dir, 'peak.cjs');
    fs.writeFileSync(
      peakScript,
      "process.on('exit', () => require('fs').writeFileSync(process.env.PW_PEAK_FILE, " +
        'String(process.resourceUsage().maxRSS)));\n',
    );
    /**
     * Peak resident memory (maxRSS, KB) of `test NAME.cases.yaml --batch ARGS`, and how many lines it printed that
     * stand for a cell (JSON Lines: every line; text: every line but the file's name and the summary line; JSON: a
     * record's first line).
     */
    const peak = async (name: string, args: readonly string[]) => {
      const file = path.join(dir, `peak-${process.hrtime.bigint()}`);
      const test = ['test', `${name}.cases.yaml`, '--batch', ...args, '--max-requests', '1000000'];
      const child = spawn(process.execPath, ['--require', peakScript, path.resolve('dist/cli.js'), ...test], {
        cwd: dir,
        env: { ...env, PW_PEAK_FILE: file },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const cell = args.includes('json') ? (l: string) => l === '  {' : () => true;
      let lines = 0;
      let partial = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        const got = (partial + d.toString()).split('\n');
        partial = got.pop()!;
        lines += got.filter(cell).length;
      });
      child.stderr.on('data', d => (err += String(d)));
      const code = await new Promise<number | null>(resolve => child.on('close', resolve));
      assert.equal(code, 0, err);
      return { kb: Number(fs.readFileSync(file, 'utf8')), lines };
    };
    const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;
    for (const [args, more] of [
      [['--format', 'jsonl'], 0],
      [['--junit', 'peak.xml'], 2],
      [['--format', 'json', '--output', 'peak.md'], 0],
    ] as const) {
      const small = await peak('thousand', args);
      assert.equal(small.lines, 1000 + more);
      const large = await peak('many', args);
      assert.equal(large.lines, ROWS + more);
      assert.ok(
        large.kb <= 1.5 * small.kb,
        `${args.join(' ')}: ${rows} rows: ${mb(large.kb)}, 1,000 rows: ${mb(small.kb)}`,
      );
    }
    // the heads only: a failed match would print the whole report
    const xml = fs.readFileSync(path.join(dir, 'peak.xml'), 'utf8').slice(0, 200);
    assert.match(xml, new RegExp(`<testsuites [^>]* tests="${ROWS}" failures="0" `));
    const md = fs.readFileSync(path.join(dir, 'peak.md'), 'utf8').slice(0, 200);
    assert.match(md, new RegExp(`^${rows} cells: ${ROWS} passed, 0 failed; ${ROWS} of ${rows} assertions held`, 'm'));
  });
});
