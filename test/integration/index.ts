// Mocha runner for the suite that runs inside a real VS Code extension host. Launcher-agnostic: the
// code-server harness (test/harness/run.mjs) and @vscode/test-electron (test/harness/electron.mjs) both
// load this file as extensionTestsPath and call run().
//
// The files, and the tests inside each suite, run in a shuffled order, from a new random seed each run: no
// test may lean on what another left behind. The seed is printed; PROMPTWRIGHT_HOST_SEED=<seed> runs that
// order again (`sorted`: the files' own order). The harness passes HARNESS_HOST_SEED on under that name.
import * as path from 'node:path';
import * as fs from 'node:fs';
import Mocha from 'mocha';

/** A small seeded generator (mulberry32): the same seed, the same order. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], next: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

function shuffleSuite(suite: Mocha.Suite, next: () => number): void {
  shuffle(suite.suites, next);
  shuffle(suite.tests, next);
  for (const s of suite.suites) shuffleSuite(s, next);
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30000, reporter: 'spec' });
  const grep = process.env.PROMPTWRIGHT_HOST_GREP;
  // in a workspace in Restricted Mode (the harness's second phase), only the tests whose title says so
  if (process.env.PROMPTWRIGHT_RESTRICTED) {
    const also = grep ? `(?=.*${grep.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})` : '';
    mocha.grep(new RegExp(`^(?=.*Restricted Mode)${also}`));
  } else if (grep) mocha.grep(grep);
  for (const f of fs
    .readdirSync(__dirname)
    .filter(f => f.endsWith('.test.js'))
    .sort())
    mocha.addFile(path.join(__dirname, f));
  // loaded here (not by run()) so that the order can be shuffled first; CommonJS test files load synchronously
  (mocha as unknown as { loadFiles(): void }).loadFiles();
  const order = process.env.PROMPTWRIGHT_HOST_SEED?.trim() || undefined;
  if (order === 'sorted') console.log("extension-host tests in the files' own order (HARNESS_HOST_SEED=sorted)");
  else {
    if (order !== undefined && !/^\d+$/.test(order))
      return Promise.reject(new Error(`HARNESS_HOST_SEED is a whole number or "sorted", not "${order}"`));
    const seed = order !== undefined ? Number(order) : Math.floor(Math.random() * 2 ** 31);
    console.log(`extension-host tests in a shuffled order: HARNESS_HOST_SEED=${seed} repeats it`);
    shuffleSuite(mocha.suite, random(seed));
  }
  return new Promise((resolve, reject) => {
    const runner = mocha.run(failures => {
      // one machine-readable line the harness reads to add these tests to the overall count (the tests that
      // ran: a grep leaves the others out)
      const passes = runner.stats?.passes ?? 0;
      console.log(`@@PROMPTWRIGHT_STATS ${JSON.stringify({ passes, failures })}`);
      if (failures > 0) reject(new Error(`${failures} tests failed.`));
      else resolve();
    });
  });
}
