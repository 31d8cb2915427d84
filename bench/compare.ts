// Compare, measured: `count --base --changed` over 50 changed files in a git repository (the calls it makes:
// at most two per changed body, none for an unchanged file; and its time against counting the same 50
// working copies alone), and the compare panel's batching of 4 columns × 2,000 deltas each streamed at
// once (deltas per second through the compare runner and the per-frame batcher, none lost).
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { StreamEvent } from '../src/core/api/types';
import { runCli } from '../src/cli/main';
import { runColumns, sendWith } from '../src/core/compare/runner';
import { EventBatcher } from '../src/core/run/batcher';
import { startFake, type Fake } from '../test/fake/server';
import { clientOf, cliEnv } from '../test/support/fake';
import { tempRepo } from '../test/support/tempRepo';
import { ratioAsync, type Figure } from './bench';

const CHANGED = 50;
const UNCHANGED = 50;

const request = (content: string) =>
  JSON.stringify({ model: 'model-opus-4-7', max_tokens: 100, messages: [{ role: 'user', content }] }, null, 2);

/** `promptwright count` in this process, its output thrown away; throws on an exit code other than 0. */
async function count(fake: Fake, cwd: string, args: string[]): Promise<void> {
  const io = {
    stdout: { write: () => true },
    stderr: { write: (s: string) => process.stderr.write(s) },
    env: cliEnv(fake),
  };
  const prev = process.cwd();
  process.chdir(cwd);
  try {
    const code = await runCli(['count', ...args], io);
    if (code !== 0) throw new Error(`promptwright count ${args.join(' ')} exited ${code}`);
  } finally {
    process.chdir(prev);
  }
}

async function countBase(figs: Figure[]): Promise<void> {
  const fake = await startFake();
  const repo = tempRepo('pw-bench-compare-');
  const dir = repo.dir;
  try {
    const name = (i: number) => `prompts/p${String(i).padStart(3, '0')}.prompt.json`;
    fs.mkdirSync(path.join(dir, 'prompts'));
    for (let i = 0; i < CHANGED + UNCHANGED; i++)
      fs.writeFileSync(path.join(dir, name(i)), request(`Question ${i}: where is my parcel?`));
    repo.commit('base');
    for (let i = 0; i < CHANGED; i++)
      fs.writeFileSync(path.join(dir, name(i)), request(`Question ${i}: where is my parcel, and when will it come?`));

    fake.clear();
    await count(fake, dir, ['--base', 'HEAD', '--changed', '--format', 'json']);
    const calls = fake.requests.filter(r => r.path === '/v1/messages/count_tokens');
    const said = calls.map(r => JSON.stringify(r.body));
    const forUnchanged = said.filter(
      b => /Question (\d+):/.test(b) && Number(/Question (\d+):/.exec(b)![1]) >= CHANGED,
    );
    figs.push({
      name: `count --base --changed, ${CHANGED} changed files: calls`,
      value: String(calls.length),
      target: `<= ${2 * CHANGED}, none for the ${UNCHANGED} unchanged`,
      ok: calls.length <= 2 * CHANGED && forUnchanged.length === 0,
      extra: `${calls.length} count_tokens calls, ${forUnchanged.length} of them for an unchanged file`,
    });
    const working = Array.from({ length: CHANGED }, (_, i) => name(i));
    figs.push(
      await ratioAsync(
        `count --base --changed vs count of the ${CHANGED} working copies`,
        { name: 'count FILE...', run: () => count(fake, dir, working) },
        { name: 'count --base HEAD --changed', run: () => count(fake, dir, ['--base', 'HEAD', '--changed']) },
        // each file is read at the base revision too (a git process), and both versions counted
        4,
        11,
      ),
    );
  } finally {
    await fake.close();
    repo.dispose();
  }
}

/** 4 columns × 2,000 deltas at once, through the compare runner and the panel's per-frame batcher. */
async function panelBatching(figs: Figure[]): Promise<void> {
  const fake = await startFake();
  try {
    const client = clientOf(fake);
    const body = {
      model: 'model-opus-4-7',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'bench #long=2000' }],
    };
    const columns = Array.from({ length: 4 }, () => ({ body }));
    const posted = [0, 0, 0, 0];
    let batches = 0;
    const t0 = performance.now();
    const batcher = new EventBatcher<{ column: number; ev: StreamEvent }>(items => {
      batches++;
      for (const { column, ev } of items) if (ev.type === 'content_block_delta') posted[column]!++;
    });
    const results = await runColumns({
      columns,
      concurrency: 4,
      send: sendWith(client),
      onEvent: (column, ev) => batcher.push({ column, ev }),
      onStatus: () => batcher.flush(),
    });
    batcher.flush();
    const secs = (performance.now() - t0) / 1000;
    const total = posted.reduce((a, b) => a + b, 0);
    const allDone = results.every(r => r.status === 'done');
    figs.push({
      name: 'compare: deltas/s, 4 columns × 2,000 through the batching',
      value: `${Math.round(total / secs).toLocaleString('en-US')}/s`,
      target: '>= 10,000/s, none lost',
      ok: allDone && posted.every(n => n === 2000) && total / secs >= 10_000,
      extra: `${posted.join(' + ')} of 4 × 2,000 deltas posted in ${batches} batches (${(secs * 1000).toFixed(0)} ms)`,
    });
  } finally {
    await fake.close();
  }
}

export async function compareBench(figs: Figure[]): Promise<void> {
  await countBase(figs);
  await panelBatching(figs);
}
