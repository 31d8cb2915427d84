// The compare runner: several versions of a request (columns: a model and a version each) sent at once,
// at most `concurrency` in flight, each streamed (a page shows them side by side as they come), each ending
// with what came (text, thinking, tool calls, stop_reason, usage, latency, request-id). A column whose body
// cannot be sent (its version has errors) is reported with its problems, not sent. It is the cases' matrix
// runner underneath (core/cases/runner.ts), so a cancel, a failed request and the retry rules behave the
// same in a comparison as in a case run.
import type { ApiClient } from '../api/client';
import type { StreamEvent } from '../api/types';
import { runCell, runMatrix } from '../cases/runner';
import type { CellKey, CellResult, Outcome } from '../cases/types';

/** One side of a comparison: the body it sends, or why it cannot be sent. */
export interface CompareColumn {
  body?: Record<string, unknown>;
  /** the problems that keep `body` from being sent (a version with errors) */
  problems?: readonly string[];
}

type ColumnStatus = 'queued' | 'running' | 'done' | 'error' | 'cancelled' | 'not-sent';

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

interface ColumnCell extends CellKey {
  index: number;
  body: Record<string, unknown>;
}

const STATUS: Record<CellResult['status'], ColumnStatus> = {
  queued: 'queued',
  running: 'running',
  passed: 'done',
  failed: 'done',
  error: 'error',
  cancelled: 'cancelled',
};

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
  const cells: ColumnCell[] = [];
  o.columns.forEach((c, index) => {
    if (c.body) cells.push({ caseName: String(index), model: '', index, body: c.body });
  });
  await runMatrix<ColumnCell>({
    cells,
    concurrency: o.concurrency,
    ...(o.signal ? { signal: o.signal } : {}),
    run: (cell, signal, onEvent) => o.send(o.columns[cell.index]!, cell.body, signal, onEvent),
    assertionsOf: () => [],
    onUpdate: (r, ev, i) => {
      const index = cells[i]!.index;
      if (ev) {
        results[index]!.outcome = r.outcome;
        o.onEvent?.(index, ev);
        return;
      }
      results[index] = { status: STATUS[r.status], outcome: r.outcome };
      o.onStatus?.(index, results[index]);
    },
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
