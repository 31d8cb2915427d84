// Cells that run a tool-use loop (a case file, or a case, with `tools:`): the direct transport's send wrapped so
// that a loop cell's sample sends, answers the calls and sends again (core/tools/loop.ts) until the model stops
// calling tools, and its outcome is the loop's: the last reply, the turns' usage and time summed, every call.
import { replyText } from './assertions';
import type { SendJob } from './engine';
import type { RunCell } from './engine';
import type { Outcome } from './types';
import type { LiveBackends } from '../tools/answers';
import { runToolLoop, sumUsage, ToolLoop, type LoopResult } from '../tools/loop';

/**
 * A loop's outcome as a cell's: the last reply's message, text and stop reason; usage summed; every call. Its time
 * is the whole loop's (none for a batch run's, whose turns waited in batches).
 */
export function loopOutcome(r: LoopResult, latencyMs?: number): Outcome {
  const last = r.last;
  const usage = sumUsage(r.turns.map(t => t.usage));
  const error = last.error ?? r.error;
  return {
    ...(last.message ? { message: last.message } : {}),
    text: replyText(last.message),
    ...(usage ? { usage } : {}),
    ...(last.stopReason !== undefined ? { stopReason: last.stopReason } : {}),
    ...(latencyMs !== undefined ? { latencyMs } : {}),
    ...(last.requestId ? { requestId: last.requestId } : {}),
    ...(error ? { error } : {}),
    turns: r.turns.length,
    turnRecords: r.turns,
    toolCalls: r.calls,
    ...(r.limit ? { loopLimit: r.limit } : {}),
  };
}

/**
 * A send for the direct transport that runs each loop cell's sample as a loop (`live`: the run's MCP servers,
 * simulating model and recorder, for that cell); other cells' samples go through `send` as they are.
 */
export function withToolLoops(
  cells: readonly RunCell[],
  send: SendJob,
  live: (cell: RunCell) => LiveBackends = () => ({}),
  now: () => number = () => performance.now(),
): SendJob {
  return async (job, signal, onEvent) => {
    const cell = cells[job.cell];
    if (!cell?.tools) return send(job, signal, onEvent);
    const t0 = now();
    const loop = new ToolLoop(job.body, cell.tools, live(cell));
    const result = await runToolLoop(loop, body => send({ ...job, body }, signal, onEvent), signal);
    return loopOutcome(result, now() - t0);
  };
}
