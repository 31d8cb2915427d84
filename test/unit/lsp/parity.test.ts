// The parity test: a file's diagnostics are one function of the file, the settings and whether a key is there
// (core/language/diagnostics.ts), whoever shows them. Every request, count and case file of test/fixtures (the
// accepted and rejected corpora, the workspace, the case files) and examples/ is opened in `promptwright lsp --stdio`
// over pipes, and checked by `promptwright check --format json`, both as processes: each file's diagnostics must be
// check's records for it (code, range, severity and message, nothing more or less), with the defaults, and with
// betas, a saved model list and a key set in the environment both read. With a key and a service, the server counts
// the cache prefixes: then its diagnostics are the same function's with the service's counts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PrefixCounter } from '../../../src/core/cache/counter';
import type { PrefixRequest } from '../../../src/core/cache/prefix';
import { walk } from '../../../src/core/files';
import { checkRequestText, requestProblems, type PrefixCounts } from '../../../src/core/language/diagnostics';
import { toRecords, type CheckRecord } from '../../../src/core/request/records';
import { clientOf, withFake } from '../../support/fake';
import { LspClient, type Published } from '../../support/lspClient';
import { runCliSync } from '../../support/spawnCli';

const SEVERITY = ['', 'error', 'warning', 'info', 'hint'];

/** A record of `check --format json`, without the file (the document it is published for) and the pointer. */
type Seen = Omit<CheckRecord, 'file' | 'path'>;

const sorted = (xs: Seen[]) =>
  [...xs].sort(
    (a, b) => a.line - b.line || a.column - b.column || (a.code + a.message).localeCompare(b.code + b.message),
  );

function fromServer(p: Published | undefined): Seen[] {
  return (p?.diagnostics ?? []).map(d => ({
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    severity: SEVERITY[d.severity]!,
    code: d.code,
    message: d.message,
  }));
}

const root = path.resolve('test', 'fixtures');
const files = [...walk(root), ...walk(path.resolve('examples'))].filter(f => /\.(json|ya?ml)$/i.test(f)).sort();
// every JSON and YAML file is a request file here (check takes any file it is given)
const EVERY_FILE = { requestFilePatterns: ['**/*.json', '**/*.yaml', '**/*.yml'], validation: { debounceMs: 0 } };

/** `check --format json` of every file, as a process with `env`: each file's records. */
function checkAll(env: Record<string, string>): Map<string, Seen[]> {
  const check = runCliSync(['check', '--format', 'json', ...files], {
    maxBuffer: 64 * 1024 * 1024,
    env: { PATH: process.env.PATH, ...env },
  });
  assert.ok(check.status === 0 || check.status === 1, check.stderr);
  const byFile = new Map<string, Seen[]>();
  for (const { file, path: _path, ...r } of JSON.parse(check.stdout) as CheckRecord[]) {
    const abs = path.resolve(file);
    byFile.set(abs, [...(byFile.get(abs) ?? []), r]);
  }
  return byFile;
}

/**
 * Opens `which` in a server started with `env` and `settings`; each file's diagnostics once it has said all (and,
 * when its counts are awaited, once `settled` says so, or a minute has passed).
 */
async function serverAll(
  which: readonly string[],
  env: Record<string, string>,
  settings: object,
  settled?: (got: Map<string, Seen[]>) => boolean,
): Promise<Map<string, Seen[]>> {
  const client = new LspClient(env);
  try {
    await client.initialize(root, { promptwright: settings });
    const uris = which.map(f => client.open(f, fs.readFileSync(f, 'utf8')));
    for (const uri of uris) await client.published(uri);
    // the case files speak in their request files after those were checked on their own: let it settle
    await quiet(client, 500);
    const now = () => new Map(which.map((f, i) => [f, fromServer(client.diagnostics(uris[i]!))]));
    for (const end = Date.now() + 60_000; settled && !settled(now()) && Date.now() < end;)
      await new Promise(r => setTimeout(r, 200));
    const out = now();
    // every problem links to its rule in RULES.md
    for (const u of uris)
      for (const d of client.diagnostics(u)?.diagnostics ?? [])
        assert.match(d.codeDescription?.href ?? '', new RegExp(`RULES\\.md#${d.code}$`));
    assert.equal(await client.stop(), 0);
    return out;
  } finally {
    client.child.kill();
  }
}

/** The files whose diagnostics differ, each with both sides. */
function differences(which: readonly string[], got: Map<string, Seen[]>, want: Map<string, Seen[]>): string[] {
  const wrong: string[] = [];
  for (const f of which) {
    const a = sorted(got.get(f) ?? []);
    const b = sorted(want.get(f) ?? []);
    if (JSON.stringify(a) !== JSON.stringify(b))
      wrong.push(`${path.relative('.', f)}:\n  server ${JSON.stringify(a)}\n  check  ${JSON.stringify(b)}`);
  }
  return wrong;
}

describe('parity: promptwright lsp --stdio gives what check --format json gives', function () {
  this.timeout(240_000);

  it(`the ${files.length} files of test/fixtures and examples/, with the defaults`, async () => {
    assert.ok(files.length > 200, `only ${files.length} files`);
    const want = checkAll({});
    assert.ok([...want.values()].flat().length > 150);
    // the corpora's cache breakpoints under the minimum: from the estimate on both sides
    assert.ok([...want.values()].flat().filter(r => r.code === 'cache-prefix-below-minimum').length > 20);
    const wrong = differences(files, await serverAll(files, {}, EVERY_FILE), want);
    assert.deepEqual(wrong, [], wrong.slice(0, 5).join('\n'));
  });

  it('with betas, a saved model list and a key (but no service to count with) set for both', async () => {
    const betas = new Set<string>();
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'accepted', 'manifest.json'), 'utf8')) as {
      betas: string[];
    }[];
    for (const e of manifest) for (const b of e.betas) betas.add(b);
    const env = {
      PROMPTWRIGHT_BETAS: [...betas].join(','),
      PROMPTWRIGHT_MODELS: path.join(root, 'models', 'catalog.json'),
      PROMPTWRIGHT_API_KEY: 'sk-parity',
    };
    const want = checkAll(env);
    const defaults = checkAll({});
    // the settings change what is said (beta warnings go), or the comparison would only repeat the one above
    assert.notDeepEqual(want, defaults);
    const wrong = differences(files, await serverAll(files, env, EVERY_FILE), want);
    assert.deepEqual(wrong, [], wrong.slice(0, 5).join('\n'));
  });

  it("with a key and a service the prefixes are the service's counts: the same function, given them", async () => {
    await withFake({}, async fake => {
      const cached = files.filter(f => /cache_control/.test(fs.readFileSync(f, 'utf8')) && !/\.cases\./.test(f));
      assert.ok(cached.length > 20, `${cached.length} files`);
      // the same function in process, with what the service counts for each prefix
      const client = clientOf(fake);
      const counter = new PrefixCounter(async body => (await client.countTokens(body)).input_tokens);
      const want = new Map<string, Seen[]>();
      for (const f of cached) {
        const text = fs.readFileSync(f, 'utf8');
        const endpoint = /\.count\./.test(f) ? 'count_tokens' : 'messages';
        const check = checkRequestText(text, f, { endpoint, betas: [] });
        await counter.countAll(check.cache?.breakpoints.map(b => b.request) ?? []);
        const failed = (r: PrefixRequest | undefined) => counter.failure(r);
        const counts: PrefixCounts = {
          counting: false,
          of: r => counter.known(r) ?? (failed(r) ? { error: { message: failed(r)! } } : undefined),
        };
        want.set(
          f,
          toRecords(text, requestProblems(check, counts), f).map(({ file: _f, path: _p, ...r }) => r),
        );
      }
      // the server counts after a pause in typing, a few calls at a time: its diagnostics change until it is done
      const env = { PROMPTWRIGHT_BASE_URL: fake.url, PROMPTWRIGHT_API_KEY: fake.apiKey };
      const settings = { ...EVERY_FILE, tokenCount: { debounceMs: 100 } };
      const got = await serverAll(cached, env, settings, now => differences(cached, now, want).length === 0);
      const counted = [...got.values()].flat().filter(r => /counted by the service/.test(r.message));
      assert.ok(counted.length > 0);
      const wrong = differences(cached, got, want);
      assert.deepEqual(wrong, [], wrong.slice(0, 5).join('\n'));
    });
  });

  it("a request file hears what the workspace's case files say of it, though none is open", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-lsp-cases-'));
    const client = new LspClient();
    try {
      const request = path.join(dir, 'ask.prompt.yaml');
      const text =
        'model: model-sonnet-4-6\nmax_tokens: 100\nmessages:\n  - role: user\n    content: "{{question}} {{tone}}"\n';
      fs.writeFileSync(request, text);
      fs.writeFileSync(
        path.join(dir, 'ask.cases.yaml'),
        'request: ask.prompt.yaml\ncases:\n  - name: one\n    vars: { question: hi }\n',
      );
      const check = runCliSync(['check', '--format', 'json', 'ask.cases.yaml', 'ask.prompt.yaml'], {
        cwd: dir,
        env: { PATH: process.env.PATH },
      });
      const want = (JSON.parse(check.stdout) as CheckRecord[])
        .filter(r => r.file === 'ask.prompt.yaml')
        .map(({ file: _f, path: _p, ...r }) => r);
      assert.deepEqual(
        want.map(r => r.code),
        ['undefined-placeholder'],
      );
      await client.initialize(dir, { promptwright: { validation: { debounceMs: 0 } } });
      const uri = client.open(request, text);
      await client.waitFor(
        n =>
          n.method === 'textDocument/publishDiagnostics' &&
          n.params.uri === uri &&
          JSON.stringify(n.params).includes('tone'),
        'the placeholder problem in the request file',
      );
      assert.deepEqual(sorted(fromServer(client.diagnostics(uri))), sorted(want));
      assert.equal(await client.stop(), 0);
    } finally {
      client.child.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Resolves once the server has sent nothing for `ms`. */
async function quiet(client: LspClient, ms: number): Promise<void> {
  for (let n = -1; n !== client.notifications.length;) {
    n = client.notifications.length;
    await new Promise(r => setTimeout(r, ms));
  }
}
