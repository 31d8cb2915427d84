// Tool-use loops (npm run bench): a cell whose model calls tools for two turns and answers in the third, against
// three single-turn cells sending the same requests, on the same fake (the loop's own work, answering and building
// the next request, is the difference); and 1,000 loop cells answered from fixtures, whose retained memory per cell
// must not grow with the number of cells (the loop keeps each cell's turns and calls, and nothing of the others).
import v8 from 'node:v8';
import vm from 'node:vm';
import { ApiClient } from '../src/core/api/client';
import { directTransport, runCellOf, runCells, type RunCell } from '../src/core/cases/engine';
import { withToolLoops } from '../src/core/cases/loops';
import { runCell } from '../src/core/cases/runner';
import type { CaseFile } from '../src/core/cases/types';
import { priceTable } from '../src/core/cost/prices';
import { startFake } from '../test/fake/server';
import { ratioAsync, type Figure } from './bench';
import { AGENT_REQUEST as REQUEST } from '../test/fake/toolScripts';

const FILE: CaseFile = {
  request: 'bench.prompt.yaml',
  tools: { lookup_order: [{ result: { status: 'shipped' } }], get_weather: [{ result: 'Sunny' }] },
  cases: [{ name: 'loop', assert: [{ 'tool-sequence': ['lookup_order', 'get_weather'] }] }],
};

const loopCell = (i: number): RunCell =>
  runCellOf(
    { file: FILE },
    {
      caseName: 'loop',
      model: 'model-sonnet-4-6',
      body: { ...REQUEST, messages: [{ role: 'user', content: `Where is order ${i}? #script=order` }] },
    },
  );

export async function loopsBench(figs: Figure[]): Promise<void> {
  const fake = await startFake();
  try {
    const client = new ApiClient({ baseUrl: fake.url, apiKey: fake.apiKey, maxRetries: 0 });
    const send = (cells: readonly RunCell[]) =>
      withToolLoops(cells, (job, signal, onEvent) => runCell(client, job.body, { signal, onEvent }));
    const run = (cells: readonly RunCell[]) =>
      runCells({ cells, transport: directTransport({ concurrency: 1, send: send(cells) }), prices: priceTable() });

    // the loop's three requests, recorded once, sent as three single-turn cells
    const one = [loopCell(1)];
    fake.clear();
    const first = await run(one);
    if (first.results[0]?.outcome.turns !== 3 || !first.results[0].pass) throw new Error('the loop cell did not pass');
    const bodies = fake.requests.map(q => {
      const { stream: _s, ...body } = q.body as Record<string, unknown>;
      return body;
    });
    const singles = bodies.map(body => ({
      ...runCellOf(
        { file: { request: '', cases: [{ name: 'one' }] } },
        { caseName: 'one', model: 'model-sonnet-4-6', body },
      ),
    }));
    figs.push(
      await ratioAsync(
        'a 3-turn loop cell vs its 3 requests as single-turn cells',
        { name: '3 single-turn cells', run: () => run(singles) },
        { name: 'the loop cell', run: () => run(one) },
        1.2,
        31,
      ),
    );

    // retained memory per loop cell: 100 cells, then 1,000
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    // collected until the heap stops shrinking: after the benches before it, one collection left garbage that went
    // during the run of 100 cells, which then kept a twentieth of what they keep in a process of their own
    const settled = () => {
      let used = Infinity;
      for (let i = 0; i < 10 && process.memoryUsage().heapUsed < used; i++) {
        used = process.memoryUsage().heapUsed;
        gc();
      }
      return process.memoryUsage().heapUsed;
    };
    const perCell = async (n: number) => {
      const cells = Array.from({ length: n }, (_, i) => loopCell(i));
      fake.clear();
      const before = settled();
      const { results } = await runCells({
        cells,
        transport: directTransport({ concurrency: 8, send: send(cells) }),
        prices: priceTable(),
      });
      fake.clear();
      const kept = settled() - before;
      if (results.some(r => !r.pass)) throw new Error('a loop cell failed');
      return kept / n;
    };
    await perCell(100); // what a first run allocates for good (compiled code, tables) is no cell's
    const small = await perCell(100);
    const large = await perCell(1_000);
    const ratio = large / small;
    figs.push({
      name: '1,000 loop cells on fixtures: memory kept per cell vs 100 cells',
      value: `${ratio.toFixed(2)}x`,
      target: '<= 1.2x',
      ok: ratio <= 1.2,
      extra:
        `${(large / 1024).toFixed(1)} KB a cell at 1,000 (its result: turns and calls), ` +
        `${(small / 1024).toFixed(1)} KB at 100`,
    });
  } finally {
    await fake.close();
  }
}
