// The one runtime of every webview page. A page is a port of it: it names its protocol (what it posts, what it
// receives, what it keeps with setState) and its check of the kept state, then says how to handle a message
// and, if it draws apart from handling, how to draw. The runtime does the rest the same way for each panel:
// - validated restore: what getState gives back is untrusted (an older version's, or damaged), so the page
//   sees it only through its protocol's `parse…WebviewState`, never as it was read;
// - one batching per animation frame: messages are queued as they arrive and handled in order once per frame,
//   then the page draws once, so a stream of many small messages costs one layout a frame;
// - the ready handshake: `start` posts `ready` last, once the page can handle what the extension answers.
import { vscodeApi, type VsCodeApi } from './vscodeApi';

export interface PagePort<To> {
  /** one message from the extension; called in order, inside the frame */
  handle(message: To): void;
  /** after a frame's messages (or a `schedule()`): draws what changed since the last frame */
  draw?(): void;
}

/** How long saveSoon waits: a stream saves a few times a second at most, never a message at a time. */
const SAVE_DELAY_MS = 500;

export class Page<To, From, State> {
  /** what the page kept before a reload, as its protocol's check reads it; undefined when nothing valid */
  readonly restored: State | undefined;
  private queue: To[] = [];
  private frame = 0;
  private port: PagePort<To> | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    parseState: (raw: unknown) => State | undefined,
    private readonly api: VsCodeApi<From, State> = vscodeApi<From, State>(),
  ) {
    let kept: State | undefined;
    try {
      kept = parseState(api.getState());
    } catch {
      // a check that throws on a damaged state is a state not kept
    }
    this.restored = kept;
  }

  post(message: From): void {
    this.api.postMessage(message);
  }

  save(state: State): void {
    this.api.setState(state);
  }

  /** Saves what `state()` gives at most every SAVE_DELAY_MS: for state that changes with each stream event. */
  saveSoon(state: () => State | undefined): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      const s = state();
      if (s !== undefined) this.save(s);
    }, SAVE_DELAY_MS);
  }

  /** Asks for a draw in the next frame, for a change of the page's own (a resize, a scroll, a click). */
  schedule(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  /** Listens to the extension and says `ready`: the extension posts nothing before it, and answers it whole. */
  start(port: PagePort<To>): void {
    this.port = port;
    window.addEventListener('message', (e: MessageEvent) => {
      this.queue.push(e.data as To);
      this.schedule();
    });
    this.post({ type: 'ready' } as From);
  }

  private flush(): void {
    this.frame = 0;
    const batch = this.queue;
    this.queue = [];
    for (const m of batch) this.port?.handle(m);
    this.port?.draw?.();
  }
}
