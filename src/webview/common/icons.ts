// The codicons the webviews may show, and the one way they make one. The build (esbuild.mjs) ships a
// codicon font and stylesheet holding only these glyphs (dist/webview/codicon.{woff2,css}), a few KB instead
// of the whole set's 160, so a name missing here would draw an empty box: icon()'s parameter type makes it
// a compile error, and test/unit/webview/icons.test.ts catches class strings written by hand.
// To use a new icon, add its name (https://microsoft.github.io/vscode-codicons/dist/codicon.html) here.

export const WEBVIEW_ICONS = [
  'arrow-up',
  'chevron-down',
  'circle-large-outline',
  'circle-slash',
  'clear-all',
  'close',
  'debug-stop',
  'desktop-download',
  'diff',
  'error',
  'filter',
  'git-compare',
  'go-to-file',
  'json',
  'key',
  'layers',
  'lightbulb',
  'loading',
  'output',
  'pass-filled',
  'refresh',
  'run-all',
  'server-process',
  'sync',
  'thumbsdown-filled',
  'thumbsup-filled',
  'tools',
  'warning',
  'watch',
] as const;

export type WebviewIcon = (typeof WEBVIEW_ICONS)[number];

/** A codicon, hidden from screen readers: the text beside it says what it means. */
export function icon(name: WebviewIcon): HTMLSpanElement {
  const s = document.createElement('span');
  s.className = `codicon codicon-${name}`;
  s.setAttribute('aria-hidden', 'true');
  return s;
}
