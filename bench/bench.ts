// Benchmarks (npm run bench). Each case measures our code and its floor (bare JSON.parse, a raw read of
// the same bytes, …) in the same run, and prints the ratio, so the figures do not depend on the machine.
// Every figure has a goal: it prints at once with `ok` or `OVER`, and the last line lists every figure over
// its goal (`npm run bench -- --check` then exits 1). A case is one call: `figs.push(ratioCase({ …, target }))`,
// or `figs.push({ name, value, target, ok })` for a figure measured otherwise (CONTRIBUTING.md, Benchmarks).
import { performance } from 'node:perf_hooks';

export interface Case {
  name: string;
  /** the floor: the least work that could possibly do the job */
  floor: { name: string; run: () => unknown };
  ours: { name: string; run: () => unknown };
  /** the goal: at most this many times the floor */
  target: number;
}
export interface Figure {
  name: string;
  extra?: string;
  value: string;
  /** the goal, as it prints (`<= 2x`, `<= 8 ms`, `1`) */
  target: string;
  /** whether the value meets the goal */
  ok: boolean;
}

/**
 * Where the figures of a run go: an array whose `push` prints each figure as it comes. One per process, shared
 * by the bench files (each is its own bundle in out/bench/) and bench/run.mjs, which adds the sizes and
 * activation figures first.
 */
export function board(): Figure[] {
  const key = Symbol.for('promptwright.bench.board');
  const global = globalThis as { [key]?: Figure[] };
  if (!global[key]) {
    const figures: Figure[] = [];
    figures.push = (...added: Figure[]) => {
      for (const f of added) print(f);
      return Array.prototype.push.apply(figures, added);
    };
    global[key] = figures;
  }
  return global[key];
}

/** The last line: how many figures met their goals, and every one that did not. Sets the exit code on --check. */
export function summary(figs: Figure[], check = process.argv.includes('--check')): void {
  const over = figs.filter(f => !f.ok);
  console.log(
    over.length
      ? `\nOVER: ${over.length} of ${figs.length} figures over their goals: ${over.map(f => f.name.trim()).join('; ')}`
      : `\nAll ${figs.length} figures within their goals.`,
  );
  if (check && over.length) process.exitCode = 1;
}

function print(f: Figure): void {
  console.log(`${f.name.padEnd(52)} ${f.value.padStart(10)}  (goal ${f.target})  ${f.ok ? 'ok' : 'OVER'}`);
  if (f.extra) console.log(`${''.padEnd(4)}${f.extra}`);
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;

/**
 * Median time of an async `run`, interleaved with the floor so both see the same machine state, after `warm` rounds
 * of each.
 */
export async function ratioAsync(
  name: string,
  floor: { name: string; run: () => Promise<unknown> },
  ours: { name: string; run: () => Promise<unknown> },
  target: number,
  rounds = 61,
  warm = 10,
): Promise<Figure> {
  for (let i = 0; i < warm; i++) {
    await floor.run();
    await ours.run();
  }
  const f: number[] = [],
    o: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    await floor.run();
    f.push(performance.now() - t);
    t = performance.now();
    await ours.run();
    o.push(performance.now() - t);
  }
  return ratioFigure(name, ours.name, median(o), floor.name, median(f), target);
}

/**
 * Our code against its floor, run in turns (floor, ours, floor, …) for about `minMs` so that both see the
 * same machine state (a busy neighbour, a GC, the CPU clock), and the ratio of the medians. Timing one
 * for a second and then the other made a ratio move by a third between runs.
 */
export function ratioCase(c: Case, minMs = 2000): Figure {
  c.floor.run();
  c.ours.run(); // warm
  const fs: number[] = [],
    os: number[] = [];
  const end = performance.now() + minMs;
  while (fs.length < 3 || (performance.now() < end && fs.length < 200)) {
    let t = performance.now();
    c.floor.run();
    fs.push(performance.now() - t);
    t = performance.now();
    c.ours.run();
    os.push(performance.now() - t);
  }
  return ratioFigure(c.name, c.ours.name, median(os), c.floor.name, median(fs), c.target);
}

function ratioFigure(name: string, ours: string, o: number, floor: string, f: number, target: number): Figure {
  const r = o / f;
  return {
    name,
    extra: `${ours} ${o.toFixed(2)} ms vs ${floor} ${f.toFixed(2)} ms (medians)`,
    value: `${r.toFixed(2)}x`,
    target: `<= ${target}x`,
    ok: r <= target,
  };
}
