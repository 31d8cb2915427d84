// The shipped bundles, shared by esbuild.mjs (the build), scripts/sizes.mjs (the size budgets) and the
// benchmarks, so all three measure the same thing.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { minify } from 'terser';

/** Options of every Node bundle. */
export function nodeOptions(production) {
  return {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // jsonc-parser's UMD main cannot be bundled; its ESM build can
    mainFields: ['module', 'main'],
    // yaml's ESM build (the package sends Node to its CommonJS one): the same code, but esbuild can drop the
    // parts we never call (6 KB of the .vsix)
    alias: { yaml: './node_modules/yaml/browser/index.js' },
    define: {
      // zod probes `navigator` (for Cloudflare); VS Code's extension host warns on any access to it
      navigator: 'undefined',
      // how src/vscode/platform/lazy.ts loads the bundles loaded on first use (see `compressed` below)
      PROMPTWRIGHT_COMPRESSED_BUNDLES: String(production),
    },
    sourcemap: !production,
    sourcesContent: false,
    minify: production,
    logLevel: 'warning',
  };
}

/** The webviews, one folder each under src/webview/ (`<name>/main.ts` starts that panel's page). */
const WEBVIEWS = ['response', 'activity', 'cases', 'compare'];

/**
 * The webviews' one script, dist/webview/panels.js: every panel's page loads it and its <script> tag names the
 * panel (`data-panel`, src/vscode/platform/webviewHost.ts), whose main.ts runs; the others stay unrun (esbuild
 * wraps a module loaded by `require` in a function called on first use). What the panels share (Markdown,
 * JSON, usage, the DOM helpers) ships once, and one file compresses better than four: 5 KB less in the .vsix.
 */
function webviewOptions(production) {
  const start = WEBVIEWS.map(name => `${name}: () => require('./src/webview/${name}/main.ts')`).join(', ');
  return {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    logLevel: 'warning',
    stdin: {
      contents: `const start = { ${start} };\nstart[document.currentScript.dataset.panel]();`,
      resolveDir: path.resolve('.'),
      sourcefile: 'src/webview/panels.js',
      loader: 'js',
    },
    outfile: 'dist/webview/panels.js',
  };
}

/**
 * The `vscode` module, read once per bundle. Imported (`import * as vscode from 'vscode'`) by a dozen modules of a
 * bundle, esbuild copied every key of the API onto a namespace object of each: half of what activation cost. Here
 * one module re-exports it, and every import of `vscode` in the bundle is that module's namespace.
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, args =>
      args.namespace === 'vscode-api'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-api' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => ({
      contents: "export * from 'vscode';",
      loader: 'js',
    }));
  },
};

/**
 * The MCP SDK's client checks a tool's output schema with ajv (and ajv-formats) unless given another validator:
 * the SDK's own @cfworker/json-schema validator stands in for it, the library the case files' `json-schema`
 * assertion already uses, so the bundle carries one JSON Schema validator, not two (113 KB less).
 */
const mcpWithoutAjv = {
  name: 'mcp-without-ajv',
  setup(build) {
    build.onResolve({ filter: /validation\/ajv-provider\.js$/ }, args => ({
      path: path.resolve(path.dirname(args.importer), args.path).replace(/ajv-provider\.js$/, 'cfworker-provider.js'),
      namespace: 'mcp-validator',
    }));
    build.onLoad({ filter: /.*/, namespace: 'mcp-validator' }, args => ({
      contents: `export { CfWorkerJsonSchemaValidator as AjvJsonSchemaValidator } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * The request templates completion offers (src/core/request/requestTemplates.ts), computed at build time: the
 * module's requestTemplates() runs once here, and the bundle carries what it returned instead of the module, so
 * the extension never loads zod's JSON Schema writer (the language server runs the module itself).
 */
const precomputedTemplates = {
  name: 'precomputed-templates',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]core[\\/]request[\\/]requestTemplates\.ts$/ }, async args => {
      const tmp = path.resolve('out', 'gen-templates.cjs');
      const r = await esbuild.build({
        ...nodeOptions(false),
        sourcemap: false,
        entryPoints: [args.path],
        outfile: tmp,
        metafile: true,
      });
      const load = createRequire(tmp);
      delete load.cache[tmp];
      const templates = JSON.stringify(load(tmp).requestTemplates());
      return {
        contents: `const templates = ${templates};\nexport function requestTemplates() { return templates; }\n`,
        loader: 'js',
        watchFiles: Object.keys(r.metafile.inputs).map(f => path.resolve(f)),
      };
    });
  },
};

/** The bundles that share modules with the ones loaded after them, and the file under src/ that lists them. */
export const SHARING = { './extension.js': 'src/shared.ts', './editor.js': 'src/editorShared.ts' };

/** The modules a list of shared modules names (src/shared.ts by default), by their path under src/. */
export function sharedModules(list = 'src/shared.ts') {
  const text = fs.readFileSync(list, 'utf8');
  return [...text.matchAll(/^ {2}'([\w/]+)': \w+,$/gm)].map(m => m[1]);
}

/**
 * A bundle loaded after `providers` (in the same extension host) takes the modules their lists name from them
 * instead of bundling a copy: an import of one becomes a lookup in that bundle's `shared` export.
 */
function sharedWith(providers) {
  return {
    name: 'shared-with-earlier-bundles',
    setup(build) {
      const from = new Map(providers.flatMap(file => sharedModules(SHARING[file]).map(key => [key, file])));
      const src = path.resolve('src');
      build.onResolve({ filter: /^\.\.?\// }, args => {
        if (!args.importer || args.namespace !== 'file') return undefined;
        const key = path
          .relative(src, path.resolve(path.dirname(args.importer), args.path))
          .split(path.sep)
          .join('/')
          .replace(/\.ts$/, '');
        return from.has(key) ? { path: key, namespace: 'shared' } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'shared' }, args => {
        const [file, key] = [from.get(args.path), args.path].map(x => JSON.stringify(x));
        return { contents: `module.exports = require(${file}).shared[${key}];`, loader: 'js' };
      });
    },
  };
}

/**
 * `csv-parse` in the core bundle: a stub that loads dist/csv.js the first time a CSV or TSV dataset is read, so the
 * parser costs nothing until a case file has a dataset.
 */
const lazyCsv = {
  name: 'lazy-csv-parse',
  setup(build) {
    build.onResolve({ filter: /^csv-parse$/ }, () => ({ path: 'csv-parse', namespace: 'lazy-csv' }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-csv' }, () => ({
      // Parser read when first used (a class made on first use extends it: core/cases/dataset.ts)
      contents: "Object.defineProperty(exports, 'Parser', { get: () => require('./csv.js').Parser });",
      loader: 'js',
    }));
  },
};

/**
 * Sibling bundles the extension loads on first use (loadBundle() in src/vscode/platform/lazy.ts), out of the
 * activation bundle.
 */
export const LAZY_BUNDLES = ['./core.js', './editor.js', './features.js', './csv.js'];

const version = JSON.parse(fs.readFileSync('package.json', 'utf8')).version;

/**
 * Each bundle: its esbuild options, whether it ships in the .vsix (minified again by terser), whether the production
 * build ships it brotli-compressed (a bundle loaded on first use: `compressed`), and its budget.
 */
export function bundles(production) {
  const node = nodeOptions(production);
  return [
    {
      name: 'extension',
      shipped: true,
      budget: 400 * 1024,
      options: {
        ...node,
        entryPoints: ['src/extension.ts'],
        outfile: 'dist/extension.js',
        external: LAZY_BUNDLES,
        plugins: [vscodeOnce],
      },
    },
    {
      name: 'core',
      shipped: true,
      compressed: true,
      options: {
        ...node,
        entryPoints: ['src/core.ts'],
        outfile: 'dist/core.js',
        // loaded after the editor bundle (the first check is a request file's, or a case file's, whose
        // features load it first): the API errors, the model table, the cache breakpoints come from there
        external: ['./editor.js', './csv.js'],
        plugins: [vscodeOnce, sharedWith(['./editor.js']), precomputedTemplates, lazyCsv],
      },
    },
    // csv-parse, for the core bundle: loaded when a case file's CSV or TSV dataset is first read (the core bundle's
    // require of ./csv.js goes to loadBundle, as its siblings': brotli takes 0.8 KB more off it than deflate)
    {
      name: 'csv',
      shipped: true,
      compressed: true,
      options: { ...node, entryPoints: ['src/csv.ts'], outfile: 'dist/csv.js' },
    },
    {
      name: 'editor',
      shipped: true,
      compressed: true,
      options: {
        ...node,
        entryPoints: ['src/editor.ts'],
        outfile: 'dist/editor.js',
        external: ['./extension.js', ...LAZY_BUNDLES],
        plugins: [vscodeOnce, sharedWith(['./extension.js'])],
      },
    },
    {
      name: 'features',
      shipped: true,
      compressed: true,
      options: {
        ...node,
        entryPoints: ['src/features.ts'],
        outfile: 'dist/features.js',
        external: ['./extension.js', ...LAZY_BUNDLES],
        plugins: [vscodeOnce, sharedWith(['./extension.js', './editor.js'])],
      },
    },
    { name: 'panels', shipped: true, budget: 100 * 1024, options: webviewOptions(production) },
    // the CLI ships as the npm package's `bin`, not in the .vsix
    {
      name: 'cli',
      options: {
        ...node,
        entryPoints: ['src/cli.ts'],
        outfile: 'dist/cli.js',
        banner: { js: '#!/usr/bin/env node' },
        define: { navigator: 'undefined', PROMPTWRIGHT_VERSION: JSON.stringify(version) },
        // the language server: loaded by `promptwright lsp` only; the MCP client when a run needs a server
        external: ['./lsp.js', './mcp.js'],
      },
    },
    // the MCP client (the official SDK), in the npm package beside the CLI, loaded when a run first needs a server
    {
      name: 'mcp',
      options: {
        ...node,
        entryPoints: ['src/mcp.ts'],
        outfile: 'dist/mcp.js',
        define: { navigator: 'undefined', PROMPTWRIGHT_VERSION: JSON.stringify(version) },
        plugins: [mcpWithoutAjv],
      },
    },
    // the language server (`promptwright lsp --stdio`), in the npm package beside the CLI
    {
      name: 'lsp',
      options: {
        ...node,
        entryPoints: ['src/lsp.ts'],
        outfile: 'dist/lsp.js',
        define: { navigator: 'undefined', PROMPTWRIGHT_VERSION: JSON.stringify(version) },
      },
    },
  ];
}

/**
 * A production bundle of the .vsix minified once more, by terser: two passes of its compressor and top-level
 * names mangled take 2 to 3 % off what esbuild's minifier leaves, about 7 KB of the .vsix (after which the
 * light walkthrough pictures fit its budget). esbuild stays the bundler; terser only rewrites its output.
 */
export async function shrink(code, iife = false) {
  const r = await minify(code, {
    ecma: 2020,
    module: false,
    toplevel: !iife,
    compress: { passes: 2 },
    format: { comments: false },
  });
  return r.code;
}

/**
 * A bundle loaded on first use as the production build ships it, dist/<name>.js.br: brotli at its best quality
 * takes 14 to 16 % off what deflate (the .vsix's zip) leaves of these bundles, 33 KB of the .vsix, and Node
 * decompresses core.js, the largest, in about 2 ms. loadBundle() (src/vscode/platform/lazy.ts) reads it.
 */
export function compress(code) {
  const { BROTLI_PARAM_QUALITY, BROTLI_MAX_QUALITY, BROTLI_PARAM_MODE, BROTLI_MODE_TEXT, BROTLI_PARAM_SIZE_HINT } =
    zlib.constants;
  const text = Buffer.from(code);
  return zlib.brotliCompressSync(text, {
    params: {
      [BROTLI_PARAM_QUALITY]: BROTLI_MAX_QUALITY,
      [BROTLI_PARAM_MODE]: BROTLI_MODE_TEXT,
      [BROTLI_PARAM_SIZE_HINT]: text.length,
    },
  });
}

/** The .vsix budget in bytes: the product's goal, which `npm test` and `npm run bench` both hold it to. */
export const VSIX_BUDGET = 325 * 1024;
