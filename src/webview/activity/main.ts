// The Activity Feed webview. It talks to the extension only through the typed protocol; it asks for the next
// page only when the table is scrolled near its end (an IntersectionObserver on a sentinel below the last
// row) and only when no page is in flight, and it keeps the filter with setState so a reload restores it.
import {
  parseActivityWebviewState,
  type ActivityFilter,
  type ActivityWebviewState,
  type FeedError,
  type FeedStatus,
  type FromActivityWebview,
  type ToActivityWebview,
} from '../../protocol/activity';
import { Page } from '../common/page';
import { RecordPane } from './detail';
import { thousands } from '../../core/text';
import { $, button, el, icon, plural } from './dom';
import { FilterBar } from './filterBar';
import { FeedTable } from './table';

const page = new Page<ToActivityWebview, FromActivityWebview, ActivityWebviewState>(parseActivityWebviewState);
const post = (m: FromActivityWebview) => page.post(m);

/** How close (px) the end of the table may come to the bottom of the view before the next page is asked for. */
const NEAR_END_PX = 600;

let status: FeedStatus = { loaded: 0, end: false, loading: 'first' };
let error: FeedError | undefined;
/** a `more` was posted and its answer (a status) has not come back: never two in flight */
let askedForMore = false;
let noticeTimer: ReturnType<typeof setTimeout> | undefined;
/** the filter in force, as the extension last said: what setState keeps */
let applied: ActivityFilter = {};

const scroller = $('scroller');
const sentinel = $('sentinel');
const table = new FeedTable($<HTMLTableSectionElement>('rows'), {
  open: id => post({ type: 'open', id }),
  // with the pane open, it follows the keyboard: the arrow keys read record after record
  moved: id => pane.id && post({ type: 'open', id }),
  refreshOrganizations: id => post({ type: 'refresh-organizations', id }),
});
const pane = new RecordPane({
  openJson: id => post({ type: 'open-json', id }),
  closed: id => {
    table.select(undefined);
    table.focusRow(id);
  },
});
const filters = new FilterBar($<HTMLFormElement>('filters'), $('problems'), {
  apply: (filter: ActivityFilter) => post({ type: 'apply', filter }),
  newer: () => post({ type: 'newer' }),
  export: () => post({ type: 'export' }),
});

// ---- what a reload restores --------------------------------------------------------------------------------

const saved = page.restored;

function save(): void {
  page.save({ filter: applied, scrollTop: Math.round(scroller.scrollTop) });
}

/** the table was scrolled since the last frame: where to is saved once, in the next frame */
let scrolled = false;
scroller.addEventListener(
  'scroll',
  () => {
    scrolled = true;
    page.schedule();
  },
  { passive: true },
);

function draw(): void {
  if (!scrolled) return;
  scrolled = false;
  save();
}

// ---- paging as the table scrolls --------------------------------------------------------------------------

function nearEnd(): boolean {
  const view = scroller.getBoundingClientRect();
  return sentinel.getBoundingClientRect().top <= view.bottom + NEAR_END_PX;
}

function maybeMore(): void {
  if (askedForMore || status.loading || status.end || error || !table.size || !nearEnd()) return;
  askedForMore = true;
  post({ type: 'more' });
}

// fires when the sentinel comes within NEAR_END_PX of the view; after each page maybeMore looks again, since
// a page too short to fill the view leaves the sentinel in sight and the observer would not fire a second time
new IntersectionObserver(entries => entries.some(e => e.isIntersecting) && maybeMore(), {
  root: scroller,
  rootMargin: `0px 0px ${NEAR_END_PX}px 0px`,
}).observe(sentinel);

// ---- rendering ---------------------------------------------------------------------------------------------

function statusText(s: FeedStatus): string {
  const key = s.keyKind === 'admin' ? ' · Admin key (reads the Activity Feed only)' : '';
  if (s.loading === 'first') return 'Loading the Activity Feed…';
  if (error) return `${plural(s.loaded, 'record')} loaded${key}`;
  if (s.loading === 'more') return `${thousands(s.loaded)} loaded · loading more…${key}`;
  if (s.loading === 'newer') return `${thousands(s.loaded)} loaded · checking for newer…${key}`;
  if (s.end) return s.loaded ? `End of feed · ${plural(s.loaded, 'record')}${key}` : `No records${key}`;
  return `${thousands(s.loaded)} loaded · more as you scroll${key}`;
}

function renderStatus(): void {
  $('status').textContent = statusText(status);
  $('progress').hidden = !status.loading;
  const empty = $('empty');
  empty.hidden = !(status.end && !status.loaded && !error);
  empty.textContent = 'No activity matches these filters.';
  filters.setLoading(!!status.loading);
}

function renderError(): void {
  const banner = $('banner');
  if (!error) {
    banner.replaceChildren();
    return;
  }
  const box = el('div', 'banner error');
  box.setAttribute('role', 'alert');
  const head = el('div', 'banner-head');
  head.append(icon('error'), el('strong', undefined, error.type));
  if (error.status) head.appendChild(el('span', 'muted', ` (${error.status})`));
  box.append(head, el('div', 'banner-message', error.message));
  if (error.explanation) box.appendChild(el('div', 'banner-explanation', error.explanation));
  if (error.requestId) box.appendChild(el('div', 'muted request-id', `request-id ${error.requestId}`));
  const actions = el('div', 'banner-actions');
  if (error.type !== 'invalid_filter') {
    const retry = button('Retry', 'refresh', 'btn primary');
    retry.addEventListener('click', () => post({ type: 'retry' }));
    actions.appendChild(retry);
  }
  if (error.offerSetKey) {
    const setKey = button('Set Compliance Key', 'key');
    setKey.addEventListener('click', () => post({ type: 'set-key' }));
    actions.appendChild(setKey);
  }
  if (actions.childElementCount) box.appendChild(actions);
  banner.replaceChildren(box);
}

function notice(text: string): void {
  const n = $('notice');
  n.textContent = text;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (n.textContent = ''), 6000);
}

// ---- messages ----------------------------------------------------------------------------------------------

function handle(m: ToActivityWebview): void {
  switch (m.type) {
    case 'state':
      // a filter in force means a table starting over: rows follow
      applied = m.filter;
      filters.show(m.filter);
      table.clear();
      pane.close();
      scroller.scrollTop = 0;
      askedForMore = false;
      save();
      break;
    case 'rows':
      if (m.where === 'prepend') table.prepend(m.rows);
      else table.append(m.rows);
      // back where the person was before the tab was hidden (opening a record hides it)
      if (m.restore && saved?.scrollTop) scroller.scrollTop = saved.scrollTop;
      break;
    case 'status':
      status = m.status;
      if (!status.loading) askedForMore = false;
      renderStatus();
      // the next frame, once the rows are laid out: a short page may leave the end in sight
      requestAnimationFrame(maybeMore);
      break;
    case 'error':
      error = m.error;
      renderError();
      renderStatus();
      break;
    case 'export':
      filters.setExport(m.state);
      break;
    case 'notice':
      notice(m.text);
      break;
    case 'record':
      pane.show(m.id, m.label, m.record);
      table.select(m.id);
      break;
  }
}

// the filter the webview last had, shown before the extension answers (it sends the same on `ready`)
if (saved) filters.show(saved.filter);
renderStatus();
page.start({ handle, draw });
