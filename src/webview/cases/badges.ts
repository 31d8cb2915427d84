// The badges of the Cases grid's cells and detail pane: a status as an icon in the testing colours and a word
// (never colour alone), and what changed since the last saved run.
import type { CellView } from '../../protocol/cases';
import type { WebviewIcon } from '../common/icons';
import { el, icon } from './dom';

const STATUS_ICON: Record<CellView['status'], WebviewIcon> = {
  queued: 'circle-large-outline',
  running: 'loading',
  passed: 'pass-filled',
  failed: 'error',
  error: 'warning',
  cancelled: 'circle-slash',
};

/** The badge of a cell's status: an icon in the testing colours and a word (never colour alone). */
export function statusBadge(status: CellView['status']): HTMLSpanElement {
  const b = el('span', `badge status-${status}`);
  const glyph = icon(STATUS_ICON[status]);
  if (status === 'running') glyph.classList.add('codicon-modifier-spin');
  b.append(glyph, el('span', '', status));
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
