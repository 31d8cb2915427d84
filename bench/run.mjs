// `npm run bench`: sizes and activation first (on the production build, what users get), then the
// benchmark bundle built by `node esbuild.mjs --tests`. Every figure is a ratio against a floor measured
// in the same run, or an absolute figure with its target.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { measureBundles, measureVsix, report, withProductionBuild } from '../scripts/sizes.mjs';

console.log(`Promptwright benchmarks — Node ${process.version}, ratios against the floor measured in this run\n`);

/** Median milliseconds of `node bench/activation.cjs <file> [mode]`, each run in a fresh process. */
function activation(file, mode, runs = 10) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['bench/activation.cjs', file, ...(mode ? [mode] : [])], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`activation sample failed: ${r.stderr}`);
    ms.push(Number(r.stdout));
  }
  ms.sort((a, b) => a - b);
  return ms[Math.floor(runs / 2)];
}

await withProductionBuild(async () => {
  const { text } = report(await measureBundles(), measureVsix());
  console.log(`${text}\n`);
  const empty = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-empty-')), 'empty.js');
  fs.writeFileSync(empty, '');
  const floor = activation(empty);
  const ours = activation('dist/extension.js', 'activate');
  const first = activation('dist/validator.js', 'check');
  const line = (name, value, extra) => console.log(`${name.padEnd(52)} ${value.padStart(10)}${extra}`);
  line(
    'activation: load + activate() (median of 10)',
    `${ours.toFixed(1)} ms`,
    `  (target <= 30 ms)  ${ours <= 30 ? 'ok' : 'OVER TARGET'}`,
  );
  console.log(`    an empty module: ${floor.toFixed(1)} ms; stubbed vscode, a fresh process per run`);
  line('first check: load the validator + check a file', `${first.toFixed(1)} ms`, '');
  console.log('    (when a request file is first opened, after activation)\n');
});

createRequire(import.meta.url)('../out/bench/main.js');
