// A reply as the turns of a request (for transcripts, "Append reply" and "Continue"), and the request as a
// curl command. No parser here: this stays in the features bundle, appendReply (append.ts) in the core bundle.
import type { ContentBlock, Message } from '../api/types';
import { asText } from '../text';

export const STUB = 'TODO: the tool result';

/** The assistant turn as a MessageParam: output-only and streaming leftovers removed; plain text as a string. */
export function assistantTurn(m: Message): { role: 'assistant'; content: string | ContentBlock[] } {
  const content = m.content.map(b => {
    const { partial_json: _p, ...rest } = b;
    if (rest.type === 'text' && (rest.citations === null || (Array.isArray(rest.citations) && !rest.citations.length)))
      delete rest.citations;
    return rest;
  });
  if (content.length === 1 && content[0]!.type === 'text' && content[0]!.citations === undefined)
    return { role: 'assistant', content: asText(content[0]!.text) };
  return { role: 'assistant', content };
}

/** The user turn answering each tool_use of the message (empty when there is none). */
export function toolResultTurn(m: Message): { role: 'user'; content: ContentBlock[] } | undefined {
  const uses = m.content.filter(b => b.type === 'tool_use' && typeof b.id === 'string');
  if (!uses.length) return undefined;
  return { role: 'user', content: uses.map(u => ({ type: 'tool_result', tool_use_id: String(u.id), content: STUB })) };
}

/**
 * A curl command for the request; the key is a shell variable, never the key itself, and so is the address
 * when none is set (a shell fills it in, where a placeholder would have to be edited by hand).
 */
export function curlCommand(
  baseUrl: string,
  apiVersion: string,
  betas: readonly string[],
  body: Record<string, unknown>,
): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const lines = [
    `curl ${baseUrl ? q(`${baseUrl}/v1/messages`) : `"$PROMPTWRIGHT_BASE_URL"'/v1/messages'`}`,
    `  -H 'x-api-key: '"$PROMPTWRIGHT_API_KEY"`,
    `  -H ${q(`vendor-version: ${apiVersion}`)}`,
    `  -H 'content-type: application/json'`,
    ...(betas.length ? [`  -H ${q(`vendor-beta: ${betas.join(',')}`)}`] : []),
    `  --data-binary ${q(JSON.stringify({ ...body, stream: true }))}`,
  ];
  return lines.join(' \\\n');
}
