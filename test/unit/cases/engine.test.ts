// The case-run engine: each cell's samples (repeat) sent through a transport, each settled (its cost, the
// judge's verdicts, every assertion), each cell from its samples (min-pass, flaky). The judge against the
// fake (its stand-in rule): a verdict's reason as the message, a malformed verdict and a failed judge request
// as errors, verdicts kept by the judge request's exact body, so an unchanged reply asks nothing the second
// time. Cost per sample, the judge's apart, and max-cost. A transport of one's own (what Message Batches
// will be) drives the same engine.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ApiClient } from '../../../src/core/api/client';
import {
  directTransport,
  Grader,
  runCells,
  sampleJobs,
  settleCell,
  type Judging,
  type RunCell,
  type SampleJob,
  type Transport,
  type TransportHandlers,
} from '../../../src/core/cases/engine';
import { judgeRequest, defaultJudgePrompt } from '../../../src/core/cases/judge';
import { runCell } from '../../../src/core/cases/runner';
import type { SampleResult } from '../../../src/core/cases/types';
import { DirectoryVerdictCache, verdictKey } from '../../../src/core/cases/verdictCache';
import { priceTable } from '../../../src/core/cost/prices';
import type { Fake } from '../../fake/server';
import { clientOf, useFake } from '../../support/fake';

const prices = priceTable();
const body = (content: string, model = 'model-sonnet-4-6') => ({
  model,
  max_tokens: 50,
  messages: [{ role: 'user', content }],
});
const cell = (o: Partial<RunCell> & { content?: string } = {}): RunCell => ({
  caseName: o.caseName ?? 'c',
  model: o.model ?? 'model-sonnet-4-6',
  body: o.body ?? body(o.content ?? 'Puis-je être remboursé sous 30 jours ?', o.model),
  assertions: o.assertions ?? [],
  repeat: o.repeat ?? 1,
  minPass: o.minPass ?? o.repeat ?? 1,
  ...(o.judge ? { judge: o.judge } : {}),
});
const judgeMessages = (fake: Fake) =>
  fake.requests.filter(r => JSON.stringify(r.body).includes('"json_schema"') && r.path === '/v1/messages');
const replyRequests = (fake: Fake) =>
  fake.requests.filter(r => r.path === '/v1/messages' && !JSON.stringify(r.body).includes('"json_schema"'));

describe('cases: the engine', () => {
  const fake = useFake();
  let client: ApiClient;
  let dir: string;
  before(() => {
    client = clientOf(fake);
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-verdicts-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const judging = (o: Partial<Judging> = {}): Judging => ({
    call: (b, signal) => client.createMessage(b, { signal }),
    defaultModel: 'model-haiku-4-5',
    cache: new DirectoryVerdictCache(dir),
    ...o,
  });
  const run = (cells: RunCell[], o: { concurrency?: number; judging?: Judging; signal?: AbortSignal } = {}) =>
    runCells({
      cells,
      transport: directTransport({
        concurrency: o.concurrency ?? 4,
        send: (job, signal, onEvent) => runCell(client, job.body, { signal, onEvent }),
      }),
      prices,
      judging: o.judging ?? judging(),
      ...(o.signal ? { signal: o.signal } : {}),
    });

  describe('samples', () => {
    it('(a) each cell’s samples, cell by cell, each with the cell’s body', () => {
      const cells = [cell({ caseName: 'a', repeat: 2 }), cell({ caseName: 'b' })];
      assert.deepEqual(
        sampleJobs(cells).map(j => [j.cell, j.sample, j.body === cells[j.cell]!.body]),
        [
          [0, 0, true],
          [0, 1, true],
          [1, 0, true],
        ],
      );
    });
    it('repeat 5, min-pass 4: five requests; the cell passes 5 of 5; its text, usage are the first’s', async () => {
      const { results } = await run([cell({ repeat: 5, minPass: 4, assertions: [{ contains: 'remboursé' }] })]);
      assert.equal(replyRequests(fake).length, 5);
      const r = results[0]!;
      assert.deepEqual([r.status, r.pass, r.passedSamples, r.minPass, r.flaky], ['passed', true, 5, 4, false]);
      assert.equal(r.samples!.length, 5);
      assert.equal(r.outcome, r.samples![0]!.outcome);
      assert.equal(r.assertions, r.samples![0]!.assertions);
    });
    it('flaky: some samples pass, some do not; below min-pass the cell fails, at it the cell passes', async () => {
      // the fake declines every second request of the same body (#flaky): 2 of 4 pass, whatever the order
      const flaky = (minPass: number) =>
        cell({ content: 'Hi #flaky', repeat: 4, minPass, assertions: [{ contains: 'Hello' }] });
      const [below, at] = (await run([flaky(3), flaky(2)], { concurrency: 1 })).results;
      assert.deepEqual([below!.status, below!.passedSamples, below!.flaky], ['failed', 2, true]);
      assert.deepEqual([at!.status, at!.passedSamples, at!.flaky], ['passed', 2, true]);
      const failing = below!.samples!.filter(s => !s.pass);
      assert.match(failing[0]!.assertions[0]!.message, /not found in the reply.*Sorry, I cannot help/);
    });
    it('settling a cell: at least min-pass passes; then cancelled, failed, or an error only errors made', () => {
      const s = (status: SampleResult['status']): SampleResult => ({
        status,
        pass: status === 'passed',
        assertions: [],
        outcome: { text: status },
        costUsd: 0.001,
      });
      const key = { caseName: 'c', model: 'm', repeat: 3, minPass: 2 };
      const verdict = (samples: (SampleResult | undefined)[]) => {
        const r = settleCell(key, samples);
        return [r.status, r.passedSamples, r.flaky];
      };
      assert.deepEqual(verdict([s('passed'), s('failed'), s('passed')]), ['passed', 2, true]);
      assert.deepEqual(verdict([s('passed'), s('failed'), s('error')]), ['failed', 1, true]);
      assert.deepEqual(verdict([s('error'), s('error'), s('passed')]), ['error', 1, true]);
      assert.deepEqual(verdict([s('passed'), undefined, undefined]), ['cancelled', 1, false]);
      assert.deepEqual(verdict([s('failed'), s('failed'), s('failed')]), ['failed', 0, false]);
      const r = settleCell(key, [s('passed'), s('passed'), s('passed')]);
      assert.ok(Math.abs(r.costUsd! - 0.003) < 1e-12);
    });
    it('a cancel: queued samples never start, the cell is cancelled unless enough had passed', async () => {
      const ctl = new AbortController();
      const running = run([cell({ content: 'x #slow=30 #long=20', repeat: 3 }), cell({ caseName: 'b', repeat: 2 })], {
        concurrency: 1,
        signal: ctl.signal,
      });
      setTimeout(() => ctl.abort(), 60);
      const { results } = await running;
      assert.deepEqual(
        results.map(r => r.status),
        ['cancelled', 'cancelled'],
      );
      assert.ok(replyRequests(fake).length <= 2);
    });
  });

  describe('the judge', () => {
    const rubric = (criteria: string) => ({ rubric: criteria });
    it('a rubric that passes and one that fails, each with the judge’s reason as its message', async () => {
      const { results } = await run([cell({ assertions: [rubric('Says "30 jours"'), rubric('Says "merci"')] })]);
      const [pass, fail] = results[0]!.assertions;
      assert.deepEqual([pass!.pass, pass!.score, pass!.cached], [true, 1, false]);
      assert.match(pass!.message, /^rubric “Says "30 jours"”: The reply has "30 jours"\. \(score 1\)$/);
      assert.deepEqual([fail!.pass, fail!.score], [false, 0]);
      assert.match(fail!.message, /The reply lacks "merci"\./);
      assert.equal(results[0]!.status, 'failed');
      // the judge's request: non-streaming, on the judge model, the reply in <reply>, the input in <input>
      const judged = judgeMessages(fake).map(r => r.body as Record<string, unknown>);
      assert.equal(judged.length, 2);
      assert.equal(judged[0]!.model, 'model-haiku-4-5');
      assert.equal(judged[0]!.stream, undefined);
      const prompt = (judged[0]!.messages as { content: string }[])[0]!.content;
      assert.match(prompt, /<reply>\nHello! You said: Puis-je être remboursé sous 30 jours \?\n<\/reply>/);
      assert.match(prompt, /<input>\nPuis-je être remboursé sous 30 jours \?\n<\/input>/);
    });
    it('the judge’s usage and cost, apart from the sample’s', async () => {
      const { results } = await run([cell({ assertions: [rubric('Says "30 jours"')] })]);
      const s = results[0]!.samples![0]!;
      assert.equal(s.judge!.calls, 1);
      assert.ok(s.judge!.inputTokens > 0 && s.judge!.outputTokens > 0);
      // haiku's prices: $1 in, $5 out per million
      assert.equal(s.judge!.costUsd, (s.judge!.inputTokens * 1 + s.judge!.outputTokens * 5) / 1e6);
      const u = s.outcome.usage!;
      assert.equal(s.costUsd, (u.input_tokens! * 3 + u.output_tokens! * 15) / 1e6, 'the reply at sonnet’s prices');
      assert.equal(results[0]!.judgeCostUsd, s.judge!.costUsd);
    });
    it('verdicts are kept by the judge request’s body: a second run asks the judge nothing', async () => {
      const cells = [cell({ repeat: 2, assertions: [rubric('Says "30 jours"')] })];
      const first = await run(cells);
      // the two samples say the same: one judge request for both
      assert.deepEqual([first.judgeCalls, judgeMessages(fake).length], [1, 1]);
      fake.clear();
      const second = await run(cells);
      assert.deepEqual([second.judgeCalls, second.judgeCached, judgeMessages(fake).length], [0, 1, 0]);
      const a = second.results[0]!.samples![0]!.assertions[0]!;
      assert.deepEqual([a.pass, a.cached], [true, true]);
      assert.equal(second.results[0]!.samples![0]!.judge!.calls, 0);
      // --no-cache: asked again, and what it says kept
      fake.clear();
      const refreshed = await run(cells, { judging: judging({ refresh: true }) });
      assert.equal(refreshed.judgeCalls, 1);
    });
    it('the cache key is the exact body: a different reply, rubric, model or prompt is another key', () => {
      const prompt = (reply: string) => defaultJudgePrompt({ criteria: 'c', reply, input: 'q' });
      const k = verdictKey(judgeRequest('model-haiku-4-5', prompt('a')));
      assert.match(k, /^[0-9a-f]{64}$/);
      assert.equal(verdictKey(judgeRequest('model-haiku-4-5', prompt('a'))), k);
      assert.notEqual(verdictKey(judgeRequest('model-haiku-4-5', prompt('b'))), k);
      assert.notEqual(verdictKey(judgeRequest('model-sonnet-4-6', prompt('a'))), k);
    });
    it('a malformed verdict makes the sample an error, never a pass; it is not kept', async () => {
      const { results } = await run([cell({ assertions: [rubric('#malformed and "30 jours"')] })]);
      const r = results[0]!;
      assert.deepEqual([r.status, r.pass], ['error', false]);
      const a = r.assertions[0]!;
      assert.equal(a.error!.type, 'malformed_verdict');
      assert.match(a.message, /the judge's verdict is malformed: malformed_verdict: the judge's answer is not JSON/);
      assert.match(a.error!.requestId!, /^req_fake_/);
      fake.clear();
      await run([cell({ assertions: [rubric('#malformed and "30 jours"')] })]);
      assert.equal(judgeMessages(fake).length, 1, 'asked again: a malformed verdict is not kept');
    });
    it('a failed judge request makes the sample an error with error.type, message and request-id', async () => {
      let calls = 0;
      const failing = judging({
        call: (b, signal) => {
          // the reply's request went through; the judge's is refused
          if (calls++ === 0) fake.fail({ status: 529, errorType: 'overloaded_error', message: 'Overloaded' });
          return client.createMessage(b, { signal });
        },
      });
      const { results } = await run([cell({ assertions: [rubric('Says "30 jours"')] })], { judging: failing });
      const a = results[0]!.assertions[0]!;
      assert.equal(results[0]!.status, 'error');
      assert.deepEqual([a.error!.type, a.error!.message], ['overloaded_error', 'Overloaded']);
      assert.match(a.error!.requestId!, /^req_fake_/);
      assert.match(a.message, /the judge's request failed: overloaded_error: Overloaded \(request-id req_fake_/);
    });
    it('no judge model anywhere: an error that says where to give one', async () => {
      const noModel = judging({ defaultModel: undefined });
      const { results } = await run([cell({ assertions: [rubric('x')] })], { judging: noModel });
      assert.equal(results[0]!.status, 'error');
      assert.match(results[0]!.assertions[0]!.message, /no judge model: give judge\.model in the case file/);
      assert.equal(judgeMessages(fake).length, 0);
    });
    it('the case file’s judge model and its own prompt; the judge is not asked when the reply failed', async () => {
      const own = 'Grade this: {{reply}} against {{criteria}}. <criteria>{{criteria}}</criteria>';
      const judged = cell({ assertions: [rubric('Says "Hello"')], judge: { model: 'model-opus-4-7', prompt: own } });
      await run([judged]);
      const sent = judgeMessages(fake)[0]!.body as { model: string; messages: { content: string }[] };
      assert.equal(sent.model, 'model-opus-4-7');
      assert.match(sent.messages[0]!.content, /^Grade this: Hello! You said: .* against Says "Hello"\./);
      fake.clear();
      fake.fail({ status: 400, message: 'bad' });
      const { results } = await run([cell({ assertions: [rubric('x')] })]);
      assert.equal(judgeMessages(fake).length, 0);
      assert.match(results[0]!.assertions[0]!.message, /the request failed: invalid_request_error: bad/);
    });
    it('samples that ask the judge the same thing at once share one request', async () => {
      const grader = new Grader(judging());
      const ctl = new AbortController();
      const parts = { reply: 'Sous 30 jours.', input: 'q' };
      const graded = await Promise.all(
        [1, 2, 3].map(() => grader.grade({ criteria: 'Says "30 jours"' }, undefined, parts, ctl.signal)),
      );
      assert.equal(judgeMessages(fake).length, 1);
      assert.deepEqual(
        graded.map(g => [g.result.pass, !!g.call]),
        [
          [true, true],
          [true, false],
          [true, false],
        ],
      );
    });
  });

  describe('cost', () => {
    it('max-cost holds at or under the bound, fails over it, and is an error without a price', async () => {
      const { results } = await run([
        cell({ caseName: 'cheap', assertions: [{ 'max-cost': 1 }] }),
        cell({ caseName: 'dear', assertions: [{ 'max-cost': 0.000001 }] }),
        cell({ caseName: 'unknown', model: 'model-quill-1', assertions: [{ 'max-cost': 1 }] }),
      ]);
      const [cheap, dear, unknown] = results;
      assert.equal(cheap!.status, 'passed');
      assert.match(cheap!.assertions[0]!.message, /^max-cost \$1\.00: \$0\.\d+ \(at most \$1\.00\)$/);
      assert.equal(dear!.status, 'failed');
      assert.match(dear!.assertions[0]!.message, /over \$0\.0000010$/);
      assert.equal(unknown!.status, 'error');
      assert.equal(unknown!.costUsd, null);
      assert.equal(
        unknown!.samples![0]!.costNote,
        'no price for model-quill-1: add it to promptwright.prices (the CLI: --prices FILE)',
      );
      assert.match(unknown!.assertions[0]!.message, /cannot be checked: no price for model-quill-1/);
    });
    it('a request refused before its reply began cost nothing', async () => {
      fake.fail({ status: 400, message: 'bad' });
      const { results } = await run([cell()]);
      assert.deepEqual([results[0]!.status, results[0]!.costUsd], ['error', 0]);
    });
  });

  describe('a transport of one’s own (as Message Batches will be)', () => {
    it('hands the engine every outcome in any order; the engine settles samples and cells the same way', async () => {
      const seen: SampleJob[] = [];
      const batch: Transport = {
        async send(jobs, handlers: TransportHandlers) {
          seen.push(...jobs);
          // all of them at once, answered in reverse order, with no streaming
          const answers = jobs.map(j => ({
            j,
            o: { text: `reply ${j.cell}.${j.sample}`, usage: { input_tokens: 1_000_000, output_tokens: 0 } },
          }));
          for (const { j, o } of answers.reverse()) {
            handlers.started(j);
            await handlers.done(j, o);
          }
        },
      };
      const cells = [
        cell({ repeat: 2, assertions: [{ contains: 'reply 0' }] }),
        cell({ caseName: 'b', assertions: [{ contains: 'x' }] }),
      ];
      const { results } = await runCells({ cells, transport: batch, prices, batch: true });
      assert.equal(seen.length, 3);
      assert.deepEqual(
        results.map(r => [r.status, r.passedSamples, r.outcome.text]),
        [
          ['passed', 2, 'reply 0.0'],
          ['failed', 0, 'reply 1.0'],
        ],
      );
      // batch: half of sonnet's $3 per million input tokens, per sample
      assert.equal(results[0]!.costUsd, 3);
    });
  });
});

describe('cases: the engine stops what cannot succeed (the CLI and the Cases grid alike)', () => {
  /** A direct transport whose sends answer by the cell's model, and the models of what it sent. */
  function transport(answer: (model: string) => { type: string; message: string } | undefined) {
    const sent: string[] = [];
    const t = directTransport({
      concurrency: 1,
      send: job => {
        const model = String(job.body.model);
        sent.push(model);
        const error = answer(model);
        return Promise.resolve(error ? { text: '', error } : { text: 'Hello' });
      },
    });
    return { t, sent };
  }
  const cells = (models: string[], n: number) =>
    Array.from({ length: n }, (_, i) => models.map(m => cell({ caseName: `c${i}`, model: m }))).flat();

  it('a refused key stops the run: one request, every other cell skipped with why', async () => {
    const { t, sent } = transport(() => ({ type: 'authentication_error', message: 'invalid x-api-key' }));
    const run = await runCells({ cells: cells(['model-sonnet-4-6'], 5), transport: t, prices });
    assert.equal(sent.length, 1);
    assert.deepEqual(
      run.results.map(r => r.status),
      ['error', 'skipped', 'skipped', 'skipped', 'skipped'],
    );
    assert.equal(run.stopped?.kind, 'refused-key');
    assert.match(run.results[1]!.outcome.error!.message, /the run stopped when the service refused the key/);
  });

  it('a model the service does not know stops its column only', async () => {
    const { t, sent } = transport(m =>
      m === 'model-opus-4-7' ? { type: 'not_found_error', message: 'no' } : undefined,
    );
    const run = await runCells({ cells: cells(['model-opus-4-7', 'model-haiku-4-5'], 3), transport: t, prices });
    assert.deepEqual(sent, ['model-opus-4-7', 'model-haiku-4-5', 'model-haiku-4-5', 'model-haiku-4-5']);
    assert.deepEqual(
      run.results.map(r => `${r.model.slice(6, 10)} ${r.status}`),
      ['opus error', 'haik passed', 'opus skipped', 'haik passed', 'opus skipped', 'haik passed'],
    );
    assert.deepEqual([...(run.stoppedModels?.keys() ?? [])], ['model-opus-4-7']);
  });

  it('fail fast: the first cell that does not pass stops the rest; without it, every cell runs', async () => {
    const failing = cells(['model-sonnet-4-6'], 4).map(c => ({ ...c, assertions: [{ contains: 'Bonjour' }] }));
    const fast = transport(() => undefined);
    const stopped = await runCells({ cells: failing, transport: fast.t, prices, failFast: true });
    assert.equal(fast.sent.length, 1);
    assert.deepEqual(
      stopped.results.map(r => r.status),
      ['failed', 'skipped', 'skipped', 'skipped'],
    );
    const all = transport(() => undefined);
    await runCells({ cells: failing, transport: all.t, prices });
    assert.equal(all.sent.length, 4);
  });
});
