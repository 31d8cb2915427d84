// A tool-use conversation in the panel: the earlier turns above the reply (each reply with its usage and cost, and
// the answers given to its calls), and below it the reply's calls with Answer…, Use Fixture and Call MCP Server,
// then Continue, Run to End and Append Conversation. A call's input and its answer are set as text, never as markup.
import type { FromResponseWebview, RunView, ToolCallView, TurnView } from '../../protocol/response';
import { tokensInOut } from '../../core/api/usage';
import { formatUsd } from '../../core/cost/format';
import { $, button, el } from '../common/dom';
import { Reply } from '../common/reply';

type Post = (m: FromResponseWebview) => void;

/** One call: its name, its input as JSON (an earlier turn's reply shows it already), and its answer. */
function callBox(call: ToolCallView, withInput = true): HTMLElement {
  const box = el('div', 'tool-call');
  box.dataset.id = call.id;
  box.appendChild(el('strong', 'tool-name', call.name));
  if (withInput) box.appendChild(el('pre', 'tool-input', JSON.stringify(call.input, null, 2)));
  if (call.answer !== undefined) {
    const said = ['Answer', call.from && `from ${call.from}`, call.isError && 'is_error'].filter(Boolean);
    box.appendChild(el('div', 'muted tool-from', said.join(' · ')));
    box.appendChild(el('pre', `tool-answer${call.isError ? ' is-error' : ''}`, call.answer));
  }
  return box;
}

/** `Turn 1 · 120 in · 30 out · $0.0004`: a turn, its tokens in and out, and what it cost. */
function title(i: number, { message, cost }: TurnView): string {
  const usd = cost?.usd;
  return [`Turn ${i + 1}`, tokensInOut(message.usage), typeof usd === 'number' && formatUsd(usd)]
    .filter(Boolean)
    .join(' · ');
}

/** The turns before this reply, each with its calls and their answers. */
export function renderHistory(view: RunView | undefined, openLink: (url: string) => void): void {
  const root = $('history');
  root.replaceChildren();
  (view?.history ?? []).forEach((turn, i) => {
    const section = el('section', 'turn');
    section.appendChild(el('h3', 'turn-title', title(i, turn)));
    const blocks = el('div', 'turn-reply');
    section.appendChild(blocks);
    new Reply(blocks, openLink, { thinkingOpen: false }).show(turn.message);
    for (const call of turn.calls) section.appendChild(callBox(call, false));
    root.appendChild(section);
  });
  if (view?.history?.length) root.appendChild(el('h3', 'turn-title', `Turn ${view.history.length + 1}`));
}

/**
 * The reply's calls, each with Answer…, Use Fixture and Call MCP Server; Continue once every one has an answer, and
 * Run to End; Append Conversation while there is a conversation (calls to answer, or earlier turns).
 */
export function renderCalls(view: RunView | undefined, post: Post): void {
  const root = $('calls');
  root.replaceChildren();
  if (!view || view.outcome === 'running') return;
  const calls = view.outcome === 'done' ? (view.calls ?? []) : [];
  if (!calls.length && !view.history?.length) return;
  if (calls.length)
    root.appendChild(
      el('h3', undefined, `The model called ${calls.length === 1 ? 'a tool' : `${calls.length} tools`}`),
    );
  for (const call of calls) {
    const box = callBox(call);
    const answer = button(call.answer === undefined ? 'Answer…' : 'Change Answer…', undefined, 'btn answer');
    answer.addEventListener('click', () => post({ type: 'answer', id: call.id }));
    const fixture = button('Use Fixture', undefined, 'btn use-fixture');
    fixture.addEventListener('click', () => post({ type: 'use-fixture', id: call.id }));
    const mcp = button('Call MCP Server', undefined, 'btn call-mcp');
    mcp.addEventListener('click', () => post({ type: 'call-mcp', id: call.id }));
    box.append(answer, ' ', fixture, ' ', mcp);
    root.appendChild(box);
  }
  const actions = el('div', 'tool-actions');
  if (calls.length) {
    const go = button('Continue', undefined, 'btn primary continue');
    const waiting = calls.filter(c => c.answer === undefined).length;
    go.disabled = waiting > 0;
    go.title = waiting ? `Answer every call first (${waiting} to go)` : 'Send the answers and stream the next turn';
    go.addEventListener('click', () => {
      go.disabled = true;
      post({ type: 'continue' });
    });
    const toEnd = button('Run to End', undefined, 'btn run-to-end');
    toEnd.addEventListener('click', () => {
      toEnd.disabled = go.disabled = true;
      post({ type: 'run-to-end' });
    });
    actions.append(go, toEnd);
  }
  const append = button('Append Conversation', undefined, 'btn append-conversation');
  append.title = "Write the turns so far into the request file's messages (one undoable edit)";
  append.addEventListener('click', () => post({ type: 'append-conversation' }));
  actions.appendChild(append);
  root.appendChild(actions);
}
