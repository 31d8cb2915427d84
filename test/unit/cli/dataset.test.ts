// Suites from data, as a user runs them: the built dist/cli.js against the fake over TCP, on case files whose cases
// are a dataset's rows. Shards of 10,000 rows are every case exactly once; a sample is the same for the same seed;
// a promptfoo-style CSV passes as written; `--format jsonl` prints each cell as it ends; a dataset with an error
// sends nothing; and the memory of `check` and `test --shard` stays flat however many rows there are.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scanSuite } from '../../../src/core/cases/suite';
import { cliEnv, useFake } from '../../support/fake';
import { assertPrompt, runCli, spawnCli, type Ran } from '../../support/spawnCli';
import { tempRepo } from '../../support/tempRepo';

const ROWS = 10_000;

describe('the CLI on datasets: shards, samples, promptfoo CSVs, JSON Lines, and memory', function () {
  this.timeout(120_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let dir: string;
  let env: Record<string, string | undefined>;

  before(() => {
    env = { ...process.env, ...cliEnv(fake) };
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-dataset-'));
    const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
    write(
      'say.prompt.yaml',
      'model: model-haiku-4-5\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "{{word}}"\n',
    );
    const rows = Array.from({ length: ROWS }, (_, i) => `word${i},contains: word${i}\n`).join('');
    write('big.csv', `word,__expected\n${rows}`);
    write('big.cases.yaml', 'request: say.prompt.yaml\ndataset: big.csv\n');
    write(
      'promptfoo.csv',
      [
        'word,__expected,__expected1,__description',
        'bonjour,contains: bonjour,icontains: HELLO,greets in French',
        'thanks,Hello! You said: thanks,,equals the whole reply',
        '"a, b",not-contains: nope,max-output-tokens: 200,',
        'fails,contains: something else,,fails on purpose',
        '',
      ].join('\r\n'),
    );
    write(
      'promptfoo.cases.yaml',
      'request: say.prompt.yaml\ndataset: promptfoo.csv\nassert:\n  - stop_reason: end_turn\n',
    );
    write('slow.jsonl', '{"word": "one #slow=40"}\n{"word": "two #slow=40"}\n{"word": "three #slow=40"}\n');
    write('slow.cases.yaml', 'request: say.prompt.yaml\ndataset: slow.jsonl\n');
    write('broken.csv', 'word\nok\n"not closed\n');
    write('broken.cases.yaml', 'request: say.prompt.yaml\ndataset: broken.csv\n');
    write('missing.cases.yaml', 'request: say.prompt.yaml\ndataset: nowhere.csv\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cli = (args: string[]): Promise<Ran> => runCli(fake, args, { cwd: dir, env, killAfterMs: 90_000 });
  const messages = () => fake.requests.filter(q => q.path === '/v1/messages').length;
  const ids = (r: Ran) =>
    r.out
      .trimEnd()
      .split('\n')
      .filter(Boolean)
      .map(l => (JSON.parse(l) as { case_id: string }).case_id);

  it('--shard K/4 on 10,000 rows: each case in exactly one shard, the union every case', async () => {
    const all = await scanSuite({
      listed: [],
      dataset: { chunks: fs.createReadStream(path.join(dir, 'big.csv')), format: 'csv' },
      keep: true,
    });
    assert.equal(all.chosen.length, ROWS);
    const seen = new Map<string, number>();
    let sent = 0;
    for (let k = 1; k <= 4; k++) {
      fake.clear();
      const r = await cli([
        'test',
        'big.cases.yaml',
        ...['--shard', `${k}/4`, '--format', 'jsonl', '--concurrency', '32', '--max-requests', '3000'],
      ]);
      assert.equal(r.code, 0, r.err.slice(-2000));
      const shard = ids(r);
      assert.equal(messages(), shard.length);
      sent += shard.length;
      assert.ok(shard.length > ROWS / 4 - 300 && shard.length < ROWS / 4 + 300, `shard ${k}: ${shard.length}`);
      assert.match(
        r.err,
        new RegExp(`cases: ${shard.length.toLocaleString('en-US')} of 10,000 cases chosen \\(--shard ${k}/4\\)`),
      );
      for (const id of shard) {
        assert.ok(!seen.has(id), `${id} is in shard ${seen.get(id)} and ${k}`);
        seen.set(id, k);
      }
      assertPrompt(r);
    }
    assert.equal(sent, ROWS);
    assert.deepEqual([...seen.keys()].sort(), all.chosen.map(c => c.id).sort());
  });

  it('--sample N --seed S: the same cases for the same seed, others for another; the summary says so', async () => {
    const run = async (seed: string) => {
      fake.clear();
      const r = await cli(['test', 'big.cases.yaml', '--sample', '25', '--seed', seed, '--format', 'jsonl']);
      assert.equal(r.code, 0, r.err);
      assert.equal(messages(), 25);
      // the set of cases: jsonl prints each cell as it ends, in the order they end
      return ids(r).sort();
    };
    const a = await run('7');
    assert.deepEqual(await run('7'), a);
    assert.equal(new Set(a).size, 25);
    assert.notDeepEqual(await run('8'), a);
    fake.clear();
    const text = await cli(['test', 'big.cases.yaml', '--filter', '^row 1\\d{3}$', '--limit', '40', '--sample', '10']);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /10 cells: 10 passed/);
    assert.match(
      text.out,
      /cases: 10 of 10,000 cases chosen \(--filter \^row 1\\d\{3\}\$, --limit 40, --sample 10 --seed 0\)/,
    );
    assert.equal(messages(), 10);
  });

  it('a promptfoo-style CSV (__expected, __expected1, __description) passes as expected', async () => {
    const r = await cli(['test', 'promptfoo.cases.yaml', '--format', 'json']);
    assert.equal(r.code, 1, r.err);
    const cells = JSON.parse(r.out) as { case: string; pass: boolean; assertions: { type: string }[] }[];
    assert.deepEqual(
      cells.map(c => [c.case, c.pass, c.assertions.map(a => a.type)]),
      [
        ['greets in French', true, ['stop_reason', 'contains', 'icontains']],
        ['equals the whole reply', true, ['stop_reason', 'equals']],
        ['row 4', true, ['stop_reason', 'not-contains', 'max-output-tokens']],
        ['fails on purpose', false, ['stop_reason', 'contains']],
      ],
    );
  });

  it('test --merge: the shards’ records as one JUnit file and one pull-request comment, nothing sent', async () => {
    const files: string[] = [];
    for (const k of [1, 2]) {
      const r = await cli(['test', 'promptfoo.cases.yaml', '--shard', `${k}/2`, '--format', 'jsonl']);
      assert.ok(r.code === 0 || r.code === 1, r.err);
      files.push(`shard-${k}.jsonl`);
      fs.writeFileSync(path.join(dir, files.at(-1)!), r.out);
    }
    fake.clear();
    const md = await cli(['test', '--merge', ...files, '--format', 'markdown']);
    assert.equal(md.code, 1, md.err);
    assert.match(md.out, /^<!-- promptwright:test-shards -->\n### Test cases\n/);
    assert.match(md.out, /4 cells: 3 passed, 1 failed; .* · merged from 2 result files/);
    assert.match(md.out, /\| FAIL \| `promptfoo\.cases\.yaml` \| fails on purpose \| `model-haiku-4-5` \| contains/);
    const junit = await cli(['test', '--merge', ...files, files[0]!, '--format', 'junit']);
    assert.match(junit.out, /<testsuites name="promptwright test" tests="4" failures="1" errors="0"/);
    assert.equal(messages(), 0);
    const bad = await cli(['test', '--merge', 'promptfoo.csv']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /promptfoo\.csv:1: not a cell record/);
  });

  it('test --base REV: rows paired by case_id; a changed row is new + removed; +N rows, −M rows', async () => {
    const repo = tempRepo('pw-dataset-base-');
    try {
      repo.write('say.prompt.yaml', fs.readFileSync(path.join(dir, 'say.prompt.yaml'), 'utf8'));
      repo.write('say.cases.yaml', 'request: say.prompt.yaml\ndataset: rows.csv\n');
      repo.write('rows.csv', 'word,__expected\nkeep,contains: keep\ngone,contains: gone\nold,contains: old\n');
      repo.commit('rows');
      // a row removed, a row added, a row changed (a new id: one removed, one new), a row moved
      repo.write('rows.csv', 'word,__expected\nadded,contains: added\nold,contains: new\nkeep,contains: keep\n');
      const r = await runCli(fake, ['test', '--base', 'HEAD', 'say.cases.yaml', '--format', 'json'], {
        cwd: repo.dir,
        env,
      });
      assert.equal(r.code, 1, r.err); // "old" now asks for "new"
      const cells = JSON.parse(r.out) as { case: string; change: string; case_id?: string }[];
      assert.deepEqual(
        cells.map(c => [c.case, c.change]).sort(),
        // names are lines: now "added" (row 2), "old" asking for "new" (row 3), "keep" (row 4); at the base "gone"
        // (row 3) and "old" asking for "old" (row 4)
        [
          ['row 2', 'new'],
          ['row 3', 'new'],
          ['row 3', 'removed'],
          ['row 4', 'removed'],
          ['row 4', 'same'],
        ].sort(),
      );
      const md = await runCli(fake, ['test', '--base', 'HEAD', 'say.cases.yaml', '--format', 'markdown'], {
        cwd: repo.dir,
        env,
      });
      assert.match(md.out, /`say\.cases\.yaml` dataset: \+2 rows, \u22122 rows/);
    } finally {
      repo.dispose();
    }
  });

  it('test --batch on a dataset: the shard’s rows in one batch, each cell with its case_id, collect too', async () => {
    const batchEnv = {
      ...env,
      PROMPTWRIGHT_CACHE_DIR: path.join(dir, 'cache'),
      PROMPTWRIGHT_BATCH_POLL_MS: '100,300',
    };
    const run = (args: string[]) => runCli(fake, args, { cwd: dir, env: batchEnv, killAfterMs: 90_000 });
    fake.clear();
    const direct = await cli(['test', 'big.cases.yaml', '--shard', '3/40', '--format', 'jsonl', '--concurrency', '16']);
    assert.equal(direct.code, 0, direct.err);
    const shard = ids(direct).sort();
    fake.clear();
    const r = await run(['test', 'big.cases.yaml', '--shard', '3/40', '--batch', '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    assertPrompt(r);
    assert.equal(messages(), 0);
    const creates = fake.requests.filter(q => q.method === 'POST' && q.path === '/v1/messages/batches');
    assert.equal(creates.length, 1);
    assert.equal((creates[0]!.body as { requests: unknown[] }).requests.length, shard.length);
    const cells = JSON.parse(r.out) as { case_id: string; batch_id: string; pass: boolean }[];
    assert.deepEqual(cells.map(c => c.case_id).sort(), shard);
    assert.ok(cells.every(c => c.pass && c.batch_id === cells[0]!.batch_id));
    assert.match(r.err, new RegExp(`${shard.length} of 10,000 cases chosen`));
    // collected again from what was kept with the batch: the same cells, the same ids
    const collected = await run(['batch', 'collect', cells[0]!.batch_id, '--format', 'json']);
    assert.equal(collected.code, 0, collected.err);
    assert.deepEqual((JSON.parse(collected.out) as { case_id: string }[]).map(c => c.case_id).sort(), shard);
    assert.equal(messages(), 0);
    assert.equal(fake.requests.filter(q => q.method === 'POST' && q.path === '/v1/messages/batches').length, 1);
  });

  it('--format jsonl prints each cell as it ends, while the others still run', async () => {
    const run = spawnCli(['test', 'slow.cases.yaml', '--format', 'jsonl', '--concurrency', '1'], { cwd: dir, env });
    const t0 = Date.now();
    while (!run.out.includes('\n') && Date.now() - t0 < 20_000) await new Promise(r => setTimeout(r, 10));
    const firstAt = Date.now();
    const code = await run.exited;
    await run.closed;
    assert.equal(code, 0, run.err);
    const lines = run.out.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.equal((JSON.parse(lines[0]!) as { case: string }).case, 'row 1');
    // the first record came a whole reply (at least 40 ms an event) before the last cell ended
    assert.ok(Date.now() - firstAt > 100, `the first line came ${Date.now() - firstAt} ms before the exit`);
  });

  it('a dataset with an error, or none at all: nothing is sent, exit 2, file:line and what to do', async () => {
    fake.clear();
    const broken = await cli(['test', 'broken.cases.yaml']);
    assert.equal(broken.code, 2);
    assert.match(broken.err, /^broken\.csv:3:1: error dataset-syntax: A quoted value is not closed/m);
    const missing = await cli(['test', 'missing.cases.yaml']);
    assert.equal(missing.code, 2);
    assert.match(
      missing.err,
      /missing\.cases\.yaml:2:10: error dataset-not-found: The dataset "nowhere\.csv" cannot be read/,
    );
    assert.equal(messages(), 0);
  });

  describe('memory: a million rows', function () {
    this.timeout(600_000);
    let peakScript: string;
    before(() => {
      peakScript = path.join(dir, 'peak.cjs');
      fs.writeFileSync(
        peakScript,
        "process.on('exit', () => require('fs').writeFileSync(process.env.PW_PEAK_FILE, " +
          'String(process.resourceUsage().maxRSS)));\n',
      );
      // the same kind of rows, a million of them (about 40 MB), and the first thousand on their own
      const out = fs.openSync(path.join(dir, 'million.csv'), 'w');
      fs.writeSync(out, 'word,__expected\n');
      for (let block = 0; block < 1000; block++) {
        const rows = Array.from({ length: 1000 }, (_, i) => `w${block * 1000 + i},contains: w${block * 1000 + i}\n`);
        fs.writeSync(out, rows.join(''));
        if (block === 0) fs.writeFileSync(path.join(dir, 'thousand.csv'), `word,__expected\n${rows.join('')}`);
      }
      fs.closeSync(out);
      fs.writeFileSync(path.join(dir, 'million.cases.yaml'), 'request: say.prompt.yaml\ndataset: million.csv\n');
      fs.writeFileSync(path.join(dir, 'thousand.cases.yaml'), 'request: say.prompt.yaml\ndataset: thousand.csv\n');
    });

    /** Peak resident memory (maxRSS, KB) of `promptwright ARGS`, and its exit code. */
    const peak = async (args: string[]): Promise<{ kb: number; code: number | null; err: string }> => {
      const file = path.join(dir, `peak-${process.hrtime.bigint()}`);
      const child = spawn(process.execPath, ['--require', peakScript, path.resolve('dist/cli.js'), ...args], {
        cwd: dir,
        env: { ...env, PW_PEAK_FILE: file },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', d => (err += String(d)));
      const code = await new Promise<number | null>(resolve => child.on('close', resolve));
      return { kb: Number(fs.readFileSync(file, 'utf8')), code, err };
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

    it('check: peak memory at most 2× that of --version', async () => {
      const version = median([
        (await peak(['--version'])).kb,
        (await peak(['--version'])).kb,
        (await peak(['--version'])).kb,
      ]);
      const check = await peak(['check', 'million.cases.yaml']);
      assert.equal(check.code, 0, check.err);
      assert.ok(
        check.kb <= 2 * version,
        `check: ${Math.round(check.kb / 1024)} MB, --version ${Math.round(version / 1024)} MB`,
      );
    });

    it('test --shard 1/1000: peak memory at most 1.5× that of test on a 1,000-row file of the same rows', async () => {
      fake.clear();
      const small = await peak(['test', 'thousand.cases.yaml', '--format', 'jsonl', '--concurrency', '16']);
      assert.equal(small.code, 0, small.err);
      const shard = await peak([
        'test',
        'million.cases.yaml',
        '--shard',
        '1/1000',
        '--format',
        'jsonl',
        '--concurrency',
        '16',
        '--max-requests',
        '2000',
      ]);
      assert.equal(shard.code, 0, shard.err);
      assert.match(shard.err, /of 1,000,000 cases chosen/);
      assert.ok(
        shard.kb <= 1.5 * small.kb,
        `--shard 1/1000 of a million: ${Math.round(shard.kb / 1024)} MB, ` +
          `a thousand rows: ${Math.round(small.kb / 1024)} MB`,
      );
    });
  });
});
