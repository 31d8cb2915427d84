// The banner above the reply: a retry's countdown, or the failure with what to do about it.
import type { RunView } from '../../protocol/response';
import { $, el } from '../common/dom';

export class Banner {
  private countdown: ReturnType<typeof setInterval> | undefined;

  /** A retry's countdown, while the client waits (the spec's retry rules). */
  showRetry(r: NonNullable<RunView['retry']>): void {
    const banner = $('banner');
    clearInterval(this.countdown);
    const draw = () => {
      const left = Math.max(0, Math.ceil((r.at + r.inMs - Date.now()) / 1000));
      banner.replaceChildren(
        el(
          'div',
          'banner warn',
          `Retrying in ${left} s (attempt ${r.attempt + 1} of ${r.maxAttempts}) after ${r.error.type}` +
            (r.error.status ? ` (${r.error.status})` : '') +
            `: ${r.error.message}` +
            (r.error.requestId ? ` [request-id ${r.error.requestId}]` : ''),
        ),
      );
      if (left <= 0) clearInterval(this.countdown);
    };
    draw();
    this.countdown = setInterval(draw, 250);
  }

  /** The failure of the run, with its type, message, request-id and hint. */
  showError(view: RunView | undefined): void {
    if (!view?.error) return;
    clearInterval(this.countdown);
    const e = view.error;
    const box = el('div', `banner ${view.outcome === 'cancelled' ? 'info' : 'error'}`);
    box.setAttribute('role', 'alert');
    const title =
      view.outcome === 'cancelled'
        ? 'Cancelled'
        : view.midStream
          ? 'The stream failed; the partial reply is kept below'
          : 'The request failed';
    box.appendChild(el('strong', undefined, `${title}. `));
    box.appendChild(el('span', undefined, `${e.type}${e.status ? ` (${e.status})` : ''}: ${e.message}`));
    if (e.requestId) box.appendChild(el('span', 'muted', ` [request-id ${e.requestId}]`));
    if (e.hint) box.appendChild(el('div', 'hint', e.hint));
    $('banner').replaceChildren(box);
  }

  clear(): void {
    clearInterval(this.countdown);
    $('banner').replaceChildren();
  }
}
