// The detail pane under the grid: the selected cell's whole reply (Markdown drawn as DOM nodes, or the raw
// text), each assertion with why it failed (a rubric's: the judge's reason), the usage, latency, cost and
// request-id, and the error when the request failed (type, message, request-id). A cell of several samples
// lists each: its verdict, assertions, cost and reply. Each reply can be graded 👍 or 👎 with a note. Its
// buttons re-run the cell or its row: the keyboard's way to do what the grid's small buttons do for the pointer.
import { usageWords } from '../../core/api/usage';
import { formatUsd } from '../../core/cost/format';
import type {
  AssertionResult,
  CellView,
  ComparedCell,
  GridCompare,
  RerunTarget,
  SampleView,
} from '../../protocol/cases';
import { replyText } from '../common/reply';
import { button, duration, el, icon } from './dom';
import { changeTag, flakyTag, gradeTag, samplesTag, statusBadge } from './badges';
import { compareDetail, compareTag, sidesOf } from './compare';

/** Compare mode: the selected cell's pair, and the revision it is compared with. */
export type ComparedDetail = Pick<GridCompare, 'ref' | 'sha' | 'current'> & { pair: ComparedCell };

export interface DetailActions {
  rerun(target: RerunTarget): void;
  openLink(url: string): void;
  close(): void;
  /** a grade of a sample's reply (`none` takes it back); `note` asks for a note to keep with it */
  grade(caseName: string, model: string, sample: number, grade: 'up' | 'down' | 'none', note?: boolean): void;
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
      const tag = compareTag(compared.pair.change, sidesOf(compared));
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
    const tags = [samplesTag(c), flakyTag(c), changeTag(c.change)].filter((t): t is HTMLSpanElement => !!t);
    head.append(title, statusBadge(c.status, c.batchId), ...tags, el('span', 'spacer'), again, row, close);
    const parts: HTMLElement[] = [head, this.facts(c)];
    if (c.error) parts.push(this.error(c.error));
    if (c.problems?.length) parts.push(this.problems(c.problems));
    // a loop's trajectory leads to its final reply (a cell of several samples says only which tools they called)
    const trajectory = (c.samples?.length ?? 1) > 1 ? undefined : c.trajectory;
    if ((c.samples?.length ?? 1) > 1) parts.push(this.samples(c));
    else {
      if (c.assertions.length) parts.push(this.assertions(c));
      if (trajectory) parts.push(this.trajectory(trajectory));
      parts.push(this.reply(c));
    }
    if (!trajectory && c.toolCalls?.length) parts.push(el('div', 'muted', `Tool calls: ${c.toolCalls.join(', ')}`));
    this.root.replaceChildren(...parts);
    if (focusKey) this.root.querySelector<HTMLElement>(`[data-action="${focusKey}"]`)?.focus();
  }

  /** A tool-use loop's model requests and each call answered, as text (a model's input is never HTML). */
  private trajectory(lines: readonly string[]): HTMLElement {
    const box = el('section', 'trajectory');
    const list = el(
      'pre',
      'trajectory-lines',
      lines
        .slice(1)
        .map(l => l.trim())
        .join('\n'),
    );
    box.append(el('h3', '', `Trajectory · ${lines[0] ?? ''}`), list);
    return box;
  }

  /** The reply: rendered Markdown (model output drawn as nodes, never parsed as HTML) or its raw text. */
  private reply(c: CellView): HTMLElement {
    const box = el('section', 'reply-section');
    const head = el('div', 'reply-head');
    const sample = c.samples?.[0];
    const grade = sample && c.status !== 'running' && c.status !== 'queued' ? this.gradeButtons(c, 0, sample) : [];
    const said = gradeTag(sample?.humanGrade);
    head.append(el('h3', '', 'Reply'), ...(said ? [said] : []), el('span', 'spacer'), ...grade, this.rawToggle());
    box.append(head, this.replyText(c, 'The reply'));
    if (sample?.humanGrade?.note) box.appendChild(el('p', 'grade-note', `Your note: ${sample.humanGrade.note}`));
    return box;
  }

  /** Every sample of a cell that runs several: each one's verdict, grade, facts, assertions and reply. */
  private samples(c: CellView): HTMLElement {
    const all = c.samples ?? [];
    const section = el('section', 'samples-section');
    const head = el('div', 'reply-head');
    const passed = `${c.passedSamples ?? 0} of ${all.length} passed (${c.minPass ?? all.length} needed)`;
    head.append(el('h3', '', `Samples · ${passed}`), el('span', 'spacer'), this.rawToggle());
    section.appendChild(head);
    all.forEach((s, i) => {
      const box = el('div', `sample status-${s.status}`);
      box.dataset.sample = String(i);
      const top = el('div', 'sample-head');
      const said = gradeTag(s.humanGrade);
      const facts: string[] = [];
      if (s.latencyMs !== undefined) facts.push(duration(s.latencyMs));
      if (s.costUsd !== null && s.costUsd > 0) facts.push(formatUsd(s.costUsd));
      if (s.judgeCostUsd) facts.push(`judge ${formatUsd(s.judgeCostUsd)}`);
      if (s.requestId) facts.push(s.requestId);
      top.append(
        el('strong', '', `Sample ${i + 1}`),
        statusBadge(s.status),
        ...(said ? [said] : []),
        el('span', 'muted', facts.join(' · ')),
        el('span', 'spacer'),
        ...(s.status === 'cancelled' ? [] : this.gradeButtons(c, i, s)),
      );
      box.appendChild(top);
      if (s.error) box.appendChild(this.error(s.error));
      if (s.assertions.length) box.appendChild(this.assertionList(s.assertions));
      if (s.humanGrade?.note) box.appendChild(el('p', 'grade-note', `Your note: ${s.humanGrade.note}`));
      box.appendChild(this.replyText(s, `The reply of sample ${i + 1}`));
      section.appendChild(box);
    });
    return section;
  }

  /** 👍 and 👎 (pressed when given; pressed again takes it back) and a note, for one sample's reply. */
  private gradeButtons(c: CellView, sample: number, s: SampleView): HTMLButtonElement[] {
    const now = s.humanGrade?.grade;
    const make = (grade: 'up' | 'down', label: string) => {
      const pressed = now === grade;
      // one glyph each way; a given grade is the pressed button (aria-pressed: highlighted)
      const b = button(label, grade === 'up' ? 'thumbsup-filled' : 'thumbsdown-filled', 'icon-btn grade-btn', true);
      b.dataset.action = `grade-${grade}-${sample}`;
      b.title = `${label}${pressed ? ' (given: press again to take it back)' : ''}`;
      b.setAttribute('aria-label', `${label}: sample ${sample + 1}`);
      b.setAttribute('aria-pressed', String(pressed));
      b.addEventListener('click', () => this.actions.grade(c.caseName, c.model, sample, pressed ? 'none' : grade));
      return b;
    };
    const note = this.action('Note…', 'output', `grade-note-${sample}`, 'A note on this reply, kept with its grade');
    note.addEventListener('click', () => this.actions.grade(c.caseName, c.model, sample, now ?? 'none', true));
    return [make('up', 'A good reply (👍)'), make('down', 'A bad reply (👎)'), note];
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

  private replyText(c: Pick<CellView, 'text' | 'status'>, label: string): HTMLElement {
    if (!c.text) return el('div', 'reply muted', c.status === 'running' ? '…' : '(no text)');
    const box = replyText(c.text, url => this.actions.openLink(url), this.raw ? 'reply raw' : 'reply md', this.raw);
    box.setAttribute('aria-label', label);
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
    // every sample's cost, and its judges' apart; no price: said, never a guess
    const note = c.samples?.find(s => s.costNote)?.costNote;
    if (c.costUsd === null) fact('cost', `unknown (${note ?? 'no price'})`);
    else if (c.costUsd !== undefined) fact('cost', formatUsd(c.costUsd));
    if (c.judgeCostUsd !== undefined)
      fact('judge', c.judgeCostUsd === null ? 'cost unknown' : formatUsd(c.judgeCostUsd));
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
    section.appendChild(this.assertionList(c.assertions));
    return section;
  }

  /** Each assertion with its verdict; one that could not be checked (the judge failed, no price) as a warning. */
  private assertionList(assertions: readonly AssertionResult[]): HTMLElement {
    const list = el('ul', 'assertion-list');
    for (const a of assertions) {
      const state = a.error ? 'error' : a.pass ? 'pass' : 'fail';
      const li = el('li', state);
      // the message names the assertion itself (`regex /^Bonjour/: no match …`); a rubric's says the judge's reason
      li.append(
        icon(a.error ? 'warning' : a.pass ? 'pass-filled' : 'error'),
        el('span', 'assertion-message', a.message),
      );
      if (a.cached) li.title = 'Verdict kept from an earlier run: the judge was not asked again';
      const verdict = a.error ? 'could not be checked' : a.pass ? 'passed' : 'failed';
      li.setAttribute('aria-label', `${a.type} ${verdict}: ${a.message}`);
      list.appendChild(li);
    }
    return list;
  }
}
