// The cells and their runs: cells (case × model), each body prepared and checked before it is sent, streamed
// against the fake, judged; through the engine's direct transport at most `concurrency` in flight; results in
// cell order whatever the finishing order; a cancel stops what is queued and aborts what runs, promptly,
// keeping what arrived. (Samples, the judge and cost: engine.test.ts.)
import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/core/api/client';
import type { StreamEvent } from '../../../src/core/api/types';
import { directTransport, runCellOf, runCells, type CellUpdate, type RunCell } from '../../../src/core/cases/engine';
import { cellsOf, prepareCell, runCell } from '../../../src/core/cases/runner';
import type { Assertion, CaseFile, CellKey, CellResult, Outcome } from '../../../src/core/cases/types';
import { priceTable } from '../../../src/core/cost/prices';
import { clientOf, useFake } from '../../support/fake';

const FILE: CaseFile = {
  request: 'r.prompt.yaml',
  cases: [
    { name: 'hello', vars: { q: 'Hi' }, assert: [{ contains: 'You said: Hi' }, { stop_reason: 'end_turn' }] },
    { name: 'tool', vars: { q: 'Weather? #tool' }, assert: [{ 'tool-call': 'get_weather' }] },
    { name: 'json', vars: { q: 'ok #json' }, assert: [{ 'json-schema': { type: 'object', required: ['answer'] } }] },
  ],
};
const REQUEST = { model: 'model-opus-4-7', max_tokens: 100, messages: [{ role: 'user', content: '{{q}}' }] };

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/**
 * The engine with a direct transport whose `run` answers each cell (one sample each), as the CLI and the grid
 * run it: the results in cell order; `onUpdate` as the old matrix said it (the event, or undefined).
 */
async function runMatrix(o: {
  cells: readonly CellKey[];
  concurrency: number;
  signal?: AbortSignal;
  run: (cell: CellKey, signal: AbortSignal, onEvent: (ev: StreamEvent) => void) => Promise<Outcome>;
  assertionsOf: (cell: CellKey) => Assertion[];
  onUpdate?: (r: CellResult, ev: StreamEvent | undefined, index: number) => void;
}): Promise<CellResult[]> {
  const cells: RunCell[] = o.cells.map(c => ({ ...c, body: {}, assertions: o.assertionsOf(c), repeat: 1, minPass: 1 }));
  const { results } = await runCells({
    cells,
    transport: directTransport({
      concurrency: o.concurrency,
      send: (job, signal, onEvent) => o.run(o.cells[job.cell]!, signal, onEvent),
    }),
    prices: priceTable(),
    ...(o.signal ? { signal: o.signal } : {}),
    onUpdate: (r: CellResult, u: CellUpdate, i: number) => {
      if (u.kind === 'sample') return;
      o.onUpdate?.(r, u.kind === 'event' ? u.ev : undefined, i);
    },
  });
  return results;
}

describe('cases: runner', () => {
  describe('cellsOf', () => {
    it('each case on each model, row by row; the models: override, else the file’s, else the request’s', () => {
      const two = { ...FILE, cases: FILE.cases.slice(0, 2) };
      assert.deepEqual(cellsOf(two, 'model-opus-4-7'), [
        { caseName: 'hello', model: 'model-opus-4-7' },
        { caseName: 'tool', model: 'model-opus-4-7' },
      ]);
      const withModels = { ...two, models: ['a', 'b', 'a'] };
      assert.deepEqual(
        cellsOf(withModels, 'model-opus-4-7').map(c => `${c.caseName}/${c.model}`),
        ['hello/a', 'hello/b', 'tool/a', 'tool/b'],
      );
      assert.deepEqual(
        cellsOf(withModels, 'x', ['c']).map(c => c.model),
        ['c', 'c'],
      );
      assert.deepEqual(cellsOf(two, undefined), []);
    });
  });

  describe('prepareCell', () => {
    it('fills the values, sets the model, and checks the body', () => {
      const r = prepareCell(FILE, REQUEST, { caseName: 'tool', model: 'model-haiku-4-5' });
      assert.deepEqual(r, {
        body: { model: 'model-haiku-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Weather? #tool' }] },
      });
    });
    it('a request with errors once filled is never sent: the problems instead', () => {
      const noMax = { model: 'm', messages: [{ role: 'user', content: '{{q}}' }] };
      const r = prepareCell(FILE, noMax, { caseName: 'hello', model: 'model-opus-4-7' });
      assert.ok('problems' in r);
      assert.match(r.problems[0]!, /^missing-field at \/: Missing required field "max_tokens"/);
      // a retired model is an error of the filled body too
      const retired = prepareCell(FILE, REQUEST, { caseName: 'hello', model: 'model-3-opus-20240229' });
      assert.ok('problems' in retired && retired.problems.some(p => p.startsWith('retired-model')));
    });
    it('count_tokens takes less: no max_tokens needed', () => {
      const noMax = { model: 'm', messages: [{ role: 'user', content: '{{q}}' }] };
      assert.ok(
        'body' in
          prepareCell(FILE, noMax, { caseName: 'hello', model: 'model-opus-4-7' }, { endpoint: 'count_tokens' }),
      );
    });
    it('the cells of one request each get a body of their own (the request compiled once for all of them)', () => {
      const request = structuredClone(REQUEST);
      const a = prepareCell(FILE, request, { caseName: 'hello', model: 'model-opus-4-7' });
      const b = prepareCell(FILE, request, { caseName: 'tool', model: 'model-opus-4-7' });
      assert.ok('body' in a && 'body' in b);
      const messagesOf = (r: { body: Record<string, unknown> }) => r.body.messages as { content: string }[];
      messagesOf(a)[0]!.content = 'changed';
      assert.equal(messagesOf(b)[0]!.content, 'Weather? #tool');
      assert.notEqual(messagesOf(a), messagesOf(b));
      assert.deepEqual(request, REQUEST, 'the request itself is left as it was');
    });
    it('a placeholder without a value, an unknown case, a request that is not an object', () => {
      const r = prepareCell({ ...FILE, cases: [{ name: 'x' }] }, REQUEST, { caseName: 'x', model: 'model-opus-4-7' });
      assert.deepEqual(r, { problems: ['{{q}} has no value in case "x": it would be sent as written.'] });
      assert.deepEqual(prepareCell(FILE, REQUEST, { caseName: 'nope', model: 'm' }), {
        problems: ['The case file has no case named "nope".'],
      });
      assert.ok('problems' in prepareCell(FILE, [1], { caseName: 'hello', model: 'm' }));
    });
  });

  describe('against the fake service', () => {
    const fake = useFake();
    let client: ApiClient;
    before(async () => {
      client = clientOf(fake);
    });

    const body = (content: string) => ({
      model: 'model-opus-4-7',
      max_tokens: 50,
      messages: [{ role: 'user', content }],
    });

    it('runCell streams, hands out every event, measures latency and keeps the request-id', async () => {
      const events: StreamEvent[] = [];
      let t = 1000;
      const o = await runCell(client, body('Hi there'), { onEvent: ev => events.push(ev), now: () => (t += 250) });
      assert.equal(o.error, undefined);
      assert.equal(o.text, 'Hello! You said: Hi there');
      assert.equal(o.stopReason, 'end_turn');
      assert.equal(o.latencyMs, 250);
      assert.match(o.requestId!, /^req_fake_stream_\d+$/);
      assert.ok(o.usage!.output_tokens! > 0);
      assert.equal(events[0]!.type, 'message_start');
      assert.equal(events.at(-1)!.type, 'message_stop');
    });
    it('runCell: a refused request and a broken stream become outcome.error, with what arrived', async () => {
      fake.fail({ status: 429, errorType: 'rate_limit_error', message: 'slow down' });
      const refused = await runCell(client, body('Hi'));
      assert.deepEqual(
        { type: refused.error?.type, message: refused.error?.message, text: refused.text },
        { type: 'rate_limit_error', message: 'slow down', text: '' },
      );
      assert.match(refused.error!.requestId!, /^req_fake_/);
      const broken = await runCell(client, body('x #error #long=30'));
      assert.equal(broken.error?.type, 'overloaded_error');
      assert.match(broken.text, /^w0 w1 /);
      assert.match(broken.requestId!, /^req_fake_stream_/);
    });
    it('runCell: a cancel is an aborted outcome with the partial reply', async () => {
      const ctl = new AbortController();
      const started = runCell(client, body('x #slow=20 #long=50'), {
        signal: ctl.signal,
        onEvent: ev => {
          if (ev.type === 'content_block_delta') ctl.abort();
        },
      });
      const o = await started;
      assert.equal(o.error?.type, 'aborted');
      assert.equal(o.text, 'w0 ');
    });

    it('the engine runs the whole matrix against the fake, judging each cell', async () => {
      const cells = cellsOf({ ...FILE, models: ['model-opus-4-7', 'model-haiku-4-5'] }, undefined).map(cell => {
        const prepared = prepareCell(FILE, REQUEST, cell);
        if (!('body' in prepared)) throw new Error(prepared.problems.join('; '));
        return runCellOf({ file: FILE }, { ...cell, body: prepared.body });
      });
      const { results } = await runCells({
        cells,
        transport: directTransport({
          concurrency: 3,
          send: (job, signal, onEvent) => runCell(client, job.body, { signal, onEvent }),
        }),
        prices: priceTable(),
      });
      assert.deepEqual(
        results.map(r => [r.caseName, r.model, r.status]),
        [
          ['hello', 'model-opus-4-7', 'passed'],
          ['hello', 'model-haiku-4-5', 'passed'],
          ['tool', 'model-opus-4-7', 'passed'],
          ['tool', 'model-haiku-4-5', 'passed'],
          ['json', 'model-opus-4-7', 'passed'],
          ['json', 'model-haiku-4-5', 'passed'],
        ],
      );
      assert.equal(fake.requests.length, 6);
    });
  });

  describe('the direct transport with a scripted run', () => {
    const cells: CellKey[] = Array.from({ length: 12 }, (_, i) => ({ caseName: `c${i}`, model: 'm' }));
    const reply = (text: string): Outcome => ({ text, latencyMs: 1 });

    it('at most `concurrency` in flight; results in cell order whatever order they finish in', async () => {
      let inFlight = 0;
      let most = 0;
      const finished: string[] = [];
      const results = await runMatrix({
        cells,
        concurrency: 3,
        run: async cell => {
          most = Math.max(most, ++inFlight);
          // later cells finish sooner
          await sleep(2 + (12 - Number(cell.caseName.slice(1))) * 2);
          inFlight--;
          finished.push(cell.caseName);
          return reply(`reply of ${cell.caseName}`);
        },
        assertionsOf: cell => [{ contains: cell.caseName === 'c5' ? 'nope' : 'reply' }],
      });
      assert.equal(most, 3);
      assert.notDeepEqual(
        finished,
        cells.map(c => c.caseName),
        'they did finish out of order',
      );
      assert.deepEqual(
        results.map(r => r.caseName),
        cells.map(c => c.caseName),
      );
      assert.deepEqual(
        results.map(r => r.outcome.text),
        cells.map(c => `reply of ${c.caseName}`),
      );
      assert.equal(
        results
          .filter(r => r.status === 'failed')
          .map(r => r.caseName)
          .join(),
        'c5',
      );
      assert.match(results[5]!.assertions[0]!.message, /^contains "nope": not found/);
    });

    it('streams the text into the result as events come, and reports each change with its index', async () => {
      const seen: [string, number, string][] = [];
      const delta = (text: string): StreamEvent => ({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text },
      });
      await runMatrix({
        cells: cells.slice(0, 2),
        concurrency: 1,
        run: async (_cell, _signal, onEvent) => {
          onEvent(delta('Hel'));
          onEvent(delta('lo'));
          return reply('Hello');
        },
        assertionsOf: () => [],
        onUpdate: (r, ev, i) => seen.push([r.status, i, ev ? r.outcome.text : '']),
      });
      assert.deepEqual(seen, [
        ['running', 0, ''],
        ['running', 0, 'Hel'],
        ['running', 0, 'Hello'],
        ['passed', 0, ''],
        ['running', 1, ''],
        ['running', 1, 'Hel'],
        ['running', 1, 'Hello'],
        ['passed', 1, ''],
      ]);
    });

    it('a cancel: queued cells are cancelled, running ones aborted; resolved within 100 ms', async () => {
      const ctl = new AbortController();
      const started: string[] = [];
      const updates: CellResult['status'][] = [];
      const running = runMatrix({
        cells,
        concurrency: 4,
        signal: ctl.signal,
        run: (cell, signal, onEvent) => {
          started.push(cell.caseName);
          onEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'part' } });
          return new Promise<Outcome>(resolve => {
            signal.addEventListener('abort', () =>
              resolve({ text: 'part', requestId: 'req_x', error: { type: 'aborted', message: 'Cancelled.' } }),
            );
          });
        },
        assertionsOf: () => [{ contains: 'part' }],
        onUpdate: (r, ev) => {
          if (!ev) updates.push(r.status);
        },
      });
      await sleep(20);
      const t0 = Date.now();
      ctl.abort();
      const results = await running;
      assert.ok(Date.now() - t0 < 100, `took ${Date.now() - t0} ms`);
      assert.equal(started.length, 4);
      assert.deepEqual(
        results.map(r => r.status),
        Array(12).fill('cancelled'),
      );
      assert.equal(results[0]!.outcome.requestId, 'req_x', 'the run’s own outcome is kept');
      assert.equal(results[0]!.outcome.text, 'part');
      assert.deepEqual(results[0]!.assertions, []);
      assert.equal(updates.filter(s => s === 'cancelled').length, 12);
    });

    it('a run that ignores the cancel cannot hold the matrix up; a run that throws fails alone', async () => {
      const ctl = new AbortController();
      const results = runMatrix({
        cells: cells.slice(0, 3),
        concurrency: 3,
        signal: ctl.signal,
        run: cell =>
          cell.caseName === 'c0'
            ? Promise.reject(new Error('boom'))
            : cell.caseName === 'c1'
              ? Promise.resolve(reply('fine'))
              : new Promise<Outcome>(() => undefined),
        assertionsOf: () => [{ contains: 'fine' }],
      });
      await sleep(10);
      ctl.abort();
      // the never-settling run does not hold the matrix: the results come (else the test times out)
      const r = await results;
      assert.deepEqual(
        r.map(x => x.status),
        ['error', 'passed', 'cancelled'],
      );
      assert.deepEqual(r[0]!.outcome.error, { type: 'internal_error', message: 'boom' });
    });

    it('a concurrency below one runs one at a time; no cells, no runs', async () => {
      let most = 0;
      let inFlight = 0;
      await runMatrix({
        cells: cells.slice(0, 4),
        concurrency: 0,
        run: async () => {
          most = Math.max(most, ++inFlight);
          await sleep(1);
          inFlight--;
          return reply('x');
        },
        assertionsOf: () => [],
      });
      assert.equal(most, 1);
      assert.deepEqual(
        await runMatrix({ cells: [], concurrency: 4, run: () => Promise.reject(new Error()), assertionsOf: () => [] }),
        [],
      );
    });
  });
});
