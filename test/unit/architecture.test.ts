// The layering of docs/architecture.md, checked: core never imports `vscode` (nor the DOM), the webview
// imports only the protocol and pure helpers, and no module imports itself back through others.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

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
          /^(\.\/[^/]+|\.\.\/common\/[^/]+|\.\.\/\.\.\/protocol\/(response|activity|cases|compare)|\.\.\/\.\.\/core\/(text|api\/accumulator|api\/types|api\/usage))$/,
          `${f}: ${m[1]}`,
        );
      }
    }
  });
  it('no import cycles among the modules of src/', async function () {
    // bundling every entry point takes a second or two, more on a busy machine
    this.timeout(20_000);
    const r = await esbuild.build({
      bundle: true,
      platform: 'node',
      format: 'cjs',
      mainFields: ['module', 'main'],
      write: false,
      metafile: true,
      external: ['vscode', './validator.js', './editor.js', './features.js'],
      outdir: 'unused',
      logLevel: 'silent',
      entryPoints: [
        ...['src/extension.ts', 'src/cli.ts', 'src/editor.ts', 'src/features.ts', 'src/validator.ts'],
        ...['src/webview/response/main.ts', 'src/webview/activity/main.ts', 'src/webview/cases/main.ts'],
        'src/webview/compare/main.ts',
      ],
    });
    const graph = new Map<string, string[]>();
    for (const [file, input] of Object.entries(r.metafile.inputs)) {
      if (file.startsWith('src/'))
        graph.set(
          file,
          input.imports.map(i => i.path).filter(p => p.startsWith('src/')),
        );
    }
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
    assert.ok(graph.size > 40, `only ${graph.size} modules seen`);
    assert.deepEqual(cycles, []);
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
      validator: await inputsOf('validator'),
    };
    // each list: the bundle that provides its modules, and the bundles loaded after it that take them from it
    const lists = [
      { list: SHARING['./extension.js'], from: built.extension, by: [built.editor, built.features] },
      { list: SHARING['./editor.js'], from: built.editor, by: [built.features, built.validator] },
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
    assert.match(built.validator.text, /require\("\.\/editor\.js"\)\.shared/);
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
