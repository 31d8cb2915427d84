// `npm start`: a real VS Code (code-server on 127.0.0.1) with Promptwright installed from a freshly built
// .vsix and examples/ as the workspace. With no PROMPTWRIGHT_BASE_URL, the local fake of the service is
// started as an OFFLINE DEMO BACKEND (canned replies, no real model) and the extension is pointed at it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureInstalled, startCodeServer, freePort } from './vscode.mjs';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const vsix = path.join(os.tmpdir(), `${pkg.name}-${pkg.version}-start.vsix`);
ensureInstalled();
const r = spawnSync(
  'npx',
  ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
if (r.status !== 0) process.exit(1);

let baseUrl = process.env.PROMPTWRIGHT_BASE_URL;
let fake;
if (!baseUrl) {
  const { startFake } = await import('../../out/test/fake/server.js');
  fake = await startFake({ apiKey: 'demo', eventDelayMs: 15 });
  baseUrl = fake.url;
}
let port = Number(process.env.PORT || 8080);
if (!(await isFree(port))) port = await freePort();
const cs = await startCodeServer({ port, vsix, userSettings: { 'promptwright.baseUrl': baseUrl } });
const url = `${cs.base}/?folder=${encodeURIComponent(path.resolve('examples'))}`;
console.log(`\nPromptwright ${pkg.version} is running in VS Code ${'1.139'} (code-server):\n\n   ${url}\n`);
if (fake) {
  console.log(
    `OFFLINE DEMO BACKEND: the fake service at ${fake.url} answers instead of the real one (canned replies).`,
  );
  console.log(`In VS Code run "Promptwright: Set API Key" and enter: demo\n`);
} else {
  console.log(`Service: ${baseUrl}. Run "Promptwright: Set API Key" in VS Code to add your key.\n`);
}
console.log('Press Ctrl-C to stop.');
const stop = async () => {
  cs.stop();
  await fake?.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
setInterval(() => {}, 1 << 30);

async function isFree(p) {
  const net = await import('node:net');
  return new Promise(resolve => {
    const s = net
      .createServer()
      .once('error', () => resolve(false))
      .listen(p, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}
