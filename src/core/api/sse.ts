// Server-sent events decoder (the WHATWG event-stream format), correct whatever the chunking: an event,
// a line, a CRLF pair or a multi-byte UTF-8 character may be split across chunks at any byte.

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export class SseDecoder {
  private readonly utf8 = new TextDecoder('utf-8');
  /**
   * Pieces of a line whose end has not arrived yet. They are joined once, when it does: re-joining a
   * growing buffer on every chunk made a 1 MB line in 64-byte chunks quadratic (seconds, not ms).
   */
  private partial: string[] = [];
  private pendingCR = false;
  private event = '';
  /** the event's data lines: almost always one, kept without an array until a second comes */
  private data: string | undefined;
  private moreData: string[] | undefined;
  private id: string | undefined;
  private bom = true;

  /** Feeds bytes; returns the events they complete. */
  push(chunk: Uint8Array): SseEvent[] {
    return this.feed(this.utf8.decode(chunk, { stream: true }));
  }

  /** Flushes at end of input (an unterminated last event is dropped, as the format says). */
  end(): SseEvent[] {
    const out = this.feed(this.utf8.decode());
    if (this.partial.length) this.line(this.takeLine(''), out);
    return out;
  }

  private takeLine(tail: string): string {
    if (!this.partial.length) return tail;
    this.partial.push(tail);
    const line = this.partial.join('');
    this.partial = [];
    return line;
  }

  private feed(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    if (!text) return out;
    if (this.bom) {
      this.bom = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    if (this.pendingCR) {
      this.pendingCR = false;
      if (text.charCodeAt(0) === 10) start = 1; // the LF of a CRLF split across chunks
    }
    if (text.indexOf('\r', start) < 0) {
      // the common case (LF only): jump from line end to line end
      for (let nl = text.indexOf('\n', start); nl >= 0; nl = text.indexOf('\n', start)) {
        if (this.partial.length) this.line(this.takeLine(text.slice(start, nl)), out);
        else this.lineAt(text, start, nl, out);
        start = nl + 1;
      }
    } else {
      for (let i = start; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        this.line(this.takeLine(text.slice(start, i)), out);
        if (c === 13) {
          if (i + 1 < text.length) {
            if (text.charCodeAt(i + 1) === 10) i++;
          } else this.pendingCR = true;
        }
        start = i + 1;
      }
    }
    if (start < text.length) this.partial.push(text.slice(start));
    return out;
  }

  /**
   * The line `text[from, to)`, read in place: the two fields every event has (`data: `, `event: `) are
   * sliced once, straight from the chunk (this is the hot path: three lines an event).
   */
  private lineAt(text: string, from: number, to: number, out: SseEvent[]): void {
    if (from === to) return this.dispatch(out);
    const c0 = text.charCodeAt(from);
    if (c0 === 100 && text.startsWith('data: ', from)) this.addData(text.slice(from + 6, to));
    else if (c0 === 101 && text.startsWith('event: ', from)) this.event = text.slice(from + 7, to);
    else this.line(text.slice(from, to), out);
  }

  /** An empty line: the event so far is complete. */
  private dispatch(out: SseEvent[]): void {
    if (this.data !== undefined) {
      const data = this.moreData ? [this.data, ...this.moreData].join('\n') : this.data;
      const e: SseEvent = { event: this.event || 'message', data };
      if (this.id !== undefined) e.id = this.id;
      out.push(e);
    }
    this.event = '';
    this.data = this.moreData = undefined;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') return this.dispatch(out);
    const c0 = line.charCodeAt(0);
    if (c0 === 58) return; // a comment
    if (c0 === 100 && line.startsWith('data: ')) {
      this.addData(line.slice(6));
      return;
    }
    if (c0 === 101 && line.startsWith('event: ')) {
      this.event = line.slice(7);
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.addData(value);
    else if (field === 'id') this.id = value;
    // `retry` and unknown fields are ignored
  }

  private addData(value: string): void {
    if (this.data === undefined) this.data = value;
    else (this.moreData ??= []).push(value);
  }
}
