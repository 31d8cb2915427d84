// The badges of the Cases grid's cells and detail pane: a status as an icon in the testing colours and a word
// (never colour alone), and what changed since the last saved run.
import type { CellView, HumanGrade } from '../../protocol/cases';
import type { WebviewIcon } from '../common/icons';
import { el, icon } from './dom';

const STATUS_ICON: Record<CellView['status'], WebviewIcon> = {
  queued: 'circle-large-outline',
  running: 'loading',
  passed: 'pass-filled',
  failed: 'error',
  error: 'warning',
  cancelled: 'circle-slash',
  expired: 'watch',
  skipped: 'circle-slash',
};

/**
 * The badge of a cell's status: an icon in the testing colours and a word (never colour alone). A cell waiting in
 * a Message Batch (`batchId`) says `queued in batch`, its batch in the tooltip.
 */
export function statusBadge(status: CellView['status'], batchId?: string): HTMLSpanElement {
  const b = el('span', `badge status-${status}`);
  const glyph = icon(STATUS_ICON[status]);
  if (status === 'running') glyph.classList.add('codicon-modifier-spin');
  const inBatch = status === 'queued' && batchId;
  b.append(glyph, el('span', '', inBatch ? 'queued in batch' : status));
  if (inBatch) b.title = `Waiting for Message Batch ${batchId} (half price): the cell fills when the batch ends`;
  else if (status === 'expired')
    b.title = 'Its Message Batch expired (24 hours) before this request was processed: it did not run';
  return b;
}

/** "fixed", "broke", "new" since the last saved run; nothing when it is the same. */
export function changeTag(change: CellView['change']): HTMLSpanElement | undefined {
  if (!change || change === 'same') return undefined;
  const t = el('span', `change change-${change}`, change);
  t.title =
    change === 'new'
      ? 'Not in the last saved run'
      : change === 'fixed'
        ? 'Failed in the last saved run, passes now'
        : 'Passed in the last saved run, fails now';
  return t;
}

/** "4/5": how many samples passed, of a cell that runs several (while it runs: how many have settled). */
export function samplesTag(c: CellView): HTMLSpanElement | undefined {
  const n = c.samples?.length ?? c.repeat ?? 1;
  if (n <= 1) return undefined;
  if (c.status === 'running' || c.status === 'queued') {
    const t = el('span', 'samples muted', `${c.samplesDone ?? 0}/${n}`);
    t.title = `${c.samplesDone ?? 0} of ${n} samples done`;
    return t;
  }
  const t = el('span', 'samples', `${c.passedSamples ?? 0}/${n}`);
  t.title = `${c.passedSamples ?? 0} of ${n} samples passed (${c.minPass ?? n} needed)`;
  return t;
}

/** "flaky": some samples passed and some did not. */
export function flakyTag(c: CellView): HTMLSpanElement | undefined {
  if (!c.flaky) return undefined;
  const t = el('span', 'flaky', 'flaky');
  t.title = 'Some samples passed and some did not: the same request does not always get the same verdict';
  return t;
}

/** A person's grade beside the verdict: a thumb and "you" (its note in the tooltip), never hidden by a pass. */
export function gradeTag(grade: HumanGrade | undefined): HTMLSpanElement | undefined {
  if (!grade) return undefined;
  const t = el('span', `grade grade-${grade.grade}`);
  t.append(icon(grade.grade === 'up' ? 'thumbsup-filled' : 'thumbsdown-filled'), el('span', '', 'you'));
  const said = grade.grade === 'up' ? 'You graded this reply good' : 'You graded this reply bad';
  t.title = `${said}${grade.note ? `: ${grade.note}` : ''}`;
  t.setAttribute('aria-label', t.title);
  return t;
}
