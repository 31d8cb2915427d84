// The one message protocol between the extension and the response webview. Neither side imports
// `vscode` or the DOM here. The webview posts `ready` first; the extension posts nothing before that.
import type { Message, StreamEvent } from '../core/api/types';

import { finite, keptError, keptMessage, record, type ErrorInfo, type Ready } from './common';

export const RESPONSE_VIEW_TYPE = 'promptwright.response';

// The event and message shapes; the page draws them with the one reply renderer (webview/common/reply.ts),
// which builds the message with the accumulator the API client uses, so both sides agree exactly.
export type { Message, StreamEvent } from '../core/api/types';

interface Timings {
  /** ms from sending to the first content delta */
  firstTokenMs?: number;
  totalMs?: number;
}

type RunOutcome = 'running' | 'done' | 'error' | 'cancelled';

/** A tool call of a reply that stopped on tool_use, and the answer given to it, once there is one. */
export interface ToolCallView {
  id: string;
  name: string;
  input: unknown;
  /** the answer's text (Answer…, or Use Fixture's) */
  answer?: string;
  /** the answer goes as a tool_result with is_error */
  isError?: boolean;
  /** where a fixture's answer came from: `agent.cases.yaml (recorded)` */
  from?: string;
}

/** An earlier turn of a tool-use conversation (Continue): its reply and cost, and its calls with their answers. */
export interface TurnView {
  message: Message;
  calls: ToolCallView[];
  cost?: RunCost;
}

/** Everything the panel shows for one run; the webview keeps it (setState) so a reload restores it. */
export interface RunView {
  runId: number;
  file: string;
  model: string;
  startedAt: number;
  outcome: RunOutcome;
  /** what has arrived so far (a snapshot; later events build on it), or the final/partial message */
  message?: Message;
  error?: ErrorInfo;
  /** true when the error happened after the stream started (the partial reply stays) */
  midStream?: boolean;
  requestId?: string;
  /** where the request was sent (promptwright.baseUrl, or the offline demo's), as addressShown gives it */
  service?: string;
  timings: Timings;
  retry?: { inMs: number; attempt: number; maxAttempts: number; error: ErrorInfo; at: number };
  /** what the reply cost once it ended (US dollars; null: no price for the model, `why` says so) */
  cost?: RunCost;
  /** the reply's tool calls, once it stopped on tool_use: each with its Answer… */
  calls?: ToolCallView[];
  /** the turns of the conversation before this reply, when Continue sent it */
  history?: TurnView[];
}

/** A run's cost, priced by the extension (core/cost): the page only shows it. */
interface RunCost {
  usd: number | null;
  why?: string;
}

export type ToResponseWebview =
  | { type: 'show'; view: RunView }
  | { type: 'events'; runId: number; events: StreamEvent[]; firstTokenMs?: number }
  | { type: 'retry'; runId: number; retry: NonNullable<RunView['retry']> }
  | {
      type: 'end';
      runId: number;
      outcome: Exclude<RunOutcome, 'running'>;
      /** only when the page was sent no events (a reply not streamed): otherwise it has the reply from them */
      message?: Message;
      error?: ErrorInfo;
      midStream?: boolean;
      requestId?: string;
      timings: Timings;
      cost?: RunCost;
    }
  | { type: 'calls'; runId: number; calls: ToolCallView[] }
  | { type: 'flash'; text: string };

/**
 * The page's links open in the browser; its actions are commands in the panel's title bar, but for a tool call's
 * Answer…, Use Fixture and Call MCP Server (the call's id), and Continue, Run to End and Append Conversation below
 * the calls.
 */
export type FromResponseWebview =
  | Ready
  | { type: 'open-link'; url: string }
  | { type: 'answer' | 'use-fixture' | 'call-mcp'; id: string }
  | { type: 'continue' | 'run-to-end' | 'append-conversation' };

/** Checks a message from the webview (it is untrusted input). */
export function parseFromResponseWebview(m: unknown): FromResponseWebview | undefined {
  if (!m || typeof m !== 'object') return undefined;
  const o = m as Record<string, unknown>;
  if (o.type === 'ready') return { type: 'ready' };
  if (o.type === 'open-link' && typeof o.url === 'string' && /^https?:\/\//i.test(o.url) && o.url.length < 4096)
    return { type: 'open-link', url: o.url };
  if (
    (o.type === 'answer' || o.type === 'use-fixture' || o.type === 'call-mcp') &&
    typeof o.id === 'string' &&
    o.id.length < 1024
  )
    return { type: o.type, id: o.id };
  if (o.type === 'continue' || o.type === 'run-to-end' || o.type === 'append-conversation') return { type: o.type };
  return undefined;
}

const OUTCOMES: readonly RunOutcome[] = ['running', 'done', 'error', 'cancelled'];

/**
 * The state a reloaded page hands back (what it saved with setState), or undefined when it is not a run's
 * view: the page shows nothing rather than a damaged reply. A reply or an error that is not one is dropped,
 * and so is a retry's countdown (it cannot go on after a reload).
 */
export function parseResponseWebviewState(raw: unknown): RunView | undefined {
  const o = record(raw);
  if (!o) return undefined;
  const runId = finite(o.runId);
  const startedAt = finite(o.startedAt);
  const outcome = OUTCOMES.find(x => x === o.outcome);
  if (runId === undefined || startedAt === undefined || !outcome) return undefined;
  if (typeof o.file !== 'string' || typeof o.model !== 'string') return undefined;
  const timings = record(o.timings) ?? {};
  const message = keptMessage<Message>(o.message);
  const error = keptError<ErrorInfo>(o.error);
  const cost = record(o.cost);
  return {
    runId,
    file: o.file,
    model: o.model,
    startedAt,
    outcome,
    timings: { firstTokenMs: finite(timings.firstTokenMs), totalMs: finite(timings.totalMs) },
    ...(message ? { message } : {}),
    ...(error ? { error, midStream: o.midStream === true } : {}),
    ...(typeof o.requestId === 'string' ? { requestId: o.requestId } : {}),
    ...(typeof o.service === 'string' ? { service: o.service } : {}),
    ...(cost && (cost.usd === null || finite(cost.usd) !== undefined)
      ? { cost: { usd: cost.usd as number | null, ...(typeof cost.why === 'string' ? { why: cost.why } : {}) } }
      : {}),
  };
}
