// The handle on VS Code a webview page gets once (acquireVsCodeApi may be called only once per page), typed
// by its protocol: what it posts to the extension and what it keeps across a reload with setState.

export interface VsCodeApi<From, State> {
  postMessage(m: From): void;
  getState(): unknown;
  setState(s: State): void;
}
declare function acquireVsCodeApi(): VsCodeApi<unknown, unknown>;

let api: VsCodeApi<unknown, unknown> | undefined;

export function vscodeApi<From, State>(): VsCodeApi<From, State> {
  api ??= acquireVsCodeApi();
  return api;
}
