// `npm run bench`: sizes and activation first (on the production build, what users get), then the
// benchmark bundle built by `node esbuild.mjs --tests`. Every figure has its goal and prints `ok` or `OVER`;
// a ratio is against a floor measured in the same run, an absolute figure beside what it cannot go below.
// The last line lists every figure over its goal; `npm run bench -- --check` exits 1 when there is one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { VSIX_BUDGET } from '../scripts/bundles.mjs';
import { measureBundles, measureVsix, withProductionBuild } from '../scripts/sizes.mjs';

const require = createRequire(import.meta.url);
/** @type {{ board(): { name: string, value: string, target: string, ok: boolean, extra?: string }[] }} */
const { board } = require('../out/bench/bench.js');
const figs = board();

console.log(`Promptwright benchmarks — Node ${process.version}, ratios against the floor measured in this run\n`);

const kb = n => `${(n / 1024).toFixed(1)} KB`;
const median = a => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

/** One sample of `node bench/activation.cjs <file> [mode]`, in a fresh process: its milliseconds. */
function sample(file, mode) {
  const r = spawnSync(process.execPath, ['bench/activation.cjs', file, ...(mode ? [mode] : [])], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`activation sample failed: ${r.stderr}`);
  return Number(r.stdout);
}

/** Medians of `runs` samples of each [file, mode], taken in turns so all see the same machine. */
function interleaved(cases, runs = 21) {
  const ms = cases.map(() => []);
  for (let i = 0; i < runs; i++) cases.forEach(([file, mode], k) => ms[k].push(sample(file, mode)));
  return ms.map(median);
}

await withProductionBuild(async () => {
  const bundles = await measureBundles();
  const top = b => b.top.map(t => `${t.name} ${kb(t.bytes)}`).join(', ');
  for (const b of bundles.filter(x => x.budget !== undefined)) {
    figs.push({ name: `${b.file} size`, value: kb(b.bytes), target: `<= ${kb(b.budget)}`, ok: b.bytes <= b.budget });
    console.log(`    ${top(b)}`);
  }
  const vsix = await measureVsix();
  const unbudgeted = bundles.filter(x => x.budget === undefined).map(b => `${b.file} ${kb(b.bytes)} (${top(b)})`);
  figs.push({
    name: '.vsix size',
    value: kb(vsix.bytes),
    // the product's goal, below the size check's budget (CONTRIBUTING.md, Size budgets)
    target: `<= ${kb(VSIX_BUDGET)}`,
    ok: vsix.bytes <= VSIX_BUDGET,
    extra: `${vsix.files.length} files: ${vsix.files.join(', ')}\n    ${unbudgeted.join('\n    ')}`,
  });

  const empty = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-empty-')), 'empty.js');
  fs.writeFileSync(empty, '');
  const [floor, ours, first] = interleaved([
    [empty, undefined],
    ['dist/extension.js', 'activate'],
    ['dist/extension.js', 'check'],
  ]);
  figs.push({
    name: 'activation: load + activate() (median of 21)',
    value: `${ours.toFixed(1)} ms`,
    target: '<= 8 ms',
    ok: ours <= 8,
    extra:
      `an empty module ${floor.toFixed(1)} ms (the least a fresh process can take), so ${(ours - floor).toFixed(1)} ` +
      'ms are ours; stubbed vscode, a fresh process per run, in turns with the empty module',
  });
  figs.push({
    name: 'first check: load the core bundle + check a file',
    value: `${first.toFixed(1)} ms`,
    target: '<= 40 ms',
    ok: first <= 40,
    extra: 'when a request file is first opened, after activation (median of 21, in the same turns)',
  });
  console.log('');
});

require('../out/bench/main.js');
