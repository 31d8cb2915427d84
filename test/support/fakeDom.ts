// A small stand-in for the browser a webview page runs in, enough for the webview units to run in plain Node:
// elements, text nodes and fragments (what the pages build, all through textContent), a window that delivers
// `message` events, and animation frames that run only when a test says a frame has come (`frames.run()`).
// It parses no HTML at all: a test that finds markup where text should be has found a real defect.

type Listener = (e: unknown) => void;

class FakeNode {
  parentNode: FakeNode | null = null;
  childNodes: FakeNode[] = [];

  appendChild<T extends FakeNode>(node: T): T {
    if (node instanceof FakeFragment) {
      for (const child of [...node.childNodes]) this.appendChild(child);
      return node;
    }
    node.remove();
    node.parentNode = this;
    this.childNodes.push(node);
    return node;
  }

  append(...nodes: (FakeNode | string)[]): void {
    for (const n of nodes) this.appendChild(typeof n === 'string' ? new FakeText(n) : n);
  }

  replaceChildren(...nodes: (FakeNode | string)[]): void {
    for (const child of this.childNodes) child.parentNode = null;
    this.childNodes = [];
    this.append(...nodes);
  }

  remove(): void {
    const parent = this.parentNode;
    if (!parent) return;
    parent.childNodes = parent.childNodes.filter(c => c !== this);
    this.parentNode = null;
  }

  contains(node: unknown): boolean {
    return node === this || this.childNodes.some(c => c.contains(node));
  }

  get textContent(): string {
    return this.childNodes.map(c => c.textContent).join('');
  }

  set textContent(text: string) {
    this.replaceChildren(...(text ? [new FakeText(text)] : []));
  }
}

class FakeText extends FakeNode {
  constructor(public data: string) {
    super();
  }

  appendData(more: string): void {
    this.data += more;
  }

  override get textContent(): string {
    return this.data;
  }

  override set textContent(text: string) {
    this.data = text;
  }
}

class FakeFragment extends FakeNode {}

export class FakeElement extends FakeNode {
  className = '';
  id = '';
  hidden = false;
  open = false;
  title = '';
  href = '';
  tabIndex = -1;
  type = '';
  disabled = false;
  value = '';
  scrollTop = 0;
  readonly dataset: Record<string, string> = {};
  private readonly attributes = new Map<string, string>();
  private readonly listeners = new Map<string, Listener[]>();

  constructor(readonly tagName: string) {
    super();
  }

  get classList() {
    const names = () => this.className.split(/\s+/).filter(Boolean);
    return {
      contains: (name: string) => names().includes(name),
      toggle: (name: string, on = !names().includes(name)) => {
        this.className = [...names().filter(n => n !== name), ...(on ? [name] : [])].join(' ');
        return on;
      },
    };
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, String(value));
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  click(): void {
    for (const l of this.listeners.get('click') ?? []) l({ preventDefault: () => {} });
  }

  focus(): void {
    fakeDocument.activeElement = this;
  }

  getBoundingClientRect() {
    return { top: 0, bottom: 0, left: 0, right: 0, width: 0, height: 0 };
  }
}

/** The elements below `root` (itself included) whose class list has `className`, in document order. */
export function byClass(root: FakeNode, className: string): FakeElement[] {
  const found: FakeElement[] = [];
  const walk = (n: FakeNode) => {
    if (n instanceof FakeElement && n.classList.contains(className)) found.push(n);
    n.childNodes.forEach(walk);
  };
  walk(root);
  return found;
}

/** Every element below `root` by tag name (lower case): what must never appear where model output is drawn. */
export function byTag(root: FakeNode, tagName: string): FakeElement[] {
  const found: FakeElement[] = [];
  const walk = (n: FakeNode) => {
    if (n instanceof FakeElement && n.tagName === tagName) found.push(n);
    n.childNodes.forEach(walk);
  };
  walk(root);
  return found;
}

const fakeDocument = {
  body: new FakeElement('body'),
  activeElement: null as FakeElement | null,
  createElement: (tag: string) => new FakeElement(tag.toLowerCase()),
  createTextNode: (text: string) => new FakeText(text),
  createDocumentFragment: () => new FakeFragment(),
  getElementById(id: string): FakeElement | null {
    const walk = (n: FakeNode): FakeElement | null =>
      n instanceof FakeElement && n.id === id
        ? n
        : n.childNodes.reduce<FakeElement | null>((f, c) => f ?? walk(c), null);
    return walk(fakeDocument.body);
  },
};

/** The animation frames asked for and not yet run; `run()` is the next frame coming. */
export const frames = {
  queue: new Map<number, () => void>(),
  next: 1,
  run(): void {
    const due = [...this.queue.values()];
    this.queue.clear();
    for (const f of due) f();
  },
};

const messageListeners: Listener[] = [];

/** The extension posting a message to the page. */
export function postToPage(data: unknown): void {
  for (const l of messageListeners) l({ data });
}

/**
 * Installs the stand-ins as the globals a page uses (document, window, requestAnimationFrame), and returns a
 * fresh element to draw into. Safe to call before each test: listeners and frames from the last one are gone.
 */
export function installFakeDom(): FakeElement {
  messageListeners.length = 0;
  frames.queue.clear();
  fakeDocument.body.replaceChildren();
  Object.assign(globalThis, {
    document: fakeDocument,
    window: {
      addEventListener: (type: string, l: Listener) => type === 'message' && messageListeners.push(l),
    },
    requestAnimationFrame: (f: () => void) => {
      const id = frames.next++;
      frames.queue.set(id, f);
      return id;
    },
  });
  const root = new FakeElement('div');
  fakeDocument.body.appendChild(root);
  return root;
}
