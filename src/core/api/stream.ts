// A streamed reply (the SSE events of POST /v1/messages with `stream: true`): events are decoded as
// bytes arrive, the message is built as they come, and a failure keeps what arrived.
import { MessageAccumulator } from './accumulator';
import { AbortedError, afterReceived, StreamError, TimeoutError, type Received } from './errors';
import { mapNetworkError, networkDetail, type Raw } from './http';
import { SseDecoder } from './sse';
import type { Delta, Message, StreamEvent } from './types';

/** How long the end of a body may take after message_stop before the body is cancelled. */
const DRAIN_MS = 250;

/** A streamed reply: iterate its events; `message` is built as they arrive and kept when the stream fails. */
export class MessageStream implements AsyncIterable<StreamEvent> {
  readonly acc = new MessageAccumulator();
  readonly requestId: string | undefined;
  private consumed = false;
  /** frees the timer and the body; replaced by the iterator's own once iteration starts */
  private release = (): void => {
    this.raw.close();
    this.raw.body?.cancel().catch(() => {});
  };

  constructor(
    private readonly raw: Raw,
    private readonly signal?: AbortSignal,
  ) {
    this.requestId = raw.requestId;
  }

  /** What has arrived so far (a copy). */
  get message(): Message | undefined {
    return this.acc.snapshot();
  }

  /**
   * The events, in order. A hand-written iterator rather than an async generator: events that one
   * network chunk completes are handed out without a further await each (this is the hot path).
   */
  [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    if (this.consumed) throw new Error('a MessageStream can be iterated once');
    this.consumed = true;
    const decoder = new SseDecoder();
    const reader = this.raw.body?.getReader();
    const body = {
      next: async (): Promise<IteratorResult<Uint8Array>> => {
        if (!reader) return { done: true, value: undefined };
        const r = await reader.read();
        if (!r.done) this.raw.touch(); // bytes arrived: the idle timer starts again
        return r.done ? { done: true, value: undefined } : { done: false, value: r.value };
      },
    };
    const queue: StreamEvent[] = [];
    let qi = 0;
    let state: 'open' | 'ended' | 'finished' = 'open';
    // counted as events are handed out, so a failure can say how far the reply got
    const received: Received = { events: 0, replyChars: 0 };
    const fail = (type: string, message: string, detail?: string) =>
      new StreamError(type, message, this.acc.snapshot(), this.requestId, { ...received }, detail);
    // Releases the idle timer and the response body, on every path: the timer kept the process alive for
    // its 60 s after a finished reply, and then aborted it. On a failure or when the consumer stops early,
    // the body is cancelled (its connection closed).
    let released = false;
    const close = () => {
      if (released) return;
      released = true;
      this.raw.close();
      reader?.cancel().catch(() => {});
    };
    this.release = close;
    // At message_stop the reply is complete and the service ends the body right after it: that end is read
    // in the background, so the connection goes back to the pool for the next request (cancelling would
    // close it: a new TCP and TLS handshake per request). A body that does not end soon is cancelled.
    // The iteration's last step waits for that end (a consumer that stops at message_stop does not), so the
    // next request of a loop finds the connection free.
    let drained: Promise<void> | undefined;
    const finish = () => {
      if (released) return;
      released = true;
      this.raw.close();
      if (!reader) return;
      const giveUp = setTimeout(() => void reader.cancel().catch(() => {}), DRAIN_MS);
      drained = (async () => {
        try {
          while (!(await reader.read()).done) {
            /* what follows message_stop is not part of the reply */
          }
          // the HTTP client frees the connection a turn of the event loop after the body's end
          await new Promise(resolve => setImmediate(resolve));
        } catch {
          /* cancelled or cut: nothing to keep */
        } finally {
          clearTimeout(giveUp);
        }
      })();
    };
    const take = (event: string, text: string, from: number, to: number) => {
      const ev = parseEvent(event, text, from, to);
      if (ev) queue.push(ev);
    };
    const deliver = (): IteratorResult<StreamEvent> | undefined => {
      while (qi < queue.length) {
        const ev = queue[qi++]!;
        if (ev.type === 'error') {
          close();
          throw fail(ev.error.type, ev.error.message);
        }
        this.acc.apply(ev);
        received.events++;
        if (ev.type === 'content_block_delta') received.replyChars += deltaChars(ev.delta);
        if (ev.type === 'message_stop') {
          state = 'finished';
          queue.length = 0;
          qi = 0;
          finish();
        }
        return { done: false, value: ev };
      }
      queue.length = 0;
      qi = 0;
      return undefined;
    };
    const mapFailure = (e: unknown): StreamError => {
      if (e instanceof StreamError) return e;
      const mapped = mapNetworkError(e, this.signal);
      if (mapped instanceof AbortedError) return fail('aborted', 'Cancelled.');
      if (mapped instanceof TimeoutError)
        return fail('idle_timeout', `The stream stopped sending data (idle timeout) ${afterReceived(received)}`);
      if (e instanceof Error && /JSON|before message_start|content_block/.test(e.message))
        return fail('invalid_stream', e.message);
      // the service was reached and answered: a closed connection, not "cannot reach" (the code goes to the log)
      return fail('connection_error', `The connection closed ${afterReceived(received)}`, networkDetail(e));
    };
    const next = async (): Promise<IteratorResult<StreamEvent>> => {
      try {
        for (;;) {
          if (state === 'finished') {
            await drained;
            return { done: true, value: undefined };
          }
          const ready = deliver();
          if (ready) return ready;
          if (state === 'ended') {
            close();
            throw fail('connection_error', `The connection closed ${afterReceived(received)}, before message_stop`);
          }
          const r = await body.next();
          if (r.done) {
            state = 'ended';
            for (const e of decoder.end()) take(e.event, e.data, 0, e.data.length);
          } else decoder.pushEach(r.value, take);
        }
      } catch (e) {
        close();
        state = 'finished';
        throw mapFailure(e);
      }
    };
    return {
      next: () => {
        // events already decoded are handed out without entering the async path
        if (state === 'open' && qi < queue.length) {
          try {
            const ready = deliver();
            if (ready) return Promise.resolve(ready);
          } catch (e) {
            state = 'finished';
            return Promise.reject(mapFailure(e));
          }
        }
        return next();
      },
      return: () => {
        close();
        state = 'finished';
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  /**
   * Gives the stream up without reading it (or the rest of it): the timer and the connection are released at
   * once. For a caller that got a stream and then has no use for it; a `for await` that breaks does the same.
   */
  cancel(): void {
    this.consumed = true;
    this.release();
  }

  /** Reads the whole stream and returns the final message. */
  async finalMessage(): Promise<Message> {
    for await (const _ of this) {
      /* accumulate */
    }
    return this.acc.snapshot()!;
  }
}

/** Characters a delta adds to the reply (text, thinking or tool input; signatures and citations add none). */
function deltaChars(d: Delta): number {
  if (d.type === 'text_delta') return d.text.length;
  if (d.type === 'thinking_delta') return d.thinking.length;
  if (d.type === 'input_json_delta') return d.partial_json.length;
  return 0;
}

const TEXT_DELTA_HEAD = '{"type":"content_block_delta","index":';
const TEXT_DELTA_MID = ',"delta":{"type":"text_delta","text":';

/** The event whose data is `text.slice(from, to)`, read in place (the data of a chunk's line is not sliced). */
function parseEvent(name: string, text: string, from: number, to: number): StreamEvent | undefined {
  if (name === 'ping') return { type: 'ping' };
  // the hot path: a text delta in the service's compact key order, `…"text":"…"}}`, is read where it is (its fixed
  // parts compared as slices: startsWith with a position costs several times more in V8)
  if (
    text.slice(from, from + TEXT_DELTA_HEAD.length) === TEXT_DELTA_HEAD &&
    text.charCodeAt(to - 1) === 125 &&
    text.charCodeAt(to - 2) === 125 &&
    text.charCodeAt(to - 3) === 34
  ) {
    // the index, then the delta's head right after it (each looked for in place: never past the line)
    const head = from + TEXT_DELTA_HEAD.length;
    let at = head;
    let index = 0;
    for (let c = text.charCodeAt(at); c >= 48 && c <= 57 && at - head < 9; c = text.charCodeAt(++at))
      index = index * 10 + c - 48;
    const open = at + TEXT_DELTA_MID.length;
    if (at > head && text.slice(at, open) === TEXT_DELTA_MID && text.charCodeAt(open) === 34) {
      // the literal's first quote after the opening one is its closing one: no escaped quote; no escape at all
      if (text.indexOf('"', open + 1) === to - 3) {
        const literal = text.slice(open + 1, to - 3);
        if (literal.indexOf('\\') < 0)
          return { type: 'content_block_delta', index, delta: { type: 'text_delta', text: literal } };
      }
      try {
        const decoded = JSON.parse(text.slice(open, to - 2)) as unknown;
        if (typeof decoded === 'string')
          return { type: 'content_block_delta', index, delta: { type: 'text_delta', text: decoded } };
      } catch {
        /* not that shape after all: parse it whole */
      }
    }
  }
  const data = text.slice(from, to);
  let j: unknown;
  try {
    j = JSON.parse(data);
  } catch {
    throw new Error(`event ${name} carries data that is not JSON`);
  }
  if (!j || typeof j !== 'object' || typeof (j as { type?: unknown }).type !== 'string') return undefined;
  return j as StreamEvent;
}
