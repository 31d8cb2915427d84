// The one renderer of a model's reply, for every page that shows one: the response panel, each column of the
// Compare page, and (a reply known only by its text) the Cases grid's detail pane. A reply's blocks as they
// stream: text (Markdown once the block is complete), thinking, tool calls with their input JSON, server tool
// results, citations. Every node is built with textContent: model output is never parsed as HTML.
import { MessageAccumulator } from '../../core/api/accumulator';
import type { ContentBlock, Message, StreamEvent } from '../../core/api/types';
import { asText } from '../../core/text';
import { el, icon } from './dom';
import { highlightJson } from './json';
import { link, renderMarkdown } from './markdown';

type OpenLink = (url: string) => void;

export interface ReplyOptions {
  /** thinking shown open (the response panel: one reply, the whole width) or collapsed (Compare's columns) */
  thinkingOpen: boolean;
}

interface Block {
  root: HTMLElement;
  /** the text node deltas append to, while the block streams */
  stream?: Text;
  /** a tool call's input: its JSON text while it streams, highlighted once complete */
  json?: HTMLElement;
}

/**
 * A reply's text as a page shows it: rendered Markdown (drawn as nodes), or `raw`, the text as the model wrote
 * it in a `<pre>`. The element has the class `className`, and `markdown` too once rendered.
 */
export function replyText(text: string, openLink: OpenLink, className: string, raw = false): HTMLElement {
  if (raw) return el('pre', className, text);
  const box = el('div', `${className} markdown`);
  box.appendChild(renderMarkdown(document, text, openLink));
  return box;
}

/** One reply drawn into `root`, from a whole message (`show`) or from its stream events (`apply`). */
export class Reply {
  /** the message the events build, with the accumulator the API client uses (both sides agree exactly) */
  private acc = new MessageAccumulator();
  private readonly blocks = new Map<number, Block>();

  constructor(
    private readonly root: HTMLElement,
    private readonly openLink: OpenLink,
    private readonly options: ReplyOptions,
  ) {}

  /** The reply so far (undefined before the stream's message_start). */
  get message(): Message | undefined {
    return this.acc.message;
  }

  /** A copy of the reply so far, with a tool's input still arriving kept as its raw text: what a page saves. */
  snapshot(): Message | undefined {
    return this.acc.snapshot();
  }

  /**
   * Starts over, showing `message` (a reload's, or a run's so far: a snapshot). While `streaming`, its last
   * block stays open for the deltas to come; every other block is shown complete.
   */
  show(message: Message | undefined, streaming = false): void {
    this.acc = new MessageAccumulator();
    this.blocks.clear();
    this.root.replaceChildren();
    if (!message) return;
    this.apply({ type: 'message_start', message: { ...message, content: [] } });
    message.content.forEach(({ partial_json, ...b }, index) => {
      this.apply({ type: 'content_block_start', index, content_block: b });
      // tool input still arriving: what came of it, for the deltas to come to build on
      if (typeof partial_json === 'string')
        this.apply({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
      if (streaming && index === message.content.length - 1) return;
      if (typeof partial_json === 'string') this.finish(index);
      else this.apply({ type: 'content_block_stop', index });
    });
    if (message.stop_reason)
      this.apply({
        type: 'message_delta',
        delta: {
          stop_reason: message.stop_reason,
          stop_sequence: message.stop_sequence,
          ...(message.stop_details ? { stop_details: message.stop_details } : {}),
        },
        usage: message.usage,
      });
  }

  /** Blocks still open (a stream that failed or was cancelled) become readable as they are. */
  finishOpen(): void {
    for (const [index, block] of this.blocks) if (block.stream || block.json) this.finish(index);
  }

  apply(ev: StreamEvent): void {
    try {
      this.acc.apply(ev);
    } catch {
      // a block the page joined mid-way, or tool input cut short: shown as it is, the stream goes on
      return;
    }
    switch (ev.type) {
      case 'content_block_start':
        this.start(ev.index, ev.content_block);
        break;
      case 'content_block_delta': {
        const block = this.blocks.get(ev.index);
        const d = ev.delta;
        if (d.type === 'text_delta') block?.stream?.appendData(d.text);
        else if (d.type === 'thinking_delta') block?.stream?.appendData(d.thinking);
        else if (d.type === 'input_json_delta' && block?.json)
          block.json.textContent = this.acc.partialJson(ev.index) ?? '';
        break;
      }
      case 'content_block_stop':
        this.finish(ev.index);
        break;
      default:
        break;
    }
  }

  private start(index: number, b: ContentBlock): void {
    const root = el('section', `block block-${b.type}`);
    root.dataset.index = String(index);
    root.dataset.type = b.type;
    const block: Block = { root };
    switch (b.type) {
      case 'text': {
        const body = el('div', 'text streaming');
        block.stream = document.createTextNode(asText(b.text));
        body.appendChild(block.stream);
        root.appendChild(body);
        break;
      }
      case 'thinking': {
        const d = el('details', 'thinking');
        d.open = this.options.thinkingOpen;
        const s = el('summary');
        s.append(icon('lightbulb'), document.createTextNode(' Thinking'));
        const body = el('div', 'thinking-text');
        block.stream = document.createTextNode(asText(b.thinking));
        body.appendChild(block.stream);
        d.append(s, body);
        root.appendChild(d);
        break;
      }
      case 'redacted_thinking':
        root.appendChild(el('div', 'placeholder', '[redacted thinking — encrypted; kept for the next turn]'));
        break;
      case 'tool_use':
      case 'server_tool_use': {
        const h = el('div', 'tool-head');
        h.append(
          icon(b.type === 'tool_use' ? 'tools' : 'server-process'),
          el('strong', undefined, ` ${asText(b.name)}`),
          el('span', 'muted', ` ${b.type} · ${asText(b.id)}`),
        );
        block.json = el('pre', 'json');
        root.append(h, block.json);
        break;
      }
      default:
        this.result(root, b);
    }
    this.blocks.set(index, block);
    this.root.appendChild(root);
  }

  /** A block is complete: text becomes Markdown (and its citations), a tool's whole input is highlighted. */
  private finish(index: number): void {
    const block = this.blocks.get(index);
    const b = this.acc.message?.content[index];
    if (!block || !b) return;
    if (b.type === 'text') {
      block.root.replaceChildren(replyText(asText(b.text), this.openLink, 'text'));
      const cites = Array.isArray(b.citations) ? (b.citations as Record<string, unknown>[]) : [];
      if (cites.length) block.root.appendChild(this.citations(cites));
    } else if (block.json && this.acc.partialJson(index) === undefined) {
      // input cut short (no content_block_stop) stays the raw text that came: it does not parse
      block.json.replaceChildren(highlightJson(document, b.input ?? {}));
    }
    delete block.stream;
    delete block.json;
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
}

function jsonBlock(value: unknown): HTMLElement {
  const pre = el('pre', 'json');
  pre.appendChild(highlightJson(document, value));
  return pre;
}
