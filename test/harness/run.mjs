// Runs the project's VS Code tests in a real VS Code (code-server) and writes test-results/vscode-stats.json.
//  phase 1: the mocha suite in out/test/integration runs inside the real Node extension host
//           (extensionTestsPath), the same suite `npm run test:electron` runs through @vscode/test-electron;
//  phase 2: the tests of that suite whose title says "Restricted Mode" run again, in a second code-server with
//           workspace trust on, so the workspace opens in Restricted Mode (vscode.workspace.isTrusted false);
//  phase 3: the UI suite in test/ui drives the workbench through the DOM with playwright (status bar,
//           command palette, webviews, tree views) and writes screenshots to test-results/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';
import { fileURLToPath } from 'node:url';
import Mocha from 'mocha';
import { ensureInstalled, startCodeServer, launchBrowser, workbenchUrl, log } from './vscode.mjs';
import { ui } from '../ui/context.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RESULTS = path.join(ROOT, 'test-results');
const TIMEOUT_MS = Number(process.env.HARNESS_TEST_TIMEOUT_MS || 600000);
fs.mkdirSync(RESULTS, { recursive: true });
for (const f of fs.readdirSync(RESULTS)) if (f.startsWith('FAILED-')) fs.rmSync(path.join(RESULTS, f));

/** A fresh copy of the fixture workspace, so tests may edit files. */
export function freshWorkspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptwright-ws-'));
  fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'workspace'), dir, { recursive: true });
  return dir;
}

// workbench chatter that is not the suite's output (it is all kept in test-results/extension-host.log)
const NOISE = new RegExp(
  [
    '^\\s+at ',
    'open-vsx',
    'Creating a socket',
    'connection token',
    '\\[AccountPolicyGate\\]',
    '\\[AgentHost',
    '\\[Service Worker\\]',
    'reconnection-grace',
    'builtin extensions cache',
  ].join('|'),
);

async function phaseExtensionHost(cs, { restricted = false } = {}) {
  const ws = freshWorkspace();
  const name = restricted ? 'extension-host suite in Restricted Mode' : 'extension-host suite';
  const { page, close } = await launchBrowser();
  let stats = { passes: 0, failures: 1, note: 'suite did not report' };
  const lines = [];
  // the order the suite ran in (it prints it first), repeated beside the counts where failures are read
  let order = '';
  let done;
  const exited = new Promise(r => (done = r));
  await page.exposeFunction('codeAutomationLog', (_type, args) => {
    const line = util.format(...(Array.isArray(args) ? args : [args]));
    lines.push(line);
    const m = /^@@PROMPTWRIGHT_STATS (.*)$/.exec(line);
    const seed = /(HARNESS_HOST_SEED=\w+)/.exec(line);
    if (seed && !order) order = seed[1];
    if (m) stats = JSON.parse(m[1]);
    else if (!NOISE.test(line)) console.log(line);
  });
  await page.exposeFunction('codeAutomationExit', code => done(code));
  const timer = setTimeout(() => done('timeout'), TIMEOUT_MS);
  await page.goto(
    workbenchUrl(cs.base, ws, {
      devPath: ROOT,
      testsPath: path.join(ROOT, 'out', 'test', 'integration'),
      env: {
        PROMPTWRIGHT_TEST: '1',
        PROMPTWRIGHT_RESULTS: RESULTS,
        // for working on one extension-host test: HARNESS_HOST_GREP=<title part> HARNESS_GREP=zzz-none
        ...(process.env.HARNESS_HOST_GREP ? { PROMPTWRIGHT_HOST_GREP: process.env.HARNESS_HOST_GREP } : {}),
        // the order the extension-host tests ran in, again (the suite prints its seed)
        ...(process.env.HARNESS_HOST_SEED ? { PROMPTWRIGHT_HOST_SEED: process.env.HARNESS_HOST_SEED } : {}),
        // only the tests whose title says "Restricted Mode" (test/integration/index.ts)
        ...(restricted ? { PROMPTWRIGHT_RESTRICTED: '1' } : {}),
      },
    }),
  );
  const code = await exited;
  clearTimeout(timer);
  const file = restricted ? 'extension-host-restricted' : 'extension-host';
  await page.screenshot({ path: path.join(RESULTS, `${file}-suite.png`) }).catch(() => {});
  await close();
  fs.writeFileSync(path.join(RESULTS, `${file}.log`), lines.join('\n'));
  if (code !== 0 && stats.failures === 0) stats.failures = 1; // exit code wins over the count
  log(`${name}: exit ${code}, ${stats.passes} passed, ${stats.failures} failed${order ? ` (${order})` : ''}`);
  return stats;
}

async function phaseUi(cs) {
  const files = fs
    .readdirSync(path.join(ROOT, 'test', 'ui'))
    .filter(f => f.endsWith('.test.mjs'))
    .sort();
  // the user settings code-server reads (a test that changes one, e.g. the colour theme, puts it back)
  const userSettings = path.join(cs.state, 'user-data', 'User', 'settings.json');
  Object.assign(ui, { base: cs.base, root: ROOT, results: RESULTS, freshWorkspace, workbenchUrl, launchBrowser });
  Object.assign(ui, { userSettings });
  const mocha = new Mocha({ ui: 'bdd', timeout: 120000, reporter: 'spec', color: false });
  if (process.env.HARNESS_GREP) mocha.grep(process.env.HARNESS_GREP);
  for (const f of files) mocha.addFile(path.join(ROOT, 'test', 'ui', f));
  await mocha.loadFilesAsync();
  // the tests that ran: a grep leaves the others out of the count
  let runner;
  const failures = await new Promise(resolve => (runner = mocha.run(resolve)));
  return { passes: runner.stats?.passes ?? 0, failures };
}

const statsFile = path.join(RESULTS, 'vscode-stats.json');
fs.rmSync(statsFile, { force: true });
let cs;
let restrictedCs;
let result = { passes: 0, failures: 1 };
try {
  ensureInstalled();
  const { startFake } = await import('../../out/test/fake/server.js');
  const fake = await startFake();
  ui.fake = fake;
  // a debounce far above the typing delay, so a loaded machine cannot split a typed burst
  const userSettings = {
    'promptwright.baseUrl': fake.url,
    'promptwright.tokenCount.debounceMs': 1500,
    // the theme's name in VS Code 1.139 (an older name is migrated, and the settings file rewritten)
    'workbench.colorTheme': 'Dark Modern',
  };
  cs = await startCodeServer({ testDriver: true, logFile: path.join(RESULTS, 'code-server.log'), userSettings });
  log(`code-server up at ${cs.base}; fake service at ${fake.url}`);
  // for working on one UI test: HARNESS_GREP=<title part> HARNESS_SKIP_HOST=1 node test/harness/run.mjs
  const none = { passes: 0, failures: 0 };
  const a = process.env.HARNESS_SKIP_HOST ? none : await phaseExtensionHost(cs);
  let r = none;
  if (!process.env.HARNESS_SKIP_HOST) {
    // trust is a server's setting: Restricted Mode takes a code-server of its own, stopped before the UI phase
    restrictedCs = await startCodeServer({
      testDriver: true,
      restricted: true,
      logFile: path.join(RESULTS, 'code-server-restricted.log'),
      userSettings,
    });
    r = await phaseExtensionHost(restrictedCs, { restricted: true });
    restrictedCs.stop();
    restrictedCs = undefined;
  }
  const b = await phaseUi(cs);
  result = { passes: a.passes + r.passes + b.passes, failures: a.failures + r.failures + b.failures };
  await fake.close();
} catch (e) {
  console.error((e && e.stack) || e);
} finally {
  restrictedCs?.stop();
  cs?.stop();
}
fs.writeFileSync(statsFile, JSON.stringify(result));
log(`VS Code suites: ${result.passes} passed, ${result.failures} failed`);
process.exit(result.failures ? 1 : 0);
