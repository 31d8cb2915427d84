// One sample of what loading costs, in a fresh process: `node bench/activation.cjs <module> [activate|check]`.
// Loads the module with a stand-in for the `vscode` module (every property a callable, constructible no-op) and
// prints the milliseconds taken by:
//   activate  loading it and calling its activate();
//   check     the first check of a request file, the activation bundle loaded: the core bundle (and the editor
//             bundle it takes modules from) loaded by coreBundle(), as the extension loads them, and a small file
//             validated (the module is then dist/extension.js).
// With no mode, only the loading. bench/run.mjs runs it 21 times each, in turns with an empty module, and reports
// the medians.
const Module = require('node:module');
const { performance } = require('node:perf_hooks');

function stub(name) {
  const target = function () {};
  return new Proxy(target, {
    get(_t, p) {
      if (p === Symbol.iterator) return function* () {};
      if (p === Symbol.toPrimitive) return () => '';
      if (p === 'then') return undefined;
      // a workspace search answers later, with nothing found (activation must not wait for it)
      if (p === 'findFiles') return () => Promise.resolve([]);
      return stub(`${name}.${String(p)}`);
    },
    set: () => true,
    apply: () => stub(`${name}()`),
    construct: () => stub(`new ${name}`),
  });
}

/** The `vscode` namespace: its own keys are listed, as bundlers copy them (every `vscode.X` the sources use). */
function vscodeModule() {
  const fs = require('node:fs');
  const path = require('node:path');
  const names = new Set();
  const walk = dir => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts'))
        for (const m of fs.readFileSync(p, 'utf8').matchAll(/\bvscode\.([A-Za-z]+)/g)) names.add(m[1]);
    }
  };
  walk(path.join(__dirname, '..', 'src'));
  return new Proxy(
    {},
    {
      get: (_t, p) => (p === '__esModule' ? true : stub(`vscode.${String(p)}`)),
      ownKeys: () => [...names],
      getOwnPropertyDescriptor: (_t, p) => ({
        configurable: true,
        enumerable: true,
        value: stub(`vscode.${String(p)}`),
      }),
    },
  );
}

const vscode = vscodeModule();
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};
const context = new Proxy(
  { subscriptions: [], extension: { packageJSON: { version: 'bench' } } },
  {
    get: (t, p) => (p in t ? t[p] : stub(`context.${String(p)}`)),
  },
);

function sample(file, mode) {
  const path = require('node:path').resolve(file);
  if (mode === 'check') {
    // the loader of the bundles loaded on first use (src/vscode/platform/lazy.ts), which extension.js shares
    const lazy = require(path).shared['vscode/platform/lazy'];
    const t0 = performance.now();
    lazy
      .coreBundle()
      .validateText('{"model":"model-opus-4-7","max_tokens":5,"messages":[{"role":"user","content":"Hi"}]}', 'json');
    return performance.now() - t0;
  }
  const t0 = performance.now();
  const mod = require(path);
  if (mode === 'activate') mod.activate(context);
  return performance.now() - t0;
}

const [file, mode] = process.argv.slice(2);
process.stdout.write(String(sample(file, mode)));
