// The reply's blocks as they stream: text (Markdown once complete), thinking, tool calls with their input JSON,
// server tool results, citations. Every node is built with textContent: model output is never parsed as HTML.
import { MessageAccumulator, type ContentBlock, type Message, type StreamEvent } from '../../protocol/response';
import { asText } from '../../core/text';
import { el, icon } from '../common/dom';
import { highlightJson } from '../common/json';
import { link, renderMarkdown } from '../common/markdown';

interface Entry {
  root: HTMLElement;
  stream?: Text;
  json?: HTMLElement;
  kind: string;
}

export class Blocks {
  /** the message the events build, the same accumulator the API client uses */
  acc = new MessageAccumulator();
  private readonly entries = new Map<number, Entry>();

  constructor(
    private readonly root: HTMLElement,
    private readonly openLink: (url: string) => void,
  ) {}

  /** Starts over, showing `message` (a reload's, or a run's so far) complete. */
  reset(message?: Message): void {
    this.acc = new MessageAccumulator();
    this.entries.clear();
    this.root.replaceChildren();
    if (!message) return;
    this.acc.apply({ type: 'message_start', message: { ...message, content: [] } });
    message.content.forEach((b, index) => {
      this.acc.apply({ type: 'content_block_start', index, content_block: b });
      this.start(index, b);
      this.finish(index);
    });
    if (message.stop_reason)
      this.acc.apply({
        type: 'message_delta',
        delta: {
          stop_reason: message.stop_reason,
          stop_sequence: message.stop_sequence,
          ...(message.stop_details ? { stop_details: message.stop_details } : {}),
        },
        usage: message.usage,
      });
  }

  /** Blocks still open (a failed stream) become readable as they are. */
  finishOpen(): void {
    for (const [i, entry] of this.entries) if (entry.stream) this.finish(i);
  }

  private start(index: number, b: ContentBlock): void {
    const root = el('section', `block block-${b.type}`);
    root.dataset.index = String(index);
    root.dataset.type = b.type;
    const entry: Entry = { root, kind: b.type };
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
        this.result(root, b);
    }
    this.entries.set(index, entry);
    this.root.appendChild(root);
  }

  finish(index: number): void {
    const entry = this.entries.get(index);
    const b = this.acc.message?.content[index];
    if (!entry || !b) return;
    if (b.type === 'text') {
      const body = el('div', 'text markdown');
      body.appendChild(renderMarkdown(document, asText(b.text), this.openLink));
      entry.root.replaceChildren(body);
      const cites = Array.isArray(b.citations) ? (b.citations as Record<string, unknown>[]) : [];
      if (cites.length) entry.root.appendChild(this.citations(cites));
    } else if ((b.type === 'tool_use' || b.type === 'server_tool_use') && entry.json) {
      entry.json.replaceChildren(highlightJson(document, b.input ?? {}));
    }
    delete entry.stream;
  }

  private citations(cites: Record<string, unknown>[]): HTMLElement {
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
        li.appendChild(link(document, asText(c.title ?? c.url), c.url, this.openLink));
      ol.appendChild(li);
    }
    return ol;
  }

  /** Server tool results and other blocks that arrive whole. */
  private result(root: HTMLElement, b: ContentBlock): void {
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
        li.appendChild(link(document, asText(r.title ?? r.url), asText(r.url), this.openLink));
        if (r.page_age) li.appendChild(el('span', 'muted', ` · ${asText(r.page_age)}`));
        ul.appendChild(li);
      }
      root.appendChild(ul);
    } else if (b.type === 'web_fetch_tool_result' && c && !Array.isArray(c)) {
      const p = el('div');
      p.appendChild(link(document, asText(c.url), asText(c.url), this.openLink));
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
      else root.appendChild(jsonBlock(c));
    } else if (b.type === 'tool_search_tool_result' && c && !Array.isArray(c)) {
      const refs = (c.tool_references as { tool_name?: string }[] | undefined) ?? [];
      root.appendChild(el('div', undefined, `Tools found: ${refs.map(r => r.tool_name).join(', ') || 'none'}`));
    } else {
      root.appendChild(jsonBlock(b));
    }
  }

  apply(ev: StreamEvent): void {
    this.acc.apply(ev);
    switch (ev.type) {
      case 'content_block_start':
        this.start(ev.index, ev.content_block);
        break;
      case 'content_block_delta': {
        const entry = this.entries.get(ev.index);
        if (!entry) break;
        const d = ev.delta;
        if (d.type === 'text_delta') entry.stream?.appendData(d.text);
        else if (d.type === 'thinking_delta') entry.stream?.appendData(d.thinking);
        else if (d.type === 'input_json_delta' && entry.json)
          entry.json.textContent = this.acc.partialJson(ev.index) ?? '';
        break;
      }
      case 'content_block_stop':
        this.finish(ev.index);
        break;
      default:
        break;
    }
  }
}

function jsonBlock(value: unknown): HTMLElement {
  const pre = el('pre', 'json');
  pre.appendChild(highlightJson(document, value));
  return pre;
}
