// What the lenses above a request file say, and where they go: each cache breakpoint with the prefix it caches
// (core/cache), and each part of the request with its input tokens (the Token Breakdown's parts: system, tools,
// each message). A count comes from the service (count_tokens) when there is one, else a local estimate, marked
// ≈. The parts are measured as the Token Breakdown measures them (core/tokens/breakdown.ts): each message as
// the prefix of the conversation it ends, less the one before; system and tools as the difference they make to
// the first message.
import type { Breakpoint, Prefix } from '../cache/report';
import { shownAt } from '../cache/report';
import { estimatePrefix, type PrefixRequest } from '../cache/prefix';
import { hoverMarkdown, lensTitle } from '../cache/words';
import type { Parsed } from '../request/parse';
import type { Path } from '../request/types';
import { count, thousands } from '../text';
import type { HoverData } from './types';

type Obj = Record<string, unknown>;
/** A file's parse: where each path's text is. */
type Placed = Pick<Parsed, 'locateMany'>;

/** A lens: where it goes (an offset at the start of its line's element), what it says, and its tooltip. */
export interface LensData {
  start: number;
  title: string;
  tooltip: string;
}

/** A request's breakpoints with what is known of each prefix. */
export interface CacheView {
  body: Obj;
  breakpoints: Breakpoint[];
  prefixes: Prefix[];
}

/**
 * A lens per breakpoint: on the `cache_control` key itself; the top-level marker's at the block it applies to.
 * `index` is the breakpoint's place in the view.
 */
export function cacheLenses(v: CacheView, parsed: Placed): (LensData & { index: number })[] {
  const paths = v.breakpoints.map(b => shownAt(b) ?? b.marker.holder);
  const locate = parsed.locateMany([...paths, ...v.breakpoints.map(b => b.marker.at)]);
  return v.breakpoints.flatMap((b, i) => {
    const span = b.marker.automatic
      ? (locate(paths[i]!) ?? locate(b.marker.at, true))
      : (locate(b.marker.at, true) ?? locate(paths[i]!));
    if (!span) return [];
    const p = v.prefixes[i]!;
    const tooltip =
      p.source === 'count'
        ? 'The prefix this breakpoint caches, counted by the service. Hover the cache_control for more.'
        : 'A local estimate: click to count the prefixes with the service (count_tokens).';
    return [{ start: span.start, title: lensTitle(b, p), tooltip, index: i }];
  });
}

/** The hover on a `cache_control` (its key or its value): what it caches, for how long, and whether enough. */
export function cacheHover(v: CacheView, parsed: Placed, offset: number): HoverData | undefined {
  const locate = parsed.locateMany(v.breakpoints.map(b => b.marker.at));
  for (let i = 0; i < v.breakpoints.length; i++) {
    const at = v.breakpoints[i]!.marker.at;
    const inside = [locate(at, true), locate(at)].find(s => s && s.start <= offset && offset <= s.end);
    if (inside)
      return {
        markdown: hoverMarkdown(v.breakpoints[i]!, v.prefixes[i]!, v.body),
        start: inside.start,
        end: inside.end,
      };
  }
  return undefined;
}

/** A part of the request, the count_tokens request(s) that measure it, and its local estimate. */
export interface BreakdownPart {
  label: string;
  path: Path;
  /** made when first asked: a long conversation has as many prefixes as messages */
  readonly request: PrefixRequest;
  /** about four characters a token, without making the request */
  estimate(): number;
}

const NOTHING: Obj = {};

/** The parts of a request (none without a message to measure them against). */
export function breakdownParts(body: Obj): BreakdownPart[] {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  if (!messages.length) return [];
  const model = body.model;
  const prefix = (n: number): Obj => ({ model, messages: messages.slice(0, n) });
  const first = prefix(1);
  const part = (label: string, path: Path, make: () => PrefixRequest, extra?: Obj): BreakdownPart => {
    let request: PrefixRequest | undefined;
    return {
      label,
      path,
      get request() {
        return (request ??= make());
      },
      // a difference is estimated from what it adds alone (core/cache/prefix.ts): no prefix is built for it
      estimate: () => estimatePrefix(extra ? { kind: 'difference', body: NOTHING, base: NOTHING, extra } : make()),
    };
  };
  const over = (extra: Obj) => (): PrefixRequest => ({
    kind: 'difference',
    body: { ...first, ...extra },
    base: first,
    extra,
  });
  const parts: BreakdownPart[] = [];
  if (body.system !== undefined) {
    const extra = { system: body.system };
    parts.push(part('system', ['system'], over(extra), extra));
  }
  if (Array.isArray(body.tools) && body.tools.length) {
    const extra = { tools: body.tools };
    parts.push(part('tools', ['tools'], over(extra), extra));
  }
  messages.forEach((m, i) => {
    const role = (m as { role?: unknown } | null)?.role;
    const label = `messages[${i}]${typeof role === 'string' ? ` (${role})` : ''}`;
    if (i === 0) parts.push(part(label, ['messages', 0], () => ({ kind: 'whole', body: first })));
    else {
      const extra = { messages: [m] };
      parts.push(
        part(
          label,
          ['messages', i],
          () => ({ kind: 'difference', body: prefix(i + 1), base: prefix(i), extra }),
          extra,
        ),
      );
    }
  });
  return parts;
}

/**
 * A lens per part: its tokens as the service counted them, or (`counted` undefined) the local estimate, marked
 * ≈. `counting`: a count is on its way.
 */
export function breakdownLenses(
  parts: readonly BreakdownPart[],
  counted: (part: BreakdownPart) => number | undefined,
  parsed: Placed,
  counting: boolean,
): LensData[] {
  return partLenses(parts, parsed, p => tokensLens(p.label, counted(p), () => p.estimate(), counting));
}

/**
 * A lens per part of a request (the lenses' parts, the Token Breakdown's), at the part's element: a top-level
 * part's key (`system`), a message's value. One walk of the text for every part (a message list can be long).
 */
export function partLenses<P extends { path: Path }>(
  parts: readonly P[],
  parsed: Placed,
  lens: (part: P) => Omit<LensData, 'start'>,
): LensData[] {
  const locate = parsed.locateMany(parts.map(p => p.path));
  return parts.flatMap(p => {
    const span = locate(p.path, p.path.length === 1) ?? locate(p.path);
    return span ? [{ start: span.start, ...lens(p) }] : [];
  });
}

/** The whole request's input tokens, for the lens at the top of the file. */
export function totalLens(tokens: number | undefined, estimate: () => number, counting: boolean): LensData {
  return { start: 0, ...tokensLens('the request', tokens, estimate, counting, 'input tokens') };
}

function tokensLens(
  label: string,
  tokens: number | undefined,
  estimate: () => number,
  counting: boolean,
  noun = 'token',
): Omit<LensData, 'start'> {
  const words = (n: number) => (noun === 'token' ? count(n, 'token') : `${thousands(n)} ${noun}`);
  if (tokens !== undefined)
    return { title: words(tokens), tooltip: `${label}: input tokens counted by the service (count_tokens).` };
  const why = counting ? 'estimate, counting…' : 'estimate';
  return {
    title: `≈ ${words(estimate())} (${why})`,
    tooltip: `${label}: a local estimate (about four characters a token); click to count it with the service.`,
  };
}
