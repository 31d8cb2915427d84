// Real request bodies the service accepted (test/fixtures/accepted, re-typed from public SDK and framework
// test recordings; sources in its manifest and README). The rule they hold us to: an error means the
// service will reject the request, so none of these may get one.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pickCountFields } from '../../../src/core/api/countFields';
import { validateText } from '../../../src/core/request/validate';
import { NOW } from './helpers';

interface Entry {
  file: string;
  kind: 'recording' | 'official-example' | 'official-docs-example';
  status: number;
  betas: string[];
  source: { repo: string; path: string };
}

const DIR = path.join('test', 'fixtures', 'accepted');
const manifest = JSON.parse(fs.readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as Entry[];

describe('accepted bodies: no false errors (test/fixtures/accepted)', () => {
  it('the manifest names every body, each with its source, and at least 50 are recordings of a 200', () => {
    const files = fs
      .readdirSync(DIR)
      .filter(f => f.endsWith('.json') && f !== 'manifest.json')
      .sort();
    assert.deepEqual(manifest.map(e => e.file).sort(), files);
    for (const e of manifest) assert.ok(e.source.repo && e.source.path && e.status === 200, e.file);
    assert.ok(manifest.filter(e => e.kind === 'recording').length >= 50);
  });
  for (const e of manifest) {
    it(`${e.file}: no error; with its recorded betas, no beta warning either`, () => {
      const text = fs.readFileSync(path.join(DIR, e.file), 'utf8');
      const bare = validateText(text, 'json', { now: NOW }).problems;
      assert.deepEqual(
        bare.filter(p => p.severity === 'error').map(p => `${p.code}: ${p.message}`),
        [],
      );
      const withBetas = validateText(text, 'json', { now: NOW, betas: e.betas }).problems;
      assert.deepEqual(
        withBetas.filter(p => p.severity === 'error' || p.code === 'beta-feature').map(p => p.message),
        [],
      );
    });
  }
  it('each body as count_tokens takes it (what `count` sends, and a *.count.json file holds): no error', () => {
    for (const e of manifest) {
      const body = pickCountFields(
        JSON.parse(fs.readFileSync(path.join(DIR, e.file), 'utf8')) as Record<string, unknown>,
      );
      const problems = validateText(JSON.stringify(body, null, 2), 'json', {
        now: NOW,
        endpoint: 'count_tokens',
      }).problems;
      assert.deepEqual(
        problems.filter(p => p.severity === 'error').map(p => `${p.code}: ${p.message}`),
        [],
        e.file,
      );
    }
  });
});
