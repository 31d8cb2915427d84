// docs/ci.md's GitHub Actions workflow, run as written: its shell steps in order, each with bash as GitHub
// runs them (`-eo pipefail`), with $GITHUB_ENV carried from step to step and $GITHUB_STEP_SUMMARY written,
// in a clone of a bare "origin" (main, and a pull request's branch two commits on) against the fake. Two
// steps are stood in for: the install (the built CLI is put on the PATH) and the comment's GitHub API call
// (its body is copied to a file the test reads). A step that fails stops the job, as on GitHub.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as YAML from 'yaml';
import { useFake } from '../../support/fake';
import { gitIn, tempRepo, type TempRepo } from '../../support/tempRepo';

interface Step {
  name?: string;
  id?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}

/** The workflow in docs/ci.md: the YAML block that has `jobs`. */
function workflow(): { steps: Step[]; jobEnv: Record<string, string> } {
  const doc = fs.readFileSync('docs/ci.md', 'utf8');
  const block = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map(m => m[1]!).find(b => /^jobs:/m.test(b));
  assert.ok(block, 'docs/ci.md has a workflow');
  const parsed = YAML.parse(block) as { jobs: Record<string, { env: Record<string, string>; steps: Step[] }> };
  const job = Object.values(parsed.jobs)[0]!;
  return { steps: job.steps, jobEnv: job.env };
}

const SUPPORT = (system: string) =>
  [
    'model: model-opus-4-7',
    'max_tokens: 100',
    `system: ${system}`,
    'messages:',
    '  - role: user',
    '    content: "{{question}}"',
    '',
  ].join('\n');
const CASES = [
  'request: support.prompt.yaml',
  'models: [model-sonnet-4-6]',
  'cases:',
  '  - { name: greeting, vars: { question: "hi there" }, assert: [{ contains: "hi" }] }',
  '',
].join('\n');

describe('compare: the CI workflow of docs/ci.md, run as written', function () {
  this.timeout(120_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let origin: TempRepo;
  let work: string;
  let bin: string;
  let scratch: string;

  before(async () => {
    // "origin": the repository on GitHub; the job's checkout is a clone of it on the pull request's branch
    origin = tempRepo('pw-ci-origin-');
    origin.write('support.prompt.yaml', SUPPORT('You are a support agent for ACME, helpful and brief.'));
    origin.write('support.cases.yaml', CASES);
    origin.write('README.md', 'prompts\n');
    origin.commit('the prompts');
    scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-ci-')));
    work = path.join(scratch, 'checkout');
    gitIn(scratch)('clone', '-q', origin.dir, work);
    const git = gitIn(work);
    // the job's own commits (the second test's) are made without the tests' author: the clone names one
    for (const [k, v] of [
      ['user.name', 'Promptwright Test'],
      ['user.email', 'test@example.com'],
      ['commit.gpgsign', 'false'],
    ])
      git('config', k!, v!);
    git('checkout', '-q', '-b', 'pull-request');
    // the pull request: first a small edit, then (second commit, used by the second test) a large one
    fs.writeFileSync(
      path.join(work, 'support.prompt.yaml'),
      SUPPORT('You are a support agent for ACME, helpful, brief.'),
    );
    git('commit', '-q', '-am', 'a small edit');
    // the step that installs the CLI is stood in for: `promptwright` on the PATH is the built one
    bin = path.join(scratch, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, 'promptwright'),
      `#!/bin/sh\nexec "${process.execPath}" "${path.resolve('dist/cli.js')}" "$@"\n`,
      { mode: 0o755 },
    );
  });
  after(async () => {
    origin.dispose();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** Runs a script as GitHub runs a `run:` step (the fake answers in this process: never spawnSync here). */
  function bash(script: string, env: Record<string, string>): Promise<{ status: number | null; output: string }> {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', d => (output += String(d)));
    child.stderr.on('data', d => (output += String(d)));
    return new Promise(resolve => child.on('close', status => resolve({ status, output })));
  }

  /** Runs the job's shell steps; returns the comment's body, the summary, and the step that failed. */
  async function runJob(): Promise<{ comment: string | undefined; summary: string; failed?: string; logs: string[] }> {
    const { steps } = workflow();
    const ghEnv = path.join(scratch, 'github_env');
    const summaryFile = path.join(scratch, 'step_summary');
    const commentFile = path.join(scratch, 'comment.md');
    for (const f of [ghEnv, summaryFile, commentFile]) fs.rmSync(f, { force: true });
    fs.writeFileSync(ghEnv, '');
    let env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      // the job's env, as GitHub fills it for a pull request into main
      BASE: 'origin/main',
      PROMPTWRIGHT_BASE_URL: fake.url,
      PROMPTWRIGHT_API_KEY: fake.apiKey,
      GITHUB_ENV: ghEnv,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_REPOSITORY: 'acme/prompts',
    };
    const logs: string[] = [];
    for (const step of steps) {
      if (!step.run) continue; // actions (checkout, setup-node): the clone and this Node stand in for them
      if (step.id === 'install') continue;
      const run = step.id === 'comment' ? `[ -s count.md ] || exit 0\ncp count.md "${commentFile}"` : step.run;
      if (step.id !== 'comment') {
        assert.doesNotMatch(run, /\$\{\{/, `step "${step.name}" runs as written: no expression to fill in`);
        assert.ok(!step.env, `step "${step.name}" needs no env of GitHub's`);
      }
      const r = await bash(run, env);
      logs.push(`## ${step.name}\n${r.output}`);
      // what a step appends to $GITHUB_ENV is in the environment of the steps after it
      for (const line of fs.readFileSync(ghEnv, 'utf8').split('\n')) {
        const eq = line.indexOf('=');
        if (eq > 0) env = { ...env, [line.slice(0, eq)]: line.slice(eq + 1) };
      }
      if (r.status !== 0) {
        return {
          comment: fs.existsSync(commentFile) ? fs.readFileSync(commentFile, 'utf8') : undefined,
          summary: fs.readFileSync(summaryFile, 'utf8'),
          failed: step.name!,
          logs,
        };
      }
    }
    return {
      comment: fs.existsSync(commentFile) ? fs.readFileSync(commentFile, 'utf8') : undefined,
      summary: fs.readFileSync(summaryFile, 'utf8'),
      logs,
    };
  }

  it('a small edit: the comment with its marker and table, the tests on both versions, the job passes', async () => {
    const { steps, jobEnv } = workflow();
    assert.deepEqual(
      steps.filter(s => s.run).map(s => s.name),
      [
        'Install Promptwright',
        'Check every prompt',
        'Count tokens against the base branch',
        'Post or update the pull-request comment',
        'Test the changed case files against the base branch',
        'Fail when a prompt grew more than allowed',
      ],
    );
    assert.equal(jobEnv.BASE, 'origin/${{ github.base_ref }}');
    const job = await runJob();
    assert.equal(job.failed, undefined, job.logs.join('\n'));
    const comment = job.comment!.split('\n');
    assert.equal(comment[0], '<!-- promptwright:count -->');
    assert.ok(comment.includes('| File | Before | After | Change |'), job.comment);
    assert.ok(
      comment.some(l => /^\| `support\.prompt\.yaml` \| \d+ \| \d+ \| -\d+ \(-[\d.]+%\) \|$/.test(l)),
      job.comment,
    );
    assert.match(job.summary, /<!-- promptwright:test -->/);
    assert.match(job.summary, /\| same \| `support\.cases\.yaml` \| greeting \| `model-sonnet-4-6` \| pass \| pass \|/);
    // count: the changed prompt at main and now; test: its (unchanged) case file's cell on both versions
    assert.equal(fake.requests.filter(q => q.path === '/v1/messages/count_tokens').length, 2);
    assert.equal(fake.requests.filter(q => q.path === '/v1/messages').length, 2);
  });

  it('a prompt that grew by more than 10%: the comment says so and the last step fails the job', async () => {
    const grown = SUPPORT(
      `You are a support agent for ACME. ${'Always be thorough and explain every step. '.repeat(4)}`,
    );
    fs.writeFileSync(path.join(work, 'support.prompt.yaml'), grown);
    const r = spawnSync('git', ['commit', '-q', '-am', 'a long system prompt'], { cwd: work, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const job = await runJob();
    assert.equal(job.failed, 'Fail when a prompt grew more than allowed', job.logs.join('\n'));
    assert.match(job.comment!, /^<!-- promptwright:count -->\n/);
    assert.match(job.comment!, /\*\*Over the allowed increase of 10%:\*\* .*`support\.prompt\.yaml`/);
    assert.match(
      job.logs.join('\n'),
      /support\.prompt\.yaml: \+\d+ input tokens, \+[\d.]+%, more than the allowed increase/,
    );
  });
});
