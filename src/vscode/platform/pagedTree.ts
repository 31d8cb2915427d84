// The one "Load more" of every tree whose lists come a page at a time (Session Resources, Organization,
// Compliance): a list loads its first page when it is first expanded, shows a "Load more…" row while pages
// remain and an error row when a page failed, and one command serves both rows (a failed page is asked for
// again, from the same cursor). How to add a paged tree: docs/architecture.md, "A paged tree".
import * as vscode from 'vscode';
import { Pager, type Loaded } from '../../core/api/pager';
import { thousands } from '../../core/text';

/** The command of a "Load more…" row and of a failed page's row. Older ids stay as aliases (extension.ts). */
const LOAD_MORE_COMMAND = 'promptwright.loadMore';

/** How a tree shows a failure: the row's label, its hover, and the command that fixes it, if one does. */
export interface ErrorView {
  label: string;
  tooltip: string;
  /** clicked instead of retrying (set a key); without it, a click retries */
  fix?: vscode.Command;
}

/** A list's "Load more…" row. */
export interface MoreRow<N> {
  kind: 'more';
  list: PagedList<unknown, N>;
  loaded: number;
}

/** A failure's row: a page of `list` that failed, or (without a list) something the tree loads itself. */
export interface ErrorRow<N> {
  kind: 'error';
  error: unknown;
  view: ErrorView;
  list?: PagedList<unknown, N>;
}

export type PageRow<N> = MoreRow<N> | ErrorRow<N>;

/** What the lists of one tree share: its view, its change event, and how it explains a failure. */
export interface PagedTreeOptions<N> {
  viewId: string;
  changed: vscode.EventEmitter<N | undefined>;
  explain(error: unknown): ErrorView | Promise<ErrorView>;
  /** what a click on an error row without a list runs (it loads the tree again) */
  retry?: string;
}

/** The paged lists of one tree view, and the rows they add to it. */
export class PagedTree<N> {
  constructor(private readonly o: PagedTreeOptions<N>) {}

  /** A list under the node `parent` gives, loaded a page at a time from `fetch` (see firstPage). */
  list<T>(parent: () => N | undefined, fetch: (cursor: string | undefined) => Promise<Loaded<T>>): PagedList<T, N> {
    return new PagedList(fetch, this.o, parent);
  }

  /** The row of a failure that is not a page's (the tree's own first load), shown as `view` says. */
  errorRow(error: unknown, view: ErrorView): ErrorRow<N> {
    return { kind: 'error', error, view };
  }

  /** The tree item of a "Load more…" or error row. */
  item(row: PageRow<N>): vscode.TreeItem {
    if (row.kind === 'more') {
      const it = new vscode.TreeItem(`Load more… (${thousands(row.loaded)} loaded)`);
      it.tooltip = 'The next page. "Load All" in the context menu loads every page.';
      it.iconPath = new vscode.ThemeIcon('ellipsis');
      it.contextValue = 'more';
      it.command = { command: LOAD_MORE_COMMAND, title: 'Load more', arguments: [row] };
      return it;
    }
    const it = new vscode.TreeItem(row.view.label);
    it.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    it.tooltip = row.view.tooltip;
    it.contextValue = 'error';
    const retry = row.list ? LOAD_MORE_COMMAND : this.o.retry;
    it.command = row.view.fix ?? (retry ? { command: retry, title: 'Retry', arguments: [row] } : undefined);
    return it;
  }
}

/** One list of a tree, a page at a time: a Pager that knows its view and the node it hangs under. */
export class PagedList<T, N = unknown> extends Pager<T> {
  constructor(
    fetch: (cursor: string | undefined) => Promise<Loaded<T>>,
    private readonly tree: PagedTreeOptions<N>,
    /** the node whose children the list's rows are */
    readonly parent: () => N | undefined,
  ) {
    super(fetch);
  }

  /** The next page (every page with `all`) under the view's progress bar; the view is not repainted. */
  async fetchMore(all = false): Promise<void> {
    await vscode.window.withProgress({ location: { viewId: this.tree.viewId } }, () =>
      all ? this.loadAll() : this.loadMore(),
    );
  }

  /** "Load more…" (or Load All, or a failed page's Retry): the next page, then the list's rows again. */
  async load(all = false): Promise<void> {
    await this.fetchMore(all);
    this.tree.changed.fire(this.parent());
  }

  /**
   * The list's rows. A list asks for its first page when the view first asks for its rows (never before);
   * then come its items (`order` may put some first), and a "Load more…" row while pages remain, or the
   * error row of the page that failed.
   */
  async rows<R>(
    row: (item: T) => R,
    order: (items: readonly T[]) => readonly T[] = x => x,
  ): Promise<(R | PageRow<N>)[]> {
    if (this.cursor === undefined && !this.error) await this.loadMore();
    const rows: (R | PageRow<N>)[] = order(this.items).map(row);
    if (this.error)
      rows.push({ kind: 'error', error: this.error, view: await this.tree.explain(this.error), list: this });
    else if (!this.done) rows.push({ kind: 'more', list: this, loaded: this.items.length });
    return rows;
  }
}

/** The command of a "Load more…" or failed page's row (and, with `all`, Load All): that row's list loads. */
export async function loadMore(row: unknown, all = false): Promise<void> {
  const list = (row as { list?: unknown } | undefined)?.list;
  if (list instanceof PagedList) await list.load(all);
}
