// DOM helpers the webviews share. Model output and everything else from the service reaches a page only
// through textContent (here and in every caller): a reply or a record is data, never markup.
import { icon, type WebviewIcon } from './icons';

export { icon };

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

/**
 * A button with an optional icon and a label; `iconOnly` keeps the label for screen readers and the tooltip
 * only.
 */
export function button(label: string, iconName?: WebviewIcon, className = 'btn', iconOnly = false): HTMLButtonElement {
  const b = el('button', className);
  b.type = 'button';
  if (iconName) b.appendChild(icon(iconName));
  if (iconOnly) {
    b.title = label;
    b.setAttribute('aria-label', label);
  } else b.appendChild(el('span', 'label', label));
  return b;
}
