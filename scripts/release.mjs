// `node scripts/release.mjs [--dry-run]`: what .github/workflows/release.yml runs on a version tag (vX.Y.Z), and
// what test/unit/cli/release.test.ts runs with --dry-run, offline, on every `npm test`.
//   1. the tag (GITHUB_REF_NAME, else `v` + package.json's version) names package.json's version;
//   2. a production build; the npm package (`npm pack`: the CLI and its language server) and the .vsix
//      (`vsce package`, then written again at level 9: scripts/package.mjs) into release/;
//   3. each checked: the tarball holds the two bundles and the docs and asks for no dependency; the .vsix holds the
//      extension's bundles (those loaded on first use compressed) and no source;
//   4. published: the tarball to npm (`npm publish`, NODE_AUTH_TOKEN), the .vsix to the Visual Studio Marketplace
//      (`vsce publish`, VSCE_PAT) and to Open VSX (`ovsx publish`, OVSX_PAT). With --dry-run, `npm publish
//      --dry-run` (npm's own, which uploads nothing), and the two .vsix uploads printed, not run: neither tool has a
//      dry run, and everything up to the upload has been done and checked.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { packageVsix } from './package.mjs';

const dryRun = process.argv.includes('--dry-run');
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const OVSX = 'ovsx@1.3.0';

function fail(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}

/** Runs a command, its output shown; its stdout returned when `capture`. */
function run(cmd, args, o = {}) {
  console.log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: o.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8' });
  if (r.status !== 0) fail(`${cmd} ${args[0]} exited ${r.status}`);
  return r.stdout;
}

// 1. the tag names the version
const tag = process.env.GITHUB_REF_NAME || `v${pkg.version}`;
if (tag !== `v${pkg.version}`) fail(`the tag ${tag} does not name package.json's version ${pkg.version}`);
if (pkg.dependencies && Object.keys(pkg.dependencies).length)
  fail('package.json lists dependencies: the bundles carry them, and an install would download them');

// 2. build, pack, package
const out = 'release';
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out);
run('node', ['esbuild.mjs', '--production']);
const packed = JSON.parse(
  run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], { capture: true }),
)[0];
// a path npm cannot take for a GitHub shorthand (owner/name)
const tarball = `./${out}/${packed.filename}`;
const vsix = path.join(out, `${pkg.name}-${pkg.version}.vsix`);
console.log(`$ packageVsix ${vsix} (scripts/package.mjs: vsce package, then level 9)`);
const listed = await packageVsix(vsix);

// 3. what each holds
const files = packed.files.map(f => f.path);
const strays = files.filter(
  f => !/^(dist\/(cli|lsp|mcp)\.js|[A-Z]+\.md|LICENSE|package\.json|docs\/[\w-]+\.md)$/.test(f),
);
if (!['cli', 'lsp', 'mcp'].every(b => files.includes(`dist/${b}.js`)) || strays.length)
  fail(`the npm package holds ${files.join(', ')}`);
if (
  !listed.includes('dist/extension.js') ||
  !listed.includes('dist/core.js.br') ||
  listed.some(f => f.startsWith('src/'))
)
  fail(`the .vsix holds ${listed.join(', ')}`);
console.log(`release: ${tarball} (${files.length} files), ${vsix} (${listed.length} files)`);

// 4. publish
const missing = ['NODE_AUTH_TOKEN', 'VSCE_PAT', 'OVSX_PAT'].filter(k => !process.env[k]);
if (dryRun) {
  run('npm', ['publish', '--dry-run', '--ignore-scripts', tarball]);
  console.log(`release (dry run): would run: npx vsce publish --no-dependencies --packagePath ${vsix}`);
  console.log(`release (dry run): would run: npx --yes ${OVSX} publish ${vsix}`);
  if (missing.length) console.log(`release (dry run): the real run needs ${missing.join(', ')}`);
  console.log(`release (dry run): ${tag} is ready to publish`);
} else {
  if (missing.length) fail(`set the secrets ${missing.join(', ')}: nothing was published`);
  run('npm', ['publish', '--ignore-scripts', '--access', 'public', tarball]);
  run('npx', ['vsce', 'publish', '--no-dependencies', '--skip-duplicate', '--packagePath', vsix]);
  run('npx', ['--yes', OVSX, 'publish', vsix, '--skip-duplicate']);
  console.log(`release: ${tag} published`);
}
