// Mocha runner for the suite that runs inside a real VS Code extension host. Launcher-agnostic: the
// code-server harness (test/harness/run.mjs) and @vscode/test-electron (test/harness/electron.mjs) both
// load this file as extensionTestsPath and call run().
import * as path from 'node:path';
import * as fs from 'node:fs';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30000, reporter: 'spec' });
  if (process.env.PROMPTWRIGHT_HOST_GREP) mocha.grep(process.env.PROMPTWRIGHT_HOST_GREP);
  for (const f of fs
    .readdirSync(__dirname)
    .filter(f => f.endsWith('.test.js'))
    .sort())
    mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    mocha.run(failures => {
      const total = mocha.suite.total();
      // one machine-readable line the harness reads to add these tests to the overall count
      console.log(`@@PROMPTWRIGHT_STATS ${JSON.stringify({ passes: total - failures, failures })}`);
      if (failures > 0) reject(new Error(`${failures} tests failed.`));
      else resolve();
    });
  });
}
