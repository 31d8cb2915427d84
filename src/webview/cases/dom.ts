// Small DOM helpers of the Cases webview, on top of the shared ones (../dom).
export { $, button, el, icon } from '../common/dom';

/** 1,234 ms reads as "1.2 s"; under a second as "850 ms". */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
