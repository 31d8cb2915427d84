// `npm run test:electron`: the same extension-host suite as the code-server harness, launched by
// @vscode/test-electron (it downloads VS Code, so it needs internet; it cannot run on the CI machine here).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';

const root = path.resolve('.');
const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'promptwright-ws-'));
fs.cpSync(path.join(root, 'test', 'fixtures', 'workspace'), ws, { recursive: true });
try {
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'out', 'test', 'integration'),
    launchArgs: [ws, '--disable-extensions', '--disable-workspace-trust'],
    extensionTestsEnv: {
      PROMPTWRIGHT_TEST: '1',
      PROMPTWRIGHT_RESULTS: path.join(root, 'test-results'),
      // the order of a run to repeat (the suite prints its seed)
      ...(process.env.HARNESS_HOST_SEED ? { PROMPTWRIGHT_HOST_SEED: process.env.HARNESS_HOST_SEED } : {}),
    },
  });
} catch (e) {
  console.error('test:electron failed:', (e && e.message) || e);
  process.exit(1);
}
