// Parts of the extension built as separate bundles next to dist/extension.js and loaded on first use, all three by
// loadBundle(). The development build writes each as a plain file (dist/core.js, with its sourcemap), loaded with
// `require`. The production build (the .vsix) ships them brotli-compressed (dist/core.js.br): 33 KB less in the
// .vsix than deflate, VS Code's own packaging, gets out of the same code. The loader decompresses the file and
// compiles its text as Node's `require` would have compiled the plain file (Module.prototype._compile, as the
// `require-from-string` package does): a module of its own, named by the file it came from (stack traces say
// dist/core.js.br), whose `require('vscode')` and builtins go through Node's loader and VS Code's hooks on it.
import type * as CoreBundleModule from '../../core';

/**
 * What the core bundle holds (src/core.ts): the parsers (zod, yaml, jsonc-parser) and the core work that reads
 * files with them: request and case checks, the language features, the case and compare engines, cost, the model
 * catalog and git: dist/core.js.
 */
export type CoreBundle = typeof CoreBundleModule;

/** The bundles loaded on first use: dist/<name>.js, or dist/<name>.js.br in the production build. */
export type BundleName = 'core' | 'editor' | 'features' | 'csv';

/** Set by the build (scripts/bundles.mjs): whether the bundles loaded on first use ship brotli-compressed. */
declare const PROMPTWRIGHT_COMPRESSED_BUNDLES: boolean;

/** The parts of Node's CommonJS module the loader uses (`node:module`'s types leave them out). */
interface NodeModule {
  exports: unknown;
  filename: string;
  paths: string[];
  loaded: boolean;
  require(id: string): unknown;
  _compile(code: string, filename: string): void;
}
interface NodeModuleClass {
  new (id: string): NodeModule;
  prototype: NodeModule;
  _nodeModulePaths(dir: string): string[];
}

const modules = new Map<BundleName, NodeModule | { exports: unknown }>();
let report: (line: string) => void = () => {};

/** Where the first load of a bundle is said (the log: what a session has paid for, and when). */
export function reportLoads(to: (line: string) => void): void {
  report = to;
}

/**
 * A bundle loaded on first use, once (later calls return the same module). A bundle's own `require` of another
 * (dist/features.js takes modules from ./editor.js) comes here too, so each is loaded one way and once.
 */
export function loadBundle<T>(name: BundleName): T {
  const known = modules.get(name);
  if (known) return known.exports as T;
  const t0 = performance.now();
  if (!PROMPTWRIGHT_COMPRESSED_BUNDLES) {
    const plain = { exports: requirePlain(name) };
    modules.set(name, plain);
    report(`the ${name} bundle loaded (dist/${name}.js) in ${Math.round(performance.now() - t0)} ms`);
    return plain.exports as T;
  }
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  const { brotliDecompressSync } = process.getBuiltinModule('node:zlib');
  const Module = process.getBuiltinModule('node:module') as unknown as NodeModuleClass;
  const file = path.join(__dirname, `${name}.js.br`);
  const code = brotliDecompressSync(readFileSync(file)).toString('utf8');
  const t1 = performance.now();
  const m = new Module(file);
  m.filename = file;
  m.paths = Module._nodeModulePaths(__dirname);
  m.require = id => {
    const sibling = /^\.\/(core|editor|features|csv)\.js$/.exec(id)?.[1] as BundleName | undefined;
    return sibling ? loadBundle(sibling) : Module.prototype.require.call(m, id);
  };
  // known before it runs, as Node's own cache does, so a bundle that requires it back gets its exports
  modules.set(name, m);
  try {
    m._compile(code, file);
  } catch (e) {
    modules.delete(name);
    throw e;
  }
  m.loaded = true;
  const ms = (a: number, b: number) => Math.round(b - a);
  report(
    `the ${name} bundle loaded (dist/${name}.js.br) in ${ms(t0, performance.now())} ms ` +
      `(${ms(t0, t1)} ms of it decompressing)`,
  );
  return m.exports as T;
}

/** The plain file of the development build. Each path a literal: esbuild leaves these `require`s as written. */
function requirePlain(name: BundleName): unknown {
  switch (name) {
    case 'core':
      return require('./core.js');
    case 'editor':
      return require('./editor.js');
    case 'features':
      return require('./features.js');
    case 'csv':
      return require('./csv.js');
  }
}

/** The core bundle (dist/core.js), loaded by the first check of a request or case file. */
export function coreBundle(): CoreBundle {
  return loadBundle<CoreBundle>('core');
}
