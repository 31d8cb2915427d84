// JSON Lines read as they arrive (a Message Batch's results: one JSON object a line, possibly tens of
// megabytes): bytes are decoded as a stream (a character split across two chunks is kept whole), and only the
// line being read is held, never the whole body. A line may arrive in many chunks and a chunk may hold many
// lines; a newline is looked for only in the new chunk, so a long line in small chunks costs no rescans.
// When the consumer stops early, the body is cancelled (its connection closed).
import { LineTooLong, READ_LIMITS } from './limits';

/** A line of the body, with its number (1-based; blank lines are counted but not handed out). */
export interface Line {
  n: number;
  text: string;
}

/**
 * The lines of a body, in order; `onBytes` is called as each chunk arrives (to restart an idle timer). A line longer
 * than `maxLine` characters throws LineTooLong: one without end would be held whole.
 */
export async function* readLines(
  body: ReadableStream<Uint8Array>,
  onBytes?: () => void,
  maxLine = READ_LIMITS.message,
): AsyncGenerator<Line> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  // the start of the current line, in the pieces it came in
  let pending: string[] = [];
  let pendingChars = 0;
  let n = 0;
  const line = (tail: string): Line | undefined => {
    n++;
    if (pendingChars + tail.length > maxLine) throw new LineTooLong(`Line ${n} of the answer`, maxLine);
    let text = pending.length ? pending.join('') + tail : tail;
    pending = [];
    pendingChars = 0;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return text.trim() ? { n, text } : undefined;
  };
  let finished = false;
  try {
    for (;;) {
      const r = await reader.read();
      const chunk = r.done ? decoder.decode() : decoder.decode(r.value, { stream: true });
      if (!r.done) onBytes?.();
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
        const l = line(chunk.slice(start, nl));
        start = nl + 1;
        if (l) yield l;
      }
      if (start < chunk.length) {
        pendingChars += chunk.length - start;
        if (pendingChars > maxLine) throw new LineTooLong(`Line ${n + 1} of the answer`, maxLine);
        pending.push(chunk.slice(start));
      }
      if (r.done) {
        finished = true;
        if (pending.length) {
          const l = line('');
          if (l) yield l;
        }
        return;
      }
    }
  } finally {
    // a consumer that stopped early (or a failure): the rest of the body is not wanted
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** A line that is not JSON: where it is and the start of what it says. */
export interface MalformedLine {
  n: number;
  problem: string;
}

/** The JSON values of a body's lines; a line that is not JSON is handed to `onMalformed` and skipped. */
export async function* readJsonLines(
  body: ReadableStream<Uint8Array>,
  o: { onBytes?: () => void; onMalformed?: (m: MalformedLine) => void; maxLine?: number } = {},
): AsyncGenerator<unknown> {
  for await (const l of readLines(body, o.onBytes, o.maxLine)) {
    let value: unknown;
    try {
      value = JSON.parse(l.text);
    } catch (e) {
      const start = l.text.length > 80 ? `${l.text.slice(0, 80)}…` : l.text;
      o.onMalformed?.({ n: l.n, problem: `line ${l.n} is not JSON (${(e as Error).message}): ${start}` });
      continue;
    }
    yield value;
  }
}
