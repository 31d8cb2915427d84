// How much of the service's answers is read, at most. A service (or anything at the address the user set) may
// send without end: a body that never closes, an event stream whose line never ends, a batch's results line of
// gigabytes, an error page that goes on. Each read stops at its limit with a clear error (`response_too_large`),
// and the connection is closed: never an out-of-memory crash of the CLI or the editor. The limits are set from
// what the service sends, with room to spare:
//
// - the largest reply is 300,000 output tokens (the `max_tokens` a Message Batch may ask with the beta
//   output-300k-2026-03-24; doc1 §8). As JSON, text and thinking take well under 100 bytes a token, escapes
//   included: about 30 MB. Citations' `cited_text` and server tools' results (a fetched PDF's base64) are not
//   counted as output tokens; a request, and so what it can quote, is at most 32 MB. One message as JSON, one line
//   of a batch's results (`{custom_id, result: {message}}`) and one event of a stream: 64 MiB.
// - a streamed reply adds its events' framing, about 100 bytes a delta, and a delta can carry a single token:
//   30 MB more for 300,000 of them. The whole event stream of one reply: 256 MiB.
// - any other JSON answer is a page of at most 1,000 records (the `limit` of every list; doc2 §4.2, doc3 §8), a
//   batch, a model, a count: 16 MiB.
// - an error body is `{type, error: {type, message}, request_id}`: 1 MiB, of which the message shows the start.

const MiB = 1024 * 1024;

export interface ReadLimits {
  /** bytes of a JSON answer that is not a message (a page, a batch, a model, a count) */
  json: number;
  /** bytes of a message as JSON, and characters of one line of a batch's results or of an event stream */
  message: number;
  /** bytes of the whole event stream of one reply */
  stream: number;
  /** bytes of an error's body */
  error: number;
}

export const READ_LIMITS: Readonly<ReadLimits> = {
  json: 16 * MiB,
  message: 64 * MiB,
  stream: 256 * MiB,
  error: 1 * MiB,
};

/** "64 MiB", "1.5 KiB", "300 bytes": a limit as the messages say it. */
export function sizeText(bytes: number): string {
  if (bytes >= MiB) return `${+(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** A line (of an event stream, of JSON Lines) longer than its limit: reading stopped there. */
export class LineTooLong extends Error {
  override name = 'LineTooLong';
  constructor(
    readonly what: string,
    readonly limit: number,
  ) {
    super(LineTooLong.say(what, limit));
  }

  /** The message, with how far the answer got (`after 12 events`) when that is known. */
  static say(what: string, limit: number, after?: string): string {
    return (
      `${what} is longer than ${sizeText(limit)}${after ? ` ${after}` : ''}, more than any answer of the service ` +
      'holds; reading stopped there and the connection was closed.'
    );
  }
}

/**
 * The text of a body, read a chunk at a time up to `limit` bytes. Past it, the rest is not read (the body is
 * cancelled, its connection closed) and `over` says so; `text` is what came before.
 */
export async function readText(
  body: ReadableStream<Uint8Array>,
  limit: number,
): Promise<{ text: string; over: boolean }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let over = false;
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      bytes += r.value.byteLength;
      if (bytes > limit) {
        over = true;
        chunks.push(r.value.subarray(0, r.value.byteLength - (bytes - limit)));
        break;
      }
      chunks.push(r.value);
    }
  } finally {
    if (over) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return { text: Buffer.concat(chunks).toString('utf8'), over };
}
