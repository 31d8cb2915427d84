// The grid's compare mode ("Compare with…" a git revision): each cell's outcome there and in the working copy
// ("failed → passed", with the change word `promptwright test --base` uses: fixed, broke, same, new,
// removed), the bar that says what is compared and leaves compare mode, and in the detail pane both sides
// with the word diff of their replies. Replies are drawn by the safe Markdown renderer, the diff as text
// nodes: model output never becomes HTML.
import type { CellChange, CellView, ComparedCell, GridCompare } from '../../protocol/cases';
import { compareSummary } from '../../protocol/cases';
import { button, el, icon } from './dom';
import { statusBadge } from './badges';

/** The revision as the page names it: `HEAD (1a2b3c4)`. */
const revisionName = (c: Pick<GridCompare, 'ref' | 'sha'>) => `${c.ref} (${c.sha.slice(0, 7)})`;

/** What a side's status says in words, for the aria labels and tooltips. */
function outcome(c: CellView | undefined, missing: string): string {
  if (!c) return missing;
  if (c.problems?.length) return 'not sent';
  return c.status;
}

const CHANGE_TITLE: Record<CellChange, (ref: string) => string> = {
  same: ref => `The same verdict as at ${ref}`,
  fixed: ref => `Failed at ${ref}, passes now`,
  broke: ref => `Passed at ${ref}, fails now`,
  new: ref => `Not at ${ref}: a new case or model`,
  removed: ref => `Only at ${ref}: no longer in the case file`,
};

/** The change word of a pair, once both its sides have ended. */
export function compareTag(change: CellChange | undefined, ref: string): HTMLSpanElement | undefined {
  if (!change) return undefined;
  const t = el('span', `change change-${change}`, change);
  t.title = CHANGE_TITLE[change](ref);
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

/** The head of a cell in compare mode: the outcome at the revision → the working copy's, and the change. */
export function compareHead(pair: ComparedCell, current: CellView | undefined, ref: string): HTMLElement[] {
  const sides = el('span', 'sides');
  const arrow = el('span', 'side-arrow', '→');
  arrow.setAttribute('aria-hidden', 'true');
  sides.append(sideBadge(pair.base, ref), arrow, sideBadge(pair.inCurrent ? current : undefined, 'the working copy'));
  const tag = compareTag(pair.change, ref);
  return [sides, ...(tag ? [tag] : [])];
}

/** What a screen reader says of a cell in compare mode: both outcomes, and the change. */
export function compareLabel(pair: ComparedCell, current: CellView | undefined, ref: string): string {
  const before = outcome(pair.base, `not at ${ref}`);
  const now = outcome(pair.inCurrent ? current : undefined, 'removed from the working copy');
  const said = [`${pair.caseName} on ${pair.model}: at ${ref} ${before}, now ${now}`];
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
    this.text.textContent = `Comparing with ${revisionName(compare)}`;
    this.text.title = `Each cell: its outcome at ${compare.ref} → in the working copy`;
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
function diffSection(pair: ComparedCell, ref: string): HTMLElement {
  const box = el('section', 'word-diff');
  box.append(el('h3', '', 'Word diff of the replies'));
  const body = el('div', 'reply diff-body');
  box.append(body);
  if (!pair.diff) {
    const why = !pair.base
      ? `No diff: the case is not at ${ref}.`
      : !pair.inCurrent
        ? 'No diff: the case is no longer in the working copy.'
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
      mark.title = p.kind === 'added' ? 'only in the working copy' : `only at ${ref}`;
      body.append(mark);
    }
  }
  return box;
}

/** The detail pane's body for a pair: both sides beside each other, then the diff of their replies. */
export function compareDetail(
  pair: ComparedCell,
  current: CellView | undefined,
  compare: Pick<GridCompare, 'ref' | 'sha'>,
  reply: (c: CellView, label: string) => HTMLElement,
): HTMLElement[] {
  const sides = el('div', 'sides-detail');
  sides.append(
    side(`At ${revisionName(compare)}`, pair.base, `Not at ${compare.ref}: a new case or model.`, c =>
      reply(c, `The reply at ${compare.ref}`),
    ),
    side('Working copy', pair.inCurrent ? current : undefined, 'No longer in the case file.', c =>
      reply(c, 'The reply in the working copy'),
    ),
  );
  return [sides, diffSection(pair, compare.ref)];
}
