// The language server against `promptwright check --format json`, as whole processes: every JSON and YAML file
// of test/fixtures (the accepted and rejected request corpora, the workspace, the case files) and examples/ is
// opened in `promptwright lsp --stdio` over pipes, and each file's diagnostics must be check's records for it:
// the same code, severity, range and message, and nothing more or less.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { walk } from '../../../src/core/cli/files';
import type { CheckRecord } from '../../../src/core/request/records';
import { LspClient, type Published } from '../../support/lspClient';

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

describe('promptwright lsp --stdio: diagnostics as check gives them', function () {
  this.timeout(180_000);
  const root = path.resolve('test', 'fixtures');
  const files = [...walk(root), ...walk(path.resolve('examples'))].filter(f => /\.(json|ya?ml)$/i.test(f)).sort();

  it(`the ${files.length} files of test/fixtures and examples/: what check --format json says`, async () => {
    assert.ok(files.length > 150, `only ${files.length} files`);
    const check = spawnSync(process.execPath, ['dist/cli.js', 'check', '--format', 'json', ...files], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { PATH: process.env.PATH },
    });
    assert.ok(check.status === 0 || check.status === 1, check.stderr);
    const records = JSON.parse(check.stdout) as (Seen & { file: string })[];
    const byFile = new Map<string, Seen[]>();
    for (const { file, path: _path, ...r } of records as (Seen & { file: string; path: string })[]) {
      const abs = path.resolve(file);
      byFile.set(abs, [...(byFile.get(abs) ?? []), r]);
    }

    const client = new LspClient();
    try {
      // every JSON and YAML file is a request file here (check takes any file it is given)
      await client.initialize(root, {
        promptwright: { requestFilePatterns: ['**/*.json', '**/*.yaml', '**/*.yml'], validation: { debounceMs: 0 } },
      });
      const uris = files.map(f => client.open(f, fs.readFileSync(f, 'utf8')));
      for (const uri of uris) await client.published(uri);
      // the case files speak in their request files after those were checked on their own: let it settle
      await quiet(client, 500);
      const wrong: string[] = [];
      files.forEach((f, i) => {
        const got = sorted(fromServer(client.diagnostics(uris[i]!)));
        const want = sorted(byFile.get(f) ?? []);
        try {
          assert.deepEqual(got, want);
        } catch {
          wrong.push(`${path.relative('.', f)}:\n  server ${JSON.stringify(got)}\n  check  ${JSON.stringify(want)}`);
        }
      });
      assert.deepEqual(wrong, [], wrong.slice(0, 5).join('\n'));
      // every problem links to its rule in RULES.md
      const links = uris.flatMap(u => client.diagnostics(u)?.diagnostics ?? []);
      assert.ok(links.length > 100);
      for (const d of links) assert.match(d.codeDescription?.href ?? '', new RegExp(`RULES\\.md#${d.code}$`));
      assert.equal(await client.stop(), 0);
    } finally {
      client.child.kill();
    }
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
      const check = spawnSync(
        process.execPath,
        [path.resolve('dist/cli.js'), 'check', '--format', 'json', 'ask.cases.yaml', 'ask.prompt.yaml'],
        {
          cwd: dir,
          encoding: 'utf8',
          env: { PATH: process.env.PATH },
        },
      );
      const want = (JSON.parse(check.stdout) as (Seen & { file: string })[])
        .filter(r => r.file === 'ask.prompt.yaml')
        .map(({ file: _f, path: _p, ...r }: Seen & { file: string; path?: string }) => r);
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
