import * as vscode from 'vscode';
import type { Log } from './log';
import { DisposableStore } from './lifecycle';

/**
 * A webview's page: its script (src/webview/<script>/main.ts, run from the webviews' one bundle
 * `dist/webview/panels.js`), stylesheets (media/*.css, built into dist/webview/), and a static skeleton.
 */
interface WebviewPage {
  script: 'response' | 'activity' | 'cases' | 'compare';
  stylesheets: readonly string[];
  /** trusted markup written by us: never data from the service (the script fills it as text) */
  body: string;
}

export interface WebviewSpec<To, From extends { type: string }> {
  viewType: string;
  /** the panel's title until `setTitle` gives another */
  title: string;
  page: WebviewPage;
  /** where a new panel opens; `preserveFocus` keeps the editor focused (the response panel, the grid) */
  column: vscode.ViewColumn;
  preserveFocus?: boolean;
  /** the webview's messages are untrusted input: undefined for anything malformed (logged and dropped) */
  parse: (raw: unknown) => From | undefined;
  /** everything the webview shows, for one that has just said `ready` (a new or a reloaded one) */
  snapshot: () => readonly To[];
  /** every message but `ready`, which the host answers itself */
  handle: (m: Exclude<From, { type: 'ready' }>) => unknown;
  /** the panel went away (closed by the person, or disposed): what ran for it is stopped here */
  onClose?: () => void;
  log: Pick<Log, 'warn'>;
}

/**
 * The options every Promptwright webview panel uses: scripts on, find widget, and only the extension's
 * own built webview files and media readable (no remote content).
 */
function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableFindWidget: true,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist', 'webview'),
      vscode.Uri.joinPath(extensionUri, 'media'),
    ],
  };
}

/**
 * A webview's HTML under a strict Content Security Policy: nothing by default; styles, fonts and images
 * from the extension only; one script, the bundle `dist/webview/panels.js`, allowed by a fresh nonce, told which
 * panel's page it starts (`data-panel`).
 */
function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string, page: WebviewPage) {
  const nonce = [...crypto.getRandomValues(new Uint8Array(18))].map(b => b.toString(16).padStart(2, '0')).join('');
  const uri = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${uri('dist', 'webview', 'codicon.css')}">
${page.stylesheets.map(s => `<link rel="stylesheet" href="${uri('dist', 'webview', s)}">`).join('\n')}
<title>${title}</title>
</head>
<body>
${page.body}
<script nonce="${nonce}" src="${uri('dist', 'webview', 'panels.js')}" data-panel="${page.script}"></script>
</body>
</html>`;
}

/**
 * The one host of every Promptwright panel: one panel per kind, reused (opened beside, or revealed where it
 * is); taken over when VS Code restores it after a reload; nothing posted before the webview says `ready`,
 * and then the owner's snapshot, which covers everything that happened before (a webview is rebuilt each
 * time its tab comes back, so `ready` can come many times); a malformed message logged and dropped; the
 * owner told when the panel goes away.
 */
export class WebviewHost<To, From extends { type: string }> implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  /** what listens to the current panel: released when it closes */
  private readonly panelListeners = new DisposableStore();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly spec: WebviewSpec<To, From>,
  ) {}

  /** Whether there is a panel (shown or in a background tab). */
  get isOpen(): boolean {
    return !!this.panel;
  }

  /** The panel, for tests and for what VS Code asks of it (title, visibility). */
  get current(): vscode.WebviewPanel | undefined {
    return this.panel;
  }

  /** Opens the panel, or reveals it where it is (without taking the focus when the spec says so). */
  open(): void {
    if (this.panel) {
      if (!this.panel.visible) this.panel.reveal(undefined, this.spec.preserveFocus);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      this.spec.viewType,
      this.spec.title,
      { viewColumn: this.spec.column, preserveFocus: !!this.spec.preserveFocus },
      webviewOptions(this.extensionUri),
    );
    this.adopt(panel);
  }

  /** Takes over a panel: a new one, or one VS Code restores after a reload (a previous one is closed). */
  adopt(panel: vscode.WebviewPanel): void {
    const previous = this.panel;
    if (previous && previous !== panel) {
      this.closed(previous);
      previous.dispose();
    }
    this.panel = panel;
    this.ready = false;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.png');
    panel.webview.options = webviewOptions(this.extensionUri);
    panel.webview.html = webviewHtml(panel.webview, this.extensionUri, panel.title || this.spec.title, this.spec.page);
    this.panelListeners.clear();
    this.panelListeners.add(
      panel.webview.onDidReceiveMessage(raw => this.receive(raw)),
      panel.onDidDispose(() => this.closed(panel)),
    );
  }

  setTitle(title: string): void {
    if (this.panel) this.panel.title = title;
  }

  reveal(): void {
    this.panel?.reveal(undefined, this.spec.preserveFocus);
  }

  /** Posts a message once the webview is ready; before that it is dropped (the snapshot on `ready` covers it). */
  post(m: To): void {
    if (this.panel && this.ready) void this.panel.webview.postMessage(m);
  }

  private receive(raw: unknown): void {
    const m = this.spec.parse(raw);
    if (!m) {
      this.spec.log.warn(`${this.spec.title}: ignored a malformed message from the webview`);
      return;
    }
    if (m.type === 'ready') {
      this.ready = true;
      for (const s of this.spec.snapshot()) this.post(s);
      return;
    }
    void this.spec.handle(m as Exclude<From, { type: 'ready' }>);
  }

  private closed(panel: vscode.WebviewPanel): void {
    if (this.panel !== panel) return;
    this.panelListeners.clear();
    this.panel = undefined;
    this.ready = false;
    this.spec.onClose?.();
  }

  dispose(): void {
    const panel = this.panel;
    // at once, whatever VS Code does with onDidDispose later: nothing that ran for the panel outlives it
    if (panel) this.closed(panel);
    panel?.dispose();
  }
}
