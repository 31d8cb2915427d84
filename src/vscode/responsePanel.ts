import * as vscode from 'vscode';
import { webviewOptions, webviewPage } from './webviewPage';
import { parseFromWebview, type FromWebview, type ToWebview } from '../protocol';

export const VIEW_TYPE = 'promptwright.response';

/** One response panel, reused; restored after a reload by a serializer. Posts nothing before `ready`. */
export class ResponsePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private queue: ToWebview[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private readonly received = new vscode.EventEmitter<FromWebview>();
  readonly onMessage = this.received.event;
  /** what to show when the webview (re)loads: the current run as it is now */
  private snapshot: (() => ToWebview | undefined) | undefined;

  /** The serializer that restores the panel after a reload is registered at activation (extension.ts). */
  constructor(private readonly extensionUri: vscode.Uri) {
    this.disposables.push(this.received);
  }

  get visible(): boolean {
    return !!this.panel;
  }

  /** Registers what to send when the webview (re)loads (it is destroyed while hidden). */
  setSnapshot(fn: () => ToWebview | undefined): void {
    this.snapshot = fn;
  }

  /** Opens the panel beside the editor, or reveals it where it is. */
  open(): void {
    if (this.panel) {
      this.panel.reveal(undefined, true);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      'Promptwright Response',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      this.options(),
    );
    this.adopt(panel);
  }

  post(message: ToWebview): void {
    // a snapshot: the caller keeps mutating its objects, and the webview may only read this later
    const m = structuredClone(message);
    if (m.type === 'show') this.queue = [m];
    else this.queue.push(m);
    this.drain();
  }

  private drain(): void {
    if (!this.panel || !this.ready) return;
    const q = this.queue;
    this.queue = [];
    for (const m of q) void this.panel.webview.postMessage(m);
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return webviewOptions(this.extensionUri);
  }

  /** Takes over a panel: a new one, or one VS Code restores after a reload. */
  adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    this.ready = false;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.png');
    panel.webview.options = this.options();
    panel.webview.html = this.html(panel.webview);
    const subs = [
      panel.webview.onDidReceiveMessage(raw => {
        const m = parseFromWebview(raw);
        if (!m) return;
        if (m.type === 'ready') {
          // a (re)loaded webview starts from the current state: a snapshot covers every event before it
          this.ready = true;
          const snap = this.snapshot?.();
          this.queue = snap ? [structuredClone(snap), ...this.queue.filter(q => q.type === 'flash')] : this.queue;
          this.drain();
        }
        this.received.fire(m);
      }),
      panel.onDidDispose(() => {
        this.panel = undefined;
        this.ready = false;
        for (const s of subs) s.dispose();
      }),
    ];
  }

  private html(webview: vscode.Webview): string {
    return webviewPage(webview, this.extensionUri, {
      title: 'Promptwright Response',
      script: 'main',
      stylesheets: ['panel.css'],
      body: `<div id="toolbar" role="toolbar" aria-label="Response actions"></div>
<div id="meta" aria-live="polite"></div>
<div id="banner" aria-live="assertive"></div>
<main id="blocks" aria-label="The reply"></main>
<div id="usage"></div>
<p id="empty">Run "Promptwright: Send Request" on a request file to see the reply here.</p>
<div id="flash" aria-live="polite"></div>`,
    });
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
