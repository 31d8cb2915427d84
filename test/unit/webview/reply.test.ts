// The one reply renderer (src/webview/common/reply.ts): the response panel, each Compare column and the Cases
// detail pane draw a reply with it. Plain Node, on test/support/fakeDom.ts: blocks stream into text nodes,
// become Markdown once complete, tool input is highlighted once whole (or kept raw when cut short), a snapshot
// shown while streaming keeps its last block open, and model output never becomes markup.
import * as assert from 'node:assert/strict';
import type { Message, StreamEvent } from '../../../src/protocol/response';
import { Reply, replyText } from '../../../src/webview/common/reply';
import { byClass, byTag, installFakeDom, type FakeElement } from '../../support/fakeDom';

const start: StreamEvent = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'model-opus-4-7',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1 },
  },
};
const text = (index: number, t: string): StreamEvent => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'text_delta', text: t },
});
const json = (index: number, partial_json: string): StreamEvent => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json },
});
const stop = (index: number): StreamEvent => ({ type: 'content_block_stop', index });

function draw(thinkingOpen = true) {
  const root = installFakeDom();
  const links: string[] = [];
  const reply = new Reply(root as unknown as HTMLElement, url => links.push(url), { thinkingOpen });
  return { root, reply, links };
}

const only = (root: FakeElement, className: string) => {
  const found = byClass(root, className);
  assert.equal(found.length, 1, `one .${className}`);
  return found[0]!;
};

describe('reply renderer', () => {
  it('streams text into one node, then draws it as Markdown once the block is complete', () => {
    const { root, reply } = draw();
    reply.apply(start);
    reply.apply({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    reply.apply(text(0, 'Hello **wor'));
    reply.apply(text(0, 'ld**'));
    assert.equal(only(root, 'streaming').textContent, 'Hello **world**', 'the raw text while it streams');
    reply.apply(stop(0));
    assert.equal(byClass(root, 'streaming').length, 0);
    const md = only(root, 'markdown');
    assert.equal(md.textContent, 'Hello world');
    assert.equal(byTag(md, 'strong')[0]?.textContent, 'world');
    assert.equal(only(root, 'block-text').dataset.index, '0');
    assert.equal(reply.message?.content[0]?.text, 'Hello **world**');
  });

  it('model output stays text: markup in text, thinking and tool input builds no element', () => {
    const { root, reply } = draw();
    const payload = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    reply.apply(start);
    reply.apply({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: payload } });
    reply.apply(stop(0));
    reply.apply({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: payload } });
    reply.apply(stop(1));
    reply.apply({
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: 't', name: 'x', input: {} },
    });
    reply.apply(json(2, JSON.stringify({ q: payload })));
    reply.apply(stop(2));
    for (const tag of ['img', 'script']) assert.deepEqual(byTag(root, tag), [], tag);
    assert.ok(only(root, 'markdown').textContent.includes(payload));
    assert.ok(only(root, 'thinking-text').textContent.includes(payload));
    assert.ok(only(root, 'json').textContent.includes('<script>'));
  });

  it('shows thinking open in the response panel and collapsed in a Compare column', () => {
    for (const open of [true, false]) {
      const { root, reply } = draw(open);
      reply.apply(start);
      reply.apply({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: 'Let me' } });
      reply.apply({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: ' think' } });
      const details = only(root, 'thinking');
      assert.equal(details.open, open);
      assert.equal(only(root, 'thinking-text').textContent, 'Let me think');
    }
  });

  it("shows a tool's input as it arrives, highlighted once whole; cut short, the raw text stays", () => {
    const { root, reply } = draw();
    reply.apply(start);
    const tool = { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} };
    reply.apply({ type: 'content_block_start', index: 0, content_block: tool });
    reply.apply(json(0, '{"location": "Pa'));
    assert.equal(only(root, 'json').textContent, '{"location": "Pa');
    reply.apply(json(0, 'ris"}'));
    reply.apply(stop(0));
    assert.match(only(root, 'tool-head').textContent, /get_weather tool_use · toolu_1/);
    assert.equal(byClass(root, 'json-key')[0]?.textContent, '"location"');

    const cut = draw();
    cut.reply.apply(start);
    cut.reply.apply({ type: 'content_block_start', index: 0, content_block: tool });
    cut.reply.apply(json(0, '{"location": "Pa'));
    cut.reply.finishOpen();
    assert.equal(only(cut.root, 'json').textContent, '{"location": "Pa');
    assert.equal(byClass(cut.root, 'json-key').length, 0);
  });

  it('shows a whole message complete, and a snapshot while streaming with its last block open', () => {
    const message: Message = {
      ...(start as { message: Message }).message,
      content: [
        { type: 'text', text: 'First *part*' },
        { type: 'text', text: 'Second' },
      ],
      stop_reason: 'end_turn',
    };
    const whole = draw();
    whole.reply.show(message);
    assert.equal(byClass(whole.root, 'markdown').length, 2);
    assert.equal(whole.reply.message?.stop_reason, 'end_turn');

    const { root, reply } = draw();
    reply.show({ ...message, stop_reason: null }, true);
    assert.equal(byClass(root, 'markdown').length, 1, 'the first block complete');
    reply.apply(text(1, ' and third'));
    assert.equal(only(root, 'streaming').textContent, 'Second and third', 'the deltas to come build on it');
    reply.finishOpen();
    assert.equal(byClass(root, 'markdown').length, 2);
    assert.equal(reply.snapshot()?.content[1]?.text, 'Second and third');
  });

  it('a snapshot whose tool input was still arriving goes on from where it was', () => {
    const { root, reply } = draw();
    reply.show(
      {
        ...(start as { message: Message }).message,
        content: [{ type: 'tool_use', id: 't', name: 'get_weather', input: {}, partial_json: '{"location": ' }],
      },
      true,
    );
    assert.equal(only(root, 'json').textContent, '{"location": ');
    reply.apply(json(0, '"Paris"}'));
    reply.apply(stop(0));
    assert.deepEqual(reply.message?.content[0]?.input, { location: 'Paris' });
    assert.equal(byClass(root, 'json-string')[0]?.textContent, '"Paris"');
  });

  it('lists citations under their text, and links open through the page', () => {
    const { root, reply, links } = draw();
    reply.apply(start);
    reply.apply({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: 'Paris is the capital.' },
    });
    reply.apply({
      type: 'content_block_delta',
      index: 0,
      delta: {
        type: 'citations_delta',
        citation: {
          type: 'web_search_result_location',
          cited_text: 'capital',
          url: 'https://example.com/paris',
          title: 'Paris',
        },
      },
    });
    reply.apply(stop(0));
    const cites = only(root, 'citations');
    assert.match(cites.textContent, /capital.*Paris/);
    const a = byTag(cites, 'a')[0];
    assert.ok(a);
    assert.equal(a.title, 'https://example.com/paris');
    a.click();
    assert.deepEqual(links, ['https://example.com/paris']);
  });

  it("draws a reply known only by its text (the Cases detail): Markdown, or the model's raw text", () => {
    installFakeDom();
    const rendered = replyText('A *b*', () => {}, 'reply md') as unknown as FakeElement;
    assert.equal(rendered.className, 'reply md markdown');
    assert.equal(byTag(rendered, 'em')[0]?.textContent, 'b');
    const raw = replyText('A *b*', () => {}, 'reply raw', true) as unknown as FakeElement;
    assert.equal(raw.tagName, 'pre');
    assert.equal(raw.textContent, 'A *b*');
    assert.equal(raw.childNodes.length, 1);
  });
});
