// The pane beside the table that shows the whole of one record, as the service sent it, in the theme's JSON
// colours. The table stays where it was, so a person can walk the rows with the arrow keys and read each
// record in turn; "Open as JSON" makes it a document of its own (to search, copy or save), Escape closes it.
import { highlightJson } from '../common/json';
import { $, button } from './dom';

export interface DetailActions {
  openJson(id: string): void;
  /** the pane closed: focus goes back to the row it showed */
  closed(id: string): void;
}

export class RecordPane {
  private readonly pane = $('detail');
  private readonly title = $('detail-title');
  private readonly body = $('detail-json');
  private shown: string | undefined;

  constructor(private readonly actions: DetailActions) {
    const header = this.pane.querySelector('header')!;
    const openJson = button('Open as JSON', 'json', 'btn');
    openJson.addEventListener('click', () => this.shown && this.actions.openJson(this.shown));
    const close = button('Close', 'close', 'btn icon', true);
    close.addEventListener('click', () => this.close());
    header.append(openJson, close);
    this.pane.addEventListener('keydown', e => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.close();
      }
    });
  }

  /** the id of the record in the pane, if it is open */
  get id(): string | undefined {
    return this.shown;
  }

  show(id: string, label: string, record: unknown): void {
    this.shown = id;
    this.title.textContent = label;
    this.title.title = id;
    this.body.replaceChildren(highlightJson(document, record));
    this.body.scrollTop = 0;
    this.pane.hidden = false;
    document.body.classList.add('with-detail');
  }

  close(): void {
    const id = this.shown;
    this.shown = undefined;
    this.pane.hidden = true;
    this.body.replaceChildren();
    document.body.classList.remove('with-detail');
    if (id) this.actions.closed(id);
  }
}
