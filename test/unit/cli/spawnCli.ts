// The CLI as a user runs it: dist/cli.js spawned as a process against the fake, its output, its exit code, and
// how long after the fake's last response it exited (a leaked timer or socket keeps a process alive).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { Fake } from '../../fake/server';

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
  /** a process still running after this is killed, and the test fails */
  killAfterMs?: number;
  /** the command must have sent at least one request */
  needsRequest?: boolean;
}

/** Runs `promptwright ARGS` and waits for it to exit; every request it made must have been answered. */
export async function runCli(fake: Fake, args: string[], o: SpawnOptions): Promise<Ran> {
  const limit = o.killAfterMs ?? 20_000;
  const child = spawn(process.execPath, [path.resolve('dist/cli.js'), ...args], {
    cwd: o.cwd,
    env: o.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', d => (out += String(d)));
  child.stderr.on('data', d => (err += String(d)));
  let killed = false;
  const stuck = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, limit);
  const code = await new Promise<number | null>(resolve => child.on('exit', resolve));
  const exitAt = Date.now();
  clearTimeout(stuck);
  const seconds = limit / 1000;
  assert.ok(!killed, `promptwright ${args.join(' ')} was still running after ${seconds} s (killed)\n${out}\n${err}`);
  await new Promise<void>(resolve => (child.stdout.readableEnded ? resolve() : child.on('close', () => resolve())));
  const answered = fake.requests.map(r => r.answeredAt ?? 0);
  assert.ok((!o.needsRequest || answered.length) && answered.every(a => a > 0), `every request answered\n${err}`);
  return { code, out, err, exitAfterMs: answered.length ? exitAt - Math.max(...answered) : 0 };
}

/** The process exited within EXIT_BOUND_MS of the last response. */
export function assertPrompt(r: Ran): void {
  assert.ok(r.exitAfterMs <= EXIT_BOUND_MS, `exited ${r.exitAfterMs} ms after the last response\n${r.err}`);
}
