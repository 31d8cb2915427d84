import { validateText } from '../../../src/core/request/validate';
import type { Format } from '../../../src/core/request/types';

export const NOW = new Date('2026-11-21T00:00:00Z');

export interface Seen {
  code: string;
  severity: string;
  at: string;
  message: string;
  path: string;
}

/** Validates text (or an object, written as JSON) and returns what each problem marks. */
export function check(input: string | object, format: Format = 'json', betas: string[] = []): Seen[] {
  const text = typeof input === 'string' ? input : JSON.stringify(input, null, 2);
  return validateText(text, format, { now: NOW, betas }).problems.map(p => ({
    code: p.code,
    severity: p.severity,
    at: text.slice(p.start, p.end),
    message: p.message,
    path: p.path.join('/'),
  }));
}

export const base = (extra: Record<string, unknown> = {}) => ({
  model: 'model-opus-4-7',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});

const turn = (role: string, content: unknown[]) => ({
  role,
  content: content.length === 1 && typeof content[0] === 'string' ? content[0] : content,
});
/** A user turn: one string argument is string content, anything else is an array of blocks. */
export const user = (...content: unknown[]) => turn('user', content);
export const assistant = (...content: unknown[]) => turn('assistant', content);
