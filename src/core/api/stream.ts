// A streamed reply (the SSE events of POST /v1/messages with `stream: true`): events are decoded as
// bytes arrive, the message is built as they come, and a failure keeps what arrived.
import { MessageAccumulator } from './accumulator';
import { AbortedError, afterReceived, StreamError, TimeoutError, type Received } from './errors';
import { mapNetworkError, networkDetail, type Raw } from './http';
import { LineTooLong, READ_LIMITS, sizeText } from './limits';
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
   * The events, in order. A hand-written iterator rather than an async generator: an event a chunk already holds is
   * handed out without a further await (this is the hot path), and it is read from the chunk only when asked for.
   */
  [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    if (this.consumed) throw new Error('a MessageStream can be iterated once');
    this.consumed = true;
    const limits = this.raw.limits ?? READ_LIMITS;
    const sse = new SseDecoder(limits.message);
    const reader = this.raw.body?.getReader();
    let state: 'open' | 'ended' | 'finished' = 'open';
    /** bytes read so far: a stream without end stops at limits.stream */
    let bytes = 0;
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
    // close it: a new TCP and TLS handshake per request), which waits for it (Raw.reuse). A body that does not
    // end soon is cancelled. The iteration's last step waits for that end too (a consumer that stops at
    // message_stop does not), so a finished iteration holds nothing.
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
        } catch {
          /* cancelled or cut: nothing to keep */
        } finally {
          clearTimeout(giveUp);
        }
      })();
      this.raw.reuse?.(drained);
    };
    /** The next event the chunks read so far complete, applied to the message; undefined when they hold no more. */
    const deliver = (): IteratorResult<StreamEvent> | undefined => {
      for (;;) {
        let ev: StreamEvent | undefined;
        const at = sse.nextMatching(TEXT_DELTA);
        if (at >= 0) {
          // the hot path: a text delta needs none of the checks below, and its text goes straight to its block
          const delta = textDelta(sse.text, at, TEXT_DELTA.lastIndex);
          this.acc.appendText(delta.index, delta.delta.text);
          received.events++;
          received.replyChars += delta.delta.text.length;
          return { done: false, value: delta };
        }
        if (sse.next()) ev = parseEvent(sse);
        else return undefined;
        if (!ev) continue;
        if (ev.type === 'error') {
          close();
          throw fail(ev.error.type, this.raw.redact?.(ev.error.message) ?? ev.error.message);
        }
        this.acc.apply(ev);
        received.events++;
        if (ev.type === 'content_block_delta') received.replyChars += deltaChars(ev.delta);
        if (ev.type === 'message_stop') {
          state = 'finished';
          finish();
        }
        return { done: false, value: ev };
      }
    };
    const mapFailure = (e: unknown): StreamError => {
      if (e instanceof StreamError) return e;
      if (e instanceof LineTooLong)
        return fail('response_too_large', LineTooLong.say(e.what, e.limit, afterReceived(received)));
      const mapped = mapNetworkError(e, this.signal);
      if (mapped instanceof AbortedError) return fail('aborted', 'Cancelled.');
      if (mapped instanceof TimeoutError)
        return fail('idle_timeout', `The stream stopped sending data (idle timeout) ${afterReceived(received)}`);
      if (e instanceof Error && /JSON|before message_start|content_block/.test(e.message))
        return fail('invalid_stream', e.message);
      // the service was reached and answered: a closed connection, not "cannot reach" (the code goes to the log)
      return fail('connection_error', `The connection closed ${afterReceived(received)}`, networkDetail(e));
    };
    const failed = (e: unknown): StreamError => {
      close();
      state = 'finished';
      return mapFailure(e);
    };
    /** Reads chunks until one completes an event, the reply ends or the body does. */
    const read = async (): Promise<IteratorResult<StreamEvent>> => {
      try {
        for (;;) {
          if (state === 'finished') {
            await drained;
            return { done: true, value: undefined };
          }
          if (state === 'ended') {
            close();
            throw fail('connection_error', `The connection closed ${afterReceived(received)}, before message_stop`);
          }
          const r = reader ? await reader.read() : undefined;
          // the body's end: an unterminated last event is dropped, as the format says
          if (!r || r.done) {
            state = 'ended';
            continue;
          }
          this.raw.touch(); // bytes arrived: the idle timer starts again
          bytes += r.value.byteLength;
          if (bytes > limits.stream) {
            close();
            throw fail(
              'response_too_large',
              `The stream sent more than ${sizeText(limits.stream)} ${afterReceived(received)}, more than any reply ` +
                'holds; reading stopped there and the connection was closed.',
            );
          }
          sse.write(r.value);
          const ready = deliver();
          if (ready) return ready;
        }
      } catch (e) {
        throw failed(e);
      }
    };
    return {
      next: () => {
        // an event the chunks read so far hold is handed out without entering the async path
        if (state === 'open') {
          try {
            const ready = deliver();
            if (ready) return Promise.resolve(ready);
          } catch (e) {
            return Promise.reject(failed(e));
          }
        }
        return read();
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

/**
 * A text delta event as the service writes it (its event line, its data with the keys in that order and no spaces,
 * the empty line that ends it): recognised whole by one sticky match where it is in its chunk and read from there,
 * in place of three lines handled one by one and JSON.parse (the hot path: a reply is thousands of them). Its text
 * may hold escapes; a raw control character, which JSON forbids, does not match and is left to JSON.parse to reject.
 */
const TEXT_DELTA = new RegExp(
  String.raw`event: content_block_delta\ndata: \{"type":"content_block_delta","index":(?:0|[1-9]\d{0,8}),` +
    String.raw`"delta":\{"type":"text_delta","text":"[^"\\\x00-\x1f]*(?:\\.[^"\\\x00-\x1f]*)*"\}\}\n\n`,
  'y',
);
const TEXT_DELTA_INDEX = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":'.length;
const TEXT_DELTA_TEXT = ',"delta":{"type":"text_delta","text":'.length;
/** what follows the text's closing quote: `"}}` and the two line ends */
const TEXT_DELTA_END = 5;

/** A text delta event. */
type TextDeltaEvent = Extract<StreamEvent, { type: 'content_block_delta' }> & {
  delta: Extract<Delta, { type: 'text_delta' }>;
};

/** The text delta event `text[from, to)` that TEXT_DELTA matched. */
function textDelta(text: string, from: number, to: number): TextDeltaEvent {
  let at = from + TEXT_DELTA_INDEX;
  let index = 0;
  for (let c = text.charCodeAt(at); c !== 44; c = text.charCodeAt(++at)) index = index * 10 + c - 48;
  const open = at + TEXT_DELTA_TEXT; // the text's opening quote
  let delta = text.slice(open + 1, to - TEXT_DELTA_END);
  if (delta.indexOf('\\') >= 0) {
    try {
      delta = JSON.parse(text.slice(open, to - TEXT_DELTA_END + 1)) as string;
    } catch {
      throw new Error('event content_block_delta carries data that is not JSON'); // an escape JSON does not have
    }
  }
  return { type: 'content_block_delta', index, delta: { type: 'text_delta', text: delta } };
}

/** The event the decoder read, from the JSON of its data. */
function parseEvent(sse: SseDecoder): StreamEvent | undefined {
  const name = sse.event;
  if (name === 'ping') return { type: 'ping' };
  let j: unknown;
  try {
    j = JSON.parse(sse.dataText.slice(sse.dataFrom, sse.dataTo));
  } catch {
    throw new Error(`event ${name} carries data that is not JSON`);
  }
  if (!j || typeof j !== 'object' || typeof (j as { type?: unknown }).type !== 'string') return undefined;
  return j as StreamEvent;
}
