// A loop of the validator over one large request, to profile (CONTRIBUTING.md, Profiling):
//   node esbuild.mjs --tests
//   node --cpu-prof --cpu-prof-dir=/tmp/val out/bench/profile.js [MB] [RUNS] [PROBLEMS]
// checks a JSON request of about MB megabytes (1), RUNS times (50), with PROBLEMS wrong roles in it (0),
// after JSON.parse of the same text each time (the floor), and prints both medians and their ratio.
import { performance } from 'node:perf_hooks';
import { validateText } from '../src/core/request/validate';
import { bigRequest } from './inputs';

const [mb = 1, runs = 50, problems = 0] = process.argv.slice(2).map(Number);
const body = bigRequest(mb * 1_000_000) as { messages: { role: string }[] };
const n = body.messages.length;
for (let k = 0; k < problems; k++) body.messages[Math.floor((k * n) / problems)]!.role = 'robot';
const text = JSON.stringify(body, null, 2);
const found = validateText(text, 'json').problems.length;

const floor: number[] = [];
const ours: number[] = [];
for (let i = 0; i < runs; i++) {
  let t = performance.now();
  JSON.parse(text);
  floor.push(performance.now() - t);
  t = performance.now();
  validateText(text, 'json');
  ours.push(performance.now() - t);
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
console.log(
  `${(text.length / 1e6).toFixed(1)} MB, ${found} problems: validateText ${median(ours).toFixed(2)} ms, ` +
    `JSON.parse ${median(floor).toFixed(2)} ms, ${(median(ours) / median(floor)).toFixed(2)}x (medians of ${runs})`,
);
