// Benchmarks (npm run bench). Each case measures our code and its floor (bare JSON.parse, a raw read of
// the same bytes, …) in the same run, and prints the ratio, so the figures do not depend on the machine.
import { performance } from 'node:perf_hooks';

export interface Case {
  name: string;
  /** the floor: the least work that could possibly do the job */
  floor: { name: string; run: () => unknown };
  ours: { name: string; run: () => unknown };
  target?: number;
}
export interface Figure {
  name: string;
  extra?: string;
  value: string;
  target?: string;
  ok?: boolean;
}

/** Median time of an async `run`, interleaved with the floor so both see the same machine state. */
export async function ratioAsync(
  name: string,
  floor: { name: string; run: () => Promise<unknown> },
  ours: { name: string; run: () => Promise<unknown> },
  target?: number,
  rounds = 61,
): Promise<Figure> {
  for (let i = 0; i < 10; i++) {
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
  const med = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  const r = med(o) / med(f);
  return {
    name,
    extra: `${ours.name} ${med(o).toFixed(2)} ms vs ${floor.name} ${med(f).toFixed(2)} ms`,
    value: `${r.toFixed(2)}x`,
    ...(target !== undefined ? { target: `<= ${target}x`, ok: r <= target } : {}),
  };
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
  const med = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  const f = med(fs);
  const o = med(os);
  const r = o / f;
  return {
    name: c.name,
    extra: `${c.ours.name} ${o.toFixed(2)} ms vs ${c.floor.name} ${f.toFixed(2)} ms`,
    value: `${r.toFixed(2)}x`,
    ...(c.target !== undefined ? { target: `<= ${c.target}x`, ok: r <= c.target } : {}),
  };
}

export function print(figs: Figure[]): void {
  for (const f of figs) {
    const status = f.ok === undefined ? '' : f.ok ? '  ok' : '  OVER TARGET';
    console.log(`${f.name.padEnd(52)} ${f.value.padStart(10)}${f.target ? `  (target ${f.target})` : ''}${status}`);
    if (f.extra) console.log(`${''.padEnd(4)}${f.extra}`);
  }
}
