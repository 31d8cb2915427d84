// The grid's compare mode ("Compare with…" a git revision, or Improve Prompt's "Compare with the Improved Prompt"):
// each cell's outcome on the base (the revision, or the working copy) and now (the working copy, or the improved
// prompt) ("failed → passed", with the change word `promptwright test --base` uses: fixed, broke, same, new,
// removed), the bar that says what is compared and leaves compare mode, and in the detail pane both sides
// with the word diff of their replies. Replies are drawn by the safe Markdown renderer, the diff as text
// nodes: model output never becomes HTML.
import type { CellChange, CellView, ComparedCell, GridCompare } from '../../protocol/cases';
import { compareSummary } from '../../protocol/cases';
import { button, el, icon } from './dom';
import { statusBadge } from './badges';

/** How the page names the two sides of a comparison. */
export interface Sides {
  /** the base: `HEAD (1a2b3c4)`, `the working copy` */
  base: string;
  /** where the base's outcome is, in a sentence: `at HEAD`, `in the working copy` */
  at: string;
  /** what the cells ran on: `the working copy`, `the improved prompt` */
  now: string;
  /** where their outcome is: `in the working copy`, `with the improved prompt` */
  nowAt: string;
  /** the detail pane's headings of the two sides: `At HEAD (1a2b3c4)` and `Working copy` */
  headings: [string, string];
}

export function sidesOf(c: Pick<GridCompare, 'ref' | 'sha' | 'current'>): Sides {
  const now = c.current ?? 'the working copy';
  const base = c.sha ? `${c.ref} (${c.sha.slice(0, 7)})` : c.ref;
  const heading = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  return {
    base,
    at: `${c.sha ? 'at' : 'in'} ${c.ref}`,
    now,
    nowAt: `${c.current ? 'with' : 'in'} ${now}`,
    headings: [`${c.sha ? 'At' : 'In'} ${base}`, heading(now.replace(/^the /, ''))],
  };
}

/** What a side's status says in words, for the aria labels and tooltips. */
function outcome(c: CellView | undefined, missing: string): string {
  if (!c) return missing;
  if (c.problems?.length) return 'not sent';
  return c.status;
}

const CHANGE_TITLE: Record<CellChange, (s: Sides) => string> = {
  same: s => `The same verdict as ${s.at}`,
  fixed: s => `Failed ${s.at}, passes ${s.nowAt}`,
  broke: s => `Passed ${s.at}, fails ${s.nowAt}`,
  new: s => `Not ${s.at}: a new case or model`,
  removed: s => `Only ${s.at}: no longer in the case file`,
};

/** The change word of a pair, once both its sides have ended. */
export function compareTag(change: CellChange | undefined, s: Sides): HTMLSpanElement | undefined {
  if (!change) return undefined;
  const t = el('span', `change change-${change}`, change);
  t.title = CHANGE_TITLE[change](s);
  return t;
}

/** A side's badge, or a dash where the version has no such cell. */
function sideBadge(c: CellView | undefined, where: string): HTMLElement {
  if (!c) {
    const none = el('span', 'badge side-none', '—');
    none.title = `Not in ${where}`;
    return none;
  }
  const b = statusBadge(c.status);
  b.title = `${where}: ${outcome(c, '')}`;
  return b;
}

/** The head of a cell in compare mode: the outcome on the base → now, and the change. */
export function compareHead(pair: ComparedCell, current: CellView | undefined, s: Sides): HTMLElement[] {
  const sides = el('span', 'sides');
  const arrow = el('span', 'side-arrow', '→');
  arrow.setAttribute('aria-hidden', 'true');
  sides.append(sideBadge(pair.base, s.base), arrow, sideBadge(pair.inCurrent ? current : undefined, s.now));
  const tag = compareTag(pair.change, s);
  return [sides, ...(tag ? [tag] : [])];
}

/** What a screen reader says of a cell in compare mode: both outcomes, and the change. */
export function compareLabel(pair: ComparedCell, current: CellView | undefined, s: Sides): string {
  const before = outcome(pair.base, `not ${s.at}`);
  const now = outcome(pair.inCurrent ? current : undefined, `removed from ${s.now}`);
  const said = [`${pair.caseName} on ${pair.model}: ${s.at} ${before}, now ${now}`];
  if (pair.change) said.push(pair.change);
  return `${said.join(', ')}. Enter shows both replies and their diff.`;
}

/** The bar over a grid in compare mode: what it compares with, how the cells changed, and the way out. */
export class CompareBar {
  private readonly text = el('span', 'compare-what');
  private readonly summary = el('span', 'compare-summary');
  private readonly notice = el('div', 'compare-notice');
  readonly leave = button('Leave Compare', 'close');

  constructor(
    private readonly root: HTMLElement,
    leave: () => void,
  ) {
    this.leave.id = 'leave-compare';
    this.leave.title = 'Back to the grid of the working copy alone';
    this.leave.addEventListener('click', leave);
    this.summary.setAttribute('role', 'status');
    const line = el('div', 'compare-line');
    line.append(icon('git-compare'), this.text, this.summary, el('span', 'spacer'), this.leave);
    root.append(line, this.notice);
  }

  /** `cells`: the pairs as they are now (the grid's list is as it came; patches update the page's own). */
  show(compare: GridCompare | undefined, cells: readonly ComparedCell[], running: boolean): void {
    this.root.hidden = !compare;
    document.body.classList.toggle('comparing', !!compare);
    if (!compare) return;
    const s = sidesOf(compare);
    this.text.textContent = compare.current ? `Comparing ${s.now} with ${s.base}` : `Comparing with ${s.base}`;
    this.text.title = `Each cell: its outcome ${s.at} → ${s.nowAt}`;
    const summary = compareSummary(cells);
    this.summary.textContent = summary ? `· ${summary}` : '';
    this.notice.textContent = compare.notice ?? '';
    this.notice.hidden = !compare.notice;
    this.leave.disabled = running;
  }
}

/** One side of a pair in the detail pane: where it is from, its outcome, why it failed, its reply. */
function side(
  title: string,
  c: CellView | undefined,
  missing: string,
  reply: (c: CellView) => HTMLElement,
): HTMLElement {
  const box = el('section', 'side');
  const head = el('div', 'side-head');
  head.append(el('h3', '', title));
  if (c) head.append(statusBadge(c.status));
  box.append(head);
  if (!c) {
    box.append(el('div', 'reply muted', missing));
    return box;
  }
  const why = c.error
    ? `${c.error.type}: ${c.error.message}`
    : c.problems?.length
      ? `Not sent: ${c.problems[0]}`
      : c.assertions.find(a => !a.pass)?.message;
  if (why) box.append(el('div', 'side-why', why));
  box.append(reply(c));
  return box;
}

/** The word diff of the two replies: deleted and inserted spans, every word a text node. */
function diffSection(pair: ComparedCell, s: Sides): HTMLElement {
  const box = el('section', 'word-diff');
  box.append(el('h3', '', 'Word diff of the replies'));
  const body = el('div', 'reply diff-body');
  box.append(body);
  if (!pair.diff) {
    const why = !pair.base
      ? `No diff: the case is not ${s.at}.`
      : !pair.inCurrent
        ? `No diff: the case is no longer ${s.nowAt}.`
        : pair.change
          ? 'No diff: one side was not sent.'
          : 'The diff shows when both sides have ended.';
    body.append(el('span', 'muted', why));
    body.classList.add('empty');
    return box;
  }
  if (!pair.diff.some(p => p.kind !== 'same')) body.append(el('div', 'muted diff-same', 'The replies are the same.'));
  for (const p of pair.diff) {
    if (p.kind === 'same') body.append(document.createTextNode(p.text));
    else {
      const mark = el(p.kind === 'added' ? 'ins' : 'del', `diff-${p.kind}`, p.text);
      mark.title = p.kind === 'added' ? `only ${s.nowAt}` : `only ${s.at}`;
      body.append(mark);
    }
  }
  return box;
}

/** The detail pane's body for a pair: both sides beside each other, then the diff of their replies. */
export function compareDetail(
  pair: ComparedCell,
  current: CellView | undefined,
  compare: Pick<GridCompare, 'ref' | 'sha' | 'current'>,
  reply: (c: CellView, label: string) => HTMLElement,
): HTMLElement[] {
  const s = sidesOf(compare);
  const sides = el('div', 'sides-detail');
  sides.append(
    side(s.headings[0], pair.base, `Not ${s.at}: a new case or model.`, c => reply(c, `The reply ${s.at}`)),
    side(s.headings[1], pair.inCurrent ? current : undefined, 'No longer in the case file.', c =>
      reply(c, `The reply ${s.nowAt}`),
    ),
  );
  return [sides, diffSection(pair, s)];
}
