// `promptwright lsp --stdio` as a process, spoken to over pipes: what an editor sees of it. Edits in pieces and
// whole, cancelled requests, hostile files beside ordinary ones, completion, hover, quick fixes applied, the
// lenses estimated and counted against the fake service, settings from the client, and the key kept out of
// everything the server says.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startFake, type Fake } from '../../fake/server';
import { LspClient, type Published } from '../../support/lspClient';
import { runCliSync } from '../../support/spawnCli';

type Pos = { line: number; character: number };
interface Edit {
  range: { start: Pos; end: Pos };
  newText: string;
}
interface Item {
  label: string;
  textEdit?: Edit;
  insertTextFormat?: number;
  documentation?: { value: string };
  labelDetails?: { description?: string };
}
interface Action {
  title: string;
  isPreferred?: boolean;
  edit?: { changes: Record<string, Edit[]> };
  command?: { command: string; arguments: unknown[] };
}

/** Applies LSP text edits to a text (the client's side of a WorkspaceEdit). */
function apply(text: string, edits: readonly Edit[]): string {
  const offset = (p: Pos) => {
    const lines = text.split('\n');
    let o = 0;
    for (let i = 0; i < p.line; i++) o += lines[i]!.length + 1;
    return o + p.character;
  };
  let out = text;
  for (const e of [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start)))
    out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

/** What `check --format json` says of a text, as the server's diagnostics say it. */
function checkText(dir: string, name: string, text: string, env: NodeJS.ProcessEnv = {}) {
  const file = path.join(dir, `check-${name}`);
  fs.writeFileSync(file, text);
  const r = runCliSync(['check', '--format', 'json', file], { env: { PATH: process.env.PATH, ...env } });
  fs.rmSync(file);
  return (JSON.parse(r.stdout) as { line: number; column: number; code: string; message: string }[]).map(
    r => `${r.line}:${r.column} ${r.code} ${r.message}`,
  );
}
const said = (p: Published) =>
  p.diagnostics.map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`);

const HELLO =
  '{\n  "model": "model-sonnet-4-6",\n  "max_tokens": 1024,\n  "messages": [{ "role": "user", "content": "Hi" }]\n}\n';

describe('promptwright lsp --stdio (a whole process)', function () {
  this.timeout(60_000);
  let dir: string;
  let client: LspClient;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-lsp-'));
  });
  afterEach(() => {
    client?.child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const start = async (options: unknown = {}, env: NodeJS.ProcessEnv = {}, capabilities = {}) => {
    client = new LspClient(env);
    const init = await client.initialize(
      dir,
      { promptwright: { validation: { debounceMs: 0 }, ...(options as object) } },
      capabilities,
    );
    return init;
  };

  it('takes edits in pieces and whole, and each version gets the diagnostics check gives its text', async () => {
    await start();
    const file = path.join(dir, 'a.prompt.json');
    const uri = client.open(file, HELLO, 1);
    assert.deepEqual(said(await client.published(uri, { version: 1 })), []);
    // "user" becomes "usr": one character deleted
    const e = HELLO.split('\n')[3]!.indexOf('user') + 2;
    client.notify('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 3, character: e }, end: { line: 3, character: e + 1 } }, text: '' }],
    });
    const edited = HELLO.replace('"user"', '"usr"');
    assert.deepEqual(said(await client.published(uri, { version: 2 })), checkText(dir, 'a.prompt.json', edited));
    assert.match(said(await client.published(uri, { version: 2 })).join(), /invalid-value/);
    // the whole text at once, as a client without incremental sync sends it
    client.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: HELLO }] });
    assert.deepEqual(said(await client.published(uri, { version: 3 })), []);
    assert.equal(await client.stop(), 0);
  });

  it('checks a case file’s dataset as check does: problems at their line and column, again when edited', async () => {
    fs.writeFileSync(
      path.join(dir, 'say.prompt.yaml'),
      'model: model-haiku-4-5\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "{{word}}"\n',
    );
    fs.writeFileSync(path.join(dir, 'words.csv'), 'word,extra\nhello,x\nragged\n"bad"quote,y\n');
    fs.writeFileSync(path.join(dir, 'say.cases.yaml'), 'request: say.prompt.yaml\ndataset: words.csv\n');
    await start();
    const data = pathToFileURL(path.join(dir, 'words.csv')).href;
    client.open(path.join(dir, 'say.cases.yaml'), 'request: say.prompt.yaml\ndataset: words.csv\n');
    const first = said(await client.published(data));
    assert.deepEqual(first.slice(0, 2), [
      '1:6 unused-column The request has no {{extra}}: the column "extra" is not used.',
      '3:1 dataset-syntax This row has 1 fields; the header has 2. Quote a value that holds the separator, or add ' +
        'the missing fields.',
    ]);
    assert.match(first[2]!, /^4:1 dataset-syntax A quoted value is not closed/);
    // the dataset as the client holds it, edited: checked again, clean
    const n = client.notifications.length;
    client.open(path.join(dir, 'words.csv'), 'word\nhello\n', 1);
    await client.waitFor(
      m =>
        m.method === 'textDocument/publishDiagnostics' &&
        m.params.uri === data &&
        client.notifications.indexOf(m) >= n &&
        Array.isArray(m.params.diagnostics) &&
        m.params.diagnostics.length === 0,
      'the edited dataset’s diagnostics',
    );
    assert.equal(await client.stop(), 0);
  });

  it('answers a request the client cancelled as cancelled, and the next one as usual', async () => {
    await start();
    const uri = client.open(path.join(dir, 'a.prompt.json'), HELLO);
    await client.published(uri);
    const asked = client.requestCancelled('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 5 },
    });
    await assert.rejects(asked, (e: { code?: number }) => e.code === -32800);
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 5 },
    });
    assert.match(hover.contents.value, /\*\*model\*\*/);
    assert.equal(await client.stop(), 0);
  });

  it('a 100,000-deep file and a 50 MB file get a problem or their diagnostics; the others are unharmed', async () => {
    await start();
    const deep = client.open(path.join(dir, 'deep.prompt.json'), '['.repeat(100_000) + ']'.repeat(100_000));
    const deepYaml = client.open(path.join(dir, 'deep.prompt.yaml'), '['.repeat(100_000) + ']'.repeat(100_000));
    const messages = Array.from({ length: 2501 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: 'x'.repeat(20_000),
    }));
    const big = JSON.stringify({ model: 'model-sonnet-4-6', max_tokens: 100, messages });
    assert.ok(big.length > 50_000_000);
    const huge = client.open(path.join(dir, 'huge.prompt.json'), big);
    const ok = client.open(path.join(dir, 'ok.prompt.json'), HELLO.replace('"user"', '"usr"'));
    for (const uri of [deep, deepYaml]) {
      const p = await client.published(uri);
      assert.ok(p.diagnostics.length >= 1 && p.diagnostics.length <= 5, JSON.stringify(p.diagnostics).slice(0, 500));
      assert.ok(p.diagnostics.some(d => d.severity === 1));
    }
    assert.deepEqual(
      said(await client.published(huge)).map(s => s.split(' ')[1]),
      [],
    );
    assert.match(said(await client.published(ok)).join(), /invalid-value/);
    // completion, hover and lenses on the deep file answer (with nothing, or something), and the server lives on
    for (const method of ['textDocument/completion', 'textDocument/hover'])
      await client.request(method, { textDocument: { uri: deep }, position: { line: 0, character: 50_000 } });
    await client.request('textDocument/codeLens', { textDocument: { uri: deep } });
    await client.request('textDocument/codeLens', { textDocument: { uri: huge } });
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: ok },
      position: { line: 1, character: 5 },
    });
    assert.match(hover.contents.value, /model/);
    assert.equal(await client.stop(), 0);
  });

  it('files built to be quadratic, in the folder and opened: the first problems of each rule, soon', async () => {
    // 2,000 placeholders no case of 2,000 gives, and 50,000 unknown keys (the server was blocked 29 s by less)
    const names = Array.from({ length: 2000 }, (_, i) => `{{p${i}}}`).join(' ');
    const keys = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, 1]));
    const request = JSON.stringify({
      model: 'model-opus-4-7',
      max_tokens: 5,
      messages: [{ role: 'user', content: names }],
      ...keys,
    });
    const cases = JSON.stringify({
      request: 'r.prompt.json',
      cases: Array.from({ length: 2000 }, (_, i) => ({ name: `c${i}` })),
    });
    fs.writeFileSync(path.join(dir, 'r.prompt.json'), request);
    fs.writeFileSync(path.join(dir, 'a.cases.json'), cases);
    const t0 = Date.now();
    await start();
    // an ordinary file meanwhile: its diagnostics and a hover come as soon as ever
    const ok = client.open(path.join(dir, 'ok.prompt.json'), HELLO.replace('"user"', '"usr"'));
    assert.match(said(await client.published(ok)).join(), /invalid-value/);
    await client.request('textDocument/hover', { textDocument: { uri: ok }, position: { line: 1, character: 5 } });
    assert.ok(Date.now() - t0 < 10_000, `the ordinary file waited ${Date.now() - t0} ms`);
    // the case file, found on disk, and the request as the client opens it
    const codes = (p: Published) => p.diagnostics.map(d => d.code);
    const caseFile = await client.published(pathToFileURL(path.join(dir, 'a.cases.json')).href);
    assert.equal(codes(caseFile).filter(c => c === 'undefined-placeholder').length, 1001);
    assert.match(caseFile.diagnostics.at(-1)!.message, /^3,999,000 more undefined-placeholder problems/);
    const r = client.open(path.join(dir, 'r.prompt.json'), request);
    const own = await client.published(r, { version: 1 });
    assert.equal(codes(own).filter(c => c === 'unknown-field').length, 1001);
    assert.equal(codes(own).filter(c => c === 'undefined-placeholder').length, 1001);
    assert.ok(Date.now() - t0 < 30_000, `${Date.now() - t0} ms in all`);
    assert.equal(await client.stop(), 0);
  });

  it('completes keys, values, model ids with their facts and element templates; hovers fields and models', async () => {
    await start({}, {}, { textDocument: { completion: { completionItem: { snippetSupport: true } } } });
    const text = '{\n  "model": "model-",\n  \n  "max_tokens": 1024,\n  "messages": [\n    \n  ]\n}\n';
    const uri = client.open(path.join(dir, 'a.prompt.json'), text);
    await client.published(uri);
    const models = await client.request<Item[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 1, character: 18 },
    });
    const sonnet = models.find(i => i.label === 'model-sonnet-4-6');
    assert.ok(sonnet, models.map(i => i.label).join());
    assert.match(sonnet.documentation!.value, /Context window/);
    assert.equal(sonnet.textEdit!.newText, '"model-sonnet-4-6"');
    const templates = await client.request<Item[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 5, character: 4 },
    });
    const user = templates.find(i => i.label === 'pw-user');
    assert.ok(user, templates.map(i => i.label).join());
    assert.equal(user.insertTextFormat, 2);
    const keys = await client.request<Item[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 2, character: 2 },
    });
    assert.ok(
      keys.some(i => i.label === 'temperature'),
      keys.map(i => i.label).join(),
    );
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 3, character: 5 },
    });
    assert.match(hover.contents.value, /max_tokens/);
    // YAML: the values of a field after `key: `
    const yaml = client.open(
      path.join(dir, 'b.prompt.yaml'),
      'model: model-sonnet-4-6\nmax_tokens: 10\nthinking:\n  type: \n',
    );
    await client.published(yaml);
    const types = await client.request<Item[]>('textDocument/completion', {
      textDocument: { uri: yaml },
      position: { line: 3, character: 8 },
    });
    assert.deepEqual(
      types.map(i => i.label),
      ['enabled', 'adaptive', 'disabled'],
    );
    assert.equal(await client.stop(), 0);
  });

  it('offers the quick fixes the extension offers, as WorkspaceEdits that fix the file', async () => {
    await start();
    const text = HELLO.replace('"user"', '"usr"');
    const uri = client.open(path.join(dir, 'a.prompt.json'), text);
    const p = await client.published(uri);
    const actions = await client.request<Action[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: p.diagnostics[0]!.range,
      context: { diagnostics: p.diagnostics },
    });
    const fix = actions.find(a => a.isPreferred);
    assert.ok(fix?.edit, JSON.stringify(actions));
    assert.equal(apply(text, fix.edit.changes[uri]!), HELLO);
    assert.equal(await client.stop(), 0);
  });

  it('takes its settings from the client: patterns replace the defaults, and a change applies at once', async () => {
    await start({ requestFilePatterns: ['**/*.req.json'] });
    const mine = client.open(path.join(dir, 'a.req.json'), '{}');
    const default_ = client.open(path.join(dir, 'b.prompt.json'), '{}');
    assert.match(said(await client.published(mine)).join(), /missing-field/);
    await new Promise(r => setTimeout(r, 300));
    assert.equal(client.diagnostics(default_), undefined, 'the default pattern no longer applies');
    const before = client.notifications.length;
    client.notify('workspace/didChangeConfiguration', {
      settings: { promptwright: { requestFilePatterns: ['**/*.prompt.json'], validation: { debounceMs: 0 } } },
    });
    assert.match(said(await client.published(default_, { after: before })).join(), /missing-field/);
    // no longer a request file: what was said of it is taken back
    assert.deepEqual(said(await client.published(mine, { after: before })), []);
    assert.equal(await client.stop(), 0);
  });

  describe('with the fake service', () => {
    let fake: Fake;
    before(async () => {
      fake = await startFake();
    });
    after(async () => {
      await fake.close();
    });

    it('counts the lenses with count_tokens, estimates (≈) without a key, and never says the key', async () => {
      const text = HELLO;
      await start();
      const estimated = client.open(path.join(dir, 'a.prompt.json'), text);
      await client.published(estimated);
      type Lens = { command: { title: string } };
      const before = await client.request<Lens[]>('textDocument/codeLens', { textDocument: { uri: estimated } });
      assert.ok(before.length >= 2 && before.every(l => l.command.title.startsWith('≈')), JSON.stringify(before));
      await client.stop();

      fake.clear();
      await start({ baseUrl: fake.url, apiKey: fake.apiKey, tokenCount: { debounceMs: 100 } });
      const counted = client.open(path.join(dir, 'a.prompt.json'), text);
      await client.published(counted);
      let lenses: Lens[] = [];
      for (let i = 0; i < 100 && !(lenses.length && lenses.every(l => !l.command.title.startsWith('≈'))); i++) {
        await new Promise(r => setTimeout(r, 100));
        lenses = await client.request<Lens[]>('textDocument/codeLens', { textDocument: { uri: counted } });
      }
      assert.ok(
        lenses.every(l => /^\d[\d,]* (input )?tokens?$/.test(l.command.title)),
        JSON.stringify(lenses),
      );
      assert.ok(fake.requests.some(r => r.path === '/v1/messages/count_tokens'));
      // a wrong key: the failure is said, the key is not
      await client.stop();
      const secret = 'sk-test-not-a-real-key-123456';
      await start({ baseUrl: fake.url, apiKey: secret, tokenCount: { debounceMs: 50 } });
      const failed = client.open(path.join(dir, 'a.prompt.json'), text);
      await client.published(failed);
      await client.request('workspace/executeCommand', { command: 'promptwright.countTokens', arguments: [failed] });
      await client.waitFor(
        n => n.method === 'window/logMessage' && /not counted/.test(JSON.stringify(n.params)),
        'the failure logged',
      );
      assert.equal(await client.stop(), 0);
      const everything = JSON.stringify(client.notifications) + client.stderr;
      assert.ok(!everything.includes(secret), 'the key appears in what the server said');
    });
  });

  it('says how it is run (--stdio, or a usage line and exit 2), and ends with its client', async () => {
    const bad = runCliSync(['lsp']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--stdio/);
    // a client that goes away (its end of the pipe closed) ends the server at once
    client = new LspClient();
    await client.initialize(dir);
    const t0 = Date.now();
    client.child.stdin.end();
    assert.notEqual(await client.exited, null);
    assert.ok(Date.now() - t0 < 2000, `exited ${Date.now() - t0} ms after its client went away`);
    const help = runCliSync(['lsp', '--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /usage: promptwright lsp --stdio/);
  });
});
