// What a breakpoint caches: the request cut after its block, in the order tools → system → messages. A cut
// inside the conversation is a request count_tokens takes as it is (what it counts is the prefix). A cut inside
// tools or system is not (count_tokens needs a message), so it is measured as the Token Breakdown measures
// those parts: the difference they make to a minimal request, the model and one short user message. That request
// does not depend on the conversation, so an edit of the messages never recounts a tools or system prefix.
import { pickCountFields } from '../api/countFields';
import type { Path } from '../request/types';

type Obj = Record<string, unknown>;

/** The message of the minimal request a tools or system prefix is measured against. */
const MINIMAL_MESSAGE = { role: 'user', content: 'x' };

/** How a prefix is counted: one body as a whole, or the difference `body` makes over `base`. */
export type PrefixRequest = { kind: 'whole'; body: Obj } | { kind: 'difference'; body: Obj; base: Obj; extra: Obj };

/**
 * The count_tokens request(s) that measure the prefix ending with `block` (a path from core/request/breakpoints:
 * `['tools', i]`, `['system', j]` or `['system']`, `['messages', i, 'content', j]` or `['messages', i,
 * 'content']`). Undefined when the request has no message to measure against, or the block is not there.
 */
export function prefixRequest(body: Obj, block: Path | undefined): PrefixRequest | undefined {
  if (!block) return undefined;
  const counted = pickCountFields(body);
  const messages = counted.messages;
  if (!Array.isArray(messages) || !messages.length) return undefined;
  const [where, i, , j] = block;
  if (where === 'tools' || where === 'system') {
    const base: Obj = { model: counted.model, messages: [MINIMAL_MESSAGE] };
    const extra: Obj = {};
    if (where === 'tools') {
      if (!Array.isArray(counted.tools) || typeof i !== 'number') return undefined;
      extra.tools = counted.tools.slice(0, i + 1);
    } else {
      if (Array.isArray(counted.tools) && counted.tools.length) extra.tools = counted.tools;
      const system = counted.system;
      if (typeof i === 'number') {
        if (!Array.isArray(system)) return undefined;
        extra.system = system.slice(0, i + 1);
      } else if (system !== undefined) extra.system = system;
      else return undefined;
    }
    return { kind: 'difference', body: { ...base, ...extra }, base, extra };
  }
  if (where !== 'messages' || typeof i !== 'number' || i >= messages.length) return undefined;
  const earlier: unknown[] = messages.slice(0, i);
  const m = messages[i] as Obj;
  const content: unknown = m?.content;
  const cut =
    typeof j === 'number' && Array.isArray(content)
      ? [...earlier, { ...m, content: content.slice(0, j + 1) }]
      : [...earlier, m];
  return { kind: 'whole', body: { ...counted, messages: cut } };
}

/**
 * A local estimate of a prefix, about four characters a token over the JSON that is counted (as the status
 * bar's estimate is made). `atMost` stops measuring once the prefix is known to be longer (a capped figure).
 */
export function estimatePrefix(r: PrefixRequest, atMost = Infinity): number {
  const limit = atMost === Infinity ? Infinity : atMost * 4 + 4;
  if (r.kind === 'difference') return Math.ceil(jsonLength(r.extra, limit) / 4);
  const { model: _model, ...counted } = r.body;
  return Math.max(1, Math.ceil(jsonLength(counted, limit) / 4));
}

/**
 * What JSON.stringify escapes: quotes, backslashes, control characters, and halves of surrogate pairs (as the
 * characters it leaves alone, negated: a regular expression may not name control characters).
 */
const ESCAPED = /[^\x20\x21\x23-\x5b\x5d-\ud7ff\ue000-\uffff]/;

/**
 * The length of `JSON.stringify(value)`, without building the string; past `limit` it stops and returns a
 * number above it (a prefix of megabytes is measured no further than its minimum needs).
 */
export function jsonLength(value: unknown, limit = Infinity): number {
  let n = 0;
  // a string without a character JSON escapes is its length and two quotes: no copy of it is made
  const str = (s: string) => (ESCAPED.test(s) ? JSON.stringify(s).length : s.length + 2);
  const walk = (v: unknown): void => {
    if (n > limit) return;
    if (v === null) n += 4;
    else if (typeof v === 'string') n += v.length > limit ? v.length + 2 : str(v);
    else if (typeof v === 'number') n += Number.isFinite(v) ? String(v).length : 4;
    else if (typeof v === 'boolean') n += v ? 4 : 5;
    else if (Array.isArray(v)) {
      n += 1 + Math.max(0, v.length - 1) + 1;
      for (const x of v) {
        if (x === undefined || typeof x === 'function') n += 4;
        else walk(x);
        if (n > limit) return;
      }
    } else if (typeof v === 'object') {
      let keys = 0;
      for (const [k, x] of Object.entries(v as Obj)) {
        if (x === undefined || typeof x === 'function') continue;
        n += str(k) + 1 + (keys++ ? 1 : 0);
        walk(x);
        if (n > limit) return;
      }
      n += 2;
    }
  };
  walk(value);
  return n;
}
