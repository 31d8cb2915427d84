// The co-author's request and its answer. Both features ask for their answer through structured outputs
// (`output_config.format`, `type: json_schema`), with schemas the service's strict compiler takes: every
// property required, no other, no numeric or length bounds (RULES.md's strict-schema rules; a unit test checks
// the bodies with the validator). The answer is data: parsed and checked by the feature; one that is not the
// JSON asked for is an AnswerError with its reason and request-id, and nothing is written.
import type { ApiClient } from '../api/client';
import { answerJson } from '../api/answer';
import type { Usage } from '../api/types';

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

/**
 * Sends the co-author's request through the client (its key, address, retry rules), cancelled by `signal`;
 * the answer's JSON, or an AnswerError. A failed request throws the client's error (error.type, request-id).
 */
export async function ask(client: ApiClient, body: Record<string, unknown>, signal?: AbortSignal): Promise<Answer> {
  const reply = await client.createMessage(body, signal ? { signal } : {});
  const parsed = answerJson(reply);
  if ('problem' in parsed) throw new AnswerError(parsed.problem, reply.requestId);
  return {
    value: parsed.value,
    model: reply.model || String(body.model),
    usage: reply.usage,
    ...(reply.requestId ? { requestId: reply.requestId } : {}),
  };
}
