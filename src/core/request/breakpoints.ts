// Prompt-caching breakpoints as the service reads them: every `cache_control` (doc1 §2.3) in the order the
// service processes them, which its own message states ("blocks are processed in the following order: `tools`,
// `system`, `messages`"), a nested block after its parent, and the top-level `cache_control` (automatic caching,
// doc1 §2.1) last, since it marks the last cacheable block. Each breakpoint knows the block its cached prefix
// ends with: its own block, a nested block's parent (doc1 §2.3: a marker on the last nested block applies to
// the parent), or for the top-level marker the last cacheable block of the request. The rules (request/rules/
// cache.ts), the CodeLenses, `count --cache` and the fake's cache simulation all read this one walk.
import type { Path } from './types';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Present and not null: the service reads `null` as absent. */
const given = (v: unknown) => v !== undefined && v !== null;

type Ttl = '5m' | '1h';

/** Where a nested marker sits: in a tool_result's content, a document's `source.content`, or a search_result's. */
type NestedIn = 'tool_result' | 'document-content' | 'search_result';

export interface Marker {
  /** the path of the `cache_control` itself */
  at: Path;
  /** the object that holds it: a tool, a block, a nested block, or the request ([]) for the top-level marker */
  holder: Path;
  /**
   * The block the cached prefix ends with (a tool, a system block, a message's content block, or a message's
   * string content); undefined for a top-level marker on a request with nothing to cache.
   */
  block: Path | undefined;
  /** `ttl: "1h"` is an hour; anything else (`5m`, absent, null) is the default five minutes (doc1 §2.3) */
  ttl: Ttl;
  /** the marker says a ttl itself */
  hasTtl: boolean;
  /** the top-level `cache_control` (automatic caching) */
  automatic: boolean;
  /** the holder is a text block with `"text": ""` */
  emptyText: boolean;
  /** a marker on a nested block: in what, and whether it is the last block there */
  nested?: { in: NestedIn; last: boolean };
}

/**
 * Every marker in the order the service processes them. Plain loops: the rules run this on every keystroke,
 * over every block of the request.
 */
export function cacheMarkers(body: Obj): Marker[] {
  const out: Marker[] = [];
  const mark = (holder: Obj, at: Path, block: Path | undefined, nested?: Marker['nested']) => {
    const cc = holder.cache_control;
    const ttl = isObj(cc) ? cc.ttl : undefined;
    out.push({
      at: [...at, 'cache_control'],
      holder: at,
      block,
      ttl: ttl === '1h' ? '1h' : '5m',
      hasTtl: given(ttl),
      automatic: false,
      emptyText: holder.type === 'text' && holder.text === '',
      ...(nested ? { nested } : {}),
    });
  };
  if (Array.isArray(body.tools))
    for (let i = 0; i < body.tools.length; i++) {
      const t: unknown = body.tools[i];
      if (isObj(t) && given(t.cache_control)) mark(t, ['tools', i], ['tools', i]);
    }
  if (Array.isArray(body.system))
    for (let i = 0; i < body.system.length; i++) {
      const b: unknown = body.system[i];
      if (isObj(b) && given(b.cache_control)) mark(b, ['system', i], ['system', i]);
    }
  const msgs = body.messages;
  if (Array.isArray(msgs)) {
    for (let i = 0; i < msgs.length; i++) {
      const m: unknown = msgs[i];
      if (!isObj(m) || !Array.isArray(m.content)) continue;
      for (let j = 0; j < m.content.length; j++) {
        const b: unknown = m.content[j];
        if (!isObj(b)) continue;
        // paths are built only for a marker: this loop visits every block
        if (given(b.cache_control)) {
          const at: Path = ['messages', i, 'content', j];
          mark(b, at, at);
        }
        if (b.type === 'tool_result' || b.type === 'search_result') nestedIn(b.content, i, j, CONTENT, b.type, mark);
        else if (b.type === 'document') documentContent(b, i, j, [], mark);
      }
    }
  }
  if (given(body.cache_control)) {
    mark(body, [], lastCacheableBlock(body));
    out[out.length - 1]!.automatic = true;
  }
  return out;
}

type Mark = (holder: Obj, at: Path, block: Path, nested?: Marker['nested']) => void;

const CONTENT: Path = ['content'];

/**
 * doc1 §2.3: the nested blocks of a tool_result or a search_result (`content`) or of a document (`source.content`),
 * at `rest` inside the block `messages[i].content[j]`.
 */
function nestedIn(arr: unknown, i: number, j: number, rest: Path, kind: NestedIn, mark: Mark): void {
  if (!Array.isArray(arr)) return;
  for (let k = 0; k < arr.length; k++) {
    const child: unknown = arr[k];
    if (!isObj(child)) continue;
    if (given(child.cache_control)) {
      const block: Path = ['messages', i, 'content', j];
      mark(child, [...block, ...rest, k], block, { in: kind, last: k === arr.length - 1 });
    }
    if (child.type === 'document') documentContent(child, i, j, [...rest, k], mark);
  }
}

function documentContent(doc: Obj, i: number, j: number, rest: Path, mark: Mark): void {
  const src = doc.source;
  if (isObj(src) && src.type === 'content')
    nestedIn(src.content, i, j, [...rest, 'source', 'content'], 'document-content', mark);
}

/** Blocks that take no breakpoint: thinking (its cache_control is refused) and an empty text block. */
const cacheable = (b: unknown): boolean =>
  isObj(b) && b.type !== 'thinking' && b.type !== 'redacted_thinking' && !(b.type === 'text' && b.text === '');

/**
 * The block automatic caching puts its breakpoint on (doc1 §2.1: "the last cacheable block of the request"):
 * the last block of the conversation that can take one, else the last system block, else the last tool.
 */
export function lastCacheableBlock(body: Obj): Path | undefined {
  const msgs = body.messages;
  if (Array.isArray(msgs))
    for (let i = msgs.length - 1; i >= 0; i--) {
      const m: unknown = msgs[i];
      if (!isObj(m)) continue;
      if (typeof m.content === 'string' && m.content !== '') return ['messages', i, 'content'];
      if (!Array.isArray(m.content)) continue;
      for (let j = m.content.length - 1; j >= 0; j--) if (cacheable(m.content[j])) return ['messages', i, 'content', j];
    }
  const system = body.system;
  if (typeof system === 'string' && system !== '') return ['system'];
  if (Array.isArray(system))
    for (let j = system.length - 1; j >= 0; j--) if (cacheable(system[j])) return ['system', j];
  if (Array.isArray(body.tools) && body.tools.length) return ['tools', body.tools.length - 1];
  return undefined;
}
