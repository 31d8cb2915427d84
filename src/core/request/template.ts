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

/**
 * The file name "New Request File" writes for what was typed: a request file's name as it is; otherwise the
 * request extension is added (`my-first` → `my-first.prompt.json`, `notes.yaml` → `notes.prompt.yaml`).
 * Undefined for a name that is empty or only an extension.
 */
export function requestFileName(typed: string): string | undefined {
  const name = typed.trim();
  if (/\.prompt\.(json|ya?ml)$/i.test(name)) return /^\.prompt\./i.test(name) ? undefined : name;
  const ext = /\.(json|ya?ml)$/i.exec(name);
  const stem = ext ? name.slice(0, ext.index) : name.replace(/\.prompt$/i, '');
  if (!stem || /[/\\]$/.test(stem)) return undefined;
  return `${stem}.prompt${ext ? ext[0] : '.json'}`;
}
