// The cells of a case file and their requests: each case on each model, the request with the case's values
// filled in and the model set, checked by the request validator (a request with errors is never sent); and
// one request streamed, with what came. The run of many cells, their samples, the judge and the cost is the
// engine's (engine.ts).
import type { ApiClient } from '../api/client';
import { AbortedError, ApiError, ConfigError, ConnectionError, StreamError, TimeoutError } from '../api/errors';
import type { CallHooks } from '../api/http';
import type { MessageStream } from '../api/stream';
import type { Message, StreamEvent } from '../api/types';
import { pointer } from '../request/types';
import { validateText, type Endpoint } from '../request/validate';
import { replyText } from './assertions';
import { modelsOf } from './outline';
import { placeholderFiller, type Filler } from './placeholders';
import type { CaseFile, CellKey, Outcome, OutcomeError, TestCase } from './types';

/** The cells, row by row: each case on each model. Empty when no model is known at all. */
export function cellsOf(file: CaseFile, requestModel: string | undefined, modelsOverride?: string[]): CellKey[] {
  const models = modelsOf(file, requestModel, modelsOverride);
  return file.cases.flatMap(c => models.map(model => ({ caseName: c.name, model })));
}

/** Each case file's cases by name, made once a file: a suite of many rows finds each cell's case at once. */
const byName = new WeakMap<readonly TestCase[], Map<string, TestCase>>();

/** The case of a file that has this name (the first, when a file with errors has two). */
export function caseNamed(file: Pick<CaseFile, 'cases'>, name: string): TestCase | undefined {
  let map = byName.get(file.cases);
  if (!map) {
    map = new Map();
    for (const c of file.cases) if (!map.has(c.name)) map.set(c.name, c);
    byName.set(file.cases, map);
  }
  return map.get(name);
}

/** Samples per cell and how many must pass, as a run overrides them (the CLI's --repeat and --min-pass). */
export interface Sampling {
  repeat?: number;
  minPass?: number;
}

/**
 * A case file's samples per cell (an override, else its `repeat`, else 1) and how many must pass (an override,
 * else its `min-pass`, else all of them). A `min-pass` above the samples run is capped at them: a case file that
 * asks 4 of 5, run once, needs that one.
 */
export function samplingOf(file: Pick<CaseFile, 'repeat' | 'minPass'>, override: Sampling = {}): Required<Sampling> {
  const repeat = Math.max(1, override.repeat ?? file.repeat ?? 1);
  return { repeat, minPass: Math.min(repeat, Math.max(1, override.minPass ?? file.minPass ?? repeat)) };
}

/** Each request's filler, compiled at its first cell and kept while the request lives: a suite's cells share it. */
const fillers = new WeakMap<object, Filler>();

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
  const testCase = caseNamed(file, cell.caseName);
  if (!testCase) return { problems: [`The case file has no case named "${cell.caseName}".`] };
  if (requestValue === null || typeof requestValue !== 'object' || Array.isArray(requestValue))
    return { problems: ['The request file does not hold one object (the body of POST /v1/messages).'] };
  let fill = fillers.get(requestValue);
  if (!fill) fillers.set(requestValue, (fill = placeholderFiller(requestValue)));
  const { value, missing } = fill(testCase.vars ?? {});
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
 * measured from the request's send (its last attempt's) to the reply's last event: the time to the first token
 * is in it; the client's own waits before that send (pacing under the rate limit, retries and their backoff) are
 * `waitedMs`, apart, since the service had not been asked yet. It never throws: a failure, a cancel included, is
 * `outcome.error`, with what arrived before it.
 */
export async function runCell(
  client: ApiClient,
  body: Record<string, unknown>,
  o: { signal?: AbortSignal; onEvent?: (ev: StreamEvent) => void; now?: () => number; hooks?: CallHooks } = {},
): Promise<Outcome> {
  const now = o.now ?? (() => performance.now());
  const t0 = now();
  let sentAt: number | undefined;
  const timing = () => {
    const end = now();
    return { latencyMs: end - (sentAt ?? end), waitedMs: (sentAt ?? end) - t0 };
  };
  let stream: MessageStream | undefined;
  try {
    const onSend = () => (sentAt = now());
    stream = await client.streamMessage(body, { ...o.hooks, onSend, ...(o.signal ? { signal: o.signal } : {}) });
    for await (const ev of stream) o.onEvent?.(ev);
    return outcomeOf(stream.message, timing(), stream.requestId);
  } catch (e) {
    const partial = e instanceof StreamError ? e.partial : stream?.message;
    const requestId = e instanceof StreamError || e instanceof ApiError ? e.requestId : stream?.requestId;
    return { ...outcomeOf(partial, timing(), requestId), error: errorOf(e, o.signal, requestId) };
  }
}

function outcomeOf(
  message: Message | undefined,
  timing: { latencyMs: number; waitedMs: number },
  requestId: string | undefined,
): Outcome {
  return {
    ...(message ? { message, usage: message.usage, stopReason: message.stop_reason } : {}),
    text: replyText(message),
    ...timing,
    ...(requestId ? { requestId } : {}),
  };
}

/** A failure as a cell (or a judge) says it: the service's error.type, message and request-id, or ours. */
export function errorOf(e: unknown, signal: AbortSignal | undefined, requestId: string | undefined): OutcomeError {
  const id = requestId ? { requestId } : {};
  if (signal?.aborted || e instanceof AbortedError || (e instanceof StreamError && e.type === 'aborted'))
    return { type: 'aborted', message: 'Cancelled.', ...id };
  if (e instanceof ApiError || e instanceof StreamError) return { type: e.type, message: e.message, ...id };
  if (e instanceof TimeoutError) return { type: 'timeout', message: e.message, ...id };
  if (e instanceof ConnectionError) return { type: 'connection_error', message: e.message, ...id };
  if (e instanceof ConfigError) return { type: 'configuration_error', message: e.message, ...id };
  return { type: 'internal_error', message: e instanceof Error ? e.message : String(e), ...id };
}
