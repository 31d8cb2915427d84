// The detail pane under the grid: the selected cell's whole reply (Markdown drawn as DOM nodes, or the raw
// text), each assertion with why it failed, the usage, latency and request-id, and the error when the request
// failed (type, message, request-id). Its buttons re-run the cell or its row: the keyboard's way to do what
// the grid's small buttons do for the pointer.
import { usageWords } from '../../core/api/usage';
import type { CellView, ComparedCell, GridCompare, RerunTarget } from '../../protocol/cases';
import { renderMarkdown } from '../common/markdown';
import { button, duration, el, icon } from './dom';
import { changeTag, statusBadge } from './badges';
import { compareDetail, compareTag } from './compare';

/** Compare mode: the selected cell's pair, and the revision it is compared with. */
export type ComparedDetail = Pick<GridCompare, 'ref' | 'sha'> & { pair: ComparedCell };

export interface DetailActions {
  rerun(target: RerunTarget): void;
  openLink(url: string): void;
  close(): void;
}

export class Detail {
  /** the reply as its raw text rather than rendered (kept while moving between cells) */
  private raw = false;
  private shown: CellView | undefined;
  private compared: ComparedDetail | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly actions: DetailActions,
  ) {}

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  /** Shows a cell; in compare mode (`compared`) both its sides and the diff of their replies. */
  show(c: CellView | undefined, compared?: ComparedDetail): void {
    this.shown = c;
    this.compared = compared;
    if (!c) {
      this.root.hidden = true;
      this.root.replaceChildren();
      return;
    }
    this.root.hidden = false;
    // a redraw while the person is on one of the pane's buttons keeps them there
    const focused = this.root.contains(document.activeElement) ? (document.activeElement as HTMLElement) : undefined;
    const focusKey = focused?.dataset.action;
    const head = el('header', 'detail-head');
    const title = el('h2', 'detail-title');
    title.append(el('span', 'case-name', c.caseName), el('span', 'muted', ' on '), el('span', 'model-name', c.model));
    const busy = c.status === 'running' || c.status === 'queued';
    const again = this.action('Re-run', 'refresh', 'rerun-cell', `Re-run "${c.caseName}" on ${c.model}`);
    again.dataset.rerun = 'cell';
    again.disabled = busy;
    again.addEventListener('click', () => this.actions.rerun({ scope: 'cell', caseName: c.caseName, model: c.model }));
    const row = this.action('Re-run Case', 'run-all', 'rerun-row', `Re-run "${c.caseName}" on every model`);
    row.dataset.rerun = 'row';
    row.disabled = busy;
    row.addEventListener('click', () => this.actions.rerun({ scope: 'row', caseName: c.caseName }));
    const close = this.action('Close', 'close', 'close', 'Close the detail pane (Escape)', true);
    close.addEventListener('click', () => this.actions.close());
    if (compared) {
      const tag = compareTag(compared.pair.change, compared.ref);
      head.append(title, ...(tag ? [tag] : []), el('span', 'spacer'), this.rawToggle(), again, row, close);
      const current = compared.pair.inCurrent ? c : undefined;
      const body = (v: CellView, label: string) => {
        const box = el('div', 'side-body');
        box.append(this.facts(v), this.replyText(v, label));
        return box;
      };
      this.root.replaceChildren(head, ...compareDetail(compared.pair, current, compared, body));
      if (focusKey) this.root.querySelector<HTMLElement>(`[data-action="${focusKey}"]`)?.focus();
      return;
    }
    const tag = changeTag(c.change);
    head.append(title, statusBadge(c.status), ...(tag ? [tag] : []), el('span', 'spacer'), again, row, close);
    const parts: HTMLElement[] = [head, this.facts(c)];
    if (c.error) parts.push(this.error(c.error));
    if (c.problems?.length) parts.push(this.problems(c.problems));
    if (c.assertions.length) parts.push(this.assertions(c));
    parts.push(this.reply(c));
    if (c.toolCalls?.length) parts.push(el('div', 'muted', `Tool calls: ${c.toolCalls.join(', ')}`));
    this.root.replaceChildren(...parts);
    if (focusKey) this.root.querySelector<HTMLElement>(`[data-action="${focusKey}"]`)?.focus();
  }

  /** The reply: rendered Markdown (model output drawn as nodes, never parsed as HTML) or its raw text. */
  private reply(c: CellView): HTMLElement {
    const box = el('section', 'reply-section');
    const head = el('div', 'reply-head');
    head.append(el('h3', '', 'Reply'), el('span', 'spacer'), this.rawToggle());
    box.append(head, this.replyText(c, 'The reply'));
    return box;
  }

  private rawToggle(): HTMLButtonElement {
    const toggle = this.action(this.raw ? 'Rendered' : 'Raw text', 'output', 'raw', '');
    toggle.setAttribute('aria-pressed', String(this.raw));
    toggle.title = this.raw ? 'Show the reply rendered as Markdown' : 'Show the reply as the model wrote it';
    toggle.addEventListener('click', () => {
      this.raw = !this.raw;
      this.show(this.shown, this.compared);
    });
    return toggle;
  }

  private replyText(c: CellView, label: string): HTMLElement {
    if (!c.text) return el('div', 'reply muted', c.status === 'running' ? '…' : '(no text)');
    const box = this.raw ? el('pre', 'reply raw', c.text) : el('div', 'reply md');
    box.setAttribute('aria-label', label);
    if (!this.raw) box.appendChild(renderMarkdown(document, c.text, url => this.actions.openLink(url)));
    return box;
  }

  private action(label: string, iconName: Parameters<typeof button>[1], key: string, title: string, iconOnly = false) {
    const b = button(label, iconName, iconOnly ? 'icon-btn' : 'btn', iconOnly);
    b.dataset.action = key;
    if (title) b.title = title;
    return b;
  }

  private facts(c: CellView): HTMLElement {
    const box = el('div', 'facts');
    const fact = (label: string, value: string | number | undefined | null) => {
      if (value === undefined || value === null || value === '') return;
      const f = el('span', 'fact');
      f.append(el('span', 'fact-label', label), el('span', 'fact-value', String(value)));
      box.appendChild(f);
    };
    fact('latency', c.latencyMs === undefined ? undefined : duration(c.latencyMs));
    // in words, as the response panel and the CLI say it: cache reads with their share, writes 5m and 1h apart
    if (c.usage) fact('usage', usageWords(c.usage));
    else {
      fact('input tokens', c.inputTokens);
      fact('output tokens', c.outputTokens);
    }
    fact('stop reason', c.stopReason);
    fact('request-id', c.requestId ?? c.error?.requestId);
    if (c.retry) fact('retrying', `${c.retry.type}: attempt ${c.retry.attempt} of ${c.retry.maxAttempts}`);
    return box;
  }

  private error(e: NonNullable<CellView['error']>): HTMLElement {
    const box = el('div', 'banner error');
    box.setAttribute('role', 'alert');
    const head = el('div', 'banner-head');
    head.append(icon('error'), el('strong', '', e.type));
    box.append(head, el('div', 'banner-message', e.message));
    if (e.requestId) box.appendChild(el('div', 'muted', `request-id ${e.requestId}`));
    return box;
  }

  private problems(problems: string[]): HTMLElement {
    const box = el('div', 'banner error');
    const head = el('div', 'banner-head');
    head.append(icon('error'), el('strong', '', 'Not sent: the filled request has errors'));
    const list = el('ul', 'problems');
    for (const p of problems) list.appendChild(el('li', '', p));
    box.append(head, list);
    return box;
  }

  private assertions(c: CellView): HTMLElement {
    const section = el('section', 'assertions');
    const passed = c.assertions.filter(a => a.pass).length;
    section.appendChild(el('h3', '', `Assertions · ${passed} of ${c.assertions.length} passed`));
    const list = el('ul', 'assertion-list');
    for (const a of c.assertions) {
      const li = el('li', a.pass ? 'pass' : 'fail');
      // the message names the assertion itself (`regex /^Bonjour/: no match …`)
      li.append(icon(a.pass ? 'pass-filled' : 'error'), el('span', 'assertion-message', a.message));
      li.setAttribute('aria-label', `${a.type} ${a.pass ? 'passed' : 'failed'}: ${a.message}`);
      list.appendChild(li);
    }
    section.appendChild(list);
    return section;
  }
}
