// The CLI as a user runs it: dist/cli.js spawned as a process against the fake, its output, its exit code, and
// how long after the fake's last response it exited (a leaked timer or socket keeps a process alive). The one
// way every test (and the UI suite's pull-request comment) starts the CLI.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessByStdio, type SpawnSyncReturns } from 'node:child_process';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import type { Fake } from '../fake/server';

/** How soon after the last response a command must exit. */
const EXIT_BOUND_MS = 1000;

export interface Ran {
  code: number | null;
  out: string;
  err: string;
  /** from the end of the last response the fake sent to the process's exit */
  exitAfterMs: number;
}

export interface SpawnOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** the built CLI to run (default: dist/cli.js of the repository mocha runs in) */
  cli?: string;
}

/** A running `promptwright`: its process, what it wrote so far, and its exit. */
export interface Spawned {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** stdout and stderr so far (read them after `closed` for everything) */
  readonly out: string;
  readonly err: string;
  /** its exit code (null when a signal ended it) */
  exited: Promise<number | null>;
  /** after the exit, once its pipes are drained too: what it wrote last has been read */
  closed: Promise<void>;
}

/** Starts `promptwright ARGS`; the output is collected as it comes. */
export function spawnCli(args: string[], o: SpawnOptions): Spawned {
  const child = spawn(process.execPath, [o.cli ?? path.resolve('dist/cli.js'), ...args], {
    cwd: o.cwd,
    env: o.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', d => (out += String(d)));
  child.stderr.on('data', d => (err += String(d)));
  return {
    child,
    get out() {
      return out;
    },
    get err() {
      return err;
    },
    exited: new Promise(resolve => child.on('exit', resolve)),
    closed: new Promise(resolve => child.on('close', () => resolve())),
  };
}

/**
 * Runs `promptwright ARGS` to its end and returns what it printed and its exit status, for a test that only reads its
 * output (no fake to answer, nothing to signal). The environment is this process's unless `env` says otherwise.
 */
export function runCliSync(
  args: string[],
  o: { cwd?: string; env?: Record<string, string | undefined>; maxBuffer?: number } = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [path.resolve('dist/cli.js'), ...args], {
    encoding: 'utf8',
    ...(o.cwd ? { cwd: o.cwd } : {}),
    ...(o.maxBuffer ? { maxBuffer: o.maxBuffer } : {}),
    ...(o.env ? { env: o.env } : {}),
  });
}

export interface RunOptions extends SpawnOptions {
  /** a process still running after this is killed, and the test fails */
  killAfterMs?: number;
  /** the command must have sent at least one request */
  needsRequest?: boolean;
}

/** Runs `promptwright ARGS` and waits for it to exit; every request it made must have been answered. */
export async function runCli(fake: Fake, args: string[], o: RunOptions): Promise<Ran> {
  const limit = o.killAfterMs ?? 20_000;
  const run = spawnCli(args, o);
  let killed = false;
  const stuck = setTimeout(() => {
    killed = true;
    run.child.kill('SIGKILL');
  }, limit);
  const code = await run.exited;
  const exitAt = Date.now();
  clearTimeout(stuck);
  const seconds = limit / 1000;
  assert.ok(
    !killed,
    `promptwright ${args.join(' ')} was still running after ${seconds} s (killed)\n${run.out}\n${run.err}`,
  );
  await run.closed;
  const answered = fake.requests.map(r => r.answeredAt ?? 0);
  assert.ok((!o.needsRequest || answered.length) && answered.every(a => a > 0), `every request answered\n${run.err}`);
  return { code, out: run.out, err: run.err, exitAfterMs: answered.length ? exitAt - Math.max(...answered) : 0 };
}

/** The process exited within EXIT_BOUND_MS of the last response. */
export function assertPrompt(r: Ran): void {
  assert.ok(r.exitAfterMs <= EXIT_BOUND_MS, `exited ${r.exitAfterMs} ms after the last response\n${r.err}`);
}
