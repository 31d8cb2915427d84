// Server-sent events decoder (the WHATWG event-stream format), correct whatever the chunking: an event,
// a line, a CRLF pair or a multi-byte UTF-8 character may be split across chunks at any byte.
import { StringDecoder } from 'node:string_decoder';
import { LineTooLong, READ_LIMITS } from './limits';

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Read by pulling: `write(chunk)` hands it the bytes of a chunk, then each `next()` reads on to the next event they
 * complete and leaves it in the decoder (`event`, `dataText[dataFrom, dataTo)`, `id`) until it is called again. A
 * streamed reply is thousands of small events: each is read when its consumer asks for it, with no event object, no
 * array and no callback per event, and its data is left where it is, in the text of its chunk.
 */
export class SseDecoder {
  /** Node's streaming UTF-8 decoder: four times faster than TextDecoder with `stream: true` on Node 22 */
  private readonly utf8 = new StringDecoder('utf8');
  private bom = true;
  /** the decoded text being read, from `pos`; `hasCR` whether a CR ends some of its lines */
  private chunk = '';
  private pos = 0;
  private hasCR = false;
  /**
   * Pieces of a line whose end has not arrived yet. They are joined once, when it does: re-joining a
   * growing buffer on every chunk made a 1 MB line in 64-byte chunks quadratic (seconds, not ms).
   */
  private partial: string[] = [];
  /** the characters in `partial`: a line without end stops at `maxLine` */
  private partialChars = 0;
  private pendingCR = false;
  /** the fields hold the event `next()` returned: cleared when the decoder reads on */
  private ready = false;
  /** the event's name, `nameText[nameFrom, nameTo)`: sliced only when asked for (a reply's data says its type) */
  private nameText: string | undefined;
  private nameFrom = 0;
  private nameTo = 0;
  private hasData = false;
  /** data lines after the first (rare): joined with it when the event ends */
  private moreData: string[] | undefined;
  private moreDataChars = 0;

  /**
   * @param maxLine the most characters a line, and an event's data, may hold: past it, reading throws LineTooLong
   * (the decoder holds a line until its end comes: without one, it would hold all that follows)
   */
  constructor(private readonly maxLine = READ_LIMITS.message) {}

  /** The data of the event `next()` read: `dataText.slice(dataFrom, dataTo)`, almost always a line of its chunk. */
  dataText = '';
  dataFrom = 0;
  dataTo = 0;
  /** The last event id (the format carries it over to the events that follow). */
  id: string | undefined;

  /** The name of the event `next()` read (`message` when it has none). */
  get event(): string {
    return (this.nameText?.slice(this.nameFrom, this.nameTo) ?? '') || 'message';
  }

  /** The event `next()` read, as an object. */
  get current(): SseEvent {
    const data = this.dataText.slice(this.dataFrom, this.dataTo);
    return this.id === undefined ? { event: this.event, data } : { event: this.event, data, id: this.id };
  }

  /** The decoded text being read: where `nextMatching` finds an event. */
  get text(): string {
    return this.chunk;
  }

  /** Feeds bytes; returns the events they complete. */
  push(chunk: Uint8Array): SseEvent[] {
    this.write(chunk);
    const out: SseEvent[] = [];
    while (this.next()) out.push(this.current);
    return out;
  }

  /** Flushes at end of input: an unterminated last event is dropped, as the format says, so none comes of it. */
  end(): SseEvent[] {
    this.take(this.utf8.end());
    const out: SseEvent[] = [];
    while (this.next()) out.push(this.current);
    this.partial = [];
    this.partialChars = 0;
    return out;
  }

  /** Takes the bytes of a chunk, to be read with `next()`. */
  write(chunk: Uint8Array): void {
    this.take(this.utf8.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
  }

  private take(text: string): void {
    if (!text) return;
    if (this.bom) {
      this.bom = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    if (this.pendingCR) {
      this.pendingCR = false;
      if (text.charCodeAt(0) === 10) start = 1; // the LF of a CRLF split across chunks
    }
    if (this.pos < this.chunk.length) {
      // written before the events of the last chunk were all read: they are kept, ahead of it
      text = this.chunk.slice(this.pos) + text.slice(start);
      start = 0;
    }
    this.chunk = text;
    this.pos = start;
    this.hasCR = text.indexOf('\r', start) >= 0;
  }

  /**
   * Reads on to the next event the text written so far completes: true when there is one (it is then in the
   * decoder), false when there is none yet (the rest of the text is kept for the next chunk).
   */
  next(): boolean {
    this.readOn();
    const text = this.chunk;
    let start = this.pos;
    if (!this.hasCR) {
      // the common case (LF only): jump from line end to line end, reading each line where it is
      for (let nl = text.indexOf('\n', start); nl >= 0; nl = text.indexOf('\n', start)) {
        // an event of the usual shape (`event: NAME`, `data: DATA`, an empty line) is read at once
        const end = this.partial.length || this.hasData ? -1 : this.whole(text, start, nl);
        if (end >= 0) return this.stop(end);
        const ended = this.partial.length ? this.joined(text.slice(start, nl)) : this.line(text, start, nl);
        start = nl + 1;
        if (ended) return this.stop(start);
      }
    } else {
      for (let i = start; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        const ended = this.partial.length ? this.joined(text.slice(start, i)) : this.line(text, start, i);
        if (c === 13) {
          if (i + 1 < text.length) {
            if (text.charCodeAt(i + 1) === 10) i++;
          } else this.pendingCR = true;
        }
        start = i + 1;
        if (ended) return this.stop(start);
      }
    }
    if (start < text.length) {
      // once per chunk: the piece of a line whose end has not come
      this.partialChars += text.length - start;
      if (this.partialChars > this.maxLine) throw new LineTooLong('A line of the event stream', this.maxLine);
      this.partial.push(text.slice(start));
    }
    this.chunk = '';
    this.pos = 0;
    return false;
  }

  /**
   * Reads the next event at once when `re` (sticky) matches it whole where the decoder is, between two events: its
   * lines and the empty line that ends them, and nothing else. Returns where it starts in `text` (it ends at
   * `re.lastIndex`), or -1: then `next()` reads on as usual. For a caller that knows the shape of its hot event.
   */
  nextMatching(re: RegExp): number {
    this.readOn();
    if (this.partial.length || this.hasData || this.nameText !== undefined) return -1;
    re.lastIndex = this.pos;
    if (!re.test(this.chunk)) return -1;
    const at = this.pos;
    this.pos = re.lastIndex;
    return at;
  }

  /** Clears the event `next()` returned: the decoder reads on to the next one. */
  private readOn(): void {
    if (!this.ready) return;
    this.ready = false;
    this.nameText = this.moreData = undefined;
    this.moreDataChars = 0;
    this.hasData = false;
  }

  private stop(at: number): true {
    this.pos = at;
    this.ready = true;
    return true;
  }

  /**
   * Where the event whose first line is `text[from, nl)` ends, when it is `event: NAME\ndata: DATA\n\n` (then it is
   * read: two line ends looked for, not three lines handled one by one); -1 when it is not, or not all there yet.
   */
  private whole(text: string, from: number, nl: number): number {
    if (!isField(text, from, 'event') || !isField(text, nl + 1, 'data')) return -1;
    const end = text.indexOf('\n', nl + 7);
    if (end < 0 || text.charCodeAt(end + 1) !== 10) return -1;
    this.setName(text, from + 7, nl);
    this.addData(text, nl + 7, end);
    return end + 2;
  }

  /** The line whose last piece is `tail`, joined from its pieces. */
  private joined(tail: string): boolean {
    this.partial.push(tail);
    if (this.partialChars + tail.length > this.maxLine)
      throw new LineTooLong('A line of the event stream', this.maxLine);
    const line = this.partial.join('');
    this.partial = [];
    this.partialChars = 0;
    return this.line(line, 0, line.length);
  }

  /** The line `text[from, to)`, read in place. True when it ends an event. */
  private line(text: string, from: number, to: number): boolean {
    if (from === to) return this.dispatch();
    if (isField(text, from, 'data')) this.addData(text, from + 6, to);
    else if (isField(text, from, 'event')) this.setName(text, from + 7, to);
    else if (text.charCodeAt(from) !== 58) this.field(text.slice(from, to)); // not a comment
    return false;
  }

  /** Any other field, or `data` and `event` without the space. */
  private field(line: string): void {
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'event') this.setName(value, 0, value.length);
    else if (field === 'data') this.addData(value, 0, value.length);
    else if (field === 'id') this.id = value;
    // `retry` and unknown fields are ignored
  }

  private setName(text: string, from: number, to: number): void {
    this.nameText = text;
    this.nameFrom = from;
    this.nameTo = to;
  }

  private addData(text: string, from: number, to: number): void {
    if (!this.hasData) {
      this.hasData = true;
      this.dataText = text;
      this.dataFrom = from;
      this.dataTo = to;
    } else {
      // an event of many data lines and no end: its data stops at the same bound as a line
      this.moreDataChars += to - from + 1; // and the line end that joins it to the others
      if (this.moreDataChars > this.maxLine) throw new LineTooLong("An event's data", this.maxLine);
      (this.moreData ??= []).push(text.slice(from, to));
    }
  }

  /** An empty line: the event so far is complete; true when it has data (an event without any is dropped). */
  private dispatch(): boolean {
    if (!this.hasData) {
      this.nameText = undefined;
      return false;
    }
    if (this.moreData) {
      const data = [this.dataText.slice(this.dataFrom, this.dataTo), ...this.moreData].join('\n');
      this.dataText = data;
      this.dataFrom = 0;
      this.dataTo = data.length;
    }
    return true;
  }
}

/**
 * Whether `text` has the field `data: ` or `event: ` (with its space) at `at`: compared a character at a time, with
 * nothing sliced (this is the hot path: every event has both); a shorter line stops the comparison at its end (a
 * line break, or the end of its string).
 */
function isField(text: string, at: number, name: 'data' | 'event'): boolean {
  return name === 'data'
    ? text.charCodeAt(at) === 100 &&
        text.charCodeAt(at + 1) === 97 &&
        text.charCodeAt(at + 2) === 116 &&
        text.charCodeAt(at + 3) === 97 &&
        text.charCodeAt(at + 4) === 58 &&
        text.charCodeAt(at + 5) === 32
    : text.charCodeAt(at) === 101 &&
        text.charCodeAt(at + 1) === 118 &&
        text.charCodeAt(at + 2) === 101 &&
        text.charCodeAt(at + 3) === 110 &&
        text.charCodeAt(at + 4) === 116 &&
        text.charCodeAt(at + 5) === 58 &&
        text.charCodeAt(at + 6) === 32;
}
