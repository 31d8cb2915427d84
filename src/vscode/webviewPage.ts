import * as vscode from 'vscode';

/**
 * The options every Promptwright webview panel uses: scripts on, find widget, and only the extension's
 * own built webview files and media readable (no remote content).
 */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
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
 * from the extension only; one script, the bundle `dist/webview/<script>.js`, allowed by a fresh nonce.
 * `body` is the page's static skeleton (trusted markup written by us: never data from the service).
 */
export function webviewPage(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  page: { title: string; script: string; stylesheets: readonly string[]; body: string },
): string {
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
${page.stylesheets.map(s => `<link rel="stylesheet" href="${uri('media', s)}">`).join('\n')}
<title>${page.title}</title>
</head>
<body>
${page.body}
<script nonce="${nonce}" src="${uri('dist', 'webview', `${page.script}.js`)}"></script>
</body>
</html>`;
}

export interface HostedPage<M> {
  page: { title: string; script: string; stylesheets: readonly string[]; body: string };
  /** the webview's messages are untrusted input: `parse` returns undefined for anything malformed */
  parse: (raw: unknown) => M | undefined;
  handle: (m: M) => void;
  onDispose: () => void;
  /** a malformed message is logged with this name and dropped */
  name: string;
  warn: (line: string) => void;
}

/**
 * Makes a panel (new, or restored by VS Code after a reload) one of ours: the icon, the options, the page,
 * and its messages parsed before they are handled. Returns the subscriptions to dispose with the panel.
 */
export function hostPage<M>(
  panel: vscode.WebviewPanel,
  extensionUri: vscode.Uri,
  o: HostedPage<M>,
): vscode.Disposable[] {
  panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
  panel.webview.options = webviewOptions(extensionUri);
  panel.webview.html = webviewPage(panel.webview, extensionUri, o.page);
  return [
    panel.webview.onDidReceiveMessage(raw => {
      const m = o.parse(raw);
      if (m) o.handle(m);
      else o.warn(`${o.name}: ignored a malformed message from the webview`);
    }),
    panel.onDidDispose(() => o.onDispose()),
  ];
}
