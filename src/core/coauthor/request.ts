// What the co-author reads of a request file's value: its {{placeholders}} (what test cases fill in), its system
// prompt, tools and turns (what both prompts show the model), and the texts an improvement may rewrite, each
// with its path, so that the rewrite touches those strings and nothing else.
import { findPlaceholders, placeholderNames } from '../cases/placeholders';
import type { Path } from '../request/types';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One text of the request an improvement may rewrite: the system prompt, or a user turn's. */
export interface PromptText {
  /** its name in the prompt and in the answer's schema: `system`, `system_2`, `message_1`, `message_3_block_2` */
  id: string;
  /** where the string is in the request */
  path: Path;
  text: string;
  /** the placeholders it holds, each once, in order */
  placeholders: string[];
}

/** What the co-author's prompts show of a request. */
export interface RequestParts {
  model?: string;
  /** the placeholder names, each once, in the order the request first uses them */
  placeholders: string[];
  /** the system prompt's text blocks, joined */
  system: string;
  /** the tools, as the prompt shows them: name, description and input schema */
  tools: string;
  /** the turns, as the prompt shows them: `user: …` and `assistant: …` */
  turns: string;
  /** an output format the request asks for, as JSON (the replies' shape) */
  outputFormat?: string;
}

/** The parts of a request the co-author's prompts show (a value that is not a request gives empty parts). */
export function requestParts(value: unknown): RequestParts {
  const body = isObj(value) ? value : {};
  const format = isObj(body.output_config) ? body.output_config.format : undefined;
  return {
    ...(typeof body.model === 'string' && body.model ? { model: body.model } : {}),
    placeholders: [...placeholderNames(body)],
    system: systemTexts(body)
      .map(t => t.text)
      .join('\n\n'),
    tools: toolsText(body.tools),
    turns: turnsText(body.messages),
    ...(isObj(format) ? { outputFormat: JSON.stringify(format) } : {}),
  };
}

/**
 * The texts an improvement rewrites: every text of the system prompt, and the text of each user turn that is a
 * template (holds a {{placeholder}}). A request without a system prompt has its first user turn as the prompt,
 * so that turn's texts are included too.
 */
export function improvableTexts(value: unknown): PromptText[] {
  const body = isObj(value) ? value : {};
  const system = systemTexts(body);
  const turns = userTurnTexts(body.messages);
  const templates = turns.filter(t => t.placeholders.length);
  if (system.length) return [...system, ...templates];
  const first = turns[0];
  const firstTurn = first ? turns.filter(t => t.path[1] === first.path[1]) : [];
  return [...firstTurn, ...templates.filter(t => t.path[1] !== first?.path[1])];
}

function text(id: string, path: Path, s: string): PromptText {
  return { id, path, text: s, placeholders: [...new Set(findPlaceholders(s).map(p => p.name))] };
}

function systemTexts(body: Json): PromptText[] {
  const system = body.system;
  if (typeof system === 'string') return system ? [text('system', ['system'], system)] : [];
  if (!Array.isArray(system)) return [];
  const blocks = system
    .map((b, i) => ({ b: b as unknown, i }))
    .filter(({ b }) => isObj(b) && b.type === 'text' && typeof b.text === 'string');
  return blocks.map(({ b, i }, n) =>
    text(blocks.length === 1 ? 'system' : `system_${n + 1}`, ['system', i, 'text'], (b as { text: string }).text),
  );
}

function userTurnTexts(messages: unknown): PromptText[] {
  if (!Array.isArray(messages)) return [];
  const out: PromptText[] = [];
  messages.forEach((m: unknown, i) => {
    if (!isObj(m) || m.role !== 'user') return;
    const content = m.content;
    if (typeof content === 'string') {
      out.push(text(`message_${i + 1}`, ['messages', i, 'content'], content));
      return;
    }
    if (!Array.isArray(content)) return;
    const blocks = content
      .map((b, j) => ({ b: b as unknown, j }))
      .filter(({ b }) => isObj(b) && b.type === 'text' && typeof b.text === 'string');
    for (const { b, j } of blocks) {
      const id = blocks.length === 1 ? `message_${i + 1}` : `message_${i + 1}_block_${j + 1}`;
      out.push(text(id, ['messages', i, 'content', j, 'text'], (b as { text: string }).text));
    }
  });
  return out;
}

/** Each tool in a few lines: its name, its description and its input schema (a server tool: its type). */
function toolsText(tools: unknown): string {
  if (!Array.isArray(tools)) return '';
  return tools
    .filter(isObj)
    .map(t => {
      const name = typeof t.name === 'string' ? t.name : '(unnamed)';
      if (t.type !== undefined && t.type !== 'custom' && !t.input_schema)
        return `- ${name}: a server tool (${JSON.stringify(t.type)})`;
      const description = typeof t.description === 'string' ? `: ${t.description}` : '';
      const schema = t.input_schema === undefined ? '' : `\n  input_schema: ${JSON.stringify(t.input_schema)}`;
      return `- ${name}${description}${schema}`;
    })
    .join('\n');
}

/** The turns as `role: text`, other blocks named (`[image]`), so the model sees where the placeholders go. */
function turnsText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  return messages
    .filter(isObj)
    .map(m => `${typeof m.role === 'string' ? m.role : 'user'}: ${contentText(m.content)}`)
    .join('\n\n');
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map(b => {
      if (!isObj(b)) return '';
      if (b.type === 'text' && typeof b.text === 'string') return b.text;
      if (b.type === 'tool_result') return `[tool_result] ${contentText(b.content)}`;
      return `[${typeof b.type === 'string' ? b.type : 'block'}]`;
    })
    .filter(Boolean)
    .join('\n');
}
