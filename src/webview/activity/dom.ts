// Small DOM helpers of the Activity Feed webview. Text from the service only ever reaches the page through
// textContent (here and in every caller): a record is data, never markup.

import { icon, type WebviewIcon } from '../icons';

export const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The webviews' shared codicon helper (../icons): only the icons the shipped font subset holds. */
export { icon };

export function button(label: string, iconName?: WebviewIcon, className = 'btn'): HTMLButtonElement {
  const b = el('button', className);
  b.type = 'button';
  if (iconName) b.appendChild(icon(iconName));
  b.appendChild(el('span', 'label', label));
  return b;
}

/** 2,000 rather than 2000: counts are read at a glance. */
export const count = (n: number): string => n.toLocaleString('en-US');

/** "1 record", "2,000 records" (core/text's count, through the protocol module the webview may import) */
export { count as plural } from '../../activityProtocol';

/** The class that gives a type its dot of colour, by the kind of content it is about (theme chart colours). */
export function kindClass(type: string): string {
  if (type.startsWith('org_')) return 'kind-org';
  if (type.includes('project')) return 'kind-project';
  if (type.includes('file')) return 'kind-file';
  if (type.includes('chat')) return 'kind-chat';
  return 'kind-other';
}
