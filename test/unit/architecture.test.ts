// The layering of docs/architecture.md, checked: core never imports `vscode` (nor the DOM) or a front end, the
// three front ends (cli, lsp, vscode) never import each other, the webview imports only the protocol and pure
// helpers, no module imports itself back through others (type-only imports included), core's folders are stacked
// one way (no folder loop), a feature imports another only where docs/architecture.md lists the link and no two
// features import each other, and every failure a person sees is shown the one way (Api.showError).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import * as ts from 'typescript';

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter(f => f.endsWith('.ts'))
    .map(f => path.join(dir, f));
}

describe('architecture', () => {
  it('src/core imports neither vscode, vscode-languageserver, a front end, webview or protocol', () => {
    const bad = sources('src/core').filter(f =>
      /from '(vscode|vscode-languageserver[^']*|\.\.\/(\.\.\/)*(vscode|lsp|cli|webview|protocol)\/[^']*)'/.test(
        fs.readFileSync(f, 'utf8'),
      ),
    );
    assert.deepEqual(bad, []);
  });
  it('the language server (src/lsp) imports core and vscode-languageserver, never vscode or its adapters', () => {
    const files = sources('src/lsp');
    assert.ok(files.length >= 5, files.join());
    for (const f of files)
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/from '([^']+)'/g))
        assert.match(
          m[1]!,
          /^(node:\w+|vscode-languageserver(\/node|-textdocument)?|\.\/\w+|\.\.\/core\/[\w/]+)$/,
          `${f}: ${m[1]}`,
        );
  });
  it('core imports no front end, and no front end another: cli, lsp and vscode are peers over core', function () {
    this.timeout(10_000); // the first to read the import graph of every module of src/ (the tests below share it)
    // type-only imports included (`import type`, `typeof import()`): a front end that names another's types has
    // made them part of its own. A bundle's entry (src/lsp.ts, which `promptwright lsp` loads by path) is in no
    // layer as an import: it is the bundle, not its modules.
    const bad: string[] = [];
    for (const [file, imports] of importGraph()) {
      const from = layerOf(file);
      for (const imported of imports.filter(i => !isEntry(i))) {
        const to = layerOf(imported);
        if (to !== from && !MAY_IMPORT[from].includes(to)) bad.push(`${file} (${from}) imports ${imported} (${to})`);
      }
    }
    assert.deepEqual(bad, []);
  });
  it('the language server is a bundle of its own: the extension and the CLI carry none of it', async function () {
    this.timeout(30_000);
    const { bundles } = await import('../../scripts/bundles.mjs');
    const inputsOf = async (name: string) => {
      const b = bundles(true).find(x => x.name === name)!;
      const r = await esbuild.build({ ...b.options, write: false, metafile: true, logLevel: 'silent' });
      return Object.keys(r.metafile.inputs);
    };
    const server = /vscode-languageserver|vscode-jsonrpc|^src\/lsp/;
    for (const name of ['extension', 'core', 'features', 'cli'])
      assert.deepEqual(
        (await inputsOf(name)).filter(i => server.test(i)),
        [],
        `${name} carries the server`,
      );
    const lsp = await inputsOf('lsp');
    assert.ok(lsp.some(i => i.includes('vscode-languageserver')) && lsp.includes('src/lsp/server.ts'));
    assert.match(fs.readFileSync('src/cli.ts', 'utf8'), /require\('\.\/lsp\.js'\)/);
  });
  it('each CLI command starts in the file named for it (cli/<command>.ts), as CONTRIBUTING.md says', () => {
    const main = fs.readFileSync('src/cli/main.ts', 'utf8');
    const fileOf = new Map(
      [...main.matchAll(/^import \{ ([^}]+) \} from '\.\/(\w+)';$/gm)].flatMap(m =>
        m[1]!.split(', ').map(name => [name, m[2]!] as const),
      ),
    );
    // the table of commands: `{ spec: TEST, run: runTest }`, the spec named for the command
    const commands = [...main.matchAll(/\{ spec: (\w+), run: (run\w+) \}/g)].map(m => [
      m[1]!.toLowerCase(),
      fileOf.get(m[2]!),
    ]);
    assert.ok(commands.length >= 8, `${commands.length} commands read`);
    for (const [command, file] of commands) assert.equal(file, command, `promptwright ${command}`);
  });
  it('the webview imports only its protocol, core helpers without Node, and webview files', () => {
    for (const f of sources('src/webview')) {
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/from '([^']+)'/g)) {
        // a page (src/webview/<page>/) imports its own files, the shared ones (../common/…), its protocol
        // (../../protocol/<page>) and a few pure core helpers; common/ imports its siblings only
        assert.match(
          m[1]!,
          /^(\.\/[^/]+|\.\.\/common\/[^/]+|\.\.\/\.\.\/protocol\/(response|activity|cases|compare)|\.\.\/\.\.\/core\/(text|api\/accumulator|api\/types|api\/usage|cost\/format))$/,
          `${f}: ${m[1]}`,
        );
      }
    }
  });
  it('no import cycles among the modules of src/, type-only imports included', () => {
    const graph = importGraph();
    const cycles: string[] = [];
    const done = new Set<string>();
    const stack: string[] = [];
    const visit = (n: string) => {
      if (stack.includes(n)) {
        cycles.push([...stack.slice(stack.indexOf(n)), n].join(' -> '));
        return;
      }
      if (done.has(n)) return;
      stack.push(n);
      for (const m of graph.get(n) ?? []) visit(m);
      stack.pop();
      done.add(n);
    };
    for (const n of graph.keys()) visit(n);
    assert.ok(graph.size > 200, `only ${graph.size} modules seen`);
    assert.deepEqual(cycles, []);
  });

  it('the folders of src/core form no loop, type-only imports included: core is stacked one way', () => {
    // a folder imports another when one of its modules does (core/cases/grid.ts → core/diff/cells.ts: cases → diff)
    const folderOf = (file: string) => {
      const [, layer, folder, rest] = file.split(path.sep);
      return layer === 'core' && rest ? folder! : undefined;
    };
    const arrows = new Map<string, Set<string>>();
    for (const [file, imports] of importGraph()) {
      const from = folderOf(file);
      for (const to of imports.map(folderOf))
        if (from && to && to !== from) arrows.set(from, new Set([...(arrows.get(from) ?? []), to]));
    }
    assert.ok(arrows.size >= 15, `only ${arrows.size} folders of core seen`);
    const loops: string[] = [];
    const done = new Set<string>();
    const visit = (folder: string, trail: string[]) => {
      if (trail.includes(folder)) return void loops.push([...trail.slice(trail.indexOf(folder)), folder].join(' -> '));
      if (done.has(folder)) return;
      for (const to of arrows.get(folder) ?? []) visit(to, [...trail, folder]);
      done.add(folder);
    };
    for (const folder of arrows.keys()) visit(folder, []);
    assert.deepEqual(loops, []);
  });

  it("docs/architecture.md's link table has no two-way row: two features never import each other", () => {
    const listed = listedLinks();
    const twoWay = [...listed].flatMap(([from, tos]) =>
      [...tos].filter(to => from < to && listed.get(to)?.has(from)).map(to => `${from} <-> ${to}`),
    );
    assert.deepEqual(twoWay, []);
  });

  it('a feature imports another feature only where docs/architecture.md lists the link', () => {
    const listed = listedLinks();
    const actual = new Map<string, Set<string>>();
    const where = new Map<string, string>();
    for (const [file, imports] of importGraph()) {
      const from = featureOf(file);
      if (!from) continue;
      for (const imported of imports) {
        const to = featureOf(imported);
        if (!to || to === from || SHARED_FEATURES.has(to)) continue;
        actual.set(from, new Set([...(actual.get(from) ?? []), to]));
        where.set(`${from} -> ${to}`, `${file} imports ${imported}`);
      }
    }
    const unlisted = [...actual].flatMap(([from, tos]) =>
      [...tos].filter(to => !listed.get(from)?.has(to)).map(to => where.get(`${from} -> ${to}`)!),
    );
    assert.deepEqual(unlisted, [], 'links docs/architecture.md does not list');
    const unused = [...listed].flatMap(([from, tos]) =>
      [...tos].filter(to => !actual.get(from)?.has(to)).map(to => `${from} -> ${to}`),
    );
    assert.deepEqual(unused, [], 'links docs/architecture.md lists that no import makes (keep the list minimal)');
  });

  it('every failure a person sees goes through the one error display (Api.showError; the server: Log.show)', () => {
    const displays = [path.join('src', 'vscode', 'platform', 'api.ts'), path.join('src', 'lsp', 'log.ts')];
    const direct = sources('src').filter(
      f => !displays.includes(f) && /\.showErrorMessage\(/.test(fs.readFileSync(f, 'utf8')),
    );
    assert.deepEqual(direct, []);
  });

  it('a bundle loaded on first use is loaded by loadBundle() only: the .vsix ships it as dist/<name>.js.br', () => {
    // a require('./features.js') of its own would find no such file in the .vsix (CONTRIBUTING.md, Size budgets)
    const loader = path.join('src', 'vscode', 'platform', 'lazy.ts');
    const direct = sources('src').filter(
      f => f !== loader && /require\(\s*['"]\.\/(core|editor|features)\.js['"]/.test(fs.readFileSync(f, 'utf8')),
    );
    assert.deepEqual(direct, []);
  });

  it('the editor and features bundles take the modules src/shared.ts and src/editorShared.ts list', async function () {
    this.timeout(20_000);
    const { bundles, sharedModules, SHARING } = await import('../../scripts/bundles.mjs');
    const inputsOf = async (name: string) => {
      const b = bundles(true).find(x => x.name === name)!;
      const r = await esbuild.build({ ...b.options, write: false, metafile: true, logLevel: 'silent' });
      return { inputs: Object.keys(r.metafile.inputs), text: r.outputFiles[0]!.text };
    };
    const built = {
      extension: await inputsOf('extension'),
      editor: await inputsOf('editor'),
      features: await inputsOf('features'),
      core: await inputsOf('core'),
    };
    // each list: the bundle that provides its modules, and the bundles loaded after it that take them from it
    const lists = [
      { list: SHARING['./extension.js'], from: built.extension, by: [built.editor, built.features] },
      { list: SHARING['./editor.js'], from: built.editor, by: [built.features, built.core] },
    ];
    for (const { list, from, by } of lists) {
      const keys: string[] = sharedModules(list);
      assert.ok(keys.length >= 4, keys.join(', '));
      for (const k of keys) {
        assert.ok(fs.existsSync(`src/${k}.ts`), `src/${k}.ts`);
        assert.ok(from.inputs.includes(`src/${k}.ts`), `${list}: the providing bundle carries src/${k}.ts`);
        for (const b of by) assert.ok(!b.inputs.includes(`src/${k}.ts`), `${list}: a later bundle copies src/${k}.ts`);
      }
    }
    assert.match(built.editor.text, /require\("\.\/extension\.js"\)\.shared/);
    assert.match(built.features.text, /require\("\.\/extension\.js"\)\.shared/);
    assert.match(built.features.text, /require\("\.\/editor\.js"\)\.shared/);
    assert.match(built.core.text, /require\("\.\/editor\.js"\)\.shared/);
    // what a request file needs loads with the editor bundle, not at activation
    for (const f of ['src/vscode/request/requestDiagnostics.ts', 'src/core/api/http.ts', 'src/core/cache/words.ts'])
      assert.ok(!built.extension.inputs.includes(f), `the activation bundle carries ${f}`);
  });

  it('each bundle reads the vscode module once, not once per module that imports it', async function () {
    this.timeout(20_000);
    const { bundles } = await import('../../scripts/bundles.mjs');
    for (const name of ['extension', 'editor', 'features']) {
      const b = bundles(true).find(x => x.name === name)!;
      const r = await esbuild.build({ ...b.options, write: false, logLevel: 'silent' });
      assert.equal(r.outputFiles[0]!.text.match(/require\("vscode"\)/g)?.length, 1, name);
    }
  });
});

/**
 * Every module of src/ with the modules it imports: static imports, type-only ones included (`import type`,
 * `export … from`), and `import()`. A `require()` of a bundle (`./features.js`) is the build's, not a module's.
 */
function importGraph(): Map<string, string[]> {
  return (readGraph ??= readImportGraph());
}
/** The graph, read once for the tests that share it. */
let readGraph: Map<string, string[]> | undefined;

function readImportGraph(): Map<string, string[]> {
  const files = new Set(sources('src'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const imports = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, false).importedFiles.map(i => i.fileName);
    graph.set(
      file,
      imports
        .filter(spec => spec.startsWith('.'))
        .map(spec => {
          const base = path.join(path.dirname(file), spec);
          const found = [`${base}.ts`, path.join(base, 'index.ts')].find(c => files.has(c));
          assert.ok(found, `${file}: ${spec} is not a module of src/`);
          return found;
        }),
    );
  }
  return graph;
}

/** The layers of src/ (docs/architecture.md, The layers), and those each may import besides itself. */
type Layer = 'core' | 'protocol' | 'webview' | 'vscode' | 'lsp' | 'cli';
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  core: [],
  protocol: ['core'],
  webview: ['protocol', 'core'],
  vscode: ['protocol', 'core'],
  lsp: ['core'],
  cli: ['core'],
};

/** The layer of each bundle's entry (src/*.ts): the front end that loads it; mcp.ts and csv.ts are core's. */
const ENTRY_LAYER: Record<string, Layer> = {
  'cli.ts': 'cli',
  'lsp.ts': 'lsp',
  'extension.ts': 'vscode',
  'editor.ts': 'vscode',
  'features.ts': 'vscode',
  'core.ts': 'vscode',
  'shared.ts': 'vscode',
  'editorShared.ts': 'vscode',
  'mcp.ts': 'core',
  'csv.ts': 'core',
};

const isEntry = (file: string) => file.split(path.sep).length === 2;

/** A module's layer: its folder under src/, or an entry's in ENTRY_LAYER (an entry it does not list fails). */
function layerOf(file: string): Layer {
  const [, first] = file.split(path.sep);
  const layer = isEntry(file) ? ENTRY_LAYER[first!] : first;
  assert.ok(layer && layer in MAY_IMPORT, `${file} is in no layer (MAY_IMPORT, test/unit/architecture.test.ts)`);
  return layer as Layer;
}

/**
 * A module's feature: its folder on its layer (`core/cases/…`, `vscode/cases/…`, `webview/cases/…` and
 * `protocol/cases.ts` are all `cases`); the CLI (src/cli/) is one feature, `cli`. The pages named otherwise are
 * their feature's. The shared folders are `api` (core/api: the service's client), `platform` (vscode/platform,
 * webview/common, protocol/common) and `language` (core/language: the language service every front end calls);
 * core's own files (text.ts, redact.ts) and the composition roots (src/*.ts) belong to no feature.
 */
function featureOf(file: string): string | undefined {
  const [, layer, name, rest] = file.split(path.sep);
  if (layer === 'cli' && name) return 'cli';
  if (!layer || !name || (!rest && layer !== 'protocol')) return undefined;
  const folder = name.replace(/\.ts$/, '');
  if (folder === 'common' || (layer === 'vscode' && folder === 'platform')) return 'platform';
  return PAGE_OF[folder] ?? folder;
}

/** The webview pages (and their protocols) whose name is not their feature's. */
const PAGE_OF: Record<string, string> = { response: 'run', activity: 'compliance' };
/** What every feature may import: the service's client, each front end's shared parts, the language service. */
const SHARED_FEATURES = new Set(['api', 'platform', 'language']);

/** The table "Links between features" of docs/architecture.md: each feature and the features it may import. */
function listedLinks(): Map<string, Set<string>> {
  const doc = fs.readFileSync('docs/architecture.md', 'utf8');
  const section = /^### Links between features$([\s\S]*?)^#/m.exec(doc)?.[1];
  assert.ok(section, 'docs/architecture.md has a section "### Links between features"');
  const links = new Map<string, Set<string>>();
  for (const row of section.matchAll(/^\| `(\w+)` +\| ([^|]+)\|/gm))
    links.set(row[1]!, new Set([...row[2]!.matchAll(/`(\w+)`/g)].map(m => m[1]!)));
  assert.ok(links.size >= 10, `${links.size} rows read`);
  return links;
}
