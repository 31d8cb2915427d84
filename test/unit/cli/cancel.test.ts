// Ctrl-C in every command that talks to the service: against a fake that never answers (or stops in the
// middle of a stream), cancelling ends the command with exit 130 and "Cancelled" on stderr within a bound,
// the fake sees the connection close, and what had already arrived stays on stdout. Once through the CLI's
// entry function with the io's signal (what src/cli.ts's SIGINT handler aborts), once with a real SIGINT
// sent to the built dist/cli.js.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/main';
import { type Fake, type FakeRequest } from '../../fake/server';
import { cliEnv, useFake } from '../../support/fake';
import { spawnCli } from '../../support/spawnCli';

/**
 * The bound a test allows from the abort to the exit, and to the fake seeing the socket close. The rule is
 * 100 ms; the bound is generous so a loaded machine does not fail the suite (the real figures are far lower).
 */
const BOUND_MS = 1000;
const COMPLIANCE_KEY = 'sk-vendor-api01-full';

interface Case {
  name: string;
  args: string[];
  /** sets the fake up before the command starts (a stalled answer, by default) */
  arrange?: (fake: Fake) => void;
  /** when to cancel: once this holds (by default, once the fake holds an unanswered request) */
  ready?: (fake: Fake, out: string) => boolean;
  /** what must already be on stdout when cancelled, and stay there */
  kept?: RegExp;
  /** what stderr says */
  said: RegExp;
  /** requests the fake sees: pages answered before the cancelled one, and that one (never a retry) */
  requests?: number;
  /** stdout is a JSON array of this many records */
  jsonRecords?: number;
}

const stallNext = (fake: Fake) => fake.fail({ stall: true });
const pending = (fake: Fake): FakeRequest | undefined => fake.requests.find(r => r.status === undefined);

const CASES: Case[] = [
  { name: 'count', args: ['count', 'a.prompt.json'], said: /^promptwright count: Cancelled\.$/m },
  {
    name: 'run, before the first byte of the reply',
    args: ['run', 'a.prompt.json'],
    said: /^promptwright run: Cancelled\.$/m,
  },
  {
    name: 'run, in the middle of the stream',
    args: ['run', 'stall.prompt.json'],
    arrange: () => undefined,
    ready: (_fake, out) => out.includes('w3 '),
    kept: /^w0 w1 w2 w3 /,
    said: /^promptwright run: Cancelled; the partial reply is above\.$/m,
  },
  { name: 'admin users list', args: ['admin', 'users', 'list'], said: /^promptwright admin users list: Cancelled\.$/m },
  {
    name: 'compliance chats (a list)',
    args: ['compliance', 'chats', '--user', 'user_03'],
    said: /^promptwright compliance chats: Cancelled\.$/m,
  },
  {
    name: 'compliance activities --format json (a list of two pages, after the first)',
    args: ['compliance', 'activities', '--format', 'json'],
    arrange: fake => fake.fail({ stall: true, path: '/activities', after: 1 }),
    ready: fake => fake.requests.length === 2 && !!pending(fake),
    jsonRecords: 1000,
    requests: 2,
    said: /^1,000 records came before the cancel \(above\); the list is incomplete\.\npromptwright compliance activities: Cancelled\.$/m,
  },
  {
    name: 'compliance activities --format jsonl (an export, after its first page)',
    args: ['compliance', 'activities', '--format', 'jsonl'],
    // the first page is answered; the second is never
    arrange: fake => fake.fail({ stall: true, path: '/activities', after: 1 }),
    ready: (fake, out) => out.split('\n').length > 1000 && !!pending(fake),
    kept: /^(\{"id":"[^\n]+\n){1000}$/,
    requests: 2,
    said: /^promptwright compliance activities: Cancelled\.$/m,
  },
];

describe('Ctrl-C in every command that talks to the service', function () {
  this.timeout(20_000);
  const fake = useFake();
  let dir: string;
  let env: Record<string, string>;
  before(async () => {
    env = cliEnv(fake, {
      PROMPTWRIGHT_ADMIN_KEY: fake.adminKey,
      PROMPTWRIGHT_COMPLIANCE_KEY: COMPLIANCE_KEY,
      // retries on (the default): a cancelled request must not be sent again
      PROMPTWRIGHT_MAX_RETRIES: '2',
    });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-cancel-'));
    const body = (content: string) =>
      JSON.stringify({ model: 'model-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content }] });
    fs.writeFileSync(path.join(dir, 'a.prompt.json'), body('Hi'));
    fs.writeFileSync(path.join(dir, 'stall.prompt.json'), body('x #stall #long=40'));
  });
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Waits (polling) until `ok()` holds; fails after 5 s. */
  async function until(ok: () => boolean, what: string): Promise<void> {
    const t0 = Date.now();
    while (!ok()) {
      if (Date.now() - t0 > 5000) throw new Error(`timed out waiting for ${what}`);
      await new Promise(r => setTimeout(r, 2));
    }
  }

  /** The request the command was waiting on when it was cancelled, and how long after `abortAt` it closed. */
  async function closedAfter(waitedOn: FakeRequest, abortAt: number): Promise<number> {
    await until(() => waitedOn.closedAt !== undefined, 'the fake to see the connection close');
    return waitedOn.closedAt! - abortAt;
  }

  const ready = (c: Case, out: string) => (c.ready ? c.ready(fake, out) : !!pending(fake));
  const check = (c: Case, r: { code: number | null; out: string; err: string }) => {
    assert.equal(r.code, 130, `${c.name}: exit ${r.code}\n${r.err}`);
    assert.match(r.err, c.said);
    if (c.kept) assert.match(r.out, c.kept);
    else if (c.jsonRecords) assert.equal((JSON.parse(r.out) as unknown[]).length, c.jsonRecords);
    else assert.equal(r.out, '');
    assert.equal(fake.requests.length, c.requests ?? 1, 'cancelled, never retried');
  };

  describe('through the CLI entry (the io signal src/cli.ts aborts on SIGINT)', () => {
    for (const c of CASES) {
      it(`${c.name}: exit 130, "Cancelled", the connection closed, what arrived kept`, async () => {
        (c.arrange ?? stallNext)(fake);
        const ctl = new AbortController();
        let out = '';
        let err = '';
        const prev = process.cwd();
        process.chdir(dir);
        try {
          const code = runCli(c.args, {
            stdout: { write: s => (out += s) },
            stderr: { write: s => (err += s) },
            env,
            signal: ctl.signal,
          });
          await until(() => ready(c, out), 'the command to wait on the service');
          const waitedOn = pending(fake)!;
          const abortAt = Date.now();
          const t0 = performance.now();
          ctl.abort();
          const r = { code: await code, out, err };
          const exitMs = performance.now() - t0;
          const closeMs = await closedAfter(waitedOn, abortAt);
          check(c, r);
          assert.ok(exitMs <= BOUND_MS, `returned ${exitMs.toFixed(1)} ms after the abort`);
          assert.ok(closeMs <= BOUND_MS, `the connection closed ${closeMs} ms after the abort`);
        } finally {
          process.chdir(prev);
        }
      });
    }
  });

  describe('a real SIGINT to the built dist/cli.js', () => {
    for (const c of CASES) {
      it(`${c.name}: one SIGINT is enough; exit 130, "Cancelled", the connection closed`, async () => {
        (c.arrange ?? stallNext)(fake);
        const run = spawnCli(c.args, { cwd: dir, env: { ...process.env, ...env } });
        const { child, exited, closed } = run;
        await until(() => ready(c, run.out), 'the command to wait on the service');
        const waitedOn = pending(fake)!;
        const abortAt = Date.now();
        const t0 = performance.now();
        child.kill('SIGINT');
        const stillRunning = setTimeout(() => child.kill('SIGKILL'), 5000);
        const code = await exited;
        const exitMs = performance.now() - t0;
        clearTimeout(stillRunning);
        // once the pipes are drained too: what the process wrote last is read by then
        await closed;
        const { out, err } = run;
        const closeMs = await closedAfter(waitedOn, abortAt);
        check(c, { code, out, err });
        assert.ok(exitMs <= BOUND_MS, `exited ${exitMs.toFixed(1)} ms after SIGINT`);
        assert.ok(closeMs <= BOUND_MS, `the connection closed ${closeMs} ms after SIGINT`);
      });
    }
  });
});
