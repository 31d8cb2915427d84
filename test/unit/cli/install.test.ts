// The npm package as a user installs it: `npm pack` makes the tarball, `npm install -g` puts it into an empty
// prefix, and the installed `promptwright` runs: `--version`, `check`, `lsp --stdio`. Offline: npm's cache is empty
// and its registry an address nothing answers, so the install succeeds only because the package needs nothing to
// be downloaded (its bundles carry their dependencies; package.json lists none to install). The suite's build
// (`npm test` builds before the unit tests) is the one `npm pack` would make: its `prepare` runs the same build.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LspClient } from '../../support/lspClient';

const npm = (args: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()) => {
  const r = spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `npm ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

describe('the npm package: packed, installed into an empty prefix, and run', function () {
  this.timeout(240_000);
  let tmp: string;
  let bin: string;
  let prefix: string;
  let packed: { files: { path: string }[]; filename: string };
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string; devDependencies: object };

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-install-'));
    prefix = path.join(tmp, 'prefix');
    fs.mkdirSync(prefix);
    // npm offline: an empty cache of its own, a registry nothing answers, no audit, no update check
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      npm_config_cache: path.join(tmp, 'npm-cache'),
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    const out = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], env);
    packed = (JSON.parse(out) as (typeof packed)[])[0]!;
    npm(['install', '--global', '--prefix', prefix, path.join(tmp, packed.filename)], env, tmp);
    bin = path.join(prefix, process.platform === 'win32' ? 'promptwright.cmd' : path.join('bin', 'promptwright'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('the tarball holds the three bundles and the docs, and its package.json asks for nothing to install', () => {
    const files = packed.files.map(f => f.path).sort();
    assert.ok(
      ['cli', 'lsp', 'mcp'].every(b => files.includes(`dist/${b}.js`)),
      files.join(', '),
    );
    assert.deepEqual(
      files.filter(
        f =>
          !/^(dist\/(cli|lsp|mcp)\.js|README\.md|RULES\.md|CHANGELOG\.md|LICENSE|package\.json|docs\/[\w-]+\.md)$/.test(
            f,
          ),
      ),
      [],
    );
    assert.equal((pkg as { dependencies?: object }).dependencies, undefined, 'no dependencies: the bundles carry them');
  });

  it('installs promptwright alone: no dependency and no devDependency in the prefix', () => {
    const root = path.join(prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules');
    assert.deepEqual(fs.readdirSync(root), ['promptwright']);
    assert.ok(!fs.existsSync(path.join(root, 'promptwright', 'node_modules')), 'nothing installed beside it');
    for (const dev of Object.keys(pkg.devDependencies)) assert.ok(!fs.existsSync(path.join(root, dev)), dev);
  });

  it('promptwright --version prints the version of package.json', () => {
    const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${pkg.version}\n`);
  });

  it('promptwright check: a clean file exits 0, a file with an error 1', () => {
    const ok = path.join(tmp, 'hello.prompt.json');
    const bad = path.join(tmp, 'bad.prompt.json');
    const body = { model: 'model-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };
    fs.writeFileSync(ok, JSON.stringify(body));
    fs.writeFileSync(bad, JSON.stringify({ ...body, messages: [{ role: 'usr', content: 'Hi' }] }));
    const clean = spawnSync(bin, ['check', 'hello.prompt.json'], { cwd: tmp, encoding: 'utf8' });
    assert.equal(clean.status, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /^1 file checked: 0 errors/m);
    const wrong = spawnSync(bin, ['check', 'bad.prompt.json'], { cwd: tmp, encoding: 'utf8' });
    assert.equal(wrong.status, 1);
    assert.match(wrong.stdout, /^bad\.prompt\.json:\d+:\d+: error /m);
  });

  it('promptwright lsp --stdio answers initialize and a diagnostic, and exits 0 on shutdown and exit', async () => {
    const client = new LspClient({}, ['lsp', '--stdio'], bin);
    try {
      const init = (await client.initialize(tmp)) as { capabilities?: object };
      assert.ok(init.capabilities);
      const file = path.join(tmp, 'open.prompt.json');
      const uri = client.open(file, '{"model": "model-sonnet-4-6", "max_tokens": 10, "messages": []}');
      const published = await client.published(uri);
      assert.ok(
        published.diagnostics.some(d => d.code === 'empty-messages'),
        JSON.stringify(published),
      );
    } finally {
      assert.equal(await client.stop(), 0, client.stderr);
    }
  });
});
