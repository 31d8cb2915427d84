// The conventions a newcomer brings from pytest, promptfoo and gh: `-h`/`--help` on every command and subcommand
// (its usage, exit 0), one line with the closest match for a misspelt command or option, every command taking
// exactly the options its usage lists; `cache clear`; and other tools' prompt files left alone. The spawned tests
// run the built dist/cli.js as a user does; the exhaustive ones go through the same entry in process.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { groupUsage, usageOf, type Command } from '../../../src/cli/args';
import { COMMANDS, runCli as runInProcess } from '../../../src/cli/main';
import { cliEnv, useFake } from '../../support/fake';
import { runCli, type Ran } from '../../support/spawnCli';

/** Every command and subcommand, by the words that name it. */
const every: Command[] = COMMANDS.flatMap(({ spec }) => ('commands' in spec ? spec.commands : [spec]));

async function inProcess(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runInProcess(argv, {
    stdout: { write: s => (out += s) },
    stderr: { write: s => (err += s) },
    env: {},
  });
  return { code, out, err };
}

describe('the CLI’s conventions', function () {
  this.timeout(30_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let dir: string;
  const cli = (args: string[], env: Record<string, string> = {}): Promise<Ran> =>
    runCli(fake, args, { cwd: dir, env: { ...process.env, ...cliEnv(fake), ...env } });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-usage-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('-h and --help on every command and subcommand print its usage and exit 0, sending nothing', async () => {
    assert.ok(every.length >= 30, `${every.length} commands`);
    for (const c of every)
      for (const flag of ['--help', '-h']) {
        const r = await inProcess([...c.name.split(' '), flag]);
        assert.equal(r.code, 0, `${c.name} ${flag}: ${r.err}`);
        assert.equal(r.out, usageOf(c), `${c.name} ${flag}`);
      }
    for (const { spec } of COMMANDS)
      if ('commands' in spec) {
        const help = await inProcess([spec.name, '--help']);
        assert.deepEqual([help.code, help.out], [0, groupUsage(spec)], spec.name);
        const bare = await inProcess([spec.name]);
        assert.deepEqual([bare.code, bare.out], [2, groupUsage(spec)], spec.name);
      }
    assert.equal(fake.requests.length, 0);
  });

  it('as a process: test -h, admin users list --help, lsp --help, help run', async () => {
    for (const [args, name] of [
      [['test', '-h'], 'test'],
      [['admin', 'users', 'list', '--help'], 'admin users list'],
      [['lsp', '--help'], 'lsp'],
      [['help', 'run'], 'run'],
      [['batch', 'collect', 'msgbatch_x', '--help'], 'batch collect'],
    ] as const) {
      const r = await cli([...args]);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      assert.equal(r.out, usageOf(every.find(c => c.name === name)!));
      assert.equal(r.err, '');
    }
  });

  it('a misspelt command or option: one line with the closest match, exit 2', async () => {
    const cases: [string[], string][] = [
      [['tset', 'a.cases.yaml'], "promptwright: unknown command 'tset'; did you mean 'test'?\n"],
      [
        ['test', 'a.cases.yaml', '--repaet', '3'],
        'promptwright test: unknown option --repaet; did you mean --repeat?\n',
      ],
      [['run', 'x.prompt.json', '--frce'], 'promptwright run: unknown option --frce; did you mean --force?\n'],
      [
        ['batch', 'colect', 'msgbatch_1'],
        "promptwright batch: unknown command 'batch colect'; did you mean 'batch collect'?\n",
      ],
      [
        ['admin', 'users', 'lst'],
        "promptwright admin: unknown command 'admin users lst'; did you mean 'admin users list'?\n",
      ],
      [
        ['check', '.', '--format', 'jsn'],
        'promptwright check: --format must be text or json, got "jsn"; did you mean json?\n',
      ],
    ];
    for (const [args, line] of cases) {
      const r = await cli(args);
      assert.deepEqual([r.code, r.err, r.out], [2, line, ''], args.join(' '));
    }
    const far = await cli(['run', 'x.prompt.json', '--zzzzzz']);
    assert.equal(far.code, 2);
    assert.equal(
      far.err,
      'promptwright run: unknown option --zzzzzz: it takes --var, --force, --prices, --format ' +
        '(promptwright run --help)\n',
    );
    assert.equal(fake.requests.length, 0);
  });

  it('an option another command has is refused where it does not apply (count --repeat, schema --format)', async () => {
    for (const args of [
      ['count', 'x.prompt.json', '--repeat', '2'],
      ['schema', '--format', 'json'],
      ['models', '--limit', '3'],
    ]) {
      const r = await inProcess(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.err, /unknown option --\w+/);
    }
  });

  it('cache clear forgets the verdicts and the collected batches, keeps a pending one; asks first', async () => {
    const cache = path.join(dir, 'cache');
    fs.mkdirSync(path.join(cache, 'verdicts', 'ab'), { recursive: true });
    fs.writeFileSync(path.join(cache, 'verdicts', 'ab', 'abcd.json'), '{}');
    fs.writeFileSync(path.join(cache, 'verdicts', 'ab', 'abce.json'), '{}');
    const batches = path.join(cache, 'batches');
    fs.mkdirSync(path.join(batches, 'runs'), { recursive: true });
    const record = (id: string, collectedAt?: string) =>
      JSON.stringify({
        version: 1,
        id,
        run: `run_${id}`,
        cwd: dir,
        files: ['a.cases.yaml'],
        requests: 1,
        createdAt: '2026-11-01T00:00:00Z',
        expiresAt: '2026-11-02T00:00:00Z',
        processingStatus: collectedAt ? 'ended' : 'in_progress',
        ...(collectedAt ? { collectedAt } : {}),
      });
    fs.writeFileSync(path.join(batches, 'msgbatch_done.json'), record('msgbatch_done', '2026-11-01T01:00:00Z'));
    fs.writeFileSync(path.join(batches, 'msgbatch_done.cells.json'), '{}');
    fs.writeFileSync(path.join(batches, 'msgbatch_open.json'), record('msgbatch_open'));
    const env = { PROMPTWRIGHT_CACHE_DIR: cache };
    const refused = await cli(['cache', 'clear'], env);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /refused without --yes/);
    assert.ok(fs.existsSync(path.join(cache, 'verdicts')));
    const r = await cli(['cache', 'clear', '--yes'], env);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, `removed 2 verdicts and 1 collected batch from ${cache}\n`);
    assert.match(r.err, /kept 1 batch not yet collected \(msgbatch_open\)/);
    assert.deepEqual(fs.readdirSync(batches).sort(), ['msgbatch_open.json', 'runs']);
    assert.ok(!fs.existsSync(path.join(cache, 'verdicts')));
  });

  it('GitHub Models and Prompty files: an information line each; check passes, run refuses, count skips', async () => {
    fs.writeFileSync(
      path.join(dir, 'summarize.prompt.yml'),
      [
        'name: Summarizer',
        'model: openai/gpt-4o-mini',
        'modelParameters:',
        '  temperature: 0.5',
        'messages:',
        '  - role: system',
        '    content: You summarize text.',
        '  - role: user',
        "    content: 'Summarize: {{input}}'",
        'testData:',
        '  - input: A long text about tents.',
        '    expected: A short text.',
        'evaluators:',
        '  - name: short',
        '    string: { contains: short }',
        '',
      ].join('\n'),
    );
    fs.writeFileSync(
      path.join(dir, 'ground.prompty'),
      '---\nname: Grounded\nmodel:\n  api: chat\n  parameters:\n    max_tokens: 300\nsample:\n  question: Hi\n---\n' +
        'system:\nYou answer from the context.\n\nuser:\n{{question}}\n',
    );
    fs.writeFileSync(
      path.join(dir, 'hello.prompt.yaml'),
      'model: model-sonnet-4-6\nmax_tokens: 100\nmessages:\n  - role: user\n    content: Hi\n',
    );
    const r = await cli(['check', '.', 'ground.prompty']);
    assert.equal(r.code, 0, r.out);
    assert.deepEqual(r.out.split('\n').filter(Boolean), [
      'ground.prompty:1:1: info other-tool-file: A Prompty file; not a request body: Promptwright does not check, ' +
        'count or send it. A request file for Promptwright is the body of POST /v1/messages ("model", ' +
        '"max_tokens", "messages").',
      'summarize.prompt.yml:1:1: info other-tool-file: A GitHub Models prompt file; not a request body: ' +
        'Promptwright does not check, count or send it. A request file for Promptwright is the body of POST ' +
        '/v1/messages ("model", "max_tokens", "messages").',
      '3 files checked: 0 errors, 2 other problems',
    ]);
    const run = await cli(['run', 'summarize.prompt.yml']);
    assert.equal(run.code, 2);
    assert.match(run.err, /^promptwright run: summarize\.prompt\.yml: A GitHub Models prompt file; not a request body/);
    const count = await cli(['count', '.']);
    assert.equal(count.code, 0, count.err);
    assert.match(count.err, /^summarize\.prompt\.yml: skipped: A GitHub Models prompt file; not a request body$/m);
    assert.deepEqual(
      fake.requests.map(q => q.path),
      ['/v1/messages/count_tokens'],
      'only the request file was counted',
    );
  });
});
