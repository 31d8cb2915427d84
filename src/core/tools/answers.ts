// How a tool call of a loop is answered: the `tools:` entries of a case file (its cases' own first, then the
// file's), the recorded fixtures file, then the tool's live backend (an MCP server, or a model that simulates
// the tool). First match wins; no match is the cell's error, naming the tool and its input.
//
// In the response panel, the answers given to the calls of a reply (`given`, by tool_use id: typed, a file's
// text, or a case file's fixture the person chose with Use Fixture) come before all of these.
//
// An entry matches when every key of its `when` equals the call's input at that key (a deep subset: objects
// compared key by key, lists and values whole); an entry without `when` matches any input. A `result` that
// is an object or a list goes as its JSON text, a string as it is.
import type { ContentBlock } from '../api/types';
import { thousands } from '../text';

/** One way a tool answers, as a case file writes it (the shorthand `tool: "text"` is `[{ result: "text" }]`). */
interface ToolEntry {
  when?: Record<string, unknown>;
  result?: unknown;
  is_error?: boolean;
  /** answered live by this MCP server (by the tool's own name) */
  mcp?: string;
  /** answered by a model that invents a plausible answer, following these instructions */
  simulate?: string;
}

/** Each tool's entries, in the order they are tried. */
export type ToolsSpec = Record<string, ToolEntry[]>;

/** Where an answer came from, in the order they are tried (`given`: typed or picked in the response panel). */
export type AnswerSource = 'given' | 'case' | 'file' | 'recorded' | 'mcp' | 'simulated';

/** A tool_result's content: text, or blocks (an MCP server's text and images). */
export type ToolResultContent = string | ContentBlock[];

export interface ToolAnswer {
  content: ToolResultContent;
  isError: boolean;
  source: AnswerSource;
}

/** A call the model made: the tool_use block's id, name and input. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** The most characters a tool's answer may hold: a model reads at most a few hundred thousand tokens. */
export const MAX_ANSWER_CHARS = 1_000_000;

/** Why a call got no answer: the cell ends with this error, and nothing more is sent for it. */
export class NoAnswer extends Error {
  override name = 'NoAnswer';
  constructor(
    message: string,
    /** `no_tool_answer`, `tool_answer_too_large`, `mcp_error`, `simulate_error` */
    readonly type: string,
  ) {
    super(message);
  }
}

/** The live backends of a run: an MCP server's tool, and a model that simulates a tool. */
export interface LiveBackends {
  mcp?(server: string, call: ToolCall, signal: AbortSignal): Promise<{ content: ToolResultContent; isError: boolean }>;
  simulate?(instructions: string, call: ToolCall, signal: AbortSignal): Promise<string>;
  /** --record: a live answer is kept for the fixtures file, and recorded fixtures are not read */
  record?(call: ToolCall, answer: ToolAnswer): void;
}

/** An answer given to one call in the response panel: typed or a file's text (`given`), or a fixture's. */
export type GivenAnswer = Omit<ToolAnswer, 'source'> & { source?: AnswerSource };

/** What a cell's calls are answered from, most specific first. */
export interface CellTools {
  /** answers given in the response panel (Answer…, Use Fixture), by the call's tool_use id: tried first */
  given?: ReadonlyMap<string, GivenAnswer>;
  /** the case's own `tools:` (replacing the file's for each tool it names) */
  case?: ToolsSpec;
  /** the case file's `tools:` */
  file?: ToolsSpec;
  /** the recorded fixtures file (NAME.fixtures.yaml) */
  recorded?: ToolsSpec;
  /** model requests a cell may make (default 10) */
  maxTurns: number;
}

export const DEFAULT_MAX_TURNS = 10;

/** `lookup_order {"order_id":"999"}`: a call as messages name it (its input cut short when long). */
export function callLabel(call: { name: string; input?: unknown }): string {
  const input = JSON.stringify(call.input ?? {}) ?? '{}';
  return `${call.name} ${input.length > 200 ? `${input.slice(0, 200)}…` : input}`;
}

/** An answer as people read it: its text, an image as `[image]`. */
export function answerText(content: ToolResultContent): string {
  return typeof content === 'string'
    ? content
    : content.map(b => (b.type === 'text' ? String(b.text) : `[${b.type}]`)).join(' ');
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `value` holds `subset`: objects key by key (recursively), anything else equal as JSON. */
export function deepSubset(subset: unknown, value: unknown): boolean {
  if (isObject(subset)) {
    if (!isObject(value)) return false;
    for (const [k, v] of Object.entries(subset)) if (!Object.hasOwn(value, k) || !deepSubset(v, value[k])) return false;
    return true;
  }
  if (Array.isArray(subset)) {
    if (!Array.isArray(value) || value.length !== subset.length) return false;
    return subset.every((s, i) => deepEqual(s, value[i]));
  }
  return Object.is(subset, value) || (subset === 0 && value === 0);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (isObject(a)) return isObject(b) && Object.keys(a).length === Object.keys(b).length && deepSubset(a, b);
  return deepSubset(a, b);
}

/** An entry's `result` as a tool_result's content: a string as it is, anything else as its JSON text. */
function resultContent(result: unknown): string {
  return typeof result === 'string' ? result : (JSON.stringify(result) ?? 'null');
}

/** A recorded answer: an MCP server's blocks when it answered with an image, else as `resultContent`. */
function recordedContent(result: unknown): ToolResultContent {
  const blocks =
    Array.isArray(result) &&
    result.length > 0 &&
    result.every(b => isObject(b) && (b.type === 'text' || b.type === 'image'));
  return blocks ? (result as ContentBlock[]) : resultContent(result);
}

const matches = (e: ToolEntry, input: unknown) => e.when === undefined || deepSubset(e.when, input);

/** The size of an answer in characters (an image's data counted too). */
function answerChars(content: ToolResultContent): number {
  if (typeof content === 'string') return content.length;
  let n = 0;
  for (const b of content) n += JSON.stringify(b).length;
  return n;
}

/**
 * The answer to one call: the first static entry that matches (the case's, else the file's), then the recorded
 * fixtures (not when recording), then the first live entry that matches (MCP or simulate). Throws `NoAnswer`
 * when nothing answers, or a live backend fails, or the answer is too large to send.
 */
export async function answerCall(
  tools: CellTools,
  live: LiveBackends,
  call: ToolCall,
  signal: AbortSignal,
): Promise<ToolAnswer> {
  const own = tools.case?.[call.name];
  const entries = own ?? tools.file?.[call.name] ?? [];
  const source: AnswerSource = own ? 'case' : 'file';
  const sized = (a: ToolAnswer): ToolAnswer => {
    const chars = answerChars(a.content);
    if (chars > MAX_ANSWER_CHARS)
      throw new NoAnswer(
        `the answer for ${callLabel(call)} (${a.source}) is ${(chars / 1_000_000).toFixed(1)} million characters, ` +
          `over the ${thousands(MAX_ANSWER_CHARS)} a tool answer may hold: a model reads a few hundred ` +
          'thousand tokens at most. Shorten the answer (a summary, the first page of a list)',
        'tool_answer_too_large',
      );
    return a;
  };
  const given = tools.given?.get(call.id);
  if (given !== undefined) return sized({ source: 'given', ...given });
  for (const e of entries)
    if (e.result !== undefined && matches(e, call.input))
      return sized({ content: resultContent(e.result), isError: e.is_error === true, source });
  if (!live.record)
    for (const e of tools.recorded?.[call.name] ?? [])
      if (e.result !== undefined && matches(e, call.input))
        return sized({ content: recordedContent(e.result), isError: e.is_error === true, source: 'recorded' });
  for (const e of entries) {
    if (!matches(e, call.input)) continue;
    if (e.mcp !== undefined) {
      if (!live.mcp)
        throw new NoAnswer(
          `${callLabel(call)} needs MCP server "${e.mcp}", which is not started here: record its answers with ` +
            '`promptwright test FILE --record`, or run the file with promptwright test',
          'mcp_error',
        );
      const got = await live.mcp(e.mcp, call, signal);
      const answer = sized({ ...got, source: 'mcp' });
      live.record?.(call, answer);
      return answer;
    }
    if (e.simulate !== undefined) {
      if (!live.simulate)
        throw new NoAnswer(
          `${callLabel(call)} is simulated by a model, which is not asked here: record its answers with ` +
            '`promptwright test FILE --record`, or run the file with promptwright test',
          'simulate_error',
        );
      const text = await live.simulate(e.simulate, call, signal);
      const answer = sized({ content: text, isError: false, source: 'simulated' });
      live.record?.(call, answer);
      return answer;
    }
  }
  throw new NoAnswer(`no answer for ${callLabel(call)}`, 'no_tool_answer');
}

/** A case file's `tools:` value, as written, in the one shape: each tool's entries as a list. */
export function normalizeTools(value: unknown): ToolsSpec | undefined {
  if (!isObject(value)) return undefined;
  const out: ToolsSpec = {};
  for (const [name, spec] of Object.entries(value)) {
    const list = typeof spec === 'string' ? [{ result: spec }] : Array.isArray(spec) ? spec : [spec];
    const entries = list.filter(isObject).map(toEntry);
    Object.defineProperty(out, name, { value: entries, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function toEntry(e: Record<string, unknown>): ToolEntry {
  return {
    ...(isObject(e.when) ? { when: e.when } : {}),
    ...(e.result !== undefined && e.result !== null ? { result: e.result } : {}),
    ...(e.is_error === true ? { is_error: true } : {}),
    ...(typeof e.mcp === 'string' && e.mcp ? { mcp: e.mcp } : {}),
    ...(typeof e.simulate === 'string' && e.simulate ? { simulate: e.simulate } : {}),
  };
}
