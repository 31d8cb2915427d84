// The response panel's script. It talks to the extension only through the typed protocol, builds every
// node with textContent (model output is never parsed as HTML), and applies event batches once per frame.
import {
  MessageAccumulator,
  type Action,
  type ContentBlock,
  type FromWebview,
  type RunView,
  type StreamEvent,
  type ToWebview,
} from '../protocol';
import { asText } from '../core/text';
import { icon, type WebviewIcon } from './icons';
import { link, renderMarkdown } from './markdown';

interface VsCodeApi {
  postMessage(m: FromWebview): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
const openLink = (url: string) => vscode.postMessage({ type: 'open-link', url });
const post = (action: Action) => vscode.postMessage({ type: 'action', action });

let view: RunView | undefined;
let acc = new MessageAccumulator();
const blocks = new Map<number, { root: HTMLElement; stream?: Text; json?: HTMLElement; kind: string }>();
let pending: ToWebview[] = [];
let frame = 0;
let countdown: ReturnType<typeof setInterval> | undefined;
let saveTimer: ReturnType<typeof setTimeout> | undefined;

// ---- toolbar --------------------------------------------------------------------------------------------
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
function buildToolbar(): void {
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
function updateToolbar(): void {
  const running = view?.outcome === 'running';
  const m = acc.message;
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

// ---- rendering ------------------------------------------------------------------------------------------
function reset(v: RunView): void {
  view = v;
  acc = new MessageAccumulator();
  blocks.clear();
  $('blocks').replaceChildren();
  $('banner').replaceChildren();
  $('usage').replaceChildren();
  $('empty').hidden = true;
  if (v.message) {
    acc.apply({ type: 'message_start', message: { ...v.message, content: [] } });
    v.message.content.forEach((b, index) => {
      acc.apply({ type: 'content_block_start', index, content_block: b });
      startBlock(index, b);
      finishBlock(index);
    });
    if (v.message.stop_reason)
      acc.apply({
        type: 'message_delta',
        delta: {
          stop_reason: v.message.stop_reason,
          stop_sequence: v.message.stop_sequence,
          ...(v.message.stop_details ? { stop_details: v.message.stop_details } : {}),
        },
        usage: v.message.usage,
      });
  }
  if (v.retry) showRetry(v.retry);
  if (v.error) showError();
  renderMeta();
  updateToolbar();
}

function startBlock(index: number, b: ContentBlock): void {
  const root = el('section', `block block-${b.type}`);
  root.dataset.index = String(index);
  root.dataset.type = b.type;
  const entry: { root: HTMLElement; stream?: Text; json?: HTMLElement; kind: string } = { root, kind: b.type };
  switch (b.type) {
    case 'text': {
      const body = el('div', 'text streaming');
      entry.stream = document.createTextNode(asText(b.text));
      body.appendChild(entry.stream);
      root.appendChild(body);
      break;
    }
    case 'thinking': {
      const d = el('details', 'thinking');
      d.open = true;
      const s = el('summary');
      s.appendChild(icon('lightbulb'));
      s.appendChild(document.createTextNode(' Thinking'));
      d.appendChild(s);
      const body = el('div', 'thinking-text');
      entry.stream = document.createTextNode(asText(b.thinking));
      body.appendChild(entry.stream);
      d.appendChild(body);
      root.appendChild(d);
      break;
    }
    case 'redacted_thinking':
      root.appendChild(el('div', 'placeholder', '[redacted thinking — encrypted; kept for the next turn]'));
      break;
    case 'tool_use':
    case 'server_tool_use': {
      const h = el('div', 'tool-head');
      h.appendChild(icon(b.type === 'tool_use' ? 'tools' : 'server-process'));
      h.appendChild(el('strong', undefined, ` ${asText(b.name)}`));
      h.appendChild(el('span', 'muted', ` ${b.type} · ${asText(b.id)}`));
      root.appendChild(h);
      entry.json = el('pre', 'json');
      root.appendChild(entry.json);
      break;
    }
    default:
      renderResult(root, b);
  }
  blocks.set(index, entry);
  $('blocks').appendChild(root);
}

function finishBlock(index: number): void {
  const entry = blocks.get(index);
  const b = acc.message?.content[index];
  if (!entry || !b) return;
  if (b.type === 'text') {
    const body = el('div', 'text markdown');
    body.appendChild(renderMarkdown(document, asText(b.text), openLink));
    entry.root.replaceChildren(body);
    const cites = Array.isArray(b.citations) ? (b.citations as Record<string, unknown>[]) : [];
    if (cites.length) entry.root.appendChild(renderCitations(cites));
  } else if ((b.type === 'tool_use' || b.type === 'server_tool_use') && entry.json) {
    entry.json.textContent = JSON.stringify(b.input ?? {}, null, 2);
  }
  delete entry.stream;
}

function renderCitations(cites: Record<string, unknown>[]): HTMLElement {
  const ol = el('ol', 'citations');
  for (const c of cites) {
    const li = el('li');
    li.appendChild(el('q', undefined, asText(c.cited_text)));
    const where = el('span', 'muted');
    const doc = asText(c.document_title ?? `document ${asText(c.document_index)}`);
    const range = (what: string, from: unknown, to: unknown) => ` — ${doc}, ${what} ${asText(from)}–${asText(to)}`;
    switch (c.type) {
      case 'char_location':
        where.textContent = range('characters', c.start_char_index, c.end_char_index);
        break;
      case 'page_location':
        where.textContent = range('pages', c.start_page_number, c.end_page_number);
        break;
      case 'content_block_location':
        where.textContent = range('blocks', c.start_block_index, c.end_block_index);
        break;
      case 'search_result_location':
        where.textContent = ` — ${asText(c.title ?? c.source)} (search result ${asText(c.search_result_index)})`;
        break;
      case 'web_search_result_location':
        where.textContent = ' — ';
        break;
      default:
        where.textContent = ` — ${asText(c.type)}`;
    }
    li.appendChild(where);
    if (c.type === 'web_search_result_location' && typeof c.url === 'string')
      li.appendChild(link(document, asText(c.title ?? c.url), c.url, openLink));
    ol.appendChild(li);
  }
  return ol;
}

/** Server tool results and other blocks that arrive whole. */
function renderResult(root: HTMLElement, b: ContentBlock): void {
  const head = el('div', 'tool-head');
  head.appendChild(icon('output'));
  head.appendChild(el('strong', undefined, ` ${b.type}`));
  if (b.tool_use_id) head.appendChild(el('span', 'muted', ` for ${asText(b.tool_use_id)}`));
  root.appendChild(head);
  const c = b.content as Record<string, unknown> | Record<string, unknown>[] | undefined;
  const single = !Array.isArray(c) && c ? c : undefined;
  if (single && typeof single.error_code === 'string') {
    root.appendChild(
      el(
        'div',
        'error-code',
        `Error: ${single.error_code}${typeof single.error_message === 'string' ? ` — ${single.error_message}` : ''}`,
      ),
    );
    return;
  }
  if (b.type === 'web_search_tool_result' && Array.isArray(c)) {
    const ul = el('ul', 'results');
    for (const r of c) {
      const li = el('li');
      li.appendChild(link(document, asText(r.title ?? r.url), asText(r.url), openLink));
      if (r.page_age) li.appendChild(el('span', 'muted', ` · ${asText(r.page_age)}`));
      ul.appendChild(li);
    }
    root.appendChild(ul);
  } else if (b.type === 'web_fetch_tool_result' && c && !Array.isArray(c)) {
    const p = el('div');
    p.appendChild(link(document, asText(c.url), asText(c.url), openLink));
    const docBlock = c.content as Record<string, unknown> | undefined;
    if (docBlock?.title) p.appendChild(el('span', 'muted', ` · ${asText(docBlock.title)}`));
    if (c.retrieved_at) p.appendChild(el('span', 'muted', ` · retrieved ${asText(c.retrieved_at)}`));
    root.appendChild(p);
  } else if (
    (b.type === 'code_execution_tool_result' || b.type === 'bash_code_execution_tool_result') &&
    c &&
    !Array.isArray(c)
  ) {
    root.appendChild(el('div', 'muted', `return code ${asText(c.return_code)}`));
    if (c.stdout || c.encrypted_stdout) {
      root.appendChild(el('div', 'label', 'stdout'));
      root.appendChild(el('pre', 'stdout', asText(c.stdout ?? '[encrypted]')));
    }
    if (c.stderr) {
      root.appendChild(el('div', 'label', 'stderr'));
      root.appendChild(el('pre', 'stderr', asText(c.stderr)));
    }
  } else if (b.type === 'text_editor_code_execution_tool_result' && c && !Array.isArray(c)) {
    if (typeof c.content === 'string') root.appendChild(el('pre', 'stdout', c.content));
    else if (Array.isArray(c.lines)) root.appendChild(el('pre', 'stdout', (c.lines as string[]).join('\n')));
    else root.appendChild(el('pre', 'json', JSON.stringify(c, null, 2)));
  } else if (b.type === 'tool_search_tool_result' && c && !Array.isArray(c)) {
    const refs = (c.tool_references as { tool_name?: string }[] | undefined) ?? [];
    root.appendChild(el('div', undefined, `Tools found: ${refs.map(r => r.tool_name).join(', ') || 'none'}`));
  } else {
    root.appendChild(el('pre', 'json', JSON.stringify(b, null, 2)));
  }
}

function applyEvent(ev: StreamEvent): void {
  acc.apply(ev);
  switch (ev.type) {
    case 'content_block_start':
      startBlock(ev.index, ev.content_block);
      break;
    case 'content_block_delta': {
      const entry = blocks.get(ev.index);
      if (!entry) break;
      const d = ev.delta;
      if (d.type === 'text_delta') entry.stream?.appendData(d.text);
      else if (d.type === 'thinking_delta') entry.stream?.appendData(d.thinking);
      else if (d.type === 'input_json_delta' && entry.json) entry.json.textContent = acc.partialJson(ev.index) ?? '';
      break;
    }
    case 'content_block_stop':
      finishBlock(ev.index);
      break;
    default:
      break;
  }
}

function renderMeta(): void {
  const m = acc.message;
  const meta = $('meta');
  meta.replaceChildren();
  if (!view) return;
  const status =
    view.outcome === 'running'
      ? 'streaming…'
      : view.outcome === 'done'
        ? 'done'
        : view.outcome === 'cancelled'
          ? 'cancelled'
          : 'failed';
  const add = (label: string, value: string | undefined, id?: string) => {
    if (value === undefined || value === '') return;
    const span = el('span', 'meta-item');
    if (id) span.id = id;
    span.appendChild(el('span', 'muted', `${label} `));
    span.appendChild(el('span', undefined, value));
    meta.appendChild(span);
  };
  add('file', view.file);
  add('model', m?.model ?? view.model);
  add('status', status, 'meta-status');
  add('id', m?.id);
  add('stop_reason', m?.stop_reason ?? undefined, 'meta-stop');
  if (m?.stop_details)
    add(
      'stop_details',
      m.stop_details.type +
        (m.stop_details.category ? ` (${m.stop_details.category})` : '') +
        (m.stop_details.explanation ? `: ${m.stop_details.explanation}` : ''),
    );
  add('stop_sequence', m?.stop_sequence ?? undefined);
  add('request-id', view.requestId);
  add('first token', view.timings.firstTokenMs !== undefined ? `${view.timings.firstTokenMs} ms` : undefined);
  add('total', view.timings.totalMs !== undefined ? `${(view.timings.totalMs / 1000).toFixed(2)} s` : undefined);
  if (m?.container) add('container', `${m.container.id} (expires ${m.container.expires_at})`);
  const u = m?.usage;
  const usage = $('usage');
  usage.replaceChildren();
  if (u) {
    const t = el('table', 'usage');
    const row = (k: string, v: unknown) => {
      if (v === undefined || v === null) return;
      const tr = el('tr');
      tr.appendChild(el('th', undefined, k));
      tr.appendChild(el('td', undefined, asText(v)));
      t.appendChild(tr);
    };
    row('input tokens', u.input_tokens);
    row('output tokens', u.output_tokens);
    // stop_reason is null in message_start only: a stream that ended before message_delta has no final counts
    if (view.outcome !== 'running' && m?.stop_reason === null)
      row('counts', 'from message_start only: the stream ended before the final message_delta');
    row('cache creation input tokens', u.cache_creation_input_tokens);
    row('cache read input tokens', u.cache_read_input_tokens);
    row('cache creation', u.cache_creation);
    row('service tier', u.service_tier);
    row('server tool use', u.server_tool_use);
    row('inference geo', u.inference_geo);
    usage.appendChild(t);
  }
}

function showRetry(r: NonNullable<RunView['retry']>): void {
  const banner = $('banner');
  clearInterval(countdown);
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
    if (left <= 0) clearInterval(countdown);
  };
  draw();
  countdown = setInterval(draw, 250);
}

function showError(): void {
  if (!view?.error) return;
  clearInterval(countdown);
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

function save(): void {
  if (saveTimer) return;
  saveTimer = setTimeout(() => {
    saveTimer = undefined;
    if (view) vscode.setState({ ...view, message: acc.snapshot() });
  }, 500);
}

// ---- messages -------------------------------------------------------------------------------------------
function handle(msg: ToWebview): void {
  switch (msg.type) {
    case 'show':
      reset(msg.view);
      break;
    case 'events':
      if (!view || msg.runId !== view.runId) return;
      if (view.retry) {
        delete view.retry;
        clearInterval(countdown);
        $('banner').replaceChildren();
      }
      for (const ev of msg.events) applyEvent(ev);
      if (msg.firstTokenMs !== undefined) view.timings.firstTokenMs = msg.firstTokenMs;
      renderMeta();
      break;
    case 'retry':
      if (!view || msg.runId !== view.runId) return;
      view.retry = msg.retry;
      showRetry(msg.retry);
      break;
    case 'end':
      if (!view || msg.runId !== view.runId) return;
      view.outcome = msg.outcome;
      view.timings = msg.timings;
      if (msg.requestId) view.requestId = msg.requestId;
      if (msg.error) {
        view.error = msg.error;
        view.midStream = !!msg.midStream;
      }
      // blocks still open (a failed stream) become readable as they are
      for (const [i, entry] of blocks) if (entry.stream) finishBlock(i);
      if (msg.message && !acc.message) reset({ ...view, message: msg.message });
      if (view.error) showError();
      else {
        clearInterval(countdown);
        $('banner').replaceChildren();
      }
      renderMeta();
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
  updateToolbar();
  save();
}

window.addEventListener('message', (e: MessageEvent) => {
  pending.push(e.data as ToWebview);
  if (!frame)
    frame = requestAnimationFrame(() => {
      frame = 0;
      const batch = pending;
      pending = [];
      for (const m of batch) handle(m);
    });
});

buildToolbar();
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
} else {
  updateToolbar();
}
vscode.postMessage({ type: 'ready' });
