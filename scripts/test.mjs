// `npm test`: type-check, lint, format check, unit tests in plain Node, the suites inside a real VS Code, the
// language server in Neovim, and the size budgets; ends with one summary line `N passed, N failed` over all of
// them (the type-check, lint, knip, format and size steps count as one test each).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';

const step = (name, cmd, args) => {
  console.log(`\n== ${name}`);
  return spawnSync(cmd, args, { stdio: 'inherit' }).status === 0;
};
let passed = 0;
let failed = 0;

if (step('type-check (tsc --noEmit)', 'npx', ['tsc', '--noEmit', '-p', '.'])) passed++;
else failed++;
if (step('lint (eslint, zero warnings)', 'npx', ['eslint', '.', '--max-warnings', '0'])) passed++;
else failed++;
if (step('unused files, exports and dependencies (knip)', 'npx', ['knip'])) passed++;
else failed++;
if (step('format (prettier --check)', 'npx', ['prettier', '--check', '.'])) passed++;
else failed++;
if (!step('build (esbuild --tests)', 'node', ['esbuild.mjs', '--tests'])) {
  console.log(`\n${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}

console.log('\n== unit tests (mocha, plain Node ' + process.version + ')');
const mocha = new Mocha({ reporter: process.env.CI ? 'dot' : 'spec', timeout: 10000 });
for (const f of fs
  .readdirSync('out/test/unit', { recursive: true })
  .filter(f => f.endsWith('.test.js'))
  .sort()) {
  mocha.addFile(path.resolve('out/test/unit', f));
}
const unitFailures = await new Promise(resolve => mocha.run(resolve));
const unitTotal = mocha.suite.total();
passed += unitTotal - unitFailures;
failed += unitFailures;

// size budgets of the shipped bundles and the .vsix (deterministic, so a test; last, as it rebuilds dist/)
const checkSizes = () => {
  if (step('size budgets (scripts/sizes.mjs)', 'node', ['scripts/sizes.mjs'])) passed++;
  else failed++;
};

/** A suite run by a harness of its own, which writes its counts to `statsFile`; a harness that died is a failure. */
const harness = (name, script, statsFile) => {
  console.log(`\n== ${name}`);
  fs.rmSync(statsFile, { force: true });
  const ok = spawnSync('node', [script], { stdio: 'inherit' }).status === 0;
  let stats = { passes: 0, failures: 1 };
  try {
    stats = JSON.parse(fs.readFileSync(statsFile, 'utf8'));
  } catch {
    /* the harness died before writing */
  }
  if (!ok && stats.failures === 0) stats.failures = 1;
  passed += stats.passes;
  failed += stats.failures;
};

if (process.env.PROMPTWRIGHT_SKIP_VSCODE === '1') {
  console.log('\n== VS Code suites skipped (PROMPTWRIGHT_SKIP_VSCODE=1)');
} else {
  harness(
    'VS Code suites (code-server real extension host + DOM)',
    'test/harness/run.mjs',
    'test-results/vscode-stats.json',
  );
}
// the language server in Neovim's own LSP client: the harness installs Debian's neovim as it installs chromium
harness('editor tests (the language server in Neovim)', 'test/harness/editors.mjs', 'test-results/editors-stats.json');
checkSizes();
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
