// Prompt-caching breakpoints (`cache_control`): where a nested block may carry one (doc1 §2.3), and, from
// reports of the service's own messages, how many a request may have, in which order their ttls may come, and
// that an empty text block carries none.
import { cacheMarkers, type Marker } from '../breakpoints';
import type { FixData, Path, PathProblem } from '../types';
import type { Obj } from './common';

/** The service's limit: "A maximum of 4 blocks with cache_control may be provided." */
const MAX_BREAKPOINTS = 4;

/**
 * Every marker in the order the service processes them, which its message states: `tools`, `system`,
 * `messages` (nested blocks after their parent); the top-level `cache_control` marks the last cacheable
 * block, so it comes last (core/request/breakpoints.ts reads them).
 */
export function cacheRules(body: Obj, out: PathProblem[]): void {
  const markers = cacheMarkers(body);
  for (const m of markers) {
    if (m.emptyText) emptyTextMarker(m.at, out);
    if (m.nested) nestedMarker(m, out);
  }
  breakpointCount(markers, out);
  ttlOrder(markers, out);
}

/** doc1 §2.3: nested cache_control only on the last block of tool_result.content or document.source.content. */
function nestedMarker(m: Marker, out: PathProblem[]): void {
  const parentTakesIt = m.nested!.in !== 'search_result';
  if (parentTakesIt && m.nested!.last) return;
  out.push({
    path: m.at,
    anchor: 'key',
    severity: 'error',
    code: 'nested-cache-control',
    message: parentTakesIt
      ? 'cache_control on a nested block is only allowed on the last block (it then applies to the parent). ' +
        'Move it to the parent block.'
      : 'cache_control is not allowed on this nested block; put it on the parent block.',
    fixes: [{ kind: 'remove-property', title: 'Remove this cache_control', path: m.at }],
  });
}

const removeMarker = (at: Path): FixData => ({ kind: 'remove-property', title: 'Remove this cache_control', path: at });

function emptyTextMarker(at: Path, out: PathProblem[]): void {
  out.push({
    path: at,
    anchor: 'key',
    severity: 'error',
    code: 'cache-control-on-empty-text',
    message:
      'cache_control cannot be set on an empty text block: put the breakpoint on a block with content, or ' +
      'remove the empty block.',
    fixes: [removeMarker(at)],
  });
}

/** Every marker after the fourth is one too many; each is marked, so removing any of them helps. */
function breakpointCount(markers: Marker[], out: PathProblem[]): void {
  if (markers.length <= MAX_BREAKPOINTS) return;
  for (const m of markers.slice(MAX_BREAKPOINTS)) {
    out.push({
      path: m.at,
      anchor: 'key',
      severity: 'error',
      code: 'too-many-cache-breakpoints',
      message:
        `A request may have at most ${MAX_BREAKPOINTS} blocks with cache_control; this one has ` +
        `${markers.length} (counted over tools, system and messages, then the top-level cache_control). ` +
        'Keep the breakpoints that end the longest reused prefixes.',
      fixes: [removeMarker(m.at)],
    });
  }
}

/**
 * A 1-hour marker may not come after a 5-minute one (a ttl-less marker is 5 minutes). The later, longer
 * marker is marked. Fixes: give it the default ttl; give the one earlier 5-minute marker a 1-hour ttl (when
 * there is only one, a single edit makes the order valid); or remove it.
 */
function ttlOrder(markers: Marker[], out: PathProblem[]): void {
  const short: Marker[] = [];
  for (const m of markers) {
    if (m.ttl !== '1h') {
      short.push(m);
      continue;
    }
    if (!short.length) continue;
    const ttl: Path = [...m.at, 'ttl'];
    const fixes: FixData[] = [{ kind: 'replace-value', title: 'Use ttl "5m" here', path: ttl, value: '5m' }];
    if (short.length === 1) {
      const s = short[0]!;
      fixes.push(
        s.hasTtl
          ? {
              kind: 'replace-value',
              title: 'Use ttl "1h" on the earlier breakpoint',
              path: [...s.at, 'ttl'],
              value: '1h',
            }
          : {
              kind: 'insert-property',
              title: 'Use ttl "1h" on the earlier breakpoint',
              path: s.at,
              key: 'ttl',
              value: '1h',
            },
      );
    }
    fixes.push(removeMarker(m.at));
    const holder = short[0]!.holder;
    const where = holder.length ? holder.join('.') : 'the top-level cache_control';
    out.push({
      path: ttl,
      anchor: 'value',
      severity: 'error',
      code: 'cache-ttl-order',
      message:
        `A ttl "1h" breakpoint may not come after a 5-minute one (${where} has ` +
        `${short[0]!.hasTtl ? 'ttl "5m"' : 'no ttl, which means 5 minutes'}); breakpoints are processed in the ` +
        'order tools, system, messages.',
      fixes,
    });
  }
}
