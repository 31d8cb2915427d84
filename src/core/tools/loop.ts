// The tool-use loop, the one the CLI's `test`, the Cases grid, the Test Explorer and the response panel's Run to
// End share: send; while the reply stops on `tool_use`, answer every call of that turn in one user message of
// `tool_result` blocks (in the calls' order, each with its `tool_use_id`, `is_error` when the answer says so),
// and send again; any other stop reason ends it. `max-turns` model requests at most.
//
// `ToolLoop` is the loop's state without its transport: `body` is what to send next, `advance` takes the reply
// to it and answers its calls. The direct transport drives it a turn at a time (`runToolLoop`); a Message
// Batches run drives every cell's loop a round at a time, keeping each loop's `state()` between rounds. Nothing
// here sends a request itself.
import type { Message, Usage } from '../api/types';
import { count } from '../text';
import {
  answerCall,
  answerText,
  callLabel,
  NoAnswer,
  type AnswerSource,
  type CellTools,
  type LiveBackends,
  type ToolCall,
  type ToolResultContent,
} from './answers';

/** One call of a loop, answered: what the model asked, what it was told, and where that came from. */
export interface ToolCallRecord {
  id: string;
  name: string;
  input: unknown;
  result: ToolResultContent;
  isError: boolean;
  source: AnswerSource;
  /** the model request that made it, from 1 */
  turn: number;
}

/**
 * A loop's trajectory in words, for the CLI's text output and JUnit and the grid's detail: the model requests
 * made, then each call answered, with where its answer came from and its first characters
 * (`  turn 1: lookup_order {"order_id":"1234"} → file: {"status":"shipped"}`).
 */
export function trajectoryLines(o: { turns?: number; toolCalls?: readonly ToolCallRecord[] }): string[] {
  if (o.turns === undefined) return [];
  const calls = o.toolCalls ?? [];
  const lines = [`${count(o.turns, 'model request')}, ${count(calls.length, 'tool call')}`];
  for (const c of calls) {
    const flat = answerText(c.result).replace(/\s+/g, ' ');
    const shown = flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
    lines.push(`  turn ${c.turn}: ${callLabel(c)} → ${c.source}${c.isError ? ' (is_error)' : ''}: ${shown}`);
  }
  return lines;
}

/** One model request of a loop: what it used and how it ended. */
export interface TurnRecord {
  usage?: Usage;
  stopReason?: string | null;
  latencyMs?: number;
  requestId?: string;
}

/** What one model request produced, as a transport hands it back (a case's Outcome is one). */
export interface TurnReply {
  message?: Message;
  usage?: Usage;
  stopReason?: string | null;
  latencyMs?: number;
  requestId?: string;
  error?: { type: string; message: string; requestId?: string };
}

/**
 * What `advance` decided: `continue` (the calls are answered: send `body` again), `done` (the reply stopped on
 * anything but tool_use, or failed), `limit` (max-turns requests made and the model still calls tools), or
 * `error` (a call got no answer: nothing more is sent).
 */
export type LoopStep =
  | { kind: 'continue' }
  | { kind: 'done' }
  | { kind: 'limit'; message: string }
  | { kind: 'error'; error: { type: string; message: string } };

/** The tool_use blocks of a reply, in order. */
function toolCallsOf(message: Message | undefined): ToolCall[] {
  return (message?.content ?? [])
    .filter(b => b.type === 'tool_use')
    .map(b => ({ id: String(b.id), name: String(b.name), input: b.input ?? {} }));
}

/** A reply's content as the next request sends it back: without what only a stream's accumulation kept. */
const assistantContent = (m: Message) => m.content.map(({ partial_json: _p, ...b }) => b);

/** Usages added up: every token count summed, the other fields the last turn's. */
export function sumUsage(usages: readonly (Usage | undefined)[]): Usage | undefined {
  const known = usages.filter((u): u is Usage => !!u);
  if (!known.length) return undefined;
  const sum = (k: 'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens') =>
    known.some(u => typeof u[k] === 'number') ? known.reduce((n, u) => n + (u[k] ?? 0), 0) : undefined;
  const out: Usage = { ...known[known.length - 1]! };
  for (const k of [
    'input_tokens',
    'output_tokens',
    'cache_creation_input_tokens',
    'cache_read_input_tokens',
  ] as const) {
    const n = sum(k);
    if (n !== undefined) out[k] = n;
  }
  return out;
}

/** What a loop has done so far, as JSON (kept on disk between the rounds of a batch run): enough to go on. */
export interface LoopState {
  /** the messages the loop added to the first request's (each turn's reply and its tool results) */
  added: unknown[];
  turns: TurnRecord[];
  calls: ToolCallRecord[];
}

const messagesOf = (body: Record<string, unknown>) =>
  Array.isArray(body.messages) ? (body.messages as unknown[]) : [];

export class ToolLoop {
  /** the request the next turn sends */
  body: Record<string, unknown>;
  readonly calls: ToolCallRecord[] = [];
  readonly turns: TurnRecord[] = [];
  /** the last reply */
  last: TurnReply | undefined;
  private readonly first: number;

  constructor(
    body: Record<string, unknown>,
    private readonly tools: CellTools,
    private readonly live: LiveBackends,
    from?: LoopState,
  ) {
    this.first = messagesOf(body).length;
    this.body = from ? { ...body, messages: [...messagesOf(body), ...from.added] } : body;
    if (from) {
      this.turns.push(...from.turns);
      this.calls.push(...from.calls);
    }
  }

  /** What the loop has done so far, to go on from with `new ToolLoop(body, tools, live, state)`. */
  state(): LoopState {
    return { added: messagesOf(this.body).slice(this.first), turns: this.turns, calls: this.calls };
  }

  get maxTurns(): number {
    return this.tools.maxTurns;
  }

  /** Takes the reply to `body`; when it stops on tool_use, answers each of its calls and makes the next body. */
  async advance(reply: TurnReply, signal: AbortSignal): Promise<LoopStep> {
    this.last = reply;
    this.turns.push({
      ...(reply.usage ? { usage: reply.usage } : {}),
      ...(reply.stopReason !== undefined ? { stopReason: reply.stopReason } : {}),
      ...(reply.latencyMs !== undefined ? { latencyMs: reply.latencyMs } : {}),
      ...(reply.requestId ? { requestId: reply.requestId } : {}),
    });
    const message = reply.message;
    if (reply.error || !message || message.stop_reason !== 'tool_use') return { kind: 'done' };
    const calls = toolCallsOf(message);
    if (!calls.length) return { kind: 'done' };
    if (this.turns.length >= this.tools.maxTurns) return { kind: 'limit', message: this.limitMessage(calls) };
    const turn = this.turns.length;
    const results: Record<string, unknown>[] = [];
    for (const call of calls) {
      let answer;
      try {
        answer = await answerCall(this.tools, this.live, call, signal);
      } catch (e) {
        if (e instanceof NoAnswer) return { kind: 'error', error: { type: e.type, message: e.message } };
        if (signal.aborted) return { kind: 'error', error: { type: 'aborted', message: 'Cancelled.' } };
        const why = e instanceof Error ? e.message : String(e);
        return { kind: 'error', error: { type: 'tool_error', message: `${callLabel(call)}: ${why}` } };
      }
      this.calls.push({ ...call, result: answer.content, isError: answer.isError, source: answer.source, turn });
      results.push({
        type: 'tool_result',
        tool_use_id: call.id,
        content: answer.content,
        ...(answer.isError ? { is_error: true } : {}),
      });
    }
    this.body = {
      ...this.body,
      messages: [
        ...messagesOf(this.body),
        { role: 'assistant', content: assistantContent(message) },
        { role: 'user', content: results },
      ],
    };
    return { kind: 'continue' };
  }

  /**
   * Why max-turns ended the loop, and what to do: the calls still asked for, and when the model asked the same
   * call every turn, that it is going round in circles.
   */
  private limitMessage(pending: readonly ToolCall[]): string {
    const n = this.tools.maxTurns;
    const asked = pending.map(callLabel).join(', ');
    const label = (c: { name: string; input: unknown }) => callLabel(c);
    const repeated =
      pending.length === 1 && this.calls.length > 0 && this.calls.every(c => label(c) === label(pending[0]!));
    const circle = repeated
      ? ` It asked the same call in every turn: read what its answer says (${this.calls[0]!.source}) and whether it ` +
        'tells the model what to do next.'
      : ' Raise max-turns if the task needs more turns.';
    return `max-turns ${n} reached: the model still calls tools after ${n} requests (${asked}).${circle}`;
  }
}

/** What a whole loop made: each turn, each answered call, and its end. */
export interface LoopResult {
  /** the last reply (a failure included) */
  last: TurnReply;
  turns: TurnRecord[];
  calls: ToolCallRecord[];
  /** max-turns ended it: why */
  limit?: string;
  /** a call got no answer: why (the cell's error) */
  error?: { type: string; message: string };
}

/**
 * Runs a loop to its end a turn at a time: `send` sends one body (streamed, with the client's retries) and
 * never throws. The last reply is the loop's reply.
 */
export async function runToolLoop(
  loop: ToolLoop,
  send: (body: Record<string, unknown>) => Promise<TurnReply>,
  signal: AbortSignal,
): Promise<LoopResult> {
  for (;;) {
    const reply = await send(loop.body);
    const step = await loop.advance(reply, signal);
    if (step.kind === 'continue' && !signal.aborted) continue;
    return {
      last: reply,
      turns: loop.turns,
      calls: loop.calls,
      ...(step.kind === 'limit' ? { limit: step.message } : {}),
      ...(step.kind === 'error' ? { error: step.error } : {}),
      ...(step.kind === 'continue' ? { error: { type: 'aborted', message: 'Cancelled.' } } : {}),
    };
  }
}
