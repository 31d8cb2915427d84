// `npm run bench`: runs the benchmark bundle built by `node esbuild.mjs --tests`.
import { createRequire } from 'node:module';
console.log(`Promptwright benchmarks — Node ${process.version}, ratios against the floor measured in this run\n`);
createRequire(import.meta.url)('../out/bench/main.js');
