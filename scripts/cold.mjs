// `npm run test:cold`: the README's commands as a new user runs them. A fresh clone of this repository
// (committed work only) with an EMPTY harness cache, so chromium, Node 24 and code-server are installed
// from nothing, exactly as on a machine that never ran Promptwright:
//   start  `npm install && npm start`: waits for the workbench URL, loads it, checks the extension is
//          installed, then stops it with Ctrl-C (SIGINT);
//   test   `CI=true bash .ci/run` (`npm install && npm test`).
// `node scripts/cold.mjs start|test` runs one of them; with no argument both run, each with its own cache.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const which = process.argv[2] ?? 'all';
const root = spawnSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).stdout.trim();
const say = s => console.log(`[cold] ${s}`);

/** A fresh clone and an empty cache; the environment has nothing of the npm that runs this script. */
function freshClone(name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `promptwright-cold-${name}-`));
  const r = spawnSync('git', ['clone', '-q', root, dir], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('git clone failed');
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'promptwright-harness-cache-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { dir, cache, env: { ...env, PROMPTWRIGHT_HARNESS_CACHE: cache } };
}

function cleanup({ dir, cache }) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(cache, { recursive: true, force: true });
}

async function coldStart() {
  const c = freshClone('start');
  say(`npm install && npm start in ${c.dir} (harness cache ${c.cache}, empty)`);
  const t0 = Date.now();
  if (
    spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: c.dir, env: c.env, stdio: 'inherit' }).status !== 0
  ) {
    throw new Error('npm install failed');
  }
  const child = spawn('npm', ['start'], {
    cwd: c.dir,
    env: { ...c.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL in 15 min:\n${out}`)), 15 * 60_000);
    child.stdout.on('data', d => {
      process.stdout.write(d);
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', code => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before printing a URL`));
    });
  });
  const res = await fetch(url);
  if (!res.ok) throw new Error(`the workbench answered ${res.status}`);
  if (!/OFFLINE DEMO BACKEND/.test(out)) throw new Error('npm start did not start the offline demo backend');
  say(`npm start is serving ${url} (${((Date.now() - t0) / 1000).toFixed(0)} s from an empty cache)`);
  const stopped = new Promise(resolve => child.on('exit', resolve));
  process.kill(-child.pid, 'SIGINT');
  const code = await Promise.race([stopped, new Promise(r => setTimeout(() => r('still running'), 10_000))]);
  if (code === 'still running') {
    process.kill(-child.pid, 'SIGKILL');
    throw new Error('npm start did not stop on Ctrl-C');
  }
  say('npm start stopped on Ctrl-C');
  cleanup(c);
}

function coldTest() {
  const c = freshClone('test');
  say(`CI=true bash .ci/run in ${c.dir} (harness cache ${c.cache}, empty)`);
  const t0 = Date.now();
  const r = spawnSync('bash', ['.ci/run'], {
    cwd: c.dir,
    env: { ...c.env, CI: 'true' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  say(`.ci/run exited ${r.status} after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  if (r.status !== 0) throw new Error(`.ci/run failed; the clone is kept at ${c.dir}`);
  cleanup(c);
}

try {
  if (which === 'start' || which === 'all') await coldStart();
  if (which === 'test' || which === 'all') coldTest();
  say('passed');
} catch (e) {
  console.error(`[cold] FAILED: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
