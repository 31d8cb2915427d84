// The case-run engine: the one way the CLI (`test`, `test --base`), the Cases grid, its compare mode and the
// Test Explorer run cells. A run is three steps, kept apart so that each can change alone:
//
//   (a) the requests: each cell × sample's filled request, a SampleJob (`sampleJobs`);
//   (b) the transport: what sends the jobs and hands back each one's outcome (`Transport`). Today the direct
//       transport (`directTransport`: each request streamed, at most `concurrency` in flight, a cancel aborts
//       what runs); a Message Batches transport sends the same jobs as one batch and hands back the same
//       outcomes;
//   (c) settling: a sample from its outcome (`settleSample`: its cost, the judge's verdicts on its rubrics, every
//       assertion), and a cell from its samples (`settleCell`: it passes when at least `minPass` samples pass;
//       some passing and some not is flaky).
//
// `runCells` puts them together and reports each change of a cell as it happens. It never throws: one cell
// that fails, fails alone, unless what it met will fail every cell alike: a key the service refused
// (authentication_error, permission_error) stops the run at once, a model it does not know (not_found_error) stops
// that model's column, and with `failFast` the first failed cell stops the run. What is not sent then is
// `skipped`, with why.
import { setMaxListeners } from 'node:events';
import type { Message, StreamEvent, Usage } from '../api/types';
import { costOf, sumCosts, type Cost } from '../cost/cost';
import type { PriceTable } from '../cost/prices';
import { count } from '../text';
import { evaluate } from './assertions';
import {
  defaultJudgePrompt,
  fillJudgePrompt,
  judgeError,
  judgeRequest,
  lastUserTurn,
  parseVerdict,
  rubricOf,
  verdictResult,
  type Verdict,
} from './judge';
import { caseNamed, errorOf, samplingOf, type Sampling } from './runner';
import type {
  Assertion,
  OutcomeError,
  AssertionResult,
  CaseFile,
  CellKey,
  CellResult,
  HumanGrade,
  JudgeUsage,
  Outcome,
  Rubric,
  SampleResult,
} from './types';
import { verdictKey, type VerdictCache } from './verdictCache';
import { DEFAULT_MAX_TURNS, type CellTools, type ToolsSpec } from '../tools/answers';

/** After a cancel, how long a running request may take to end with its own outcome (request-id, partial reply). */
const ABORT_GRACE_MS = 50;

/** Who grades a cell's rubrics: a model, and the text of a prompt of one's own (read from `judge.prompt`). */
export interface CellJudge {
  model?: string;
  prompt?: string;
}

/** A cell of a run: a case on a model, the body each of its samples sends, what judges them, and how many. */
export interface RunCell extends CellKey {
  body: Record<string, unknown>;
  assertions: readonly Assertion[];
  /** samples to run (at least 1) */
  repeat: number;
  /** samples that must pass every assertion for the cell to pass (1 to `repeat`) */
  minPass: number;
  judge?: CellJudge;
  /** how its tool calls are answered: present, the cell runs a tool-use loop (core/cases/loops.ts) */
  tools?: CellTools;
}

/**
 * What a case's tool calls are answered from (the case's own entries, the file's, the recorded ones) and its
 * max-turns; without a case, the file's for every case (the response panel's Use Fixture and Run to End).
 */
export function cellToolsOf(loaded: { file: CaseFile; recorded?: ToolsSpec }, caseName?: string): CellTools {
  const { file } = loaded;
  const own = caseName === undefined ? undefined : caseNamed(file, caseName)?.tools;
  return {
    ...(own ? { case: own } : {}),
    ...(file.tools ? { file: file.tools } : {}),
    ...(loaded.recorded ? { recorded: loaded.recorded } : {}),
    maxTurns: file.maxTurns ?? DEFAULT_MAX_TURNS,
  };
}

/**
 * A case file's cell as the engine runs it: its body, its case's assertions, the file's samples (or the run's
 * `sampling`) and judge (`judgePrompt`: the text its `judge.prompt` names).
 */
export function runCellOf(
  loaded: { file: CaseFile; judgePrompt?: string; recorded?: ToolsSpec },
  cell: CellKey & { body: Record<string, unknown> },
  sampling: Sampling = {},
): RunCell {
  const { file } = loaded;
  const judge = {
    ...(file.judge?.model ? { model: file.judge.model } : {}),
    ...(loaded.judgePrompt !== undefined ? { prompt: loaded.judgePrompt } : {}),
  };
  const testCase = caseNamed(file, cell.caseName);
  const loops = !!file.tools || !!testCase?.tools;
  const tools = cellToolsOf(loaded, cell.caseName);
  return {
    caseName: cell.caseName,
    model: cell.model,
    body: cell.body,
    // the file's assertions first, then the case's own
    assertions: [...(file.assert ?? []), ...(testCase?.assert ?? [])],
    ...samplingOf(file, sampling),
    ...(Object.keys(judge).length ? { judge } : {}),
    ...(loops ? { tools } : {}),
  };
}

// ---- (a) the requests -----------------------------------------------------------------------------------------

/** One request of a run: a sample of a cell, and the filled body it sends. */
export interface SampleJob {
  /** the cell's place in the run's cells */
  cell: number;
  /** the sample's place in its cell (0 to repeat - 1) */
  sample: number;
  body: Record<string, unknown>;
}

/** Every sample of every cell, cell by cell: a cell's samples go out together and it ends as soon as it can. */
export function sampleJobs(cells: readonly RunCell[]): SampleJob[] {
  return cells.flatMap((c, cell) =>
    Array.from({ length: Math.max(1, c.repeat) }, (_, sample) => ({ cell, sample, body: c.body })),
  );
}

/**
 * What a run would send: a request per sample (to the messages endpoint, or in a Message Batch), and at most one
 * judge request per rubric of each sample (a kept verdict, or a reply graded before, asks none); retries aside.
 */
export interface RequestCount {
  samples: number;
  judge: number;
}

export function requestCount(cells: readonly Pick<RunCell, 'repeat' | 'assertions'>[]): RequestCount {
  let samples = 0;
  let judge = 0;
  for (const c of cells) {
    const n = Math.max(1, c.repeat);
    samples += n;
    judge += n * c.assertions.filter(a => 'rubric' in a).length;
  }
  return { samples, judge };
}

/** "1,200 requests (600 replies, at most 600 judge requests)" */
export function requestCountWords(n: RequestCount): string {
  const judge = n.judge ? `, at most ${count(n.judge, 'judge request')}` : '';
  return `${count(n.samples + n.judge, 'request')} (${count(n.samples, 'reply', 'replies')}${judge})`;
}

// ---- (b) the transport ------------------------------------------------------------------------------------------

/** What a transport tells the engine of each job. */
export interface TransportHandlers {
  /**
   * Whether the job is still to be sent, asked just before it would be (the run, or its model's column, may have
   * stopped since it was queued). A job not sent is not reported: the engine counts it skipped.
   */
  shouldSend?(job: SampleJob): boolean;
  /** the job's request went out */
  started(job: SampleJob): void;
  /** an event of the job's streamed reply */
  event(job: SampleJob, ev: StreamEvent): void;
  /**
   * The job's outcome (a failure, a cancel included, is `outcome.error`). The transport counts the job done when
   * the returned promise settles: the judge calls of its settling stay within the transport's limits.
   */
  done(job: SampleJob, outcome: Outcome): Promise<void>;
}

/**
 * Sends a run's jobs and hands back each one's outcome. It resolves when every job it started is done; a job it
 * never started (a cancel came first) is not reported, and the engine counts it cancelled.
 */
export interface Transport {
  send(jobs: readonly SampleJob[], handlers: TransportHandlers, signal: AbortSignal): Promise<void>;
}

/** How the direct transport sends one job: usually `runCell` with the job's body (the client's retries apply). */
export type SendJob = (job: SampleJob, signal: AbortSignal, onEvent: (ev: StreamEvent) => void) => Promise<Outcome>;

/**
 * Each job sent on its own, at most `concurrency` at once (judge calls included, since a job's slot is free only
 * when it is settled). A cancel: queued jobs never start, running ones are aborted and end with what came.
 */
export function directTransport(o: { concurrency: number; send: SendJob }): Transport {
  return {
    async send(jobs, handlers, signal) {
      const limit = Math.max(1, Math.floor(o.concurrency) || 1);
      let next = 0;
      const runOne = async (job: SampleJob) => {
        let ended = false;
        handlers.started(job);
        const onEvent = (ev: StreamEvent) => {
          if (!ended) handlers.event(job, ev); // a send that ignored the cancel, still talking
        };
        let outcome: Outcome;
        try {
          const aborted = (): Outcome => ({ text: '', error: { type: 'aborted', message: 'Cancelled.' } });
          outcome = await untilAborted(o.send(job, signal, onEvent), signal, aborted);
        } catch (e) {
          // one job whose send threw fails alone; the others go on
          outcome = {
            text: '',
            error: { type: 'internal_error', message: e instanceof Error ? e.message : String(e) },
          };
        }
        ended = true;
        await handlers.done(job, outcome);
      };
      const worker = async () => {
        while (next < jobs.length && !signal.aborted) {
          const job = jobs[next++]!;
          if (handlers.shouldSend?.(job) ?? true) await runOne(job);
        }
      };
      await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
    },
  };
}

/**
 * The send's own outcome, or once cancelled and after a short grace (so a request that ends promptly keeps its
 * request-id and partial reply), `onAbort()`'s: a send that ignores its signal cannot hold the run up.
 */
function untilAborted<T>(run: Promise<T>, signal: AbortSignal, onAbort: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const abort = () => {
      timer = setTimeout(() => resolve(onAbort()), ABORT_GRACE_MS);
    };
    const settle = () => {
      signal.removeEventListener('abort', abort);
      if (timer) clearTimeout(timer);
    };
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    run.then(
      v => {
        settle();
        resolve(v);
      },
      (e: unknown) => {
        settle();
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

// ---- (c) settling -----------------------------------------------------------------------------------------------

/** How rubrics are graded: the judge's request, the model when the case file names none, the verdict cache. */
export interface Judging {
  /** one non-streaming request through the client (key, base URL, retry rules, cancel): `client.createMessage` */
  call(body: Record<string, unknown>, signal: AbortSignal): Promise<Message & { requestId?: string }>;
  /** the judge model when the case file names none (setting, or PROMPTWRIGHT_JUDGE_MODEL) */
  defaultModel?: string;
  cache?: VerdictCache;
  /** ask the judge even when a verdict is kept (`--no-cache`); what it says is kept */
  refresh?: boolean;
}

/** What settling needs besides the cell and its outcome. */
interface SettleContext {
  prices: PriceTable;
  judging?: Judging;
  /** the requests went as a Message Batches request: every token at half price */
  batch?: boolean;
  /** a person's grade of a reply of this case, where one was given (the grid's 👍 / 👎) */
  gradeOf?: (cell: RunCell, text: string) => HumanGrade | undefined;
}

/** A judge's answer to one request: its verdict or why there is none, and what the call used (none when cached). */
interface JudgeAnswer {
  verdict?: Verdict;
  error?: { type: string; message: string; requestId?: string };
  call?: { usage: Usage; model: string };
}

/** Grades rubrics: asks the judge once per distinct request body, from the cache when it can. */
export class Grader {
  /** requests in flight, by key: samples that send the same body wait for the one call */
  private readonly inflight = new Map<string, Promise<JudgeAnswer>>();
  /** judge requests sent in this run, and verdicts taken from the cache */
  calls = 0;
  cached = 0;

  constructor(private readonly judging: Judging | undefined) {}

  /** The verdict on one rubric for one reply; `first` says whether this grading made the call. */
  async grade(
    rubric: Rubric,
    judge: CellJudge | undefined,
    parts: { reply: string; input: string },
    signal: AbortSignal,
  ): Promise<{ result: AssertionResult; call?: { usage: Usage; model: string } }> {
    const model = judge?.model ?? this.judging?.defaultModel;
    if (!this.judging || !model)
      return {
        result: judgeError(rubric, {
          type: 'no_judge_model',
          message:
            'no judge model: give judge.model in the case file, or set promptwright.cases.judgeModel ' +
            '(the CLI: PROMPTWRIGHT_JUDGE_MODEL)',
        }),
      };
    const filled = {
      criteria: rubric.criteria,
      ...parts,
      ...(rubric.reference !== undefined ? { reference: rubric.reference } : {}),
    };
    const prompt = judge?.prompt !== undefined ? fillJudgePrompt(judge.prompt, filled) : defaultJudgePrompt(filled);
    const body = judgeRequest(model, prompt);
    const key = verdictKey(body);
    let shared = true;
    let answer = this.inflight.get(key);
    if (!answer) {
      shared = false;
      answer = this.ask(this.judging, key, body, model, signal);
      this.inflight.set(key, answer);
      // a failure is asked again by the next sample that needs it; a verdict stays shared for the run
      void answer.then(a => {
        if (!a.verdict) this.inflight.delete(key);
      });
    }
    const a = await answer;
    const cached = shared || !a.call;
    if (a.verdict)
      return { result: verdictResult(rubric, a.verdict, cached), ...(!shared && a.call ? { call: a.call } : {}) };
    return { result: judgeError(rubric, a.error!), ...(!shared && a.call ? { call: a.call } : {}) };
  }

  private async ask(
    judging: Judging,
    key: string,
    body: Record<string, unknown>,
    model: string,
    signal: AbortSignal,
  ): Promise<JudgeAnswer> {
    if (judging.cache && !judging.refresh) {
      const kept = await judging.cache.get(key);
      if (kept) {
        this.cached++;
        return { verdict: kept.verdict };
      }
    }
    this.calls++;
    let reply: Message & { requestId?: string };
    try {
      reply = await judging.call(body, signal);
    } catch (e) {
      const requestId = (e as { requestId?: unknown }).requestId;
      return { error: errorOf(e, signal, typeof requestId === 'string' ? requestId : undefined) };
    }
    const call = { usage: reply.usage, model };
    const parsed = parseVerdict(reply);
    const id = reply.requestId ? { requestId: reply.requestId } : {};
    if ('problem' in parsed) return { error: { type: 'malformed_verdict', message: parsed.problem, ...id }, call };
    await judging.cache?.set(key, {
      verdict: parsed.verdict,
      model,
      usage: reply.usage,
      ...id,
      savedAt: new Date().toISOString(),
    });
    return { verdict: parsed.verdict, call };
  }
}

/** A sample's cost: its usage priced on the cell's model; fast mode has no price in the table. */
function sampleCost(cell: RunCell, outcome: Outcome, ctx: SettleContext): Cost {
  // a request that failed before its reply began was not billed
  if (!outcome.usage && outcome.error) return { usd: 0 };
  if (cell.body.speed === 'fast') return { usd: null, why: 'fast mode has prices of its own, not in the table' };
  return costOf(outcome.usage, cell.model, ctx.prices, { batch: ctx.batch });
}

/** Settles one sample: its cost, the judge's verdicts on its rubrics, then every assertion in order. */
async function settleSample(
  cell: RunCell,
  outcome: Outcome,
  ctx: SettleContext,
  grader: Grader,
  signal: AbortSignal,
): Promise<SampleResult> {
  const cost = sampleCost(cell, outcome, ctx);
  const costFields = { costUsd: cost.usd, ...(cost.usd === null ? { costNote: cost.why } : {}) };
  if (outcome.error?.type === 'aborted')
    return { status: 'cancelled', pass: false, assertions: [], outcome, ...costFields };
  // a batch that expired before it reached the request: nothing to judge, and not a failure of the reply
  if (outcome.error?.type === EXPIRED)
    return { status: 'expired', pass: false, assertions: [], outcome, ...costFields };
  const graded = new Map<number, AssertionResult>();
  const calls: { usage: Usage; model: string }[] = [];
  if (!outcome.error) {
    const parts = { reply: outcome.text, input: lastUserTurn(cell.body) };
    await Promise.all(
      cell.assertions.map(async (a, i) => {
        if (!('rubric' in a)) return;
        const { result, call } = await grader.grade(rubricOf(a.rubric), cell.judge, parts, signal);
        graded.set(i, result);
        if (call) calls.push(call);
      }),
    );
  }
  const assertions = evaluate(cell.assertions, outcome, { cost, graded: i => graded.get(i) });
  // a loop that max-turns cut short fails its cell, whatever else held
  if (outcome.loopLimit && !outcome.error && !cell.assertions.some(a => 'max-turns' in a))
    assertions.push({ type: 'max-turns', pass: false, message: outcome.loopLimit });
  const error = !!outcome.error || assertions.some(a => a.error);
  const pass = !error && assertions.every(a => a.pass);
  const grade = ctx.gradeOf?.(cell, outcome.text);
  const judge = judgeUsage(cell, calls, ctx, assertions);
  return {
    status: error ? 'error' : pass ? 'passed' : 'failed',
    pass,
    assertions,
    outcome,
    ...costFields,
    ...(judge ? { judge } : {}),
    ...(grade ? { humanGrade: grade } : {}),
  };
}

/** The judge's calls for one sample, summed; undefined when the cell has no rubric. */
function judgeUsage(
  cell: RunCell,
  calls: readonly { usage: Usage; model: string }[],
  ctx: SettleContext,
  assertions: readonly AssertionResult[],
): JudgeUsage | undefined {
  if (!assertions.some(a => a.type === 'rubric')) return undefined;
  const costs = calls.map(c => costOf(c.usage, c.model, ctx.prices));
  const unknown = costs.find(c => c.usd === null);
  return {
    calls: calls.length,
    inputTokens: calls.reduce((n, c) => n + (c.usage.input_tokens ?? 0), 0),
    outputTokens: calls.reduce((n, c) => n + (c.usage.output_tokens ?? 0), 0),
    costUsd: sumCosts(costs.map(c => c.usd)),
    ...(unknown && unknown.usd === null ? { costNote: unknown.why } : {}),
  };
}

/** The error type of a request whose Message Batch expired before processing it (a transport's outcome). */
export const EXPIRED = 'expired';

const CANCELLED: SampleResult = {
  status: 'cancelled',
  pass: false,
  assertions: [],
  outcome: { text: '', error: { type: 'aborted', message: 'Cancelled.' } },
  costUsd: 0,
};

/**
 * A cell from its samples (a sample never run is cancelled): it passes when at least `minPass` samples pass;
 * otherwise it is cancelled when samples were cancelled, failed when a sample failed an assertion, expired when
 * its batch expired before samples ran, an error when a sample's request or assertion could not be done, and
 * skipped when only samples the run did not send kept it from passing. Its top-level assertions and outcome are
 * its first sample's.
 */
export function settleCell(
  cell: CellKey & { repeat: number; minPass: number },
  samples: readonly (SampleResult | undefined)[],
): CellResult {
  const all = Array.from({ length: Math.max(1, cell.repeat) }, (_, i) => samples[i] ?? CANCELLED);
  const passed = all.filter(s => s.pass).length;
  const finished = all.filter(s => s.status !== 'cancelled' && s.status !== 'expired' && s.status !== 'skipped');
  const any = (status: SampleResult['status']) => all.some(s => s.status === status);
  const status: CellResult['status'] =
    passed >= cell.minPass
      ? 'passed'
      : any('cancelled')
        ? 'cancelled'
        : any('failed')
          ? 'failed'
          : any('expired')
            ? 'expired'
            : any('skipped') && !any('error')
              ? 'skipped'
              : 'error';
  const judged = all.filter(s => s.judge);
  const first = all[0]!;
  return {
    caseName: cell.caseName,
    model: cell.model,
    status,
    pass: status === 'passed',
    assertions: first.assertions,
    outcome: first.outcome,
    samples: all,
    passedSamples: passed,
    minPass: cell.minPass,
    flaky: passed > 0 && passed < finished.length,
    costUsd: sumCosts(all.map(s => s.costUsd)),
    ...(judged.length ? { judgeCostUsd: sumCosts(judged.map(s => s.judge!.costUsd)) } : {}),
  };
}

// ---- the run -------------------------------------------------------------------------------------------------

/** What changed in a cell, as `runCells` reports it. */
export type CellUpdate =
  /** its first sample's request went out: the cell runs */
  | { kind: 'started' }
  /** an event of one sample's reply (the cell's live text is its first sample's) */
  | { kind: 'event'; sample: number; ev: StreamEvent }
  /** a sample settled */
  | { kind: 'sample'; sample: number; result: SampleResult }
  /** every sample has settled: the cell's verdict */
  | { kind: 'ended' };

export interface RunCellsOptions<C extends RunCell> extends SettleContext {
  cells: readonly C[];
  transport: Transport;
  /** stop sending at the first cell that does not pass (the cells in flight finish; the rest are skipped) */
  failFast?: boolean;
  /** cancels the run: queued samples never start, running ones are aborted */
  signal?: AbortSignal;
  /** a cell changed; `r` is its live result (its text grows with its first sample's), `index` its place */
  onUpdate?: (r: CellResult, update: CellUpdate, index: number) => void;
}

/** What a run did: each cell's result, in the order of `cells`; the judge requests it sent, and verdicts it reused. */
export interface RunOutcome {
  results: CellResult[];
  judgeCalls: number;
  judgeCached: number;
  /** why the run stopped before sending everything (a refused key, fail fast), with the error that stopped it */
  stopped?: Stop;
  /** the models whose columns stopped (the service does not know them), each with its error */
  stoppedModels?: Map<string, Stop>;
}

/** Why a run, or a model's column, stopped: what happened, and the service's error when that was it. */
interface Stop {
  kind: 'refused-key' | 'model-not-found' | 'fail-fast';
  error?: OutcomeError;
}

/** The service refused the key: every request of the run would be refused alike. */
const REFUSED_KEY = new Set(['authentication_error', 'permission_error']);

/** What a skipped sample says, by why its run stopped. */
function skippedBecause(stop: Stop, model: string): string {
  if (stop.kind === 'refused-key')
    return `Not sent: the run stopped when the service refused the key (${stop.error?.type ?? 'refused'}).`;
  if (stop.kind === 'model-not-found')
    return `Not sent: the service does not know ${model} (not_found_error): its column stopped.`;
  return 'Not sent: the run stopped at the first cell that did not pass (fail fast).';
}

/** A sample the run did not send, and why. */
function skippedSample(stop: Stop, model: string): SampleResult {
  return {
    status: 'skipped',
    pass: false,
    assertions: [],
    outcome: { text: '', error: { type: 'skipped', message: skippedBecause(stop, model) } },
    costUsd: 0,
  };
}

/** Runs every sample of every cell through the transport and settles them. Never throws. */
export async function runCells<C extends RunCell>(o: RunCellsOptions<C>): Promise<RunOutcome> {
  // the run's own signal, which every request and judge call of the run listens to (many at once: no limit),
  // aborted with the caller's
  const ctl = new AbortController();
  setMaxListeners(0, ctl.signal);
  const abort = () => ctl.abort();
  if (o.signal?.aborted) abort();
  o.signal?.addEventListener('abort', abort, { once: true });
  const signal = ctl.signal;
  const grader = new Grader(o.judging);
  const samples: (SampleResult | undefined)[][] = o.cells.map(() => []);
  const settledCount = o.cells.map(() => 0);
  const results: CellResult[] = o.cells.map(c => ({
    caseName: c.caseName,
    model: c.model,
    status: 'queued',
    pass: false,
    assertions: [],
    outcome: { text: '' },
  }));
  let stopped: Stop | undefined;
  const stoppedModels = new Map<string, Stop>();
  /** the samples not sent because the run, or their column, had stopped */
  const skipped: (Stop | undefined)[][] = o.cells.map(() => []);
  const end = (i: number) => {
    const cell = o.cells[i]!;
    const all = samples[i]!.slice();
    skipped[i]!.forEach((stop, s) => {
      if (stop) all[s] ??= skippedSample(stop, cell.model);
    });
    results[i] = settleCell(cell, all);
    o.onUpdate?.(results[i], { kind: 'ended' }, i);
    // fail fast: the first cell that did not pass (and was not itself stopped) stops the rest
    const r = results[i];
    if (o.failFast && !stopped && (r.status === 'failed' || r.status === 'error')) stopped = { kind: 'fail-fast' };
  };
  /** A cell ends once each of its samples has settled or was not sent. */
  const endWhenAccounted = (i: number) => {
    const notSent = skipped[i]!.filter(Boolean).length;
    if (settledCount[i]! + notSent === Math.max(1, o.cells[i]!.repeat)) end(i);
  };
  /** What a sample's failed request says of the others: a refused key stops all; an unknown model, its column. */
  const stopsOthers = (cell: RunCell, outcome: Outcome) => {
    const error = outcome.error;
    if (!error) return;
    if (REFUSED_KEY.has(error.type)) stopped ??= { kind: 'refused-key', error };
    else if (error.type === 'not_found_error' && !stoppedModels.has(cell.model))
      stoppedModels.set(cell.model, { kind: 'model-not-found', error });
  };
  const handlers: TransportHandlers = {
    shouldSend(job) {
      const stop = stopped ?? stoppedModels.get(o.cells[job.cell]!.model);
      if (!stop) return true;
      skipped[job.cell]![job.sample] = stop;
      endWhenAccounted(job.cell);
      return false;
    },
    started(job) {
      const r = results[job.cell]!;
      if (r.status !== 'queued') return;
      r.status = 'running';
      o.onUpdate?.(r, { kind: 'started' }, job.cell);
    },
    event(job, ev) {
      const r = results[job.cell]!;
      if (r.status !== 'running') return;
      // a loop's next turn: the live text is the turn's own
      if (job.sample === 0 && ev.type === 'message_start') r.outcome.text = '';
      if (job.sample === 0 && ev.type === 'content_block_delta' && ev.delta.type === 'text_delta')
        r.outcome.text += ev.delta.text;
      o.onUpdate?.(r, { kind: 'event', sample: job.sample, ev }, job.cell);
    },
    async done(job, outcome) {
      const cell = o.cells[job.cell]!;
      let result: SampleResult;
      try {
        result = await settleSample(cell, outcome, o, grader, signal);
      } catch (e) {
        const error = { type: 'internal_error', message: e instanceof Error ? e.message : String(e) };
        result = { status: 'error', pass: false, assertions: [], outcome: { ...outcome, error }, costUsd: null };
      }
      samples[job.cell]![job.sample] = result;
      stopsOthers(cell, outcome);
      const r = results[job.cell]!;
      if (job.sample === 0) r.outcome = result.outcome;
      o.onUpdate?.(r, { kind: 'sample', sample: job.sample, result }, job.cell);
      settledCount[job.cell]!++;
      endWhenAccounted(job.cell);
    },
  };
  try {
    await o.transport.send(sampleJobs(o.cells), handlers, signal);
  } catch (e) {
    // a transport that failed as a whole: what it did not settle ends as an error of every sample left
    const error = { type: 'internal_error', message: e instanceof Error ? e.message : String(e) };
    o.cells.forEach((c, i) => {
      for (let s = 0; s < c.repeat; s++)
        samples[i]![s] ??= { ...CANCELLED, status: 'error', outcome: { text: '', error } };
    });
  }
  o.signal?.removeEventListener('abort', abort);
  o.cells.forEach((c, i) => {
    const done = results[i]!.status !== 'queued' && results[i]!.status !== 'running';
    if (!done) end(i);
  });
  return {
    results,
    judgeCalls: grader.calls,
    judgeCached: grader.cached,
    ...(stopped ? { stopped } : {}),
    ...(stoppedModels.size ? { stoppedModels } : {}),
  };
}
