// `npm start`: a real VS Code (code-server on 127.0.0.1) with Promptwright installed from a freshly built
// .vsix and examples/ as the workspace. With no PROMPTWRIGHT_BASE_URL, the extension starts its offline demo.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageVsix } from '../../scripts/package.mjs';
import { ensureInstalled, startCodeServer, freePort } from './vscode.mjs';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const vsix = path.join(os.tmpdir(), `${pkg.name}-${pkg.version}-start.vsix`);
ensureInstalled();
await packageVsix(vsix);

const baseUrl = process.env.PROMPTWRIGHT_BASE_URL;
let port = Number(process.env.PORT || 8080);
if (!(await isFree(port))) port = await freePort();
// without a service of your own, Promptwright starts its offline demo as it activates (PROMPTWRIGHT_DEMO):
// the same demo the walkthrough offers, with sample data in every view and no key to type
const cs = await startCodeServer({
  port,
  vsix,
  ...(baseUrl ? { userSettings: { 'promptwright.baseUrl': baseUrl } } : { env: { PROMPTWRIGHT_DEMO: '1' } }),
});
const url = `${cs.base}/?folder=${encodeURIComponent(path.resolve('examples'))}`;
console.log(`\nPromptwright ${pkg.version} is running in VS Code ${'1.139'} (code-server):\n\n   ${url}\n`);
if (baseUrl) console.log(`Service: ${baseUrl}. Run "Promptwright: Set API Key" in VS Code to add your key.\n`);
else {
  console.log('OFFLINE DEMO: no model runs. Promptwright talks to its own offline demo (sample replies, sessions,');
  console.log('rate limits, an organization and compliance data; no key to type). "Stop Offline Demo" ends it.\n');
}
console.log('Press Ctrl-C to stop.');
const stop = () => {
  cs.stop();
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
