// The detail pane under the grid: the selected cell's whole reply, each assertion with why it failed, the
// usage, latency and request-id, and the error when the request failed (type, message, request-id).
import { usageWords } from '../../core/api/usage';
import type { CellView, RerunTarget } from '../../protocol/cases';
import { button, duration, el, icon } from './dom';
import { changeTag, statusBadge } from './grid';

export class Detail {
  constructor(
    private readonly root: HTMLElement,
    private readonly rerun: (target: RerunTarget) => void,
  ) {}

  show(c: CellView | undefined): void {
    if (!c) {
      this.root.hidden = true;
      this.root.replaceChildren();
      return;
    }
    this.root.hidden = false;
    const head = el('header', 'detail-head');
    const title = el('h2', 'detail-title');
    title.append(el('span', 'case-name', c.caseName), el('span', 'muted', ' on '), el('span', 'model-name', c.model));
    const again = button('Re-run', 'refresh');
    again.dataset.rerun = 'cell';
    again.disabled = c.status === 'running' || c.status === 'queued';
    again.addEventListener('click', () => this.rerun({ scope: 'cell', caseName: c.caseName, model: c.model }));
    const tag = changeTag(c.change);
    head.append(title, statusBadge(c.status), ...(tag ? [tag] : []), el('span', 'spacer'), again);
    const parts: HTMLElement[] = [head, this.facts(c)];
    if (c.error) parts.push(this.error(c.error));
    if (c.problems?.length) parts.push(this.problems(c.problems));
    if (c.assertions.length) parts.push(this.assertions(c));
    parts.push(el('h3', '', 'Reply'));
    const reply = el('pre', 'reply', c.text || (c.status === 'running' ? '…' : '(no text)'));
    if (!c.text) reply.classList.add('muted');
    parts.push(reply);
    if (c.toolCalls?.length) parts.push(el('div', 'muted', `Tool calls: ${c.toolCalls.join(', ')}`));
    this.root.replaceChildren(...parts);
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
