// Size budgets: each shipped bundle built for production, measured with its five largest
// contributors (esbuild's metafile), and the .vsix itself. Sizes are deterministic, so this is a test:
// `node scripts/sizes.mjs` exits 1 when a budget is exceeded. `npm test` and `npm run bench` run it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { bundles, compress, shrink, VSIX_BUDGET } from './bundles.mjs';
import { packageVsix } from './package.mjs';

const kb = n => `${(n / 1024).toFixed(1)} KB`;
/** Bytes deflated as the .vsix's zip deflates them (scripts/package.mjs). */
const deflated = code => zlib.deflateRawSync(code, { level: 9 }).length;

/** Where a bundle's bytes come from: a package, or a folder of ours. */
function owner(file) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return m ? m[1] : file.split('/').slice(0, 3).join('/');
}

export async function measureBundles() {
  const out = [];
  for (const b of bundles(true)) {
    const r = await esbuild.build({ ...b.options, write: false, metafile: true, logLevel: 'silent' });
    const meta = Object.values(r.metafile.outputs).find(o => o.entryPoint);
    const by = new Map();
    for (const [f, v] of Object.entries(meta.inputs)) by.set(owner(f), (by.get(owner(f)) ?? 0) + v.bytesInOutput);
    const top = [...by]
      .sort((a, c) => c[1] - a[1])
      .slice(0, 5)
      .map(([name, bytes]) => ({ name, bytes }));
    // a shipped bundle is measured as it ships (minified again by terser), and what it takes in the .vsix
    // (brotli-compressed, or deflated by the zip); its contributors as esbuild counts them
    const code = b.shipped ? await shrink(r.outputFiles[0].text, b.options.format === 'iife') : undefined;
    const bytes = code === undefined ? meta.bytes : Buffer.byteLength(code);
    const packed = code === undefined ? undefined : b.compressed ? compress(code).length : deflated(code);
    out.push({ name: b.name, file: b.options.outfile, bytes, packed, compressed: b.compressed, budget: b.budget, top });
  }
  return out;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Runs fn with the production build in dist/, then puts the development build back. */
export async function withProductionBuild(fn) {
  run('node', ['esbuild.mjs', '--production']);
  try {
    return await fn();
  } finally {
    run('node', ['esbuild.mjs']);
  }
}

/** Packages the .vsix from the build in dist/ as `npm run package` does (call inside withProductionBuild). */
export async function measureVsix() {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'promptwright-vsix-')), 'promptwright.vsix');
  try {
    const files = await packageVsix(file);
    return { bytes: fs.statSync(file).size, budget: VSIX_BUDGET, files };
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

export function report(bundleSizes, vsix) {
  const lines = [];
  let over = 0;
  for (const b of bundleSizes) {
    const ok = b.budget === undefined || b.bytes <= b.budget;
    if (!ok) over++;
    const budget = b.budget === undefined ? '' : `  (budget ${kb(b.budget)})${ok ? '  ok' : '  OVER BUDGET'}`;
    const packed = b.packed === undefined ? '' : `  ${kb(b.packed)} in the .vsix${b.compressed ? ' (brotli)' : ''}`;
    lines.push(`${`${b.file}`.padEnd(24)} ${kb(b.bytes).padStart(10)}${packed}${budget}`);
    lines.push(`    ${b.top.map(t => `${t.name} ${kb(t.bytes)}`).join(', ')}`);
  }
  if (vsix) {
    const ok = vsix.bytes <= vsix.budget;
    if (!ok) over++;
    lines.push(
      `${'.vsix'.padEnd(24)} ${kb(vsix.bytes).padStart(10)}  (budget ${kb(vsix.budget)})` +
        (ok ? '  ok' : '  OVER BUDGET'),
    );
    lines.push(`    ${vsix.files.length} files: ${vsix.files.join(', ')}`);
  }
  return { text: lines.join('\n'), over };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { text, over } = report(await measureBundles(), await withProductionBuild(measureVsix));
  console.log(text);
  if (over) {
    console.error(`${over} size budget(s) exceeded`);
    process.exit(1);
  }
}
