// Breakpoints in words: the CodeLens title, the hover, and the warning for a prefix under the model's minimum.
import type { Parsed } from '../request/parse';
import type { Path, Problem } from '../request/types';
import { count, markdownCode, markdownText, thousands } from '../text';
import { MINIMUMS_AS_OF } from './minimums';
import { reaches, type Breakpoint, type Prefix } from './report';

type Obj = Record<string, unknown>;
/** "cache breakpoint 2 of 3 · prefix 4,210 tokens · ttl 1h · caches from 1,024 ✓" */
export function lensTitle(b: Breakpoint, p: Prefix): string {
  const which = `cache breakpoint ${b.index} of ${b.total}${b.marker.automatic ? ' (automatic)' : ''}`;
  const ok = reaches(b, p);
  const min = b.minimum
    ? `caches from ${thousands(b.minimum.tokens)}${ok === undefined ? '' : ok ? ' ✓' : ' ✗'}`
    : 'minimum not known for this model';
  return [which, prefixWords(p), `ttl ${b.marker.ttl}`, min].join(' · ');
}

function prefixWords(p: Prefix): string {
  if (p.source === 'none') return 'prefix not measurable';
  if (p.source === 'count') return `prefix ${count(p.tokens, 'token')}`;
  const why = p.counting ? 'estimate, counting…' : p.error ? 'estimate: not counted' : 'estimate';
  return `prefix ≈ ${count(p.tokens, 'token')} (${why})`;
}

/**
 * The warning for a prefix under the minimum, or undefined when it reaches it (or either is unknown). Nothing
 * is cached there and the service says nothing: that is why it is worth a warning.
 */
export function belowMinimumMessage(b: Breakpoint, p: Prefix, model: string): string | undefined {
  if (reaches(b, p) !== false || p.source === 'none' || !b.minimum) return undefined;
  const size =
    p.source === 'count'
      ? `${count(p.tokens, 'token')} (counted by the service)`
      : `about ${count(p.tokens, 'token')} (a local estimate, about four characters a token${
          p.error ? `; counting it failed: ${p.error}` : ''
        })`;
  return (
    `Nothing will be cached at this breakpoint, and the service returns no error: its prefix is ${size}, under ` +
    `the ${thousands(b.minimum.tokens)} tokens ${model} caches from. Move the breakpoint to a later block, so ` +
    'that its prefix is longer, or remove it.'
  );
}

/** The hover on a marker: what will be cached, for how long, and whether the model caches that little. */
export function hoverMarkdown(b: Breakpoint, p: Prefix, body: Obj): string {
  const lines: string[] = [];
  lines.push(`**Cache breakpoint ${b.index} of ${b.total}**${b.marker.automatic ? ' (automatic caching)' : ''}`);
  if (b.marker.automatic)
    lines.push(
      'The top-level `cache_control` puts a breakpoint on the last cacheable block of the request' +
        (b.marker.block ? ` (${place(b.marker.block)})` : ': this request has none') +
        ', and it moves forward as the conversation grows. It counts toward the 4 breakpoints a request may have.',
    );
  if (b.marker.block)
    lines.push(
      `The service caches the request up to and including ${place(b.marker.block)}: ${covers(body, b.marker.block)}. ` +
        'A later request that starts with exactly the same content reads it from the cache instead of paying for it ' +
        'in full; whatever comes after this block is not part of it.',
    );
  lines.push(
    b.marker.ttl === '1h'
      ? 'Kept for **1 hour** after its last use (`"ttl": "1h"`; writing it costs more than a 5-minute entry).'
      : 'Kept for **5 minutes** after its last use (the default ttl; `"ttl": "1h"` keeps it an hour).',
  );
  if (p.source === 'count') lines.push(`Prefix: ${count(p.tokens, 'token')}, counted by the service.`);
  else if (p.source === 'estimate')
    lines.push(
      `Prefix: about ${count(p.tokens, 'token')}, a local estimate (about four characters a token)` +
        (p.error ? `; counting failed: ${markdownText(p.error)}` : '') +
        '. Click the CodeLens to count it with the service.',
    );
  // the model is the file's, the error the service's: set in as code and text
  const model = typeof body.model === 'string' ? markdownCode(body.model) : 'this model';
  if (!b.minimum) lines.push(`No minimum cacheable length is known for ${model}.`);
  else {
    const from =
      b.minimum.source === 'setting'
        ? 'your setting `promptwright.cache.minimumTokens`'
        : b.minimum.source === 'service'
          ? "the service's model facts"
          : `the vendor's documentation, as of ${MINIMUMS_AS_OF}`;
    const ok = reaches(b, p);
    lines.push(
      `${model} caches prefixes of at least ${count(b.minimum.tokens, 'token')} (${from})` +
        (ok === undefined
          ? '.'
          : ok
            ? ': this one is long enough ✓'
            : ': this one is shorter, so **nothing will be cached**, and the service returns no error.'),
    );
  }
  return lines.join('\n\n');
}

/** `messages[2].content[0]` */
function place(p: Path): string {
  return p.map((x, i) => (typeof x === 'number' ? `[${x}]` : i ? `.${x}` : x)).join('');
}

/** What a prefix ending with `block` holds, part by part. */
function covers(body: Obj, block: Path): string {
  const tools = Array.isArray(body.tools) ? body.tools.length : 0;
  const parts: string[] = [];
  const [where, i, , j] = block;
  if (where === 'tools') return `the tool definitions ${typeof i === 'number' ? `0 to ${i}` : ''}`.trim();
  if (tools) parts.push(count(tools, 'tool definition'));
  if (where === 'system') {
    parts.push(typeof i === 'number' ? `the system prompt's blocks 0 to ${i}` : 'the system prompt');
    return parts.join(', ');
  }
  if (body.system !== undefined && body.system !== null) parts.push('the system prompt');
  if (typeof i === 'number') {
    if (i > 0) parts.push(i === 1 ? 'messages[0]' : `messages[0] to messages[${i - 1}]`);
    parts.push(typeof j === 'number' ? `messages[${i}] up to its block ${j}` : `messages[${i}]`);
  }
  return parts.join(', ');
}

/**
 * The under-minimum warnings of a request's breakpoints, each with what is known of its prefix (counted, or the
 * local estimate), placed on each `cache_control` key: every front end's (core/language/diagnostics.ts).
 */
export function underMinimumWarnings(
  parsed: Pick<Parsed, 'locateMany'>,
  v: { body: Obj; breakpoints: Breakpoint[]; prefixes: Prefix[] },
): Problem[] {
  const model = typeof v.body.model === 'string' ? v.body.model : 'this model';
  const locate = parsed.locateMany(v.breakpoints.map(b => b.marker.at));
  return v.breakpoints.flatMap((b, i) => {
    const message = belowMinimumMessage(b, v.prefixes[i]!, model);
    const span = message && (locate(b.marker.at, true) ?? locate(b.marker.at));
    if (!message || !span) return [];
    return [
      {
        ...span,
        severity: 'warning',
        code: 'cache-prefix-below-minimum',
        path: b.marker.at,
        message,
      } satisfies Problem,
    ];
  });
}
