// The shipped bundles, shared by esbuild.mjs (the build), scripts/sizes.mjs (the size budgets) and the
// benchmarks, so all three measure the same thing.
import fs from 'node:fs';
import path from 'node:path';

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
    // zod probes `navigator` (for Cloudflare); VS Code's extension host warns on any access to it
    define: { navigator: 'undefined' },
    sourcemap: !production,
    sourcesContent: false,
    minify: production,
    logLevel: 'warning',
  };
}

/** Options of a webview's script: src/webview/<name>/main.ts, bundled to dist/webview/<name>.js. */
function webviewOptions(production, name) {
  return {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    logLevel: 'warning',
    entryPoints: [`src/webview/${name}/main.ts`],
    outfile: `dist/webview/${name}.js`,
  };
}

/** The modules src/shared.ts lists, by their path under src/ without the extension. */
export function sharedModules() {
  const text = fs.readFileSync('src/shared.ts', 'utf8');
  return [...text.matchAll(/^ {2}'([\w/]+)': \w+,$/gm)].map(m => m[1]);
}

/**
 * dist/features.js takes the modules src/shared.ts lists from dist/extension.js (loaded before it, in the same
 * extension host) instead of bundling a copy: an import of one becomes a lookup in the activation bundle's
 * `shared` export.
 */
const sharedWithActivation = {
  name: 'shared-with-activation',
  setup(build) {
    const keys = new Set(sharedModules());
    const src = path.resolve('src');
    build.onResolve({ filter: /^\.\.?\// }, args => {
      if (!args.importer || args.namespace !== 'file') return undefined;
      const key = path
        .relative(src, path.resolve(path.dirname(args.importer), args.path))
        .split(path.sep)
        .join('/')
        .replace(/\.ts$/, '');
      return keys.has(key) ? { path: key, namespace: 'shared' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'shared' }, args => ({
      contents: `module.exports = require('./extension.js').shared[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
};

/** Sibling bundles the extension loads on first use (src/vscode/platform/lazy.ts), out of the activation bundle. */
export const LAZY_BUNDLES = ['./validator.js', './features.js'];

const version = JSON.parse(fs.readFileSync('package.json', 'utf8')).version;

/** Each shipped bundle: its esbuild options and, for the .vsix ones, the budget in bytes. */
export function bundles(production) {
  const node = nodeOptions(production);
  return [
    {
      name: 'extension',
      budget: 400 * 1024,
      options: {
        ...node,
        entryPoints: ['src/extension.ts'],
        outfile: 'dist/extension.js',
        external: ['vscode', ...LAZY_BUNDLES],
      },
    },
    {
      name: 'validator',
      options: { ...node, entryPoints: ['src/validator.ts'], outfile: 'dist/validator.js', external: ['vscode'] },
    },
    {
      name: 'features',
      options: {
        ...node,
        entryPoints: ['src/features.ts'],
        outfile: 'dist/features.js',
        external: ['vscode', './extension.js', ...LAZY_BUNDLES],
        plugins: [sharedWithActivation],
      },
    },
    { name: 'response', budget: 60 * 1024, options: webviewOptions(production, 'response') },
    { name: 'activity', budget: 40 * 1024, options: webviewOptions(production, 'activity') },
    { name: 'cases', budget: 40 * 1024, options: webviewOptions(production, 'cases') },
    { name: 'compare', budget: 40 * 1024, options: webviewOptions(production, 'compare') },
    // the CLI ships as the npm package's `bin`, not in the .vsix
    {
      name: 'cli',
      options: {
        ...node,
        entryPoints: ['src/cli.ts'],
        outfile: 'dist/cli.js',
        banner: { js: '#!/usr/bin/env node' },
        define: { navigator: 'undefined', PROMPTWRIGHT_VERSION: JSON.stringify(version) },
      },
    },
  ];
}

/** The .vsix budget in bytes. */
export const VSIX_BUDGET = 320 * 1024;
