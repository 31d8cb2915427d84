// The offline demo's replies. No model runs, and the reply says so; but its shape follows the request, so
// that what a request asks for can be seen: a short thinking block when thinking is on, a call of the
// request's tool (input built from its input_schema) when the request offers tools and the question is
// about one, JSON valid against output_config.format when the request gives one, and text otherwise. A judge's
// request (a rubric assertion) and the co-author's (generated cases, an improved prompt) are answered by their
// stand-in's rule (judge.ts, coauthor.ts).

import { cacheMarkers } from '../request/breakpoints';
import { standInCoauthor } from './coauthor';
import { standInVerdict } from './judge';

type Json = Record<string, unknown>;

const NO_MODEL = 'Offline demo: no model ran.';
/** What the usage of a request with breakpoints shows in the demo (core/demo/promptCache.ts). */
const SIMULATED_CACHE =
  'The cache reads and writes in this usage are **simulated by the demo**: a breakpoint whose prefix reaches ' +
  "the model's minimum is written on the first run and read when the same request runs again within its ttl " +
  '(**Re-run Request**). The service keeps its own cache.';

export interface DemoReply {
  content: Json[];
  stop_reason: 'end_turn' | 'tool_use';
}

export function demoReply(body: Json): DemoReply {
  // a judge's request (a rubric assertion), Generate Test Cases, Improve Prompt: the stand-ins' answers
  const answer = standInVerdict(body) ?? standInCoauthor(body);
  if (answer !== undefined) return { content: [{ type: 'text', text: answer }], stop_reason: 'end_turn' };
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const asked = lastUserText(messages).slice(0, 300);
  const content: Json[] = [];
  const thinking = body.thinking as Json | undefined;
  if (thinking && (thinking.type === 'enabled' || thinking.type === 'adaptive')) {
    const text = `${NO_MODEL} This is where the model's reasoning would appear, before its answer.`;
    content.push({ type: 'thinking', thinking: text, signature: 'offline-demo-signature' });
  }
  const tool = toolToCall(body, asked);
  if (tool) {
    content.push({ type: 'text', text: `${NO_MODEL} A model would call ${tool.name} here; so does the demo.` });
    const input = sample(tool.input_schema, '', { named: false });
    content.push({ type: 'tool_use', id: 'toolu_offline_demo_01', name: tool.name, input });
    return { content, stop_reason: 'tool_use' };
  }
  const format = (body.output_config as Json | undefined)?.format as Json | undefined;
  if (format?.type === 'json_schema' && format.schema && typeof format.schema === 'object') {
    const text = JSON.stringify(sample(format.schema, `${NO_MODEL} You asked: ${asked}`, { named: false }), null, 2);
    content.push({ type: 'text', text });
    return { content, stop_reason: 'end_turn' };
  }
  const text =
    `**${NO_MODEL}** This reply is canned: it shows how a reply streams in, not what a model would say.\n\n` +
    `You asked \`${typeof body.model === 'string' ? body.model : 'a model'}\`:\n\n> ${asked || '(no text)'}\n\n` +
    'To get real replies, set `promptwright.baseUrl` to the service and run **Promptwright: Set API Key**.' +
    (cacheMarkers(body).length ? `\n\n${SIMULATED_CACHE}` : '');
  content.push({ type: 'text', text });
  return { content, stop_reason: 'end_turn' };
}

/**
 * The tool a reply calls: the one tool_choice names (or the first, for `any`), else a custom tool whose name
 * or description shares a word with the question (the demo's stand-in for a model deciding to use it).
 */
function toolToCall(body: Json, asked: string): { name: string; input_schema: unknown } | undefined {
  const tools = (Array.isArray(body.tools) ? (body.tools as Json[]) : []).filter(
    t => typeof t.name === 'string' && t.input_schema && (t.type === undefined || t.type === 'custom'),
  ) as { name: string; description?: unknown; input_schema: unknown }[];
  const choice = body.tool_choice as Json | undefined;
  if (!tools.length || choice?.type === 'none') return undefined;
  if (choice?.type === 'tool') return tools.find(t => t.name === choice.name);
  if (choice?.type === 'any') return tools[0];
  const words = new Set(wordsOf(asked));
  return tools.find(t =>
    wordsOf(`${t.name} ${typeof t.description === 'string' ? t.description : ''}`).some(w => words.has(w)),
  );
}

const wordsOf = (s: string) => s.toLowerCase().match(/[a-zà-ÿ]{4,}/g) ?? [];

/**
 * A value valid against a JSON Schema (the subset request schemas use): every property of an object, the
 * first of an enum or a union, the least an array or a number may be. Strings carry `text`, the first one
 * the whole of it.
 */
function sample(schema: unknown, text: string, state: { named: boolean }): unknown {
  const s = (schema && typeof schema === 'object' ? schema : {}) as Json;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union) && union.length) return sample(union[0], text, state);
  const type = Array.isArray(s.type) ? (s.type as unknown[]).find(t => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sample(v, text, state)]));
    }
    case 'array': {
      const n = typeof s.minItems === 'number' ? s.minItems : 1;
      return Array.from({ length: n }, () => sample(s.items, text, state));
    }
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default: {
      if (state.named) return 'example';
      state.named = true;
      return text || 'example';
    }
  }
}

function lastUserText(messages: Json[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      const texts = (m.content as Json[]).filter(b => b.type === 'text').map(b => String(b.text));
      if (texts.length) return texts.join(' ');
    }
  }
  return '';
}
