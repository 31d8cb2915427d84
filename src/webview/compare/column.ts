// One column of the Compare page: a header (version, model, status, the input tokens and their change
// against the first column), the reply as it streams (text, Markdown once a block is complete; thinking,
// collapsed; tool calls with their input JSON) and a footer (stop_reason, usage in words, latency,
// request-id, and after "Run again" whether the new sample differs). Every node is built with textContent:
// model output is never parsed as HTML.
import { totalInput, usageWords } from '../../core/api/usage';
import { asText } from '../../core/text';
import {
  MessageAccumulator,
  type ColumnView,
  type ContentBlock,
  type Message,
  type StreamEvent,
} from '../../protocol/compare';
import { el, icon } from '../common/dom';
import { highlightJson } from '../common/json';
import { renderMarkdown } from '../common/markdown';

const STATUS: Record<ColumnView['status'], string> = {
  queued: 'queued',
  running: 'streaming…',
  done: 'done',
  error: 'failed',
  cancelled: 'cancelled',
  'not-sent': 'not sent',
};

interface Block {
  root: HTMLElement;
  /** the text node deltas append to, while the block streams */
  stream?: Text;
  json?: HTMLElement;
}

const fmt = (n: number) => n.toLocaleString('en-US');

export class Column {
  readonly root: HTMLElement;
  private readonly head: HTMLElement;
  private readonly facts: HTMLElement;
  private readonly body: HTMLElement;
  private readonly foot: HTMLElement;
  private acc = new MessageAccumulator();
  private blocks = new Map<number, Block>();
  view: ColumnView;

  constructor(
    view: ColumnView,
    private readonly openLink: (url: string) => void,
  ) {
    this.view = view;
    this.root = el('section', 'column');
    this.root.tabIndex = 0;
    this.root.dataset.index = String(view.index);
    this.head = el('header', 'col-head');
    this.facts = el('div', 'col-facts');
    this.body = el('div', 'col-body');
    this.foot = el('footer', 'col-foot');
    this.root.append(this.head, this.body, this.foot);
    this.show(view);
  }

  /** The reply so far (for the diff of a column that is still streaming, and the saved state). */
  get message(): Message | undefined {
    return this.acc.message;
  }

  /** Starts over from a view: its message shown whole (a reload's, or a run's so far). */
  show(view: ColumnView): void {
    this.view = view;
    this.acc = new MessageAccumulator();
    this.blocks.clear();
    this.body.replaceChildren();
    const m = view.message;
    if (m) {
      const streaming = view.status === 'running';
      this.acc.apply({ type: 'message_start', message: { ...m, content: [] } });
      m.content.forEach(({ partial_json, ...b }, index) => {
        this.acc.apply({ type: 'content_block_start', index, content_block: b });
        this.start(index, b);
        // tool input still arriving: what came of it, for the deltas to come to build on
        if (typeof partial_json === 'string')
          this.acc.apply({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
        // the last block of a column that streams stays open for its next deltas
        if (streaming && index === m.content.length - 1) return;
        if (typeof partial_json !== 'string') this.acc.apply({ type: 'content_block_stop', index });
        this.finish(index);
      });
      if (m.stop_reason)
        this.acc.apply({
          type: 'message_delta',
          delta: { stop_reason: m.stop_reason, stop_sequence: m.stop_sequence },
          usage: m.usage,
        });
    }
    this.drawChrome();
  }

  /** A column's new state (started, ended): the reply is kept, or replaced by the final one. */
  update(view: ColumnView): void {
    const ended = view.status !== 'running' && view.status !== 'queued';
    if (ended && view.message && !this.acc.message?.content.length) {
      this.show(view);
      return;
    }
    this.view = view;
    if (ended) for (const [i, b] of this.blocks) if (b.stream || b.json) this.finish(i);
    this.drawChrome();
  }

  apply(ev: StreamEvent): void {
    try {
      this.acc.apply(ev);
    } catch {
      // a block the page joined mid-way (tool input cut short): shown as it is, the stream goes on
      return;
    }
    if (ev.type === 'content_block_start') this.start(ev.index, ev.content_block);
    else if (ev.type === 'content_block_delta') {
      const b = this.blocks.get(ev.index);
      const d = ev.delta;
      if (d.type === 'text_delta') b?.stream?.appendData(d.text);
      else if (d.type === 'thinking_delta') b?.stream?.appendData(d.thinking);
      else if (d.type === 'input_json_delta' && b?.json) b.json.textContent = this.acc.partialJson(ev.index) ?? '';
    } else if (ev.type === 'content_block_stop') this.finish(ev.index);
  }

  /** the first column's reply: the header's token change is against its input tokens */
  private firstMessage: Message | undefined;

  /** Draws the parts around the reply once the stream has changed them (once per frame). */
  refresh(first: Message | undefined): void {
    this.firstMessage = first;
    this.drawChrome();
  }

  private drawChrome(): void {
    this.root.className = `column status-${this.view.status}`;
    this.root.setAttribute(
      'aria-label',
      `Column ${this.view.index + 1}: ${this.view.version} on ${this.view.model}, ${STATUS[this.view.status]}`,
    );
    this.drawHead(this.firstMessage);
    this.drawFoot();
  }

  private drawHead(first: Message | undefined): void {
    const v = this.view;
    const title = el('div', 'col-title');
    title.append(el('span', 'col-number', `${v.index + 1}`), el('span', 'col-version', v.version));
    title.append(el('span', 'col-model', v.model));
    this.facts.replaceChildren();
    const fact = (text: string, className: string, tip?: string) => {
      const s = el('span', `fact ${className}`, text);
      if (tip) s.title = tip;
      this.facts.appendChild(s);
    };
    fact(STATUS[v.status], `col-status status-${v.status}`);
    const usage = this.acc.message?.usage;
    if (usage) {
      const input = totalInput(usage);
      fact(`${fmt(input)} in`, 'col-in', 'Input tokens (cached ones included)');
      const base = first?.usage ? totalInput(first.usage) : undefined;
      if (v.index > 0 && base !== undefined) {
        const d = input - base;
        const sign = d > 0 ? '+' : d < 0 ? '-' : '±';
        const pct = base && d ? ` (${sign}${Math.abs((100 * d) / base).toFixed(1)}%)` : '';
        fact(
          `${sign}${fmt(Math.abs(d))}${pct} vs 1`,
          `col-delta ${d > 0 ? 'up' : d < 0 ? 'down' : 'same'}`,
          'Input tokens against column 1',
        );
      }
      if (v.status !== 'running') fact(`${fmt(usage.output_tokens ?? 0)} out`, 'col-out', 'Output tokens');
    }
    const sample = el('div', 'col-sample-line');
    if (v.sample > 1) {
      const differs = v.differs;
      const text =
        differs === undefined
          ? `sample ${v.sample}`
          : differs.length
            ? `sample ${v.sample}: differs (${differs.join(', ')})`
            : `sample ${v.sample}: same as before`;
      const badge = el('span', `col-sample ${differs?.length ? 'differs' : 'same'}`, text);
      badge.title = 'Run Again: the new sample against the one before';
      sample.appendChild(badge);
    }
    this.head.replaceChildren(title, this.facts, ...(v.sample > 1 ? [sample] : []));
  }

  private drawFoot(): void {
    const v = this.view;
    const m = this.acc.message;
    this.foot.replaceChildren();
    const line = (label: string, value: string | undefined, className = '') => {
      if (!value) return;
      const p = el('p', `foot-line ${className}`);
      p.append(el('span', 'muted', `${label} `), el('span', undefined, value));
      this.foot.appendChild(p);
    };
    if (v.problems?.length) {
      const list = el('ul', 'problems');
      for (const p of v.problems) list.appendChild(el('li', undefined, p));
      this.foot.append(el('p', 'problems-title', 'Not sent: this version cannot be sent as it is.'), list);
      return;
    }
    if (v.error && v.status !== 'cancelled') line('Error:', `${v.error.type}: ${v.error.message}`, 'error');
    if (v.status === 'cancelled') line('Cancelled:', 'the reply stops where it was.', 'warn');
    line('stop_reason:', m?.stop_reason ?? undefined);
    if (m?.usage && v.status !== 'running') this.foot.appendChild(el('p', 'usage-words', usageWords(m.usage)));
    line('Latency:', v.latencyMs !== undefined ? `${(v.latencyMs / 1000).toFixed(2)} s` : undefined);
    line('request-id:', v.requestId ?? v.error?.requestId, 'request-id');
  }

  private start(index: number, b: ContentBlock): void {
    const root = el('div', `block block-${b.type}`);
    const block: Block = { root };
    if (b.type === 'text') {
      const text = el('div', 'text streaming');
      block.stream = document.createTextNode(asText(b.text));
      text.appendChild(block.stream);
      root.appendChild(text);
    } else if (b.type === 'thinking' || b.type === 'redacted_thinking') {
      const d = el('details', 'thinking');
      const s = el('summary');
      s.append(icon('lightbulb'), document.createTextNode(b.type === 'thinking' ? ' Thinking' : ' Redacted thinking'));
      const t = el('div', 'thinking-text');
      if (b.type === 'thinking') {
        block.stream = document.createTextNode(asText(b.thinking));
        t.appendChild(block.stream);
      }
      d.append(s, t);
      root.appendChild(d);
    } else if (b.type === 'tool_use' || b.type === 'server_tool_use') {
      const h = el('div', 'tool-head');
      h.append(icon('tools'), el('strong', undefined, ` ${asText(b.name)}`), el('span', 'muted', ` ${b.type}`));
      block.json = el('pre', 'json');
      root.append(h, block.json);
    } else {
      root.append(el('div', 'tool-head', b.type));
      block.json = el('pre', 'json');
      block.json.appendChild(highlightJson(document, b));
    }
    this.blocks.set(index, block);
    this.body.appendChild(root);
  }

  private finish(index: number): void {
    const block = this.blocks.get(index);
    const b = this.acc.message?.content[index];
    if (!block || !b) return;
    if (b.type === 'text') {
      const text = el('div', 'text markdown');
      text.appendChild(renderMarkdown(document, asText(b.text), this.openLink));
      block.root.replaceChildren(text);
    } else if ((b.type === 'tool_use' || b.type === 'server_tool_use') && block.json) {
      block.json.replaceChildren(highlightJson(document, b.input ?? {}));
    }
    delete block.stream;
    delete block.json;
  }
}
