// A run of case files that would send more than `--max-requests N` (by default 1,000) stops before it sends
// anything and says how many requests it would send: replies (cells × samples, on every model, both sides of
// `--base`, or in a Message Batch) and at most one judge request per rubric of each. In CI it stops; at a terminal
// outside CI the default asks. The built dist/cli.js spawned against the fake over TCP, and the question in process.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli as runInProcess } from '../../../src/cli/main';
import { cliEnv, useFake } from '../../support/fake';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';
import { gitRepo, type TempRepo } from '../../support/tempRepo';

const REQUEST = 'model: model-sonnet-4-6\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "Say {{word}}"\n';

/** A case file of `cases` cases on two models, `repeat` samples a cell, each case with a rubric when `judged`. */
function caseFile(cases: number, repeat: number, judged = false): string {
  const rows = Array.from({ length: cases }, (_, i) => {
    const rubric = judged ? ', { rubric: "It greets" }' : '';
    return `  - { name: c${i}, vars: { word: hello }, assert: [ { contains: hello }${rubric} ] }`;
  });
  return [
    'request: say.prompt.yaml',
    'models: [model-sonnet-4-6, model-haiku-4-5]',
    ...(judged ? ['judge: { model: model-haiku-4-5 }'] : []),
    `repeat: ${repeat}`,
    'cases:',
    ...rows,
    '',
  ].join('\n');
}

describe('test --max-requests: a run over the limit sends nothing and says how many it would send', function () {
  this.timeout(60_000);
  const fake = useFake({ keepAliveMs: 60_000, batchProcessingMs: 100 });
  let repo: TempRepo;

  before(() => {
    repo = gitRepo(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-max-requests-'))));
    repo.write('say.prompt.yaml', REQUEST);
    // 3 cases × 2 models × 2 samples: 12 replies, and a rubric each: at most 12 judge requests
    repo.write('judged.cases.yaml', caseFile(3, 2, true));
    // 11 cases × 2 models × 50 samples: 1,100 replies, over the default
    repo.write('big.cases.yaml', caseFile(11, 50));
    repo.commit('cases');
  });
  after(() => repo.dispose());

  const cli = (args: string[], env: Record<string, string> = {}): Promise<Ran> =>
    runCli(fake, args, {
      cwd: repo.dir,
      env: { ...process.env, ...cliEnv(fake), PROMPTWRIGHT_CACHE_DIR: path.join(repo.dir, '.cache'), CI: '', ...env },
    });

  it('over --max-requests N: exit 2, the count of replies and judge requests, nothing sent', async () => {
    const r = await cli(['test', 'judged.cases.yaml', '--max-requests', '20']);
    assert.equal(r.code, 2, r.err);
    assert.equal(
      r.err,
      'promptwright test: nothing sent: this run would send 24 requests (12 replies, at most 12 judge requests), ' +
        'over --max-requests 20; give --max-requests 24 to send them\n',
    );
    assert.equal(r.out, '');
    assert.equal(fake.requests.length, 0);
    assertPrompt(r);
  });

  it('within --max-requests N the run goes on: every reply and judge request sent', async () => {
    const r = await cli(['test', 'judged.cases.yaml', '--max-requests', '24']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /6 cells: 6 passed/);
    const sent = fake.requests.filter(q => q.path === '/v1/messages').length;
    assert.ok(sent > 12 && sent <= 24, `${sent} requests`);
    assertPrompt(r);
  });

  it('the default is 1,000, in CI (CI set) and in a script alike: 1,100 replies are refused', async () => {
    for (const ci of ['true', '']) {
      const r = await cli(['test', 'big.cases.yaml'], { CI: ci });
      assert.equal(r.code, 2, r.err);
      assert.match(
        r.err,
        /would send 1,100 requests \(1,100 replies\), over --max-requests 1000 \(the default\); give --max-requests 1100/,
      );
      assert.equal(fake.requests.length, 0);
    }
  });

  it('--batch counts the batch requests; --base counts both sides', async () => {
    const batch = await cli(['test', 'big.cases.yaml', '--batch']);
    assert.equal(batch.code, 2, batch.err);
    assert.match(batch.err, /would send 1,100 requests/);
    const base = await cli(['test', 'judged.cases.yaml', '--base', 'HEAD', '--max-requests', '30']);
    assert.equal(base.code, 2, base.err);
    assert.match(base.err, /would send 48 requests \(24 replies, at most 24 judge requests\), over --max-requests 30/);
    assert.equal(fake.requests.length, 0);
  });

  it('--max-requests must be a whole number from 1', async () => {
    for (const bad of ['0', '-5', '1.5', 'many']) {
      const r = await cli(['test', 'judged.cases.yaml', '--max-requests', bad]);
      assert.equal(r.code, 2);
      assert.match(r.err, /--max-requests must be a whole number from 1 to 10000000/);
    }
  });

  it('at a terminal outside CI the default asks; no sends nothing, yes goes on; in CI it never asks', async () => {
    const asked: string[] = [];
    const run = async (answer: boolean, env: Record<string, string> = {}) => {
      let err = '';
      const code = await runInProcess(['test', path.join(repo.dir, 'big.cases.yaml')], {
        stdout: { write: () => true },
        stderr: { write: s => (err += s) },
        // no service address: a run that goes past the question stops there, sending nothing
        env: { PROMPTWRIGHT_CACHE_DIR: path.join(repo.dir, '.cache'), ...env },
        interactive: true,
        confirm: q => {
          asked.push(q);
          return Promise.resolve(answer);
        },
      });
      return { code, err };
    };
    const no = await run(false);
    assert.equal(no.code, 2);
    assert.deepEqual(asked, [
      'promptwright test: this run would send 1,100 requests (1,100 replies), over 1,000. Send them? [y/N] ',
    ]);
    assert.match(no.err, /Not confirmed: nothing was sent/);
    const yes = await run(true);
    assert.equal(yes.code, 2);
    assert.match(yes.err, /no service address/, 'past the question, to the address it needs');
    const ci = await run(true, { CI: 'true' });
    assert.equal(ci.code, 2);
    assert.equal(asked.length, 2, 'not asked in CI');
    assert.match(ci.err, /nothing sent: this run would send 1,100 requests/);
    assert.equal(fake.requests.length, 0);
  });
});
