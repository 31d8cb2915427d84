// How the grid shows the core's results: a cell's view from its CellResult (live or read back from the results
// file). Pure code over plain values (no `vscode`).
import type { CellView, Change } from '../../casesProtocol';
import type { CellKey, CellResult } from '../../core/cases/types';

/** The error type of a cell whose filled request had errors, so nothing was sent (saved like any failure). */
export const NOT_SENT = 'not_sent';

/** The names of the tools a reply called (tool_use and server_tool_use blocks). */
export function toolCallsOf(r: CellResult): string[] {
  const names: string[] = [];
  for (const b of r.outcome.message?.content ?? [])
    if ((b.type === 'tool_use' || b.type === 'server_tool_use') && typeof b.name === 'string') names.push(b.name);
  return names;
}

/** A cell's view of a result; `problems` are the filled request's errors when nothing was sent. */
export function cellViewOf(r: CellResult, change?: Change, problems?: string[]): CellView {
  const o = r.outcome;
  const tools = toolCallsOf(r);
  const requestId = o.requestId ?? o.error?.requestId;
  return {
    caseName: r.caseName,
    model: r.model,
    status: r.status,
    text: o.text,
    assertions: r.assertions,
    // a cancelled cell's "error" is the cancel itself: its badge says so
    ...(problems?.length
      ? { problems }
      : o.error && o.error.type !== NOT_SENT && r.status !== 'cancelled'
        ? { error: { ...o.error } }
        : {}),
    ...(tools.length ? { toolCalls: tools } : {}),
    ...(o.usage?.input_tokens !== undefined ? { inputTokens: o.usage.input_tokens } : {}),
    ...(o.usage?.output_tokens !== undefined ? { outputTokens: o.usage.output_tokens } : {}),
    ...(o.stopReason !== undefined ? { stopReason: o.stopReason } : {}),
    ...(o.latencyMs !== undefined ? { latencyMs: Math.round(o.latencyMs) } : {}),
    ...(requestId ? { requestId } : {}),
    ...(change ? { change } : {}),
  };
}

/** A cell that has not run (yet). */
export function queuedCell(cell: CellKey): CellView {
  return { caseName: cell.caseName, model: cell.model, status: 'queued', text: '', assertions: [] };
}

/** The result kept for a cell whose filled request had errors: a failure, saved and compared like one. */
export function notSentResult(cell: CellKey, problems: string[]): CellResult {
  return {
    caseName: cell.caseName,
    model: cell.model,
    status: 'error',
    pass: false,
    assertions: [],
    outcome: { text: '', error: { type: NOT_SENT, message: `The filled request has errors: ${problems.join('; ')}` } },
  };
}

/** The problems of a not-sent result read back from the results file. */
export function problemsOf(r: CellResult): string[] | undefined {
  const e = r.outcome.error;
  if (e?.type !== NOT_SENT) return undefined;
  return [e.message.replace(/^The filled request has errors: /, '')];
}
