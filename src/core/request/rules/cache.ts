// Prompt-caching breakpoints (`cache_control`): where a nested block may carry one (doc1 §2.3), and, from
// reports of the service's own messages, how many a request may have, in which order their ttls may come, and
// that an empty text block carries none.
import type { FixData, Path, PathProblem } from '../types';
import { given, isObj, type Obj } from './common';

const BLOCK_ARRAYS_WITH_PARENT_CACHE = new Set(['tool_result', 'document-content']);
/** The service's limit: "A maximum of 4 blocks with cache_control may be provided." */
const MAX_BREAKPOINTS = 4;

/** A cache_control the service reads, with where it is and what it holds. */
interface Marker {
  /** the path of the cache_control itself */
  at: Path;
  /** `ttl: "1h"`; anything else (`5m`, absent, null) is the default five minutes */
  long: boolean;
  hasTtl: boolean;
}

/**
 * Every marker in the order the service processes them, which its message states: `tools`, `system`,
 * `messages` (nested blocks after their parent); the top-level `cache_control` marks the last cacheable
 * block, so it comes last.
 */
export function cacheRules(body: Obj, out: PathProblem[]): void {
  const markers: Marker[] = [];
  /** `holder` has a cache_control (not null); `at` is the holder's path */
  const mark: Mark = (holder, at) => {
    const cc = holder.cache_control;
    const ttl = isObj(cc) ? cc.ttl : undefined;
    markers.push({ at: [...at, 'cache_control'], long: ttl === '1h', hasTtl: given(ttl) });
    if (holder.type === 'text' && holder.text === '') emptyTextMarker([...at, 'cache_control'], out);
  };
  if (Array.isArray(body.tools))
    body.tools.forEach((t, i) => isObj(t) && given(t.cache_control) && mark(t, ['tools', i]));
  if (Array.isArray(body.system))
    body.system.forEach((b, i) => isObj(b) && given(b.cache_control) && mark(b, ['system', i]));
  const msgs = body.messages;
  if (Array.isArray(msgs)) {
    // plain loops: this walk runs on every keystroke, over every block
    for (let i = 0; i < msgs.length; i++) {
      const m: unknown = msgs[i];
      if (!isObj(m) || !Array.isArray(m.content)) continue;
      for (let j = 0; j < m.content.length; j++) {
        const b: unknown = m.content[j];
        if (!isObj(b)) continue;
        if (given(b.cache_control)) mark(b, ['messages', i, 'content', j]);
        if (b.type === 'tool_result' || b.type === 'document' || b.type === 'search_result')
          nested(b, ['messages', i, 'content', j], mark, out);
      }
    }
  }
  if (given(body.cache_control)) mark(body, []);
  breakpointCount(markers, out);
  ttlOrder(markers, out);
}

type Mark = (holder: Obj, at: Path) => void;

/** doc1 §2.3: nested cache_control only on the last block of tool_result.content or document.source.content. */
function nested(block: Obj, at: Path, mark: Mark, out: PathProblem[]): void {
  const check = (arr: unknown, arrPath: Path, parentKind: string) => {
    if (!Array.isArray(arr)) return;
    arr.forEach((child, k) => {
      if (!isObj(child)) return;
      const parentTakesIt = BLOCK_ARRAYS_WITH_PARENT_CACHE.has(parentKind);
      if (given(child.cache_control)) mark(child, [...arrPath, k]);
      if (given(child.cache_control) && !(parentTakesIt && k === arr.length - 1)) {
        out.push({
          path: [...arrPath, k, 'cache_control'],
          anchor: 'key',
          severity: 'error',
          code: 'nested-cache-control',
          message: parentTakesIt
            ? 'cache_control on a nested block is only allowed on the last block (it then applies to the parent). ' +
              'Move it to the parent block.'
            : 'cache_control is not allowed on this nested block; put it on the parent block.',
          fixes: [
            { kind: 'remove-property', title: 'Remove this cache_control', path: [...arrPath, k, 'cache_control'] },
          ],
        });
      }
      if (child.type === 'document') checkDocument(child, [...arrPath, k]);
    });
  };
  const checkDocument = (doc: Obj, p: Path) => {
    const src = doc.source;
    if (isObj(src) && src.type === 'content') check(src.content, [...p, 'source', 'content'], 'document-content');
  };
  if (block.type === 'tool_result') check(block.content, [...at, 'content'], 'tool_result');
  if (block.type === 'document') checkDocument(block, at);
  if (block.type === 'search_result') check(block.content, [...at, 'content'], 'search_result');
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
    if (!m.long) {
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
    const holder = short[0]!.at.slice(0, -1);
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
