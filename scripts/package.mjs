// `npm run package`: builds the .vsix with @vscode/vsce, offline (the bundle carries its dependencies, so
// --no-dependencies), then lists what it holds and prints its size.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const out = `${pkg.name}-${pkg.version}.vsix`;
const r = spawnSync(
  'npx',
  ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out],
  { stdio: 'inherit' },
);
if (r.status !== 0) process.exit(r.status ?? 1);
spawnSync('npx', ['vsce', 'ls', '--no-dependencies'], { stdio: 'inherit' });
const size = fs.statSync(out).size;
console.log(`${out}: ${(size / 1024).toFixed(1)} KiB`);
