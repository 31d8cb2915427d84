// The compare runner: several versions of a request (columns: a model and a version each) sent at once,
// at most `concurrency` in flight, each streamed (a page shows them side by side as they come), each ending
// with what came (text, thinking, tool calls, stop_reason, usage, latency, request-id). A column whose body
// cannot be sent (its version has errors) is reported with its problems, not sent. It sends through the case
// engine's direct transport (core/cases/engine.ts), so a cancel, a failed request and the retry rules behave
// the same in a comparison as in a case run.
import type { ApiClient } from '../api/client';
import type { StreamEvent } from '../api/types';
import { directTransport, type SampleJob } from '../cases/engine';
import { runCell } from '../cases/runner';
import type { Outcome } from '../cases/types';

/** One side of a comparison: the body it sends, or why it cannot be sent. */
export interface CompareColumn {
  body?: Record<string, unknown>;
  /** the problems that keep `body` from being sent (a version with errors) */
  problems?: readonly string[];
}

/** Where a column is: waiting for a place, streaming, ended, or never sent (its version has errors). */
export type ColumnStatus = 'queued' | 'running' | 'done' | 'error' | 'cancelled' | 'not-sent';

export interface ColumnResult {
  status: ColumnStatus;
  /** what came: the text so far while it runs, the whole reply (or the partial one and the error) at the end */
  outcome: Outcome;
  problems?: readonly string[];
}

export interface RunColumnsOptions<C extends CompareColumn> {
  columns: readonly C[];
  /** most columns in flight at once */
  concurrency: number;
  /** cancels every column: the running ones keep what arrived, the queued ones never start */
  signal?: AbortSignal;
  /** sends one column's body (`sendWith(client)` in the editor and the CLI) */
  send: (
    column: C,
    body: Record<string, unknown>,
    signal: AbortSignal,
    onEvent: (ev: StreamEvent) => void,
  ) => Promise<Outcome>;
  /** each stream event of a column, in order */
  onEvent?: (index: number, ev: StreamEvent) => void;
  /** a column started or ended */
  onStatus?: (index: number, result: ColumnResult) => void;
}

/** The usual `send`: the column's body streamed through the client (retries, idle timeout, cancel). */
export const sendWith =
  (client: ApiClient) =>
  (_column: unknown, body: Record<string, unknown>, signal: AbortSignal, onEvent: (ev: StreamEvent) => void) =>
    runCell(client, body, { signal, onEvent });

/** Runs every column that can be sent; the results are in the order of `columns`. Never throws. */
export async function runColumns<C extends CompareColumn>(o: RunColumnsOptions<C>): Promise<ColumnResult[]> {
  const results: ColumnResult[] = o.columns.map(c =>
    c.body
      ? { status: 'queued', outcome: { text: '' } }
      : { status: 'not-sent', outcome: { text: '' }, problems: c.problems ?? ['This version has no body to send.'] },
  );
  results.forEach((r, i) => {
    if (r.status === 'not-sent') o.onStatus?.(i, r);
  });
  // a job per column that can be sent, `cell` its column
  const jobs: SampleJob[] = [];
  o.columns.forEach((c, cell) => {
    if (c.body) jobs.push({ cell, sample: 0, body: c.body });
  });
  const signal = o.signal ?? new AbortController().signal;
  const transport = directTransport({
    concurrency: o.concurrency,
    send: (job, jobSignal, onEvent) => o.send(o.columns[job.cell]!, job.body, jobSignal, onEvent),
  });
  await transport.send(
    jobs,
    {
      started: job => {
        results[job.cell] = { status: 'running', outcome: { text: '' } };
        o.onStatus?.(job.cell, results[job.cell]!);
      },
      event: (job, ev) => {
        const outcome = results[job.cell]!.outcome;
        if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') outcome.text += ev.delta.text;
        o.onEvent?.(job.cell, ev);
      },
      done: (job, outcome) => {
        const e = outcome.error;
        const status = !e ? 'done' : e.type === 'aborted' ? 'cancelled' : 'error';
        results[job.cell] = { status, outcome };
        o.onStatus?.(job.cell, results[job.cell]!);
        return Promise.resolve();
      },
    },
    signal,
  );
  // a cancel before they started
  results.forEach((r, i) => {
    if (r.status !== 'queued') return;
    results[i] = { status: 'cancelled', outcome: r.outcome };
    o.onStatus?.(i, results[i]);
  });
  return results;
}

/** The tool calls of a reply, as comparable text: each call's name and input. */
function toolCalls(o: Outcome): string {
  return JSON.stringify(
    (o.message?.content ?? [])
      .filter(b => b.type === 'tool_use' || b.type === 'server_tool_use')
      .map(b => [b.name, b.input]),
  );
}

/**
 * What differs between two samples of the same column (Run again): the text, the tool calls, the stop
 * reason. Empty when the new sample says the same as the last.
 */
export function sampleDifferences(previous: Outcome, next: Outcome): string[] {
  const out: string[] = [];
  if (previous.text !== next.text) out.push('text');
  if (toolCalls(previous) !== toolCalls(next)) out.push('tool calls');
  const before = previous.stopReason ?? null;
  const after = next.stopReason ?? null;
  if (before !== after) out.push(`stop_reason (${before ?? 'none'} → ${after ?? 'none'})`);
  return out;
}
