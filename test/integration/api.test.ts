import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConfigError } from '../../src/core/api/errors';
import { startFake, type Fake } from '../fake/server';
import { api, restoreKeysAfterEach, setKey, setSetting, waitFor } from './helpers';

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map(f => path.join(dir, String(f)))
    .filter(f => fs.statSync(f).isFile());
}

describe('API client in the extension (keys in SecretStorage)', () => {
  let fake: Fake;
  let restore: () => Promise<void>;
  before(async () => {
    fake = await startFake({ apiKey: 'sk-test-SECRET-123456' });
    restore = await setSetting('baseUrl', fake.url);
  });
  after(async () => {
    await restore();
    await fake.close();
  });
  restoreKeysAfterEach();

  it('no key: a ConfigError that offers "Set API Key"', async () => {
    const a = await api();
    await setKey('api', undefined);
    await assert.rejects(
      (await a.api.client()).countTokens({ model: 'm', messages: [] }),
      (e: unknown) => (e as ConfigError).name === 'ConfigError' && (e as ConfigError).action === 'set-api-key',
    );
  });

  it('with the key in SecretStorage the client sends it; the key is in no setting and no log file', async () => {
    const a = await api();
    await setKey('api', fake.apiKey);
    const r = await (
      await a.api.client()
    ).countTokens({ model: 'model-opus-4-7', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
    assert.ok(r.input_tokens > 0);
    assert.equal(fake.requests.at(-1)!.headers['x-api-key'], fake.apiKey);
    a.log.info(`a line that mentions the key by mistake: ${fake.apiKey}`);
    const settings = JSON.stringify(vscode.workspace.getConfiguration('promptwright'));
    assert.equal(settings.includes(fake.apiKey), false);
    const logDir = path.dirname(a.logUri.fsPath);
    const files = await waitFor('log files', () => {
      const fsx = filesUnder(logDir).filter(f => f.endsWith('.log'));
      return fsx.some(f => fs.readFileSync(f, 'utf8').includes('count_tokens')) ? fsx : undefined;
    });
    for (const f of files) assert.equal(fs.readFileSync(f, 'utf8').includes(fake.apiKey), false, `key found in ${f}`);
  });
});
