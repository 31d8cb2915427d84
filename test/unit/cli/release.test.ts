// The release workflow (.github/workflows/release.yml) as CI can test it: its dry-run step, run as written, offline,
// in a copy of the repository (the files git would commit, the installed node_modules beside them): a production
// build, the npm tarball and the .vsix made and checked, `npm publish --dry-run`, and the two uploads it would run.
// The publish step is the same script without --dry-run.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as YAML from 'yaml';

interface Workflow {
  on: { push: { tags: string[] } };
  jobs: { release: { steps: { name?: string; run?: string; env?: Record<string, string> }[] } };
}

describe('the release workflow', function () {
  this.timeout(300_000);
  const workflow = YAML.parse(fs.readFileSync('.github/workflows/release.yml', 'utf8')) as Workflow;
  const steps = workflow.jobs.release.steps;

  it('runs on a version tag: a dry run first, then the publish with the three tokens', () => {
    assert.deepEqual(workflow.on.push.tags, ['v*']);
    const runs = steps.map(s => s.run);
    const dry = runs.indexOf('node scripts/release.mjs --dry-run');
    const publish = runs.indexOf('node scripts/release.mjs');
    assert.ok(dry >= 0 && publish > dry, runs.join(' | '));
    assert.deepEqual(Object.keys(steps[publish]!.env ?? {}).sort(), ['NODE_AUTH_TOKEN', 'OVSX_PAT', 'VSCE_PAT']);
  });

  it('its dry-run step, run as written and offline, makes and checks both packages and uploads nothing', () => {
    const dry = steps.find(s => s.run?.includes('--dry-run'))!.run!;
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-release-'));
    try {
      const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
        encoding: 'utf8',
      }).stdout.split('\0');
      for (const f of files.filter(x => x && fs.existsSync(x) && fs.statSync(x).isFile())) {
        fs.mkdirSync(path.join(copy, path.dirname(f)), { recursive: true });
        fs.copyFileSync(f, path.join(copy, f));
      }
      fs.symlinkSync(path.resolve('node_modules'), path.join(copy, 'node_modules'), 'dir');
      const env = {
        ...process.env,
        GITHUB_REF_NAME: `v${(JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version}`,
        npm_config_cache: path.join(copy, '.npm-cache'),
        npm_config_registry: 'http://127.0.0.1:9/',
        npm_config_offline: 'true',
        npm_config_update_notifier: 'false',
        NODE_AUTH_TOKEN: '',
        VSCE_PAT: '',
        OVSX_PAT: '',
      };
      const r = spawnSync('bash', ['-c', dry], { cwd: copy, env, encoding: 'utf8', timeout: 280_000 });
      const said = `${r.stdout}\n${r.stderr}`;
      assert.equal(r.status, 0, said);
      assert.match(
        r.stdout,
        /^release: \.\/release\/promptwright-[\d.]+\.tgz \(\d+ files\), release\/promptwright-[\d.]+\.vsix/m,
      );
      assert.match(said, /\(dry-run\)/, 'npm publish --dry-run ran');
      assert.match(r.stdout, /would run: npx vsce publish --no-dependencies --packagePath release\/promptwright-/);
      assert.match(r.stdout, /would run: npx --yes ovsx@[\d.]+ publish release\/promptwright-/);
      assert.match(r.stdout, /the real run needs NODE_AUTH_TOKEN, VSCE_PAT, OVSX_PAT/);
      assert.ok(fs.statSync(path.join(copy, 'release')).isDirectory());
      const vsix = fs.readdirSync(path.join(copy, 'release')).find(f => f.endsWith('.vsix'))!;
      assert.ok(fs.statSync(path.join(copy, 'release', vsix)).size > 100_000);
      const wrongTag = spawnSync('bash', ['-c', dry], {
        cwd: copy,
        env: { ...env, GITHUB_REF_NAME: 'v9.9.9' },
        encoding: 'utf8',
      });
      assert.equal(wrongTag.status, 1);
      assert.match(wrongTag.stderr, /the tag v9\.9\.9 does not name package\.json's version/);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
