// `promptwright lsp --stdio` as a process, with the key in the environment as an editor user has it and a project's
// settings (what Zed's or Helix's project file sends as initializationOptions or workspace/didChangeConfiguration)
// naming another address, a recording server: the environment's key never arrives there. It goes only where the
// environment says, or with the editor's own key to the editor's address.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startFake, type Fake } from '../../fake/server';
import { LspClient } from '../../support/lspClient';

const ENV_KEY = 'sk-vendor-api03-from-the-environment';
const EDITOR_KEY = 'sk-vendor-api03-from-the-editor';
const HELLO =
  '{\n  "model": "model-sonnet-4-6",\n  "max_tokens": 64,\n  "messages": [{ "role": "user", "content": "Hi" }]\n}\n';

describe('promptwright lsp --stdio: the key and the address come from the same place', function () {
  this.timeout(60_000);
  let service: Fake;
  let recorder: Fake;
  let dir: string;
  let client: LspClient | undefined;
  before(async () => {
    service = await startFake({ apiKey: ENV_KEY });
    recorder = await startFake({ apiKey: EDITOR_KEY });
  });
  after(async () => {
    await service.close();
    await recorder.close();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-lsp-keys-'));
    service.clear();
    recorder.clear();
  });
  afterEach(async () => {
    await client?.stop();
    client = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const env = (baseUrl = service.url) => ({ PROMPTWRIGHT_BASE_URL: baseUrl, PROMPTWRIGHT_API_KEY: ENV_KEY });
  const keysAt = (f: Fake) => f.requests.map(r => r.headers['x-api-key']);

  /** Starts the server, opens a request file and asks for its count as the editor's "count" lens does. */
  async function countWith(environment: NodeJS.ProcessEnv, options: Record<string, unknown>): Promise<LspClient> {
    const c = (client = new LspClient(environment));
    await c.initialize(dir, {
      promptwright: { validation: { debounceMs: 0 }, tokenCount: { debounceMs: 50 }, ...options },
    });
    const uri = c.open(path.join(dir, 'a.prompt.json'), HELLO);
    await c.published(uri);
    // live counting (its debounce is 50 ms) has had its time, then the lens is clicked
    await new Promise(r => setTimeout(r, 600));
    await c.request('workspace/executeCommand', { command: 'promptwright.countTokens', arguments: [uri] });
    return c;
  }

  it("the editor's address, the environment's key: nothing is sent there, and it says why", async () => {
    const c = await countWith(env(), { baseUrl: recorder.url });
    assert.deepEqual(recorder.requests, [], 'the environment key went to the address from the settings');
    assert.deepEqual(service.requests, []);
    // said to the person, and in the log as the server starts
    const why =
      /settings name http:\/\/127\.0\.0\.1:\d+, not PROMPTWRIGHT_BASE_URL .*: PROMPTWRIGHT_API_KEY is not sent/;
    assert.ok(c.asked.some(a => a.method === 'window/showMessageRequest' && why.test(JSON.stringify(a.params))));
    assert.ok(c.notifications.some(n => n.method === 'window/logMessage' && why.test(JSON.stringify(n.params))));
  });

  it('an address pushed later (didChangeConfiguration): the key goes nowhere but its own address', async () => {
    const c = await countWith(env(), {});
    assert.ok(keysAt(service).length > 0, 'counted at the environment’s address first');
    const before = service.requests.length;
    c.notify('workspace/didChangeConfiguration', { settings: { promptwright: { baseUrl: recorder.url } } });
    const uri = c.open(path.join(dir, 'b.prompt.json'), HELLO.replace('Hi', 'Hello'));
    await c.published(uri);
    await new Promise(r => setTimeout(r, 600));
    await c.request('workspace/executeCommand', { command: 'promptwright.countTokens', arguments: [uri] });
    assert.deepEqual(recorder.requests, []);
    assert.equal(service.requests.length, before, 'and not to the environment’s either: the settings name another');
    assert.deepEqual([...new Set(keysAt(service))], [ENV_KEY]);
  });

  it("the editor's address with the editor's own key: that key goes there, the environment's does not", async () => {
    await countWith(env(), { baseUrl: recorder.url, apiKey: EDITOR_KEY });
    assert.ok(recorder.requests.length > 0, 'counted at the editor’s address');
    assert.deepEqual([...new Set(keysAt(recorder))], [EDITOR_KEY]);
    assert.deepEqual(service.requests, []);
  });

  it('the editor names the environment’s address (spelled otherwise): the environment’s key goes there', async () => {
    await countWith(env(`${service.url}/`), { baseUrl: `${service.url.replace('http://', 'HTTP://')}//` });
    assert.ok(service.requests.length > 0);
    assert.deepEqual([...new Set(keysAt(service))], [ENV_KEY]);
    assert.deepEqual(recorder.requests, []);
  });

  it('a redirect from the service to another address: refused, the log names it, nothing arrives there', async () => {
    service.fail({ path: '/v1/messages/count_tokens', status: 307, headers: { location: `${recorder.url}/v1/x` } }, 10);
    const c = await countWith(env(), {});
    assert.ok(service.requests.length > 0);
    assert.deepEqual(recorder.requests, []);
    // the log line may come after the command's answer (and after a live count the command cancelled)
    const redirected = `redirected to ${recorder.url}/v1/x`;
    await c.waitFor(
      n => n.method === 'window/logMessage' && JSON.stringify(n.params).includes(redirected),
      `a log line saying "${redirected}"`,
      10_000,
    );
  });
});
