// Runs the language server's tests in real editors other than VS Code (test/editors/*.test.mjs: Neovim's
// built-in LSP client) and writes test-results/editors-stats.json. The editors are Debian packages, installed
// through apt-get on first use as the VS Code harness installs chromium (ensureSystemPackages), so this runs on
// a fresh machine whether or not the VS Code suites ran first. EDITORS_GREP keeps only the tests it matches.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Mocha from 'mocha';
import { ensureSystemPackages, log } from './vscode.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RESULTS = path.join(ROOT, 'test-results');
fs.mkdirSync(RESULTS, { recursive: true });
const statsFile = path.join(RESULTS, 'editors-stats.json');
fs.rmSync(statsFile, { force: true });

let stats = { passes: 0, failures: 1 };
try {
  ensureSystemPackages();
  const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, reporter: 'spec', color: false });
  if (process.env.EDITORS_GREP) mocha.grep(process.env.EDITORS_GREP);
  const dir = path.join(ROOT, 'test', 'editors');
  for (const f of fs
    .readdirSync(dir)
    .filter(f => f.endsWith('.test.mjs'))
    .sort())
    mocha.addFile(path.join(dir, f));
  await mocha.loadFilesAsync();
  let runner;
  const failures = await new Promise(resolve => (runner = mocha.run(resolve)));
  stats = { passes: runner.stats?.passes ?? 0, failures };
} catch (e) {
  log(`the editor tests could not run: ${e instanceof Error ? e.message : String(e)}`);
}
fs.writeFileSync(statsFile, JSON.stringify(stats));
log(`editor tests: ${stats.passes} passed, ${stats.failures} failed`);
process.exit(stats.failures ? 1 : 0);
