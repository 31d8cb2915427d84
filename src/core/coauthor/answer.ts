// The co-author's request and its answer. Both features ask for their answer through structured outputs
// (`output_config.format`, `type: json_schema`), with schemas the service's strict compiler takes: every
// property required, no other, no numeric or length bounds (RULES.md's strict-schema rules; a unit test checks
// the bodies with the validator). The answer is data: parsed and checked by the feature; one that is not the
// JSON asked for is an AnswerError with its reason and request-id, and nothing is written.
import type { ApiClient } from '../api/client';
import type { Message, Usage } from '../api/types';

/** A JSON Schema, as the strict compiler takes it. */
export type StrictSchema = Record<string, unknown>;

/** An object schema of the strict kind: every property required, no other. */
export function strictObject(properties: Record<string, StrictSchema>, description?: string): StrictSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

/** The co-author's request: its instructions as the system prompt, one user turn, the answer's schema. */
export function coauthorRequest(
  model: string,
  system: string,
  prompt: string,
  schema: StrictSchema,
  maxTokens: number,
): Record<string, unknown> {
  return {
    model,
    max_tokens: maxTokens,
    system,
    messages: [{ role: 'user', content: prompt }],
    output_config: { format: { type: 'json_schema', schema } },
  };
}

/** The model's answer was not what was asked: why, and the request-id of the answer. */
export class AnswerError extends Error {
  override name = 'AnswerError';
  constructor(
    message: string,
    readonly requestId?: string,
  ) {
    super(requestId ? `${message} (request-id ${requestId})` : message);
  }
}

/** What the model answered: the JSON value, with what the answer cost and where it came from. */
export interface Answer {
  value: Record<string, unknown>;
  model: string;
  usage: Usage;
  requestId?: string;
}

const MAX_QUOTE = 80;

/** The answer's JSON object, or why the reply is not one. */
export function answerValue(reply: Message): { value: Record<string, unknown> } | { problem: string } {
  if (reply.stop_reason === 'refusal') return { problem: 'the model refused to answer (stop_reason refusal)' };
  if (reply.stop_reason === 'max_tokens')
    return { problem: 'the answer was cut off at max_tokens: ask for fewer cases, or shorten the request' };
  const text = reply.content
    .map(b => (b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .join('')
    .trim();
  if (!text) return { problem: 'the model answered no text' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const quote = text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
    return { problem: `the answer is not JSON: ${JSON.stringify(quote)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'the answer is JSON, but not the object asked for' };
  return { value: value as Record<string, unknown> };
}

/**
 * Sends the co-author's request through the client (its key, address, retry rules), cancelled by `signal`;
 * the answer's JSON, or an AnswerError. A failed request throws the client's error (error.type, request-id).
 */
export async function ask(client: ApiClient, body: Record<string, unknown>, signal?: AbortSignal): Promise<Answer> {
  const reply = await client.createMessage(body, signal ? { signal } : {});
  const parsed = answerValue(reply);
  if ('problem' in parsed) throw new AnswerError(parsed.problem, reply.requestId);
  return {
    value: parsed.value,
    model: reply.model || String(body.model),
    usage: reply.usage,
    ...(reply.requestId ? { requestId: reply.requestId } : {}),
  };
}
