// The response panel's script. It talks to the extension only through the typed protocol, builds every
// node with textContent (model output is never parsed as HTML), and applies event batches once per frame.
// Its actions (Cancel, Re-run, Continue, Append, Copy, Save) are in the panel's title bar, not in the page, but for
// a tool-use reply's: each call's Answer…, Continue and Append Conversation below the calls (tools.ts).
import {
  parseResponseWebviewState,
  type FromResponseWebview,
  type RunView,
  type ToResponseWebview,
} from '../../protocol/response';
import { $ } from '../common/dom';
import { Page } from '../common/page';
import { Reply } from '../common/reply';
import { Banner } from './banner';
import { renderMeta } from './meta';
import { renderCalls, renderHistory } from './tools';

const page = new Page<ToResponseWebview, FromResponseWebview, RunView>(parseResponseWebviewState);
const openLink = (url: string) => page.post({ type: 'open-link', url });

const reply = new Reply($('blocks'), openLink, { thinkingOpen: true });
const banner = new Banner();
let view: RunView | undefined;
const post = (m: FromResponseWebview) => page.post(m);

function reset(v: RunView): void {
  view = v;
  reply.show(v.message, v.outcome === 'running');
  banner.clear();
  $('usage').replaceChildren();
  $('empty').hidden = true;
  if (v.retry) banner.showRetry(v.retry);
  if (v.error) banner.showError(v);
  renderMeta(view, reply.message);
  renderHistory(v, openLink);
  renderCalls(v, post);
}

function save(): void {
  page.saveSoon(() => view && { ...view, message: reply.snapshot() });
}

function handle(msg: ToResponseWebview): void {
  switch (msg.type) {
    case 'show':
      reset(msg.view);
      break;
    case 'events':
      if (!view || msg.runId !== view.runId) return;
      if (view.retry) {
        delete view.retry;
        banner.clear();
      }
      for (const ev of msg.events) reply.apply(ev);
      if (msg.firstTokenMs !== undefined) view.timings.firstTokenMs = msg.firstTokenMs;
      renderMeta(view, reply.message);
      break;
    case 'retry':
      if (!view || msg.runId !== view.runId) return;
      view.retry = msg.retry;
      banner.showRetry(msg.retry);
      break;
    case 'end':
      if (!view || msg.runId !== view.runId) return;
      view.outcome = msg.outcome;
      view.timings = msg.timings;
      if (msg.requestId) view.requestId = msg.requestId;
      if (msg.cost) view.cost = msg.cost;
      if (msg.error) {
        view.error = msg.error;
        view.midStream = !!msg.midStream;
      }
      reply.finishOpen();
      if (msg.message && !reply.message) reset({ ...view, message: msg.message });
      if (view.error) banner.showError(view);
      else banner.clear();
      renderMeta(view, reply.message);
      renderCalls(view, post);
      break;
    case 'calls':
      if (!view || msg.runId !== view.runId) return;
      view.calls = msg.calls;
      renderCalls(view, post);
      break;
    case 'flash': {
      const f = $('flash');
      f.textContent = msg.text;
      setTimeout(() => {
        if (f.textContent === msg.text) f.textContent = '';
      }, 2500);
      break;
    }
  }
  save();
}

const restored = page.restored;
if (restored) {
  // after a reload: show what was there; a run that was streaming cannot continue
  reset({
    ...restored,
    outcome: restored.outcome === 'running' ? 'cancelled' : restored.outcome,
    ...(restored.outcome === 'running'
      ? { error: { type: 'interrupted', message: 'VS Code reloaded while this reply was streaming.' }, midStream: true }
      : {}),
  });
}
page.start({ handle });
