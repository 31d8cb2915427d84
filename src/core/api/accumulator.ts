// Builds the final Message (doc1 §2.7) from stream events, as the SDKs do: text with citations, thinking
// with its signature, tool input parsed from its JSON chunks, server tool blocks, usage overwritten (not
// summed) by message_delta, stop_reason, stop_sequence, stop_details.
import { asText } from '../text';
import type { ContentBlock, Message, StreamEvent } from './types';

export class MessageAccumulator {
  private msg: Message | undefined;
  private readonly json = new Map<number, string>();
  /** true once message_stop arrived */
  done = false;

  get message(): Message | undefined {
    return this.msg;
  }

  /** A deep copy of what has arrived so far (kept when a stream fails). */
  snapshot(): Message | undefined {
    if (!this.msg) return undefined;
    const copy = structuredClone(this.msg);
    // tool input still arriving: show what parses, keep the raw text
    for (const [i, raw] of this.json) {
      const b = copy.content[i];
      if (b) {
        b.partial_json = raw;
        const parsed = tryParse(raw);
        if (parsed !== undefined) b.input = parsed;
      }
    }
    return copy;
  }

  /** Partial tool input JSON of a block that is still streaming. */
  partialJson(index: number): string | undefined {
    return this.json.get(index);
  }

  /** A text delta: its text added to its block (the stream's hot path calls this rather than `apply`). */
  appendText(index: number, text: string): void {
    const b = this.block(index);
    b.text = `${asText(b.text)}${text}`;
  }

  apply(ev: StreamEvent): void {
    switch (ev.type) {
      case 'message_start':
        this.msg = { ...ev.message, content: [...(ev.message.content ?? [])], usage: { ...ev.message.usage } };
        return;
      case 'content_block_start': {
        const m = this.need();
        // a copy of its own, so that the deltas added to it leave the event as it came (a batcher or a second
        // accumulator holds it too): shallow, as only a block's own fields are ever set (structuredClone cost tens of
        // microseconds a block)
        const block: ContentBlock = { ...ev.content_block };
        m.content[ev.index] = block;
        if (block.type === 'tool_use' || block.type === 'server_tool_use' || block.type === 'mcp_tool_use')
          this.json.set(ev.index, '');
        return;
      }
      case 'content_block_delta': {
        const d = ev.delta;
        if (d.type === 'text_delta') return this.appendText(ev.index, d.text);
        const b = this.block(ev.index);
        if (d.type === 'thinking_delta') b.thinking = `${asText(b.thinking)}${d.thinking}`;
        else if (d.type === 'signature_delta') b.signature = d.signature;
        else if (d.type === 'input_json_delta')
          this.json.set(ev.index, (this.json.get(ev.index) ?? '') + d.partial_json);
        else if (d.type === 'citations_delta')
          b.citations = [...((b.citations as unknown[] | undefined) ?? []), d.citation];
        return;
      }
      case 'content_block_stop': {
        const b = this.need().content[ev.index];
        const raw = this.json.get(ev.index);
        if (b && raw !== undefined) {
          this.json.delete(ev.index);
          if (raw.trim()) {
            const parsed = tryParse(raw);
            if (parsed === undefined)
              throw new Error(`tool input of block ${ev.index} is not valid JSON: ${raw.slice(0, 200)}`);
            b.input = parsed;
          }
        }
        return;
      }
      case 'message_delta': {
        const m = this.need();
        if ('stop_reason' in ev.delta) m.stop_reason = ev.delta.stop_reason ?? null;
        if ('stop_sequence' in ev.delta) m.stop_sequence = ev.delta.stop_sequence ?? null;
        if (ev.delta.stop_details !== undefined) m.stop_details = ev.delta.stop_details;
        if (ev.delta.container !== undefined) m.container = ev.delta.container;
        if (ev.usage) {
          for (const [k, v] of Object.entries(ev.usage))
            if (v !== undefined && v !== null) (m.usage as Record<string, unknown>)[k] = v;
        }
        return;
      }
      case 'message_stop':
        this.done = true;
        return;
      default:
      // ping, error (handled by the stream), and event types added later: nothing to accumulate
    }
  }

  /** The block a delta is for. */
  private block(index: number): ContentBlock {
    const b = this.need().content[index];
    if (!b) throw new Error(`content_block_delta for block ${index} before its content_block_start`);
    return b;
  }

  private need(): Message {
    if (!this.msg) throw new Error('stream event before message_start');
    return this.msg;
  }
}

function tryParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
