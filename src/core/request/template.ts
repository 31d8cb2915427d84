import type { Format } from './types';

/** The starting content of "Promptwright: New Request File". */
export function requestTemplate(format: Format, model = 'model-opus-4-7'): string {
  if (format === 'yaml') {
    return `# The body of POST /v1/messages. Promptwright checks it as you type.
model: ${model}
max_tokens: 1024
system: You are a helpful assistant.
messages:
  - role: user
    content: Hello!
`;
  }
  const body = {
    model,
    max_tokens: 1024,
    system: 'You are a helpful assistant.',
    messages: [{ role: 'user', content: 'Hello!' }],
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
