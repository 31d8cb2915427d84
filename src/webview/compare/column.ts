// One column of the Compare page: a header (version, model, status, the input tokens and their change
// against the first column), the reply as it streams (drawn by the one reply renderer, common/reply.ts, with
// thinking collapsed) and a footer (stop_reason, usage in words, latency, request-id, and after "Run again"
// whether the new sample differs). Every node is built with textContent: model output is never parsed as HTML.
import { totalInput, usageWords } from '../../core/api/usage';
import type { ColumnView, Message, StreamEvent } from '../../protocol/compare';
import { el } from '../common/dom';
import { Reply } from '../common/reply';
import { thousands } from '../../core/text';

const STATUS: Record<ColumnView['status'], string> = {
  queued: 'queued',
  running: 'streaming…',
  done: 'done',
  error: 'failed',
  cancelled: 'cancelled',
  'not-sent': 'not sent',
};

export class Column {
  readonly root: HTMLElement;
  private readonly head: HTMLElement;
  private readonly facts: HTMLElement;
  private readonly foot: HTMLElement;
  private readonly reply: Reply;
  view: ColumnView;

  constructor(view: ColumnView, openLink: (url: string) => void) {
    this.view = view;
    this.root = el('section', 'column');
    this.root.tabIndex = 0;
    this.root.dataset.index = String(view.index);
    this.head = el('header', 'col-head');
    this.facts = el('div', 'col-facts');
    const body = el('div', 'col-body');
    this.foot = el('footer', 'col-foot');
    this.root.append(this.head, body, this.foot);
    this.reply = new Reply(body, openLink, { thinkingOpen: false });
    this.show(view);
  }

  /** The reply so far (for the diff of a column that is still streaming, and the saved state). */
  get message(): Message | undefined {
    return this.reply.message;
  }

  /** Starts over from a view: its message shown whole (a reload's, or a run's so far). */
  show(view: ColumnView): void {
    this.view = view;
    this.reply.show(view.message, view.status === 'running');
    this.drawChrome();
  }

  /** A column's new state (started, ended): the reply is kept, or replaced by the final one. */
  update(view: ColumnView): void {
    const ended = view.status !== 'running' && view.status !== 'queued';
    if (ended && view.message && !this.reply.message?.content.length) {
      this.show(view);
      return;
    }
    this.view = view;
    if (ended) this.reply.finishOpen();
    this.drawChrome();
  }

  apply(ev: StreamEvent): void {
    this.reply.apply(ev);
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
    const usage = this.reply.message?.usage;
    if (usage) {
      const input = totalInput(usage);
      fact(`${thousands(input)} in`, 'col-in', 'Input tokens (cached ones included)');
      const base = first?.usage ? totalInput(first.usage) : undefined;
      if (v.index > 0 && base !== undefined) {
        const d = input - base;
        const sign = d > 0 ? '+' : d < 0 ? '-' : '±';
        const pct = base && d ? ` (${sign}${Math.abs((100 * d) / base).toFixed(1)}%)` : '';
        fact(
          `${sign}${thousands(Math.abs(d))}${pct} vs 1`,
          `col-delta ${d > 0 ? 'up' : d < 0 ? 'down' : 'same'}`,
          'Input tokens against column 1',
        );
      }
      if (v.status !== 'running') fact(`${thousands(usage.output_tokens ?? 0)} out`, 'col-out', 'Output tokens');
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
    const m = this.reply.message;
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
}
