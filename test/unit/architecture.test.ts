// The layering of docs/architecture.md, checked: core never imports `vscode` (nor the DOM), the webview
// imports only the protocol and pure helpers, no module imports itself back through others (type-only imports
// included), a feature imports another only where docs/architecture.md lists the link, and every failure a
// person sees is shown the one way (Api.showError).
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
  it('src/core imports neither vscode nor the adapters, webview or protocol', () => {
    const bad = sources('src/core').filter(f =>
      /from '(vscode|\.\.\/(\.\.\/)*(vscode|webview|protocol)\/[^']*)'/.test(fs.readFileSync(f, 'utf8')),
    );
    assert.deepEqual(bad, []);
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

  it('every failure a person sees goes through the one error display (Api.showError)', () => {
    const direct = sources('src').filter(
      f =>
        f !== path.join('src', 'vscode', 'platform', 'api.ts') &&
        /\.showErrorMessage\(/.test(fs.readFileSync(f, 'utf8')),
    );
    assert.deepEqual(direct, []);
  });

  it('the features bundle takes the modules src/shared.ts lists from the activation bundle', async function () {
    this.timeout(20_000);
    const { bundles, sharedModules } = await import('../../scripts/bundles.mjs');
    const keys: string[] = sharedModules();
    assert.ok(keys.length >= 5, keys.join(', '));
    const inputsOf = async (name: string) => {
      const b = bundles(true).find(x => x.name === name)!;
      const r = await esbuild.build({ ...b.options, write: false, metafile: true, logLevel: 'silent' });
      return { inputs: Object.keys(r.metafile.inputs), text: r.outputFiles[0]!.text };
    };
    const activation = await inputsOf('extension');
    const features = await inputsOf('features');
    for (const k of keys) {
      assert.ok(fs.existsSync(`src/${k}.ts`), `src/${k}.ts`);
      assert.ok(activation.inputs.includes(`src/${k}.ts`), `the activation bundle carries src/${k}.ts`);
      assert.ok(!features.inputs.includes(`src/${k}.ts`), `the features bundle carries no copy of src/${k}.ts`);
    }
    assert.match(features.text, /require\("\.\/extension\.js"\)\.shared/);
  });
});

/**
 * Every module of src/ with the modules it imports: static imports, type-only ones included (`import type`,
 * `export … from`), and `import()`. A `require()` of a bundle (`./features.js`) is the build's, not a module's.
 */
function importGraph(): Map<string, string[]> {
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

/**
 * A module's feature: its folder on its layer (`core/cases/…`, `vscode/cases/…`, `webview/cases/…` and
 * `protocol/cases.ts` are all `cases`). The pages named otherwise are their feature's. The shared folders are
 * `api` (core/api: the service's client) and `platform` (vscode/platform, webview/common, protocol/common);
 * core's own files (text.ts, redact.ts) and the composition roots (src/*.ts) belong to no feature.
 */
function featureOf(file: string): string | undefined {
  const [, layer, name, rest] = file.split(path.sep);
  if (!layer || !name || (!rest && layer !== 'protocol')) return undefined;
  const folder = name.replace(/\.ts$/, '');
  if (folder === 'common' || (layer === 'vscode' && folder === 'platform')) return 'platform';
  return PAGE_OF[folder] ?? folder;
}

/** The webview pages (and their protocols) whose name is not their feature's. */
const PAGE_OF: Record<string, string> = { response: 'run', activity: 'compliance' };
/** What every feature may import. */
const SHARED_FEATURES = new Set(['api', 'platform']);

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
