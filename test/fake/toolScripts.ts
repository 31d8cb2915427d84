// The fake's scripted tool loops: `#script=NAME` in the conversation's first user message makes the fake a model
// that plays the script NAME a turn at a time, keyed by the conversation: the turn is the number of assistant
// turns already in it. A turn either calls tools (stop_reason tool_use) or answers with the tool results it was
// given. After its last turn a script repeats that turn (a script of one calling turn loops until max-turns).
//
//   $1 in a call's input: the first number in the first user message ("Where is order 1234?" → "1234").
//   A text turn says every tool result of the conversation, in order: "Here is what I found: shipped; Sunny."
//   After a tool_result with is_error, the model gives up: "I could not finish: <the error's text>."
//   `#slow=MS` in the first user message: every turn streams with MS between events.

/** A request that defines the tools the scripts call (without its messages). */
export const AGENT_REQUEST = {
  model: 'model-sonnet-4-6',
  max_tokens: 100,
  tools: [
    { name: 'lookup_order', input_schema: { type: 'object' } },
    { name: 'get_weather', input_schema: { type: 'object' } },
  ],
};

/** One turn of a script: calls to make, or (no calls) the answer. */
export interface ScriptTurn {
  calls?: { name: string; input: Record<string, unknown> }[];
}

const order = { name: 'lookup_order', input: { order_id: '$1' } };
const weather = { name: 'get_weather', input: { city: 'Paris' } };

/** The scripts every fake knows (FakeOptions.toolScripts adds more). */
const TOOL_SCRIPTS: Record<string, ScriptTurn[]> = {
  // two turns of calls, then the answer: a 3-turn loop
  order: [{ calls: [order] }, { calls: [weather] }, {}],
  // two calls in one turn, then the answer
  parallel: [{ calls: [order, weather] }, {}],
  // the same call in every turn: until max-turns
  forever: [{ calls: [order] }],
  // one call, then the answer
  once: [{ calls: [order] }, {}],
  // the tools of @modelcontextprotocol/server-everything, which the MCP tests run: echo, an image, a slow call
  echo: [{ calls: [{ name: 'echo', input: { message: '$1' } }] }, {}],
  image: [{ calls: [{ name: 'get-tiny-image', input: {} }] }, {}],
  slow: [{ calls: [{ name: 'trigger-long-running-operation', input: { duration: 20, steps: 20 } }] }, {}],
};

interface Msg {
  role?: string;
  content?: unknown;
}

const blocks = (m: Msg | undefined) => (Array.isArray(m?.content) ? (m.content as Record<string, unknown>[]) : []);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map(b => {
      const block = b as { type?: string; text?: unknown };
      return block.type === 'text' ? String(block.text) : block.type === 'image' ? '[image]' : '';
    })
    .join(' ');
}

function fill(v: unknown, first: string): unknown {
  if (v === '$1') return /\d+/.exec(first)?.[0] ?? '';
  if (v && typeof v === 'object' && !Array.isArray(v))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, first)]));
  return v;
}

/**
 * The reply content a script gives this conversation, or undefined when its first user message names no script
 * the fake knows.
 */
export function scriptedContent(
  messages: readonly Msg[],
  extra: Record<string, ScriptTurn[]> = {},
): { content: Record<string, unknown>[]; stop: string } | undefined {
  const first = messages.find(m => m.role === 'user');
  const firstText = typeof first?.content === 'string' ? first.content : textOf(first?.content);
  const name = /#script=([\w-]+)/.exec(firstText)?.[1];
  const script = name ? (extra[name] ?? TOOL_SCRIPTS[name]) : undefined;
  if (!script?.length) return undefined;
  const turn = messages.filter(m => m.role === 'assistant').length;
  const results = messages.flatMap(m => blocks(m).filter(b => b.type === 'tool_result'));
  const last = results[results.length - 1];
  if (last?.is_error === true)
    return { content: [{ type: 'text', text: `I could not finish: ${textOf(last.content)}.` }], stop: 'end_turn' };
  const step = script[Math.min(turn, script.length - 1)]!;
  if (!step.calls?.length) {
    const said = results.map(r => textOf(r.content)).join('; ');
    return { content: [{ type: 'text', text: `Here is what I found: ${said || 'nothing'}.` }], stop: 'end_turn' };
  }
  const content = [
    { type: 'text', text: `Let me check (turn ${turn + 1}).` },
    ...step.calls.map((c, i) => ({
      type: 'tool_use',
      id: `toolu_fake_${turn + 1}_${i + 1}`,
      name: c.name,
      input: fill(c.input, firstText),
    })),
  ];
  return { content, stop: 'tool_use' };
}
