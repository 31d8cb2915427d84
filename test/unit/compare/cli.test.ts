// `count --base` and `test --base` as a user (and CI) runs them: the built dist/cli.js spawned in a temporary
// git repository against the fake over TCP (idle connections kept open for a minute). Between the commit
// and the working tree a request file is modified, one renamed, one deleted, one added and staged, one new
// and not tracked, a case file's cases changed and another case file's request fixed. Each format, the
// choice of files, --max-increase in both forms, exit 2 outside git, each distinct body counted once (the
// fake's calls counted), and an exit as soon as the work is done.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliEnv, useFake } from '../../support/fake';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';
import { tempRepo, type TempRepo } from '../../support/tempRepo';

const SONNET = 'model-sonnet-4-6';

/** A request file's text (JSON) whose last user message says `content`. */
function request(content: string, extra: Record<string, unknown> = {}): string {
  const body = { model: 'model-opus-4-7', max_tokens: 100, ...extra, messages: [{ role: 'user', content }] };
  return `${JSON.stringify(body, null, 2)}\n`;
}

interface CountRow {
  file: string;
  case?: string;
  base_file?: string;
  base_input_tokens: number | null;
  input_tokens: number | null;
  delta: number | null;
}

describe('compare: count and test --base as processes, in a git repository', function () {
  this.timeout(60_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let r: TempRepo;
  let env: Record<string, string>;

  before(async () => {
    env = cliEnv(fake);
    r = tempRepo('pw-compare-cli-');
    const support = (system: string) =>
      `model: model-opus-4-7\nmax_tokens: 100\nsystem: ${system}\n` +
      'messages:\n  - role: user\n    content: "{{question}}"\n';
    r.write('support.prompt.yaml', support('You are a support agent.'));
    r.write(
      'support.cases.yaml',
      [
        'request: support.prompt.yaml',
        `models: [${SONNET}]`,
        'cases:',
        '  - { name: greeting, vars: { question: "hi there" }, assert: [{ contains: "hi" }] }',
        '  - { name: bye, vars: { question: "bye now" }, assert: [{ contains: "bye" }] }',
        '',
      ].join('\n'),
    );
    r.write('modified.prompt.json', request('short'));
    r.write('same.prompt.json', request('unchanged'));
    r.write('copy.prompt.json', request('unchanged'));
    r.write('old.prompt.json', request('moved as it is'));
    r.write('deleted.prompt.json', request('about to go'));
    // at the base, this request cannot be sent (no max_tokens): its cases fail there, pass now
    r.write('broken.prompt.yaml', 'model: model-opus-4-7\nmessages:\n  - role: user\n    content: "{{q}}"\n');
    r.write(
      'broken.cases.yaml',
      `request: broken.prompt.yaml\nmodels: [${SONNET}]\ncases:\n  - { name: fixed, vars: { q: "ok" } }\n`,
    );
    r.write('notes.txt', 'not a prompt\n');
    r.commit('base');

    r.write('support.prompt.yaml', support('You are a friendly and patient support agent for ACME Corporation.'));
    r.write(
      'support.cases.yaml',
      [
        'request: support.prompt.yaml',
        `models: [${SONNET}]`,
        'cases:',
        '  - { name: greeting, vars: { question: "hello there" }, assert: [{ contains: "hi" }] }',
        '  - { name: thanks, vars: { question: "thanks" }, assert: [{ contains: "thanks" }] }',
        '',
      ].join('\n'),
    );
    r.write('modified.prompt.json', request(`much longer now: ${'and longer '.repeat(40)}`));
    r.git('mv', 'old.prompt.json', 'renamed.prompt.json');
    r.remove('deleted.prompt.json');
    r.write(
      'staged.count.json',
      JSON.stringify({ model: 'model-opus-4-7', messages: [{ role: 'user', content: 's' }] }),
    );
    r.git('add', 'staged.count.json');
    r.write('fresh.prompt.json', request(`a new prompt ${'with many words '.repeat(30)}`));
    r.write(
      'broken.prompt.yaml',
      'model: model-opus-4-7\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "{{q}}"\n',
    );
    r.write('notes.txt', 'still not a prompt\n');
  });
  after(async () => {
    r.dispose();
  });

  const cli = (args: string[], cwd = r.dir): Promise<Ran> =>
    runCli(fake, args, { cwd, env: { ...process.env, ...env }, killAfterMs: 30_000 });

  const promptly = assertPrompt;
  const countCalls = () => fake.requests.filter(q => q.path === '/v1/messages/count_tokens').length;
  const messageCalls = () => fake.requests.filter(q => q.path === '/v1/messages').length;

  describe('count --base', () => {
    it('--changed, text: one line per changed request, count and case file, and a total; exit 0', async () => {
      const ran = await cli(['count', '--base', 'HEAD', '--changed']);
      assert.equal(ran.code, 0, ran.err);
      const lines = ran.out.trimEnd().split('\n');
      assert.match(lines[0]!, /^Input tokens, HEAD \([0-9a-f]{7}\) → the working copy:$/);
      const names = lines.slice(1).map(l => l.split(/\s{2,}/)[0]);
      assert.deepEqual(names, [
        'broken.prompt.yaml',
        'deleted.prompt.json',
        'fresh.prompt.json',
        'modified.prompt.json',
        'renamed.prompt.json',
        'staged.count.json',
        'support.cases.yaml (case "greeting")',
        'support.cases.yaml (case "thanks")',
        'support.cases.yaml (case "bye")',
        'support.prompt.yaml',
        'total',
      ]);
      const line = (name: string) => lines.find(l => l.startsWith(`${name} `))!;
      assert.match(line('modified.prompt.json'), /^modified\.prompt\.json\s+\d+ → [\d,]+ {2}\(\+\d+, \+\d+\.\d%\)$/);
      assert.match(line('fresh.prompt.json'), /— → \d+ {2}\(new\)$/);
      assert.match(line('deleted.prompt.json'), /\d+ → — {2}\(deleted\)$/);
      assert.match(line('renamed.prompt.json'), /\(±0, ±0%\) {2}\[renamed from old\.prompt\.json\]$/);
      assert.doesNotMatch(ran.out, /notes\.txt|same\.prompt\.json/);
      // each distinct body once: the renamed file's two versions are one body, and so are broken.prompt.yaml's
      // (they differ in max_tokens only, which count_tokens is not sent); nothing for unchanged files
      assert.equal(countCalls(), 13);
      promptly(ran);
    });

    it('--format json: a record per count, null where a side is missing', async () => {
      const ran = await cli(['count', '--base', 'HEAD', '--changed', '--format', 'json']);
      assert.equal(ran.code, 0, ran.err);
      const rows = JSON.parse(ran.out) as CountRow[];
      const row = (file: string, c?: string) => rows.find(x => x.file === file && x.case === c)!;
      assert.deepEqual(Object.keys(row('modified.prompt.json')), [
        'file',
        'base_input_tokens',
        'input_tokens',
        'delta',
      ]);
      const m = row('modified.prompt.json');
      assert.equal(m.delta, m.input_tokens! - m.base_input_tokens!);
      assert.ok(m.delta > 0);
      assert.deepEqual(
        { ...row('fresh.prompt.json'), input_tokens: 0 },
        {
          file: 'fresh.prompt.json',
          base_input_tokens: null,
          input_tokens: 0,
          delta: null,
        },
      );
      assert.equal(row('deleted.prompt.json').input_tokens, null);
      assert.equal(row('deleted.prompt.json').delta, null);
      assert.equal(row('renamed.prompt.json').base_file, 'old.prompt.json');
      assert.equal(row('renamed.prompt.json').delta, 0);
      assert.equal(row('support.cases.yaml', 'bye').input_tokens, null);
      assert.equal(row('support.cases.yaml', 'thanks').base_input_tokens, null);
      assert.ok(row('support.cases.yaml', 'greeting').delta! > 0);
      promptly(ran);
    });

    it('--format markdown: a comment block that starts with its marker, a table and a total row', async () => {
      const ran = await cli(['count', '--base', 'HEAD', '--changed', '--format', 'markdown']);
      assert.equal(ran.code, 0, ran.err);
      const lines = ran.out.split('\n');
      assert.equal(lines[0], '<!-- promptwright:count -->');
      assert.ok(lines.includes('| File | Before | After | Change |'));
      assert.ok(lines.some(l => /^\| `fresh\.prompt\.json` \| — \| \d+ \| new \|$/.test(l)));
      assert.ok(lines.some(l => /^\| `deleted\.prompt\.json` \| \d+ \| — \| deleted \|$/.test(l)));
      assert.ok(
        lines.some(l => /^\| `support\.cases\.yaml` · greeting \| \d+ \| \d+ \| \+\d+ \(\+[\d.]+%\) \|$/.test(l)),
      );
      assert.ok(lines.some(l => /^\| \*\*Total\*\* \| \*\*[\d,]+\*\* \| \*\*[\d,]+\*\* \| \*\*\+[\d,]+ /.test(l)));
      promptly(ran);
    });

    it('--max-increase N (tokens): exit 1 naming what grew too much; new files are not held to it', async () => {
      const over = await cli(['count', '--base', 'HEAD', '--changed', '--max-increase', '20']);
      assert.equal(over.code, 1, over.err);
      assert.match(
        over.err,
        /^modified\.prompt\.json: \+\d+ input tokens, \+[\d.]+%, more than the allowed increase of 20 tokens$/m,
      );
      assert.doesNotMatch(over.err, /fresh\.prompt\.json/);
      const within = await cli(['count', '--base', 'HEAD', '--changed', '--max-increase', '100000']);
      assert.equal(within.code, 0, within.err);
      promptly(within);
    });

    it('--max-increase P%: the same in percent; the markdown says who is over', async () => {
      const over = await cli(['count', '--base', 'HEAD', '--changed', '--max-increase', '10%', '--format', 'markdown']);
      assert.equal(over.code, 1, over.err);
      assert.match(over.err, /modified\.prompt\.json: .*more than the allowed increase of 10%/);
      assert.match(over.out, /\*\*Over the allowed increase of 10%:\*\* .*`modified\.prompt\.json`/);
      const within = await cli(['count', '--base', 'HEAD', '--changed', '--max-increase', '100000%']);
      assert.equal(within.code, 0, within.err);
    });

    it('FILE with --changed: only the changed ones among them', async () => {
      const ran = await cli(['count', '--base', 'HEAD', '--changed', 'support.prompt.yaml', 'same.prompt.json']);
      assert.equal(ran.code, 0, ran.err);
      assert.deepEqual(
        ran.out
          .trimEnd()
          .split('\n')
          .slice(1)
          .map(l => l.split(/\s{2,}/)[0]),
        ['support.prompt.yaml', 'total'],
      );
    });

    it('identical bodies are counted once: two unchanged files with the same body, at the base and now', async () => {
      const ran = await cli(['count', '--base', 'HEAD', 'same.prompt.json', 'copy.prompt.json', '--format', 'json']);
      assert.equal(ran.code, 0, ran.err);
      const rows = JSON.parse(ran.out) as CountRow[];
      assert.deepEqual(
        rows.map(x => [x.file, x.delta]),
        [
          ['copy.prompt.json', 0],
          ['same.prompt.json', 0],
        ],
      );
      assert.equal(countCalls(), 1);
      promptly(ran);
    });

    it('nothing changed: says so, sends nothing, exit 0 (no key needed)', async () => {
      const sub = path.join(r.dir, 'empty');
      fs.mkdirSync(sub, { recursive: true });
      const ran = await cli(['count', '--base', 'HEAD', '--changed', '--format', 'markdown'], sub);
      assert.equal(ran.code, 0, ran.err);
      assert.match(
        ran.out,
        /^<!-- promptwright:count -->\n[\s\S]*No request, case or count file changed against `HEAD`/,
      );
      assert.equal(fake.requests.length, 0);
    });
  });

  describe('test --base', () => {
    it('--changed, text: the changed cells first, each with a word diff of its reply; exit 1 (one broke)', async () => {
      const ran = await cli(['test', '--base', 'HEAD', '--changed']);
      assert.equal(ran.code, 1, ran.err);
      const out = ran.out;
      assert.match(out, /^Against HEAD \([0-9a-f]{7}\):\nChanged\n/);
      const order = ['BROKE', 'FIXED', 'NEW', 'REMOVED'].map(w => out.indexOf(`  ${w} `));
      assert.ok(
        order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!)),
        out,
      );
      assert.match(out, /BROKE {5}support\.cases\.yaml · greeting · model-sonnet-4-6 {2}PASS → FAIL/);
      assert.match(out, /reply: Hello! You said: \[-hi-\]\{\+hello\+\} there/);
      assert.match(out, /FIXED {5}broken\.cases\.yaml · fixed · model-sonnet-4-6 {2}NOT SENT → NO ASSERTIONS/);
      assert.match(out, /at HEAD: .*max_tokens/);
      assert.match(out, /against HEAD: 1 broke, 1 fixed, 1 new, 1 removed$/m);
      // working copy: greeting, thanks, fixed; base: greeting, bye (broken's base is not sent)
      assert.equal(messageCalls(), 5);
      promptly(ran);
    });

    it('--format json: each record with `base` and `change`; a cell only at the base has pass null', async () => {
      const ran = await cli(['test', '--base', 'HEAD', '--changed', '--format', 'json']);
      assert.equal(ran.code, 1, ran.err);
      type Rec = {
        file: string;
        case: string;
        pass: boolean | null;
        text: string | null;
        change: string;
        base: null | { pass: boolean | null; text: string | null; request_id: string | null; problems?: string[] };
      };
      const recs = JSON.parse(ran.out) as Rec[];
      const rec = (c: string) => recs.find(x => x.case === c)!;
      assert.deepEqual(
        recs.map(x => [x.case, x.change]),
        [
          ['fixed', 'fixed'],
          ['greeting', 'broke'],
          ['thanks', 'new'],
          ['bye', 'removed'],
        ],
      );
      const greeting = rec('greeting');
      assert.equal(greeting.pass, false);
      assert.equal(greeting.base?.pass, true);
      assert.equal(greeting.base?.text, 'Hello! You said: hi there');
      assert.match(greeting.base.request_id!, /^req_fake_/);
      assert.deepEqual(Object.keys(greeting.base), [
        'pass',
        'text',
        'usage',
        'stop_reason',
        'latency_ms',
        'request_id',
        'samples',
        'passed_samples',
        'min_pass',
        'flaky',
        'cost_usd',
        'judge_cost_usd',
      ]);
      assert.equal(rec('thanks').base, null);
      assert.equal(rec('bye').pass, null);
      assert.equal(rec('bye').text, null);
      assert.equal(rec('bye').base?.pass, true);
      const fixed = rec('fixed');
      assert.equal(fixed.base?.pass, null);
      assert.ok(
        fixed.base?.problems?.some(p => /max_tokens/.test(p)),
        JSON.stringify(fixed.base),
      );
      promptly(ran);
    });

    it('--format junit: the working copy only, as `test` gives it', async () => {
      const ran = await cli(['test', '--base', 'HEAD', 'support.cases.yaml', '--format', 'junit']);
      assert.equal(ran.code, 1, ran.err);
      assert.match(ran.out, /<testsuites name="promptwright test" tests="2" failures="1" errors="0" skipped="0"/);
      assert.doesNotMatch(ran.out, /bye/);
      assert.equal(messageCalls(), 4, 'the base cells ran too');
      promptly(ran);
    });

    it('--format markdown: a pull-request comment, with its marker and the replies that differ', async () => {
      const ran = await cli(['test', '--base', 'HEAD', '--changed', '--format', 'markdown']);
      assert.equal(ran.code, 1, ran.err);
      const lines = ran.out.split('\n');
      assert.equal(lines[0], '<!-- promptwright:test -->');
      assert.ok(lines.includes('| Change | File | Case | Model | Before | After |'));
      assert.ok(lines.includes(`| ❌ **broke** | \`support.cases.yaml\` | greeting | \`${SONNET}\` | pass | fail |`));
      assert.ok(lines.includes(`| ➖ removed | \`support.cases.yaml\` | bye | \`${SONNET}\` | pass | — |`));
      assert.ok(lines.includes('Hello! You said: [-hi-]{+hello+} there'));
    });

    it('a working copy with errors: nothing sent, exit 2, as `test`', async () => {
      r.write('bad.cases.yaml', 'request: nowhere.prompt.yaml\ncases:\n  - name: a\n');
      try {
        const ran = await cli(['test', '--base', 'HEAD', 'bad.cases.yaml']);
        assert.equal(ran.code, 2, ran.err);
        assert.match(ran.err, /request-not-found/);
        assert.equal(fake.requests.length, 0);
      } finally {
        r.remove('bad.cases.yaml');
      }
    });

    it('--changed: a case file whose judge prompt changed runs, though its text and request did not', async () => {
      const j = tempRepo('pw-compare-judge-');
      try {
        j.write(
          'ask.prompt.yaml',
          'model: model-opus-4-7\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "{{q}}"\n',
        );
        j.write(
          'ask.cases.yaml',
          [
            'request: ask.prompt.yaml',
            `models: [${SONNET}]`,
            `judge: { model: ${SONNET}, prompt: judge.txt }`,
            'cases:',
            '  - { name: hello, vars: { q: "hello" }, assert: [{ rubric: \'Says "hello"\' }] }',
            '',
          ].join('\n'),
        );
        j.write('judge.txt', 'Grade <reply>{{reply}}</reply> against <criteria>{{criteria}}</criteria>.\n');
        j.commit('base');
        const unchanged = await cli(['test', '--base', 'HEAD', '--changed', '--format', 'json'], j.dir);
        assert.deepEqual(JSON.parse(unchanged.out), [], unchanged.err);
        j.write('judge.txt', 'Be strict. Grade <reply>{{reply}}</reply> against <criteria>{{criteria}}</criteria>.\n');
        const ran = await cli(['test', '--base', 'HEAD', '--changed', '--format', 'json'], j.dir);
        const recs = JSON.parse(ran.out) as { file: string; case: string; change: string }[];
        assert.deepEqual(
          recs.map(x => [x.file, x.case]),
          [['ask.cases.yaml', 'hello']],
          ran.err,
        );
        promptly(ran);
      } finally {
        j.dispose();
      }
    });
  });

  describe('usage errors (exit 2, nothing sent)', () => {
    it('outside a git repository, an unknown revision, --changed without --base', async () => {
      const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-nogit-')));
      fs.writeFileSync(path.join(outside, 'a.prompt.json'), request('hi'));
      fs.writeFileSync(path.join(outside, 'a.cases.yaml'), 'request: a.prompt.json\ncases:\n  - name: a\n');
      try {
        const count = await cli(['count', '--base', 'HEAD', 'a.prompt.json'], outside);
        assert.equal(count.code, 2);
        assert.match(count.err, /--base needs a git repository: .* is not in one/);
        const test = await cli(['test', '--base', 'HEAD', '--changed'], outside);
        assert.equal(test.code, 2);
        assert.match(test.err, /--base needs a git repository/);
      } finally {
        fs.rmSync(outside, { recursive: true });
      }
      const unknown = await cli(['count', '--base', 'no-such-branch', '--changed']);
      assert.equal(unknown.code, 2);
      assert.match(unknown.err, /unknown revision "no-such-branch"/);
      const noBase = await cli(['count', '--changed']);
      assert.equal(noBase.code, 2);
      assert.match(noBase.err, /--changed compares with a revision: give --base REF too/);
      const badLimit = await cli(['count', '--base', 'HEAD', '--changed', '--max-increase', 'lots']);
      assert.equal(badLimit.code, 2);
      assert.equal(fake.requests.length, 0);
    });
  });
});
