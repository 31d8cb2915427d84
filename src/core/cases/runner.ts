// The matrix runner: cells are a case file's cases × models; each cell is the request with the
// case's values filled in and the model set, checked by the request validator (a request with errors is
// never sent), streamed (a grid shows the text as it comes), and judged by the case's assertions. At most
// `concurrency` cells are in flight; the API client applies the spec's retry rules (429 retry-after, …)
// to each, so a modest limit keeps a run inside the rate limits.
import type { ApiClient } from '../api/client';
import { AbortedError, ApiError, ConfigError, ConnectionError, StreamError, TimeoutError } from '../api/errors';
import type { MessageStream } from '../api/stream';
import type { Message, StreamEvent } from '../api/types';
import { pointer } from '../request/types';
import { validateText, type Endpoint } from '../request/validate';
import { evaluate, replyText } from './assertions';
import { modelsOf } from './outline';
import { fillPlaceholders } from './placeholders';
import type { Assertion, CaseFile, CellKey, CellResult, Outcome } from './types';

/** After a cancel, how long a running cell may take to end with its own outcome (request-id, partial reply). */
const ABORT_GRACE_MS = 50;

/** The cells, row by row: each case on each model. Empty when no model is known at all. */
export function cellsOf(file: CaseFile, requestModel: string | undefined, modelsOverride?: string[]): CellKey[] {
  const models = modelsOf(file, requestModel, modelsOverride);
  return file.cases.flatMap(c => models.map(model => ({ caseName: c.name, model })));
}

/**
 * The body one cell sends: the request with the case's values filled in and `model` set, checked as a
 * request file is (for `endpoint`: count_tokens takes less). Any error, or a placeholder left without a
 * value, returns the problems instead.
 */
export function prepareCell(
  file: CaseFile,
  requestValue: unknown,
  cell: CellKey,
  o: { betas?: string[]; now?: Date; endpoint?: Endpoint } = {},
): { body: Record<string, unknown> } | { problems: string[] } {
  const testCase = file.cases.find(c => c.name === cell.caseName);
  if (!testCase) return { problems: [`The case file has no case named "${cell.caseName}".`] };
  if (requestValue === null || typeof requestValue !== 'object' || Array.isArray(requestValue))
    return { problems: ['The request file does not hold one object (the body of POST /v1/messages).'] };
  const { value, missing } = fillPlaceholders(requestValue, testCase.vars ?? {});
  if (missing.length) {
    return {
      problems: missing.map(n => `{{${n}}} has no value in case "${testCase.name}": it would be sent as written.`),
    };
  }
  const body = { ...(value as Record<string, unknown>), model: cell.model };
  const checked = validateText(JSON.stringify(body), 'json', {
    endpoint: o.endpoint ?? 'messages',
    ...(o.betas ? { betas: o.betas } : {}),
    ...(o.now ? { now: o.now } : {}),
  });
  const errors = checked.problems.filter(p => p.severity === 'error');
  if (errors.length) return { problems: errors.map(p => `${p.code} at ${pointer(p.path) || '/'}: ${p.message}`) };
  return { body };
}

/**
 * Sends one cell's body as a stream, hands every event to `onEvent`, and returns what came. Latency is
 * measured from the request to the reply's last event: the time to the first token is in it, and so are
 * the client's retries (and their waits) when the service asked for them, as a person waiting would see.
 * It never throws: a failure, a cancel included, is `outcome.error`, with what arrived before it.
 */
export async function runCell(
  client: ApiClient,
  body: Record<string, unknown>,
  o: { signal?: AbortSignal; onEvent?: (ev: StreamEvent) => void; now?: () => number } = {},
): Promise<Outcome> {
  const now = o.now ?? (() => performance.now());
  const t0 = now();
  let stream: MessageStream | undefined;
  try {
    stream = await client.streamMessage(body, o.signal ? { signal: o.signal } : {});
    for await (const ev of stream) o.onEvent?.(ev);
    return outcomeOf(stream.message, now() - t0, stream.requestId);
  } catch (e) {
    const partial = e instanceof StreamError ? e.partial : stream?.message;
    const requestId = e instanceof StreamError || e instanceof ApiError ? e.requestId : stream?.requestId;
    return { ...outcomeOf(partial, now() - t0, requestId), error: errorOf(e, o.signal, requestId) };
  }
}

function outcomeOf(message: Message | undefined, latencyMs: number, requestId: string | undefined): Outcome {
  return {
    ...(message ? { message, usage: message.usage, stopReason: message.stop_reason } : {}),
    text: replyText(message),
    latencyMs,
    ...(requestId ? { requestId } : {}),
  };
}

function errorOf(
  e: unknown,
  signal: AbortSignal | undefined,
  requestId: string | undefined,
): NonNullable<Outcome['error']> {
  const id = requestId ? { requestId } : {};
  if (signal?.aborted || e instanceof AbortedError || (e instanceof StreamError && e.type === 'aborted'))
    return { type: 'aborted', message: 'Cancelled.', ...id };
  if (e instanceof ApiError || e instanceof StreamError) return { type: e.type, message: e.message, ...id };
  if (e instanceof TimeoutError) return { type: 'timeout', message: e.message, ...id };
  if (e instanceof ConnectionError) return { type: 'connection_error', message: e.message, ...id };
  if (e instanceof ConfigError) return { type: 'configuration_error', message: e.message, ...id };
  return { type: 'internal_error', message: e instanceof Error ? e.message : String(e), ...id };
}

export interface MatrixOptions<C extends CellKey> {
  cells: readonly C[];
  /** most cells in flight at once (at least 1) */
  concurrency: number;
  /** cancels: queued cells are not started ('cancelled'), running ones are aborted */
  signal?: AbortSignal;
  /** runs one cell (runCell with its prepared body, usually); `onEvent` feeds the live text */
  run: (cell: C, signal: AbortSignal, onEvent: (ev: StreamEvent) => void) => Promise<Outcome>;
  assertionsOf: (cell: C) => Assertion[];
  /**
   * A cell changed: it started, an event arrived (`ev`, with `r.outcome.text` the text so far), or it ended.
   * `index` is the cell's place in `cells` (and in the results).
   */
  onUpdate?: (r: CellResult, ev: StreamEvent | undefined, index: number) => void;
}

/** Runs every cell, at most `concurrency` at once; the results are in the order of `cells`. Never throws. */
export async function runMatrix<C extends CellKey>(o: MatrixOptions<C>): Promise<CellResult[]> {
  const results: CellResult[] = o.cells.map(c => ({
    caseName: c.caseName,
    model: c.model,
    status: 'queued',
    pass: false,
    assertions: [],
    outcome: { text: '' },
  }));
  const signal = o.signal ?? new AbortController().signal;
  const limit = Math.max(1, Math.floor(o.concurrency) || 1);
  let next = 0;

  const runOne = async (i: number) => {
    const cell = o.cells[i]!;
    const r = results[i]!;
    let ended = false;
    r.status = 'running';
    o.onUpdate?.(r, undefined, i);
    const onEvent = (ev: StreamEvent) => {
      if (ended) return; // a run that ignored the cancel, still talking
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') r.outcome.text += ev.delta.text;
      o.onUpdate?.(r, ev, i);
    };
    let outcome: Outcome;
    try {
      outcome = await untilAborted(o.run(cell, signal, onEvent), signal, () => ({
        text: r.outcome.text,
        error: { type: 'aborted', message: 'Cancelled.' },
      }));
    } catch (e) {
      // one cell whose run threw fails alone; the others go on
      outcome = {
        text: r.outcome.text,
        error: { type: 'internal_error', message: e instanceof Error ? e.message : String(e) },
      };
    }
    ended = true;
    r.outcome = outcome;
    if (outcome.error?.type === 'aborted') {
      r.status = 'cancelled';
      r.assertions = [];
      r.pass = false;
    } else {
      r.assertions = evaluate(o.assertionsOf(cell), outcome);
      r.pass = !outcome.error && r.assertions.every(a => a.pass);
      r.status = outcome.error ? 'error' : r.pass ? 'passed' : 'failed';
    }
    o.onUpdate?.(r, undefined, i);
  };
  const worker = async () => {
    while (next < o.cells.length && !signal.aborted) await runOne(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, o.cells.length) }, worker));
  results.forEach((r, i) => {
    if (r.status !== 'queued') return;
    r.status = 'cancelled';
    o.onUpdate?.(r, undefined, i);
  });
  return results;
}

/**
 * The run's own outcome, or once cancelled and after a short grace (so a run that ends promptly keeps its
 * request-id and partial reply), `onAbort()`'s: a run that ignores its signal cannot hold the matrix up.
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
