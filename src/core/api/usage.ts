// A reply's usage in words (doc1 §2.7), the same in the response panel, the CLI's `run` summary and the
// Cases grid: the tokens in and out, and what the prompt cache did (reads, and writes for 5 minutes and for an
// hour apart), with the share of the input read from the cache.
import { count, thousands } from '../text';
import type { Usage } from './types';

const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** "1,024 in · 512 out": the tokens of a reply, for a one-line strip. */
export function tokensInOut(u: Usage | undefined): string | undefined {
  if (!u) return undefined;
  return `${thousands(totalInput(u))} in · ${thousands(n(u.output_tokens))} out`;
}

/** Every input token of the request: uncached, written to the cache, and read from it (doc1 §2.7). */
export function totalInput(u: Usage): number {
  return n(u.input_tokens) + n(u.cache_creation_input_tokens) + n(u.cache_read_input_tokens);
}

/** The cache in one short phrase: "90% from cache", "wrote 2,048", or undefined when it did nothing. */
export function cacheShort(u: Usage | undefined): string | undefined {
  if (!u) return undefined;
  const read = n(u.cache_read_input_tokens);
  const written = n(u.cache_creation_input_tokens);
  if (!read && !written) return undefined;
  const parts: string[] = [];
  if (read) parts.push(`${percent(read, totalInput(u))} from cache`);
  if (written) parts.push(`wrote ${thousands(written)}`);
  return parts.join(', ');
}

/**
 * The usage as sentences: "1,200 input tokens (1,000 read from the cache: 83% of the input; 200 written to it,
 * 200 for 5 minutes and 0 for 1 hour) and 512 output tokens."
 */
export function usageWords(u: Usage | undefined): string {
  if (!u) return '';
  const read = n(u.cache_read_input_tokens);
  const written = n(u.cache_creation_input_tokens);
  const total = totalInput(u);
  const cache: string[] = [];
  if (read) cache.push(`${thousands(read)} read from the cache: ${percent(read, total)} of the input`);
  if (written) {
    const c = u.cache_creation;
    const split =
      c && (c.ephemeral_5m_input_tokens !== undefined || c.ephemeral_1h_input_tokens !== undefined)
        ? `, ${thousands(n(c.ephemeral_5m_input_tokens))} for 5 minutes and ` +
          `${thousands(n(c.ephemeral_1h_input_tokens))} for 1 hour`
        : '';
    cache.push(`${thousands(written)} written to it${split}`);
  }
  const input = count(total, 'input token');
  const withCache = cache.length ? `${input} (${cache.join('; ')})` : `${input} (no cache read or written)`;
  return `${withCache} and ${count(n(u.output_tokens), 'output token')}.`;
}

function percent(part: number, whole: number): string {
  if (!whole) return '0%';
  const p = (part / whole) * 100;
  return `${p >= 99.5 && part < whole ? 99 : Math.round(p)}%`;
}
