// Server-sent events decoder (the WHATWG event-stream format), correct whatever the chunking: an event,
// a line, a CRLF pair or a multi-byte UTF-8 character may be split across chunks at any byte.

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export class SseDecoder {
  private readonly utf8 = new TextDecoder('utf-8');
  private buf = '';
  private pendingCR = false;
  private event = '';
  private data: string[] = [];
  private id: string | undefined;
  private bom = true;

  /** Feeds bytes; returns the events they complete. */
  push(chunk: Uint8Array): SseEvent[] {
    return this.feed(this.utf8.decode(chunk, { stream: true }));
  }

  /** Flushes at end of input (an unterminated last event is dropped, as the format says). */
  end(): SseEvent[] {
    const out = this.feed(this.utf8.decode());
    if (this.buf.length) { const line = this.buf; this.buf = ''; this.line(line, out); }
    return out;
  }

  private feed(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    if (!text) return out;
    if (this.bom) { this.bom = false; if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); }
    let start = 0;
    if (this.pendingCR) {
      this.pendingCR = false;
      if (text.charCodeAt(0) === 10) start = 1; // the LF of a CRLF split across chunks
    }
    const s = this.buf + text.slice(start);
    let lineStart = 0;
    if (s.indexOf('\r', this.buf.length) < 0) {
      // the common case (LF only): jump from line end to line end
      for (let nl = s.indexOf('\n', this.buf.length); nl >= 0; nl = s.indexOf('\n', lineStart)) {
        this.line(s.slice(lineStart, nl), out);
        lineStart = nl + 1;
      }
    } else {
      for (let i = this.buf.length; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        this.line(s.slice(lineStart, i), out);
        if (c === 13) {
          if (i + 1 < s.length) { if (s.charCodeAt(i + 1) === 10) i++; }
          else this.pendingCR = true;
        }
        lineStart = i + 1;
      }
    }
    this.buf = s.slice(lineStart);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length) out.push({ event: this.event || 'message', data: this.data.join('\n'), ...(this.id !== undefined ? { id: this.id } : {}) });
      this.event = '';
      this.data = [];
      return;
    }
    const c0 = line.charCodeAt(0);
    if (c0 === 58) return; // a comment
    if (c0 === 100 && line.startsWith('data: ')) { this.data.push(line.slice(6)); return; }
    if (c0 === 101 && line.startsWith('event: ')) { this.event = line.slice(7); return; }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
    // `retry` and unknown fields are ignored
  }
}
