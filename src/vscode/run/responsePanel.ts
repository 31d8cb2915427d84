import * as vscode from 'vscode';
import {
  parseFromResponseWebview,
  RESPONSE_VIEW_TYPE,
  type FromResponseWebview,
  type ToResponseWebview,
} from '../../protocol/response';
import type { Log } from '../platform/log';
import { WebviewHost } from '../platform/webviewHost';

/** The page's skeleton (static markup of ours; everything from the service is set as text by the script). */
const BODY = `<div id="meta" role="status" aria-label="The run"></div>
<div id="banner" aria-live="assertive"></div>
<div id="history"></div>
<main id="blocks" aria-label="The reply"></main>
<section id="calls" aria-label="The tool calls"></section>
<div id="usage"></div>
<p id="empty">Run "Promptwright: Send Request" on a request file to see the reply here.</p>
<div id="flash" aria-live="polite"></div>`;

/** The response panel beside the editor: one, reused, restored after a reload; its runs are the Runner's. */
export class ResponsePanel implements vscode.Disposable {
  private readonly received = new vscode.EventEmitter<Exclude<FromResponseWebview, { type: 'ready' }>>();
  readonly onMessage = this.received.event;
  /** what a (re)loaded webview starts from: the current run as it is now */
  private snapshot: () => ToResponseWebview | undefined = () => undefined;
  private readonly host: WebviewHost<ToResponseWebview, FromResponseWebview>;

  constructor(extensionUri: vscode.Uri, log: Log) {
    this.host = new WebviewHost(extensionUri, {
      viewType: RESPONSE_VIEW_TYPE,
      title: 'Promptwright Response',
      page: { script: 'response', stylesheets: ['panel.css', 'json.css'], body: BODY },
      column: vscode.ViewColumn.Beside,
      preserveFocus: true,
      parse: parseFromResponseWebview,
      snapshot: () => {
        const s = this.snapshot();
        return s ? [structuredClone(s)] : [];
      },
      handle: m => this.received.fire(m),
      log,
    });
  }

  get visible(): boolean {
    return this.host.isOpen;
  }

  /** Registers what to send when the webview (re)loads (it is destroyed while hidden). */
  setSnapshot(fn: () => ToResponseWebview | undefined): void {
    this.snapshot = fn;
  }

  /** Opens the panel beside the editor, or reveals it where it is. */
  open(): void {
    this.host.open();
  }

  /** The panel's tab title (it names the request file the reply is for). */
  setTitle(title: string): void {
    this.host.setTitle(title);
  }

  /** Takes over a panel VS Code restores after a reload. */
  adopt(panel: vscode.WebviewPanel): void {
    this.host.adopt(panel);
  }

  post(message: ToResponseWebview): void {
    // a copy: the caller keeps mutating its objects, and the webview reads this later
    this.host.post(structuredClone(message));
  }

  dispose(): void {
    this.host.dispose();
    this.received.dispose();
  }
}
