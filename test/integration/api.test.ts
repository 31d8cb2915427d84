import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConfigError } from '../../src/core/api/errors';
import { startFake, type Fake } from '../fake/server';
import { api, endCaseRuns, restoreKeysAfterEach, setKey, setSetting, useFake, waitFor, workspaceUri } from './helpers';

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

describe('one API client per settings (shared by every request, replaced when a key or setting changes)', () => {
  const DIR = 'client-suite';
  const holder = useFake({ apiKey: 'sk-test-SHARED-123456' }, { 'cases.maxRequests': 1000 });
  restoreKeysAfterEach();
  after(() => endCaseRuns(DIR));

  /** A case file of `n` cases on one model, each passing when the fake echoes its question. */
  function grid(name: string, n: number): vscode.Uri {
    const dir = workspaceUri(DIR, name);
    fs.mkdirSync(dir.fsPath, { recursive: true });
    fs.writeFileSync(
      vscode.Uri.joinPath(dir, 'ask.prompt.yaml').fsPath,
      'model: model-haiku-4-5\nmax_tokens: 20\nmessages:\n  - role: user\n    content: "{{question}}"\n',
    );
    const cases = Array.from(
      { length: n },
      (_, i) => `  - name: case ${i}\n    vars: { question: "q ${i}" }\n    assert:\n      - contains: "q ${i}"\n`,
    );
    const file = vscode.Uri.joinPath(dir, 'ask.cases.yaml');
    fs.writeFileSync(file.fsPath, `request: ask.prompt.yaml\nmodels: [model-haiku-4-5]\ncases:\n${cases.join('')}`);
    return file;
  }

  async function runGrid(file: vscode.Uri, n: number): Promise<number> {
    const t0 = performance.now();
    await vscode.commands.executeCommand('promptwright.runCases', file);
    const ms = performance.now() - t0;
    const g = (await api()).features().then(f => f.cases.grid());
    const cells = (await g)?.cells ?? [];
    assert.equal(cells.filter(c => c.status === 'passed').length, n, 'every cell passed');
    return ms;
  }

  it('a 100-cell grid run: every cell passes, twice (the wall times are printed)', async () => {
    const file = grid('hundred', 100);
    const ms = [await runGrid(file, 100), await runGrid(file, 100)].map(Math.round);
    console.log(`    100-cell grid run: ${ms.join(' ms, then ')} ms`);
  });

  it("a grid's cells share one client; Set API Key and a new baseUrl take effect on the next request", async () => {
    const a = (await api()).api;
    const fake = holder.fake;
    const ask = { model: 'model-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
    const first = await a.client();
    const built = a.created;
    fake.clear();
    await runGrid(grid('ten', 10), 10);
    const sent = fake.requests.filter(r => r.path === '/v1/messages');
    assert.equal(sent.length, 10);
    assert.equal(a.created, built, 'no client built for the cells');
    assert.equal(await a.client(), first, 'the same client after the run');
    // kept-alive connections: at most one per request in flight at once, never one per cell
    const ports = new Set(sent.map(r => r.clientPort));
    const concurrency = (await api()).config.casesConcurrency;
    assert.ok(ports.size <= concurrency, `${ports.size} connections for 10 cells (concurrency ${concurrency})`);

    // a new key: the next request carries it (the fake refuses it), from a new client
    await setKey('api', 'sk-test-OTHER-654321');
    await assert.rejects((await a.client()).countTokens(ask), /invalid x-api-key/);
    assert.equal(fake.requests.at(-1)!.headers['x-api-key'], 'sk-test-OTHER-654321');
    assert.notEqual(await a.client(), first);
    assert.equal(a.created, built + 1);
    await setKey('api', fake.apiKey);
    assert.ok((await (await a.client()).countTokens(ask)).input_tokens > 0);

    // a new address: the next request goes there, with the key, and to no other
    const other = await startFake({ apiKey: fake.apiKey });
    const restore = await setSetting('baseUrl', other.url);
    try {
      const before = fake.requests.length;
      assert.ok((await (await a.client()).countTokens(ask)).input_tokens > 0);
      assert.ok(other.requests.length >= 1);
      assert.equal(fake.requests.length, before, 'nothing went to the old address');
    } finally {
      await restore();
      await other.close();
    }
    assert.ok((await (await a.client()).countTokens(ask)).input_tokens > 0);
    assert.equal(fake.requests.at(-1)!.path, '/v1/messages/count_tokens');
  });
});
