// A structured output's answer (`output_config.format`, `type: json_schema`) as data: the JSON object the reply's
// text holds, or why it is not one: refused, cut off at max_tokens, no text, not JSON, not an object. What the
// object must hold is the asker's to check (a judge's verdict, generated cases, improved texts).
import type { Message } from './types';

const MAX_QUOTE = 80;

/** The JSON object in a reply to a structured-output request by `who` (`the judge`, `the model`), or why not. */
export function answerJson(
  reply: Message,
  who = 'the model',
): { value: Record<string, unknown> } | { problem: string } {
  if (reply.stop_reason === 'refusal') return { problem: `${who} refused to answer (stop_reason refusal)` };
  if (reply.stop_reason === 'max_tokens') return { problem: `${who}'s answer was cut off at max_tokens` };
  const text = reply.content
    .map(b => (b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .join('')
    .trim();
  if (!text) return { problem: `${who} answered no text` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const quote = text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
    return { problem: `${who}'s answer is not JSON: ${JSON.stringify(quote)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: `${who}'s answer is JSON, but not the object asked for` };
  return { value: value as Record<string, unknown> };
}
