// A request's breakpoints with what each caches: its prefix request, the model's minimum, and (once known)
// the prefix's tokens, from the service or from the local estimate. The CodeLenses, the hover, the warning
// under the minimum and `count --cache` all say the same from this.
import type { Path } from '../request/types';
import { cacheMarkers, type Marker } from '../request/breakpoints';
import type { PrefixCount } from './counter';
import { cacheMinimum, type Minimum, type MinimumSources } from './minimums';
import { estimatePrefix, prefixRequest, type PrefixRequest } from './prefix';

type Obj = Record<string, unknown>;

export interface Breakpoint {
  marker: Marker;
  /** 1-based, in the order the service processes them */
  index: number;
  total: number;
  request: PrefixRequest | undefined;
  minimum: Minimum | undefined;
}

/** What is known of a prefix's length. */
export type Prefix =
  | { tokens: number; source: 'count' }
  /** counting is off, or the count is on its way (`counting`), or it failed (`error`): the local estimate */
  | { tokens: number; source: 'estimate'; counting?: boolean; error?: string }
  /** no prefix can be measured (no message to measure it against) */
  | { source: 'none' };

export function breakpointsOf(body: Obj, sources: MinimumSources = {}): Breakpoint[] {
  const markers = cacheMarkers(body);
  const minimum = cacheMinimum(body.model, sources);
  return markers.map((marker, i) => ({
    marker,
    index: i + 1,
    total: markers.length,
    request: prefixRequest(body, marker.block),
    minimum,
  }));
}

/** The prefix from a count if there is one, else the local estimate (marked as counting or failed). */
export function prefixOf(
  b: Breakpoint,
  count: PrefixCount | number | undefined,
  o: { counting?: boolean } = {},
): Prefix {
  if (!b.request) return { source: 'none' };
  if (typeof count === 'number') return { tokens: count, source: 'count' };
  if (count && 'tokens' in count) return { tokens: count.tokens, source: 'count' };
  const tokens = estimateOnce(b.request);
  if (count && 'error' in count) return { tokens, source: 'estimate', error: count.error.message };
  return { tokens, source: 'estimate', ...(o.counting ? { counting: true } : {}) };
}

/**
 * A prefix's estimate, once per check: its diagnostics, lenses and hover each ask, and a prefix of a large request is
 * a walk of most of it.
 */
const estimates = new WeakMap<PrefixRequest, number>();
function estimateOnce(r: PrefixRequest): number {
  let n = estimates.get(r);
  if (n === undefined) estimates.set(r, (n = estimatePrefix(r)));
  return n;
}

/** Whether the prefix reaches the minimum: undefined when either is not known. */
export function reaches(b: Breakpoint, p: Prefix): boolean | undefined {
  if (!b.minimum || p.source === 'none') return undefined;
  return p.tokens >= b.minimum.tokens;
}

/** The path each breakpoint is shown at: its own block's holder, or for the top-level marker its block. */
export function shownAt(b: Breakpoint): Path | undefined {
  return b.marker.automatic ? b.marker.block : b.marker.holder;
}
