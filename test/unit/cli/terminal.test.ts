// What the CLI prints never drives the terminal: a reply, a stop reason, an error message, a model id, a case name, a
// workspace's name or an activity carrying an OSC 8 hyperlink, a window title, a CSI that clears the screen, a BEL
// and the C1 CSI U+009B (the fake's #escapes, TERMINAL_ESCAPES) reaches stdout and stderr written out (`\x1b`,
// `\u009b`), in every format, into a pipe as into a terminal. The built dist/cli.js spawned against the fake over
// TCP (keep-alive on): output, exit code and an exit as soon as the work is done.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { rewriteLine, terminalSafe, terminalText, type CliIo } from '../../../src/cli/io';
import { fakeModels } from '../../fake/models';
import { TERMINAL_ESCAPES, type Fake } from '../../fake/server';
import { cliEnv, useFake, withFake } from '../../support/fake';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';
import { gitRepo } from '../../support/tempRepo';

/** A raw control character a terminal would act on: any C0 but tab and line ends, a lone CR, any C1. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const RAW_CONTROL = /[\0-\x08\x0b\x0c\x0e-\x1f\x80-\x9f]|\r(?!\n)/;

/** TERMINAL_ESCAPES as the terminal is shown it. */
const SHOWN =
  '\\x1b]8;;https://evil.example/\\x1b\\click me\\x1b]8;;\\x1b\\ \\x1b]0;pwned\\x07 \\x1b[2J\\x1b[H \\x07 \\u009b31mred';

/** Neither stream carries a raw control character. */
function assertInert(r: Ran): void {
  assert.doesNotMatch(r.out, RAW_CONTROL, `stdout carries a raw control character:\n${JSON.stringify(r.out)}`);
  assert.doesNotMatch(r.err, RAW_CONTROL, `stderr carries a raw control character:\n${JSON.stringify(r.err)}`);
}

describe('terminalText and terminalSafe: one escaping on the way to stdout and stderr', () => {
  it('writes out C0 controls as \\x1b, C1 controls as \\u009b, a lone CR; keeps tab, LF and CR LF', () => {
    assert.equal(terminalText(TERMINAL_ESCAPES), SHOWN);
    assert.equal(terminalText('a\tb\nc\r\nd\re\0f\x7f'), 'a\tb\nc\r\nd\\x0de\\x00f\x7f');
    assert.equal(terminalText('plain text, ünïcödé 🙂'), 'plain text, ünïcödé 🙂');
    assert.equal(terminalText(terminalText(TERMINAL_ESCAPES)), SHOWN, 'once written out, nothing is left to escape');
  });

  it('keeps a JSON document valid and equal: C1 becomes the JSON escape of itself', () => {
    const value = { text: `x ${TERMINAL_ESCAPES}`, list: ['\u0085', '\u009f'] };
    const shown = terminalText(JSON.stringify(value, null, 2));
    assert.doesNotMatch(shown, RAW_CONTROL);
    assert.deepEqual(JSON.parse(shown), value);
  });

  it("passes every write through it, and keeps the stream's own answers and events", () => {
    const written: string[] = [];
    const listeners: string[] = [];
    const stdout = {
      write: (s: string) => written.push(s) < 2,
      once: (event: string) => listeners.push(event),
    };
    const io = terminalSafe({ stdout, stderr: { write: (s: string) => written.push(`err:${s}`) }, env: {} });
    assert.equal(io.stdout.write('\x1b[2J'), true);
    assert.equal(io.stdout.write('\x07'), false, "write's answer (a full buffer) comes through");
    io.stdout.once?.('drain', () => undefined);
    io.stderr.write('\u009b');
    assert.deepEqual(written, ['\\x1b[2J', '\\x07', 'err:\\u009b']);
    assert.deepEqual(listeners, ['drain']);
  });

  it('a progress line rewritten in place: our \\r and erase-line reach the terminal, the line is written out', () => {
    const written: string[] = [];
    const io: CliIo = terminalSafe({ stdout: { write: () => true }, stderr: { write: s => written.push(s) }, env: {} });
    rewriteLine(io, 'batch \x1b]0;x\x07 in_progress');
    assert.deepEqual(written, ['\rbatch \\x1b]0;x\\x07 in_progress\x1b[K']);
  });
});

describe('the CLI shows terminal escapes from files and the service written out, never acted on', function () {
  this.timeout(60_000);
  const fake = useFake({ keepAliveMs: 60_000, batchProcessingMs: 200 });
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-terminal-')));
    env = cliEnv(fake, {
      PROMPTWRIGHT_ADMIN_KEY: fake.adminKey,
      PROMPTWRIGHT_COMPLIANCE_KEY: 'sk-vendor-api01-full',
      PROMPTWRIGHT_CACHE_DIR: path.join(dir, '.cache'),
      PROMPTWRIGHT_BATCH_POLL_MS: '50',
    });
    const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
    write(
      'hostile.prompt.json',
      JSON.stringify({ model: 'model-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content: 'Hi #escapes' }] }),
    );
    write(
      'q.prompt.yaml',
      'model: model-sonnet-4-6\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "{{question}}"\n',
    );
    // a case name with a cleared screen and a BEL in it (YAML's \e is ESC), replies from #escapes
    write(
      'hostile.cases.yaml',
      [
        'request: q.prompt.yaml',
        'cases:',
        '  - name: "wipe \\e[2J\\a case"',
        '    vars: { question: "Hi #escapes" }',
        '    assert: [ { contains: nope } ]',
        '',
      ].join('\n'),
    );
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cli = (args: string[], o: { on?: Fake; cwd?: string } = {}): Promise<Ran> =>
    runCli(o.on ?? fake, args, { cwd: o.cwd ?? dir, env: { ...process.env, ...env }, killAfterMs: 40_000 });

  it('run: the streamed reply and its stop_reason, written out; exit 0', async () => {
    const r = await cli(['run', 'hostile.prompt.json']);
    assert.equal(r.code, 0, r.err);
    assertInert(r);
    assert.ok(r.out.includes(`Hello ${SHOWN}`), r.out);
    assert.ok(r.err.includes(`stop_reason: end_turn ${SHOWN}`), r.err);
    assertPrompt(r);
  });

  it("run: the service's error message written out; exit 1", async () => {
    fake.fail({ status: 400, message: `bad request ${TERMINAL_ESCAPES}` });
    const r = await cli(['run', 'hostile.prompt.json']);
    assert.equal(r.code, 1);
    assertInert(r);
    assert.ok(r.err.includes(`invalid_request_error: bad request ${SHOWN}`), r.err);
    assertPrompt(r);
  });

  it("test (text): the case name and the failed assertion's preview of the reply written out; exit 1", async () => {
    const r = await cli(['test', 'hostile.cases.yaml']);
    assert.equal(r.code, 1, r.err);
    assertInert(r);
    assert.match(r.out, /FAIL\s+wipe \\x1b\[2J\\x07 case · model-sonnet-4-6/);
    // the reply's preview is quoted as JSON
    assert.ok(r.out.includes('(the reply: "Hello \\u001b]8;;https://evil.example/'), r.out);
    assertPrompt(r);
  });

  it('test --format junit: the reply and the case name written out in well-formed XML', async () => {
    const r = await cli(['test', '--format', 'junit', 'hostile.cases.yaml']);
    assert.equal(r.code, 1, r.err);
    assertInert(r);
    assert.ok(r.out.includes(`<system-out>Hello ${SHOWN.replace(/&/g, '&amp;')}</system-out>`), r.out);
    assert.ok(r.out.includes('name="wipe \\x1b[2J\\x07 case on model-sonnet-4-6"'), r.out);
    assertPrompt(r);
  });

  it('test --format json: the reply and stop_reason as JSON escapes, equal to what the service sent', async () => {
    const r = await cli(['test', '--format', 'json', 'hostile.cases.yaml']);
    assert.equal(r.code, 1, r.err);
    assertInert(r);
    const [cell] = JSON.parse(r.out) as { case: string; text: string; stop_reason: string }[];
    assert.equal(cell?.case, 'wipe \x1b[2J\x07 case');
    assert.equal(cell?.text, `Hello ${TERMINAL_ESCAPES}`);
    assert.equal(cell?.stop_reason, `end_turn ${TERMINAL_ESCAPES}`);
    assert.ok(r.out.includes('\\u009b31mred') && r.out.includes('\\u001b]8;;'), 'JSON escapes');
    assertPrompt(r);
  });

  it('test --batch: the cells of a Message Batch, written out as a direct run prints them', async () => {
    const r = await cli(['test', '--batch', 'hostile.cases.yaml']);
    assert.equal(r.code, 1, r.err);
    assertInert(r);
    assert.match(r.out, /FAIL\s+wipe \\x1b\[2J\\x07 case · model-sonnet-4-6/);
    assert.ok(fake.requests.some(q => q.path === '/v1/messages/batches'));
    assertPrompt(r);
  });

  it("batch status: the service's error message written out; exit 1", async () => {
    fake.fail({ path: '/v1/messages/batches/msgbatch_none', status: 404, message: `no batch ${TERMINAL_ESCAPES}` });
    const r = await cli(['batch', 'status', 'msgbatch_none']);
    assert.equal(r.code, 1);
    assertInert(r);
    assert.ok(r.err.includes(`no batch ${SHOWN}`), r.err);
    assertPrompt(r);
  });

  it("count: a case name written out, and the service's error message; exit 0 then 1", async () => {
    const r = await cli(['count', 'hostile.cases.yaml']);
    assert.equal(r.code, 0, r.err);
    assertInert(r);
    assert.ok(r.out.includes('wipe \\x1b[2J\\x07 case'), r.out);
    assertPrompt(r);
    fake.fail({ path: '/count_tokens', status: 400, message: `cannot count ${TERMINAL_ESCAPES}` });
    const failed = await cli(['count', 'hostile.prompt.json']);
    assert.equal(failed.code, 1);
    assertInert(failed);
    assert.ok(failed.err.includes(`cannot count ${SHOWN}`), failed.err);
  });

  it('models: an id and a display_name from the service written out; as JSON, equal to what came', async () => {
    const [quill, ...rest] = fakeModels();
    const hostile = { ...quill!, id: `model-evil-1 ${TERMINAL_ESCAPES}`, display_name: `Evil ${TERMINAL_ESCAPES}` };
    await withFake({ keepAliveMs: 60_000, models: [hostile, ...rest] }, async own => {
      const ownEnv = cliEnv(own);
      const run = (args: string[]) => runCli(own, args, { cwd: dir, env: { ...process.env, ...ownEnv } });
      const r = await run(['models']);
      assert.equal(r.code, 0, r.err);
      assertInert(r);
      assert.ok(r.out.includes(`model-evil-1 ${SHOWN}`), r.out);
      assertPrompt(r);
      const json = await run(['models', '--format', 'json']);
      assertInert(json);
      assert.equal((JSON.parse(json.out) as { display_name: string }[])[0]?.display_name, `Evil ${TERMINAL_ESCAPES}`);
    });
  });

  it("admin workspaces list: a workspace's name written out", async () => {
    const created = fake.admin.handle('POST', new URL(`${fake.url}/v1/organizations/workspaces`), {
      name: `Ops ${TERMINAL_ESCAPES}`,
    });
    assert.equal(created?.status, 200);
    const r = await cli(['admin', 'workspaces', 'list']);
    assert.equal(r.code, 0, r.err);
    assertInert(r);
    assert.ok(r.out.includes(`Ops ${SHOWN.replace(/\s+/g, ' ')}`), r.out);
    assertPrompt(r);
  });

  it("compliance activities: an activity's fields written out, as text and as CSV; an error message too", async () => {
    const compliance = fake.compliance;
    const own = compliance.activity.bind(compliance);
    compliance.activity = (k: number): ReturnType<typeof own> => ({
      ...own(k),
      actor: { type: 'user', id: 'user_x', email: `mallory@example.com ${TERMINAL_ESCAPES}` },
    });
    try {
      const r = await cli(['compliance', 'activities', '--limit', '3']);
      assert.equal(r.code, 0, r.err);
      assertInert(r);
      assert.ok(r.out.includes('mallory@example.com \\x1b]8;;'), r.out);
      assertPrompt(r);
      const csv = await cli(['compliance', 'activities', '--limit', '3', '--format', 'csv']);
      assert.equal(csv.code, 0, csv.err);
      assertInert(csv);
      assert.equal(csv.out.split('\r\n').length, 5, 'a header, three rows and the end');
    } finally {
      compliance.activity = own;
    }
    fake.fail({ status: 403, errorType: 'permission_error', message: `no ${TERMINAL_ESCAPES}` });
    const failed = await cli(['compliance', 'orgs']);
    assert.equal(failed.code, 1);
    assertInert(failed);
    assert.ok(failed.err.includes(`no ${SHOWN}`), failed.err);
  });

  it('test --base --format markdown: the comment carries no control character and mentions nobody', async () => {
    const repo = gitRepo(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-terminal-repo-'))));
    try {
      repo.write('q.prompt.yaml', fs.readFileSync(path.join(dir, 'q.prompt.yaml'), 'utf8'));
      const cases = (name: string) =>
        `request: q.prompt.yaml\ncases:\n  - name: "${name}"\n    vars: { question: "Hi #escapes" }\n` +
        '    assert: [ { contains: Hello } ]\n';
      repo.write('p.cases.yaml', cases('ping @octocat and @org/team about #12 \\e[2J'));
      repo.commit('cases');
      const r = await cli(['test', '--base', 'HEAD', '--format', 'markdown', 'p.cases.yaml'], { cwd: repo.dir });
      assert.equal(r.code, 0, r.err);
      assertInert(r);
      assert.ok(r.out.includes('ping @\u200boctocat and @\u200borg/team about \\#\u200b12 \\\\x1b\\[2J'), r.out);
      assert.doesNotMatch(r.out, /@(?!\u200b)|#(?!\u200b|#)\d/, 'no mention and no issue reference');
      assertPrompt(r);
    } finally {
      repo.dispose();
    }
  });
});
