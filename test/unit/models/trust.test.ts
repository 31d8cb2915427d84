// The rule of trust with the service's model list: none of the bodies the service accepted
// (test/fixtures/accepted) gets an error when checked against the fake's list, as none does against the
// built-in table alone (test/unit/request/corpus.test.ts). The list is read as `check --models` reads it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ModelCatalog, parseModelList } from '../../../src/core/models/catalog';
import { validateText } from '../../../src/core/request/validate';
import { NOW } from '../request/helpers';

const DIR = path.join('test', 'fixtures', 'accepted');
const manifest = JSON.parse(fs.readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as {
  file: string;
  betas: string[];
}[];

describe('accepted bodies against the service’s model list: no false errors', () => {
  const list = parseModelList(JSON.parse(fs.readFileSync('test/fixtures/models/catalog.json', 'utf8')));
  if ('error' in list) throw new Error(list.error);
  const models = new ModelCatalog(list.models);

  it('every body, bare and with its recorded betas, for messages and for count_tokens', () => {
    const found: string[] = [];
    for (const e of manifest) {
      const text = fs.readFileSync(path.join(DIR, e.file), 'utf8');
      for (const betas of [[], e.betas])
        for (const endpoint of ['messages', 'count_tokens'] as const)
          for (const p of validateText(text, 'json', { now: NOW, betas, endpoint, models }).problems)
            if (p.severity === 'error') found.push(`${e.file} (${endpoint}): ${p.code}: ${p.message}`);
    }
    assert.deepEqual(found, []);
    assert.ok(manifest.length >= 100);
  });

  it('the list knows every model the accepted bodies use (so the list, not the table, is what was checked)', () => {
    const unknown = manifest
      .map(e => (JSON.parse(fs.readFileSync(path.join(DIR, e.file), 'utf8')) as { model: string }).model)
      .filter(m => models.lookup(m).match === 'unknown' || !models.lookup(m).info?.service);
    assert.deepEqual([...new Set(unknown)], []);
  });
});
