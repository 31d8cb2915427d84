// The response panel's script. It talks to the extension only through the typed protocol, builds every
// node with textContent (model output is never parsed as HTML), and applies event batches once per frame.
// Its actions (Cancel, Re-run, Continue, Append, Copy, Save) are in the panel's title bar, not in the page.
import type { FromResponseWebview, RunView, ToResponseWebview } from '../../protocol/response';
import { $ } from '../common/dom';
import { vscodeApi } from '../common/vscodeApi';
import { Banner } from './banner';
import { Blocks } from './blocks';
import { renderMeta } from './meta';

const vscode = vscodeApi<FromResponseWebview, RunView>();
const openLink = (url: string) => vscode.postMessage({ type: 'open-link', url });

const blocks = new Blocks($('blocks'), openLink);
const banner = new Banner();
let view: RunView | undefined;
let pending: ToResponseWebview[] = [];
let frame = 0;
let saveTimer: ReturnType<typeof setTimeout> | undefined;

function reset(v: RunView): void {
  view = v;
  blocks.reset(v.message);
  banner.clear();
  $('usage').replaceChildren();
  $('empty').hidden = true;
  if (v.retry) banner.showRetry(v.retry);
  if (v.error) banner.showError(v);
  renderMeta(view, blocks.acc.message);
}

function save(): void {
  if (saveTimer) return;
  saveTimer = setTimeout(() => {
    saveTimer = undefined;
    if (view) vscode.setState({ ...view, message: blocks.acc.snapshot() });
  }, 500);
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
      for (const ev of msg.events) blocks.apply(ev);
      if (msg.firstTokenMs !== undefined) view.timings.firstTokenMs = msg.firstTokenMs;
      renderMeta(view, blocks.acc.message);
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
      blocks.finishOpen();
      if (msg.message && !blocks.acc.message) reset({ ...view, message: msg.message });
      if (view.error) banner.showError(view);
      else banner.clear();
      renderMeta(view, blocks.acc.message);
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

window.addEventListener('message', (e: MessageEvent) => {
  pending.push(e.data as ToResponseWebview);
  if (!frame)
    frame = requestAnimationFrame(() => {
      frame = 0;
      const batch = pending;
      pending = [];
      for (const m of batch) handle(m);
    });
});

const restored = vscode.getState() as RunView | undefined;
if (restored && typeof restored === 'object' && 'runId' in restored) {
  // after a reload: show what was there; a run that was streaming cannot continue
  reset({
    ...restored,
    outcome: restored.outcome === 'running' ? 'cancelled' : restored.outcome,
    ...(restored.outcome === 'running'
      ? { error: { type: 'interrupted', message: 'VS Code reloaded while this reply was streaming.' }, midStream: true }
      : {}),
  });
}
vscode.postMessage({ type: 'ready' });
