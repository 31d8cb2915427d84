// Batches stream events for the webview: at most one message per frame (16 ms), none lost, in order. The
// response panel batches a run's events; the compare panel batches its columns' (each with its column).
import type { StreamEvent } from '../api/types';
import { realClock, type Clock } from '../tokens/scheduler';

export class EventBatcher<T = StreamEvent> {
  private buf: T[] = [];
  private timer: unknown;
  constructor(
    private readonly flushTo: (events: T[]) => void,
    private readonly frameMs = 16,
    private readonly clock: Clock = realClock,
  ) {}

  push(ev: T): void {
    this.buf.push(ev);
    if (this.timer === undefined) this.timer = this.clock.setTimeout(() => this.flush(), this.frameMs);
  }

  /** Sends what is buffered now (at the end of a run, before the final message). */
  flush(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.buf.length) return;
    const out = this.buf;
    this.buf = [];
    this.flushTo(out);
  }
}
