// A tool answered by a model (`simulate: INSTRUCTIONS`): one non-streaming request that shows the model the
// tool's definition (from the request being tested), the instructions and the call's input, and asks for the
// tool's output only. Its answer's text is the tool's answer.
import type { Message } from '../api/types';
import { NoAnswer, type ToolCall } from './answers';

/** Room for a simulated tool's output. */
const SIMULATE_MAX_TOKENS = 2048;

/** The tool's definition in a request body (`tools[]` by name), or undefined. */
function toolDefinition(body: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as unknown[]) : [];
  return tools.find(t => (t as { name?: unknown } | null)?.name === name) as Record<string, unknown> | undefined;
}

/** The request that asks `model` to stand in for the tool. */
function simulateRequest(
  model: string,
  instructions: string,
  call: ToolCall,
  definition: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const tool = definition
    ? JSON.stringify({
        name: definition.name,
        description: definition.description,
        input_schema: definition.input_schema,
      })
    : JSON.stringify({ name: call.name });
  return {
    model,
    max_tokens: SIMULATE_MAX_TOKENS,
    system:
      'You stand in for a software tool in a test. Answer with the output the tool would return for the call, ' +
      'and nothing else: no preamble, no explanation, no Markdown fence.',
    messages: [
      {
        role: 'user',
        content:
          `<tool>\n${tool}\n</tool>\n\n<instructions>\n${instructions}\n</instructions>\n\n` +
          `<input>\n${JSON.stringify(call.input ?? {})}\n</input>`,
      },
    ],
  };
}

/**
 * A call answered by `model` standing in for the tool the request being tested defines (`body`), as its
 * `simulate:` entry instructs; a failed request is the call's NoAnswer, naming the model. The CLI and the editor.
 */
export async function simulateCall(
  o: {
    model: string;
    body: Record<string, unknown>;
    create(request: Record<string, unknown>, signal: AbortSignal): Promise<Message>;
  },
  instructions: string,
  call: ToolCall,
  signal: AbortSignal,
): Promise<string> {
  const request = simulateRequest(o.model, instructions, call, toolDefinition(o.body, call.name));
  try {
    return simulatedText(await o.create(request, signal));
  } catch (e) {
    if (signal.aborted) throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new NoAnswer(`the model simulating ${call.name} (${o.model}) failed: ${why}`, 'simulate_error');
  }
}

/** The simulated output: the reply's text blocks joined. */
function simulatedText(reply: Message): string {
  return reply.content
    .filter(b => b.type === 'text')
    .map(b => String(b.text))
    .join('');
}
