// The response panel's actions: one button each, enabled by what the run has (a reply to copy, a paused turn
// to continue, …).
import type { Action, Message, RunView } from '../../protocol/response';
import { $, el, icon } from '../common/dom';
import type { WebviewIcon } from '../common/icons';

const BUTTONS: { action: Action; label: string; icon: WebviewIcon; title: string }[] = [
  { action: 'cancel', label: 'Cancel', icon: 'debug-stop', title: 'Cancel the running request' },
  { action: 'rerun', label: 'Re-run', icon: 'refresh', title: 'Send the request file again' },
  {
    action: 'continue',
    label: 'Continue',
    icon: 'debug-continue',
    title: 'Send the conversation with the paused reply to continue (pause_turn)',
  },
  {
    action: 'append',
    label: 'Append reply to file',
    icon: 'insert',
    title: 'Append the assistant turn (and tool_result stubs after tool use) to the request file',
  },
  { action: 'copy-text', label: 'Copy text', icon: 'copy', title: "Copy the reply's text" },
  {
    action: 'copy-curl',
    label: 'Copy as curl',
    icon: 'terminal',
    title: 'Copy a curl command for this request (the key stays a shell variable)',
  },
  {
    action: 'save-transcript',
    label: 'Save transcript',
    icon: 'save',
    title: 'Save request, response, usage and timings as JSON',
  },
];

export function buildToolbar(post: (action: Action) => void): void {
  const bar = $('toolbar');
  for (const b of BUTTONS) {
    const btn = el('button', 'btn');
    btn.id = `btn-${b.action}`;
    btn.title = b.title;
    btn.appendChild(icon(b.icon));
    btn.appendChild(document.createTextNode(` ${b.label}`));
    btn.addEventListener('click', () => post(b.action));
    bar.appendChild(btn);
  }
}

export function updateToolbar(view: RunView | undefined, m: Message | undefined): void {
  const running = view?.outcome === 'running';
  const set = (a: Action, enabled: boolean, visible = true) => {
    const b = $<HTMLButtonElement>(`btn-${a}`);
    b.disabled = !enabled;
    b.hidden = !visible;
  };
  set('cancel', running, running);
  set('rerun', !!view && !running);
  set('continue', !running && m?.stop_reason === 'pause_turn', m?.stop_reason === 'pause_turn');
  set('append', !running && !!m && m.content.length > 0);
  set('copy-text', !!m && m.content.some(b => b.type === 'text'));
  set('copy-curl', !!view);
  set('save-transcript', !!view && !running);
}
