// "Token Breakdown": how many input tokens each part of a request costs (system, tools, each message),
// through count_tokens, on demand. Messages are counted as prefixes of the conversation (each prefix is
// a request the service accepts), and a part's cost is the difference to the previous prefix; system and
// tools are the difference their presence makes to the first message. Calls run a few at a time and are
// cached by the exact body sent, so a second breakdown of an edited file only pays for what changed.
import { bodyHash } from '../request/hash';
import type { Path } from '../request/types';

export interface Part {
  label: string;
  path: Path;
  tokens: number;
}

export type Count = (body: Record<string, unknown>, signal?: AbortSignal) => Promise<number>;

export async function tokenBreakdown(
  body: Record<string, unknown>,
  count: Count,
  o: { concurrency?: number; cache?: Map<string, number>; signal?: AbortSignal } = {},
): Promise<Part[]> {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  if (!messages.length) return [];
  const model = body.model;
  const cache = o.cache ?? new Map<string, number>();
  const bodies: Record<string, unknown>[] = [];
  // prefixes 1..n of the conversation
  for (let i = 1; i <= messages.length; i++) bodies.push({ model, messages: messages.slice(0, i) });
  const first = { model, messages: messages.slice(0, 1) };
  const withSystem = body.system !== undefined ? { ...first, system: body.system } : undefined;
  const withTools = Array.isArray(body.tools) && body.tools.length ? { ...first, tools: body.tools } : undefined;
  if (withSystem) bodies.push(withSystem);
  if (withTools) bodies.push(withTools);
  const results = await mapLimit(
    bodies,
    o.concurrency ?? 4,
    async b => {
      const key = bodyHash(b);
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const n = await count(b, o.signal);
      cache.set(key, n);
      return n;
    },
    o.signal,
  );
  const parts: Part[] = [];
  const prefix = results.slice(0, messages.length);
  let k = messages.length;
  if (withSystem) parts.push({ label: 'system', path: ['system'], tokens: results[k++]! - prefix[0]! });
  if (withTools) parts.push({ label: 'tools', path: ['tools'], tokens: results[k]! - prefix[0]! });
  prefix.forEach((n, i) => {
    const role = (messages[i] as { role?: unknown })?.role;
    parts.push({
      label: `messages[${i}]${typeof role === 'string' ? ` (${role})` : ''}`,
      path: ['messages', i],
      tokens: i === 0 ? n : n - prefix[i - 1]!,
    });
  });
  return parts;
}

/** Runs fn over items with at most `limit` at a time, in order of results. */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (t: T) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      if (signal?.aborted) throw new Error('Cancelled.');
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
