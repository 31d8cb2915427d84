// One build script for everything: the extension bundle, the CLI, the webview bundles and their codicons,
// and (with --tests) the unit, integration and bench bundles.
//   node esbuild.mjs                 development build (sourcemaps)
//   node esbuild.mjs --production    minified, no sourcemaps, the bundles loaded on first use brotli-compressed
//                                    (what `npm run package` ships)
//   node esbuild.mjs --watch         rebuild on change
//   node esbuild.mjs --tests         also build test/ and bench/ into out/
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { bundles, compress, nodeOptions, shrink } from './scripts/bundles.mjs';
import { webviewIcons, writeCodiconSubset } from './scripts/codicons.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests') || watch;

const node = nodeOptions(production);

function listTests(dir, suffix) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .filter(f => f.endsWith(suffix))
    .map(f => path.join(dir, f));
}

/**
 * Writes the webviews' codicons, only the ones src/webview/common/icons.ts lists, to dist/webview (inside the
 * panels' localResourceRoots). On the webviews' bundle, which imports that list, so a watch rebuild
 * after an edit of the list writes them again; unchanged lists are not subset again.
 */
const codiconsPlugin = {
  name: 'codicons',
  setup(build) {
    let written = '';
    build.onEnd(async result => {
      if (result.errors.length) return;
      const names = await webviewIcons();
      if (names.join() === written) return;
      await writeCodiconSubset(names, 'dist/webview');
      written = names.join();
    });
  },
};

const contexts = bundles(production).map(b => b.options);
// the webviews' stylesheets (media/*.css), minified for production into dist/webview/ beside their scripts
contexts.push({
  entryPoints: fs
    .readdirSync('media')
    .filter(f => f.endsWith('.css'))
    .map(f => `media/${f}`),
  outdir: 'dist/webview',
  minify: production,
  logLevel: 'warning',
});
contexts.find(c => c.outfile === 'dist/webview/panels.js').plugins = [codiconsPlugin];
if (tests) {
  const testNode = { ...node, sourcemap: 'inline', minify: false, packages: 'external', outbase: '.', outdir: 'out' };
  contexts.push(
    {
      ...testNode,
      entryPoints: [
        ...listTests('test/unit', '.test.ts'),
        ...listTests('test/fake', '.ts'),
        // the helpers the suites share: the UI suite imports them as built
        ...listTests('test/support', '.ts'),
        ...listTests('bench', '.ts'),
      ],
    },
    // the integration suite runs inside the extension host: only `vscode` and `mocha` come from outside
    {
      ...node,
      sourcemap: 'inline',
      outbase: '.',
      outdir: 'out',
      external: ['vscode', 'mocha'],
      entryPoints: listTests('test/integration', '.ts'),
    },
  );
}

// the development build loads the plain files: a production build's compressed ones go
if (!production)
  for (const b of bundles(false).filter(x => x.compressed)) fs.rmSync(`${b.options.outfile}.br`, { force: true });

const t0 = Date.now();
if (watch) {
  for (const c of contexts) await (await esbuild.context(c)).watch();
  console.log('[esbuild] watching…');
} else {
  await Promise.all(contexts.map(c => esbuild.build(c)));
  // the .vsix's bundles, minified once more (scripts/bundles.mjs, shrink); those loaded on first use written
  // brotli-compressed instead (dist/core.js.br, compress), the development build's plain files and maps removed
  if (production) {
    await Promise.all(
      bundles(true)
        .filter(b => b.shipped)
        .map(async b => {
          const file = b.options.outfile;
          const code = await shrink(fs.readFileSync(file, 'utf8'), b.options.format === 'iife');
          if (!b.compressed) return fs.writeFileSync(file, code);
          fs.writeFileSync(`${file}.br`, compress(code));
          for (const plain of [file, `${file}.map`]) fs.rmSync(plain, { force: true });
        }),
    );
  }
  console.log(
    `[esbuild] ${production ? 'production' : 'development'} build${tests ? ' + tests' : ''} in ${Date.now() - t0} ms`,
  );
}
