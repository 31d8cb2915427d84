// Rubrics at scale: 200 cells × 5 samples, each graded by a rubric, through the case engine against the fake
// (2 ms between a reply's events; its stand-in judge answers the rubrics) at concurrency 16, with verdicts
// kept in a fresh folder. Cells per second on a first run (the judge asked once per distinct reply) and on a
// second (no judge request: every verdict from the cache), against the same cells without a rubric run in
// turn with them; and the most requests open at the fake, which must not exceed the limit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiClient } from '../src/core/api/client';
import { directTransport, runCellOf, runCells, type RunCell } from '../src/core/cases/engine';
import { cellsOf, prepareCell, runCell } from '../src/core/cases/runner';
import type { CaseFile } from '../src/core/cases/types';
import { DirectoryVerdictCache } from '../src/core/cases/verdictCache';
import { priceTable } from '../src/core/cost/prices';
import { startFake, type Fake } from '../test/fake/server';
import type { Figure } from './bench';

const CELLS = 200;
const SAMPLES = 5;
const CONCURRENCY = 16;

const isJudge = (body: unknown) => JSON.stringify(body).includes('"json_schema"');

function cellsFor(rubric: boolean): RunCell[] {
  const file: CaseFile = {
    request: 'bench.prompt.yaml',
    repeat: SAMPLES,
    minPass: SAMPLES,
    judge: { model: 'model-haiku-4-5' },
    cases: Array.from({ length: CELLS }, (_, i) => ({
      name: `case ${i}`,
      vars: { question: `question number ${i}` },
      assert: rubric ? [{ rubric: `Repeats "number ${i}"` }] : [{ contains: `number ${i}` }],
    })),
  };
  const request = { model: 'model-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: '{{question}}' }] };
  return cellsOf(file, request.model).map(cell => {
    const prepared = prepareCell(file, request, cell);
    if (!('body' in prepared)) throw new Error(prepared.problems.join('; '));
    return runCellOf({ file }, { ...cell, body: prepared.body });
  });
}

async function run(fake: Fake, client: ApiClient, cells: RunCell[], verdicts: string) {
  fake.clear();
  const t0 = performance.now();
  const outcome = await runCells({
    cells,
    transport: directTransport({
      concurrency: CONCURRENCY,
      send: (job, signal, onEvent) => runCell(client, job.body, { signal, onEvent }),
    }),
    prices: priceTable(),
    judging: {
      call: (body, signal) => client.createMessage(body, { signal }),
      cache: new DirectoryVerdictCache(verdicts),
    },
  });
  const ms = performance.now() - t0;
  const spans = fake.requests.map(q => [q.at, q.closedAt ?? Infinity] as const);
  const most = Math.max(...spans.map(([at]) => spans.filter(([a, b]) => a <= at && at < b).length));
  return {
    ms,
    passed: outcome.results.filter(r => r.pass).length,
    replies: fake.requests.filter(q => !isJudge(q.body)).length,
    judged: fake.requests.filter(q => isJudge(q.body)).length,
    most,
  };
}

export async function judgeBench(): Promise<Figure[]> {
  const fake = await startFake({ eventDelayMs: 2 });
  const verdicts = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-bench-verdicts-'));
  try {
    const client = new ApiClient({ baseUrl: fake.url, apiKey: fake.apiKey, maxRetries: 0 });
    const graded = cellsFor(true);
    const plain = cellsFor(false);
    const first = await run(fake, client, graded, verdicts);
    // in turns: the cached rubric run and the same cells without a rubric, three times each
    const again: Awaited<ReturnType<typeof run>>[] = [];
    const floor: number[] = [];
    for (let i = 0; i < 3; i++) {
      again.push(await run(fake, client, graded, verdicts));
      floor.push((await run(fake, client, plain, verdicts)).ms);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const second = again[again.length - 1]!;
    const secondMs = median(again.map(r => r.ms));
    const ratio = secondMs / median(floor);
    const perSecond = (ms: number) => `${Math.round(CELLS / (ms / 1000))} cells/s`;
    const all = first.passed === CELLS && first.replies === CELLS * SAMPLES;
    return [
      {
        name: `${CELLS} cells × ${SAMPLES} samples with a rubric at concurrency ${CONCURRENCY}`,
        value: perSecond(first.ms),
        ok: all && first.judged === CELLS,
        extra:
          `${(first.ms / 1000).toFixed(2)} s; ${first.replies} replies, ${first.judged} judge requests (one per ` +
          `distinct reply), ${first.passed} of ${CELLS} cells passed`,
      },
      {
        name: '  a second run: judge requests',
        value: String(second.judged),
        target: '0 (every verdict kept)',
        ok: again.every(r => r.judged === 0 && r.passed === CELLS),
        extra: `${perSecond(secondMs)}`,
      },
      {
        name: '  a second run vs the same cells without a rubric',
        value: `${ratio.toFixed(2)}x`,
        target: '<= 1.3x',
        ok: ratio <= 1.3,
      },
      {
        name: `  most requests in flight`,
        value: String(Math.max(first.most, second.most)),
        target: `<= ${CONCURRENCY}`,
        ok: Math.max(first.most, second.most) <= CONCURRENCY,
      },
    ];
  } finally {
    fs.rmSync(verdicts, { recursive: true, force: true });
    await fake.close();
  }
}
