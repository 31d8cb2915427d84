// The assertion engine: each assertion of a case against what one run produced, with a message
// that says what was expected and what came, so a failing cell explains itself in the grid and in CI.
import { Validator, type SchemaDraft } from '@cfworker/json-schema';
import type { Message } from '../api/types';
import type { Cost } from '../cost/cost';
import { formatUsd } from '../cost/format';
import { count } from '../text';
import { callLabel, deepSubset } from '../tools/answers';
import { compileRegex, PatternTimeout, showRegex, withPatternTimeLimit } from './regex';
import type { Assertion, AssertionResult, AssertionType, Outcome, Rubric } from './types';

/** What some assertions need besides the reply: its cost (max-cost), and the judge's grades (rubric). */
export interface EvaluationContext {
  cost?: Cost;
  /** the result of the rubric assertion at an index (core/cases/judge.ts), graded before */
  graded?: (index: number) => AssertionResult | undefined;
}

/** How much of the reply a failure quotes. */
const PREVIEW_CHARS = 80;

/** The reply's text: its text blocks joined (tool calls, thinking and other blocks left out). */
export function replyText(message: Message | undefined): string {
  if (!message) return '';
  let out = '';
  for (const b of message.content) if (b.type === 'text' && typeof b.text === 'string') out += b.text;
  return out;
}

/**
 * The input tokens of a reply as the spec totals them (doc1 §2.7): input_tokens plus the tokens written to
 * and read from the prompt cache. A prompt does not fit a budget just because it was cached.
 */
export function totalInputTokens(usage: Outcome['usage']): number | undefined {
  if (usage?.input_tokens === undefined) return undefined;
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/**
 * One result per assertion, in order. A failed request fails every assertion, with the failure as the reason.
 * A rubric's result is the judge's (`ctx.graded`); `max-cost` needs the reply's cost (`ctx.cost`), and without a
 * price it is an error, never a pass.
 */
export function evaluate(
  assertions: readonly Assertion[],
  outcome: Outcome,
  ctx: EvaluationContext = {},
): AssertionResult[] {
  return assertions.map((a, i) => {
    const [type, argument] = Object.entries(a)[0] as [AssertionType, unknown];
    const label = labelOf(type, argument);
    if (outcome.error) {
      const e = outcome.error;
      const id = e.requestId ? ` (request-id ${e.requestId})` : '';
      return { type, pass: false, message: `${label}: the request failed: ${e.type}: ${e.message}${id}` };
    }
    if (type === 'rubric') {
      const graded = ctx.graded?.(i);
      if (graded) return graded;
      const error = { type: 'not_graded', message: 'no judge graded it' };
      return { type, pass: false, message: `${label}: ${error.message}`, error };
    }
    if (type === 'max-cost') return maxCost(label, Number(argument), ctx.cost);
    try {
      const [pass, why, diff] = check(type, argument, outcome);
      return { type, pass, message: `${label}: ${why}`, ...(!pass && diff ? diff : {}) };
    } catch (e) {
      // one assertion that cannot be evaluated fails alone; the others still say what they found
      const why = e instanceof Error ? e.message : String(e);
      const message = `${label}: could not be checked: ${why}`;
      // a pattern stopped at its time limit says nothing of the reply: the sample is an error, not a failure
      if (e instanceof PatternTimeout)
        return { type, pass: false, message, error: { type: 'pattern_timeout', message } };
      return { type, pass: false, message };
    }
  });
}

/** The assertion as the messages name it: `contains "rembours"`, `regex /^Bonjour/`, `max-output-tokens 300`. */
function labelOf(type: AssertionType, argument: unknown): string {
  switch (type) {
    case 'regex':
      return `regex ${showRegex(String(argument))}`;
    case 'json-schema':
      return 'json-schema';
    case 'rubric':
      return rubricLabel(typeof argument === 'string' ? { criteria: argument } : (argument as Rubric));
    case 'max-cost':
      return `max-cost ${formatUsd(Number(argument))}`;
    case 'tool-called':
      return typeof argument === 'string'
        ? `tool-called ${argument}`
        : `tool-called ${callLabel(argument as { name: string; input?: unknown })}`;
    case 'tool-sequence':
      return `tool-sequence ${(argument as string[]).join(' → ')}`;
    case 'contains':
    case 'icontains':
    case 'not-contains':
    case 'equals':
      return `${type} ${JSON.stringify(argument)}`;
    default:
      return `${type} ${String(argument)}`;
  }
}

/**
 * `rubric “Answers in French and says a refund is possible…”`: a rubric as its messages name it (its criteria
 * are prose, often with quotes of their own: curly quotes around them, nothing escaped).
 */
export function rubricLabel(r: Pick<Rubric, 'criteria'>): string {
  const c = r.criteria.replace(/\s+/g, ' ').trim();
  return `rubric “${c.length > 60 ? `${c.slice(0, 60)}…` : c}”`;
}

/** A verdict, and for a failure what was expected and what came, in full, when the two can be compared. */
type Verdict = [pass: boolean, why: string, diff?: { expected: string; actual: string }];

const diff = (expected: string, actual: string) => ({ expected, actual });

function check(type: AssertionType, argument: unknown, o: Outcome): Verdict {
  const text = o.text;
  switch (type) {
    case 'contains':
      return contains(text, text.indexOf(String(argument)), String(argument));
    case 'icontains':
      return contains(text, text.toLowerCase().indexOf(String(argument).toLowerCase()), String(argument));
    case 'not-contains': {
      const at = text.indexOf(String(argument));
      return at < 0
        ? [true, 'not in the reply']
        : [false, `found at character ${at + 1} of the reply (${quoteAround(text, at, String(argument).length)})`];
    }
    case 'regex': {
      const re = compileRegex(String(argument));
      const m = withPatternTimeLimit(
        () => `The regex ${showRegex(String(argument))}`,
        text.length,
        () => re.exec(text),
      );
      return m
        ? [true, `matched ${quote(m[0], 40)}`]
        : [false, `no match in the reply (${preview(text)})`, diff(showRegex(String(argument)), text)];
    }
    case 'equals':
      return equals(text, String(argument));
    case 'stop_reason':
      return o.stopReason === argument
        ? [true, `stop_reason was ${String(argument)}`]
        : [
            false,
            `stop_reason was ${o.stopReason ?? 'not given'}`,
            diff(String(argument), o.stopReason ?? 'not given'),
          ];
    case 'max-output-tokens':
      return atMost(o.usage?.output_tokens, Number(argument), 'output token', 'the reply has no usage');
    case 'max-input-tokens':
      return atMost(totalInputTokens(o.usage), Number(argument), 'input token', 'the reply has no usage');
    case 'max-latency-ms':
      return atMost(o.latencyMs, Number(argument), 'ms', 'no latency was measured', n => `${Math.round(n)} ms`);
    case 'json-schema':
      return jsonSchema(text, argument as Record<string, unknown>);
    case 'tool-call':
      return toolCall(o, String(argument));
    case 'tool-called':
      return toolCalled(o, typeof argument === 'string' ? { name: argument } : (argument as { name: string }));
    case 'tool-not-called': {
      const calls = calledTools(o).filter(c => c.name === argument);
      return calls.length
        ? [
            false,
            `it was called ${count(calls.length, 'time')}: ${callLabel(calls[0]!)}`,
            diff('no call', callLabel(calls[0]!)),
          ]
        : [true, 'not called'];
    }
    case 'tool-sequence':
      return toolSequence(o, argument as string[]);
    case 'max-turns': {
      const turns = o.turns ?? 1;
      const limit = Number(argument);
      if (o.loopLimit) return [false, o.loopLimit, diff(`at most ${limit}`, `over ${turns}`)];
      return turns <= limit
        ? [true, `${count(turns, 'model request')} (at most ${limit})`]
        : [false, `${count(turns, 'model request')}, over ${limit}`, diff(`at most ${limit}`, String(turns))];
    }
    case 'rubric':
    case 'max-cost':
      throw new Error(`${type} is evaluated apart`);
  }
}

/** The sample's cost at most the bound; without a price it cannot be checked: an error that says why. */
function maxCost(label: string, limit: number, cost: Cost | undefined): AssertionResult {
  if (!cost || cost.usd === null) {
    const error = { type: 'no_price', message: cost?.usd === null ? cost.why : 'no cost was computed' };
    return { type: 'max-cost', pass: false, message: `${label}: cannot be checked: ${error.message}`, error };
  }
  const pass = cost.usd <= limit;
  const said = pass
    ? `${formatUsd(cost.usd)} (at most ${formatUsd(limit)})`
    : `${formatUsd(cost.usd)}, over ${formatUsd(limit)}`;
  return {
    type: 'max-cost',
    pass,
    message: `${label}: ${said}`,
    ...(pass ? {} : { expected: `at most ${formatUsd(limit)}`, actual: formatUsd(cost.usd) }),
  };
}

function contains(text: string, at: number, wanted: string): Verdict {
  return at >= 0
    ? [true, `found at character ${at + 1}`]
    : [false, `not found in the reply (${preview(text)})`, diff(wanted, text)];
}

function equals(text: string, wanted: string): Verdict {
  if (text === wanted) return [true, 'the reply is exactly that'];
  let i = 0;
  while (i < text.length && i < wanted.length && text[i] === wanted[i]) i++;
  const got = i >= text.length ? 'the reply ends there' : `the reply has ${quoteAround(text, i, 1)}`;
  const expected = i >= wanted.length ? 'the expected text ends there' : `expected ${quoteAround(wanted, i, 1)}`;
  const why = `differs at character ${i + 1}: ${expected}, ${got} (reply of ${count(text.length, 'character')})`;
  return [false, why, diff(wanted, text)];
}

function atMost(
  value: number | undefined,
  limit: number,
  unit: string,
  missing: string,
  show = (n: number) => count(n, unit),
): Verdict {
  if (value === undefined) return [false, missing];
  return value <= limit
    ? [true, `${show(value)} (at most ${limit})`]
    : [false, `${show(value)}, over ${limit}`, diff(`at most ${show(limit)}`, show(value))];
}

/** Calls a reply's blocks make (tool_use and server_tool_use), in order. */
function blockCalls(message: Message | undefined): { id: string; name: string; input: unknown }[] {
  return (message?.content ?? [])
    .filter(b => b.type === 'tool_use' || b.type === 'server_tool_use')
    .map(b => ({ id: String(b.id), name: String(b.name), input: b.input ?? {} }));
}

/**
 * Every call the model made, in order: in a tool-use loop each answered call, then the last reply's own (those
 * max-turns left unanswered, and server tools'); in one turn, the reply's.
 */
function calledTools(o: Outcome): { name: string; input: unknown }[] {
  const answered = o.toolCalls ?? [];
  const ids = new Set(answered.map(c => c.id));
  return [...answered, ...blockCalls(o.message).filter(c => !ids.has(c.id))];
}

function toolCall(o: Outcome, name: string): Verdict {
  const calls = calledTools(o).map(c => c.name);
  const reply = o.turns !== undefined ? 'the model' : 'the reply';
  if (calls.includes(name)) return [true, `${reply} calls ${name}`];
  const why = calls.length ? `${reply} calls ${calls.join(', ')} instead` : `${reply} calls no tool`;
  return [false, why, diff(name, calls.join('\n'))];
}

function toolCalled(o: Outcome, wanted: { name: string; input?: unknown }): Verdict {
  const calls = calledTools(o);
  const named = calls.filter(c => c.name === wanted.name);
  const hit = named.find(c => wanted.input === undefined || deepSubset(wanted.input, c.input));
  if (hit) return [true, `called: ${callLabel(hit)}`];
  const expected = wanted.input === undefined ? wanted.name : callLabel({ name: wanted.name, input: wanted.input });
  const actual = calls.map(c => callLabel(c)).join('\n');
  if (named.length)
    return [
      false,
      `called ${count(named.length, 'time')} with other input: ${named
        .slice(0, 3)
        .map(c => callLabel(c))
        .join('; ')}`,
      diff(expected, actual),
    ];
  const why = calls.length ? `not called; the calls were ${calls.map(c => c.name).join(', ')}` : 'no tool was called';
  return [false, why, diff(expected, actual)];
}

/** The names in this order among the calls (others may come between). */
function toolSequence(o: Outcome, wanted: readonly string[]): Verdict {
  const names = calledTools(o).map(c => c.name);
  let found = 0;
  for (const n of names) if (found < wanted.length && n === wanted[found]) found++;
  const actual = names.length ? names.join(' → ') : 'no calls';
  if (found === wanted.length) return [true, `in order among ${actual}`];
  const why =
    found === 0
      ? `no call of ${wanted[0]} (calls: ${actual})`
      : `${wanted.slice(0, found).join(' → ')}, then no call of ${wanted[found]} after it (calls: ${actual})`;
  return [false, why, diff(wanted.join('\n'), names.join('\n'))];
}

/**
 * The reply text parsed as JSON and validated. Models often fence JSON in Markdown (```json … ```): a reply
 * that is one fenced block is read from inside the fence, and the message says so.
 */
function jsonSchema(text: string, schema: Record<string, unknown>): Verdict {
  const fenced = /^\s*```[\w-]*\n([\s\S]*?)\n?```\s*$/.exec(text);
  const source = fenced ? fenced[1]! : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return [false, `the reply is not JSON (${why}; ${preview(text)})`, diff(JSON.stringify(schema, null, 2), text)];
  }
  // the schema's `pattern`, `patternProperties` and `format: regex` run on the reply: with the same time limit
  const what = () => `Validating the reply against the schema${patternsOf(schema)}`;
  const result = withPatternTimeLimit(what, source.length, () =>
    new Validator(schema, draftOf(schema), false).validate(value),
  );
  const from = fenced ? ' (read from its ```json fence)' : '';
  if (result.valid) return [true, `the reply is JSON that validates${from}`];
  // the innermost errors: an error whose location holds another's is only its summary
  const summaries = new Set<string>();
  for (const e of result.errors)
    for (let at = e.keywordLocation.lastIndexOf('/'); at > 0; at = e.keywordLocation.lastIndexOf('/', at - 1))
      summaries.add(e.keywordLocation.slice(0, at));
  const errors = result.errors.filter(e => !summaries.has(e.keywordLocation));
  const said = errors.slice(0, 3).map(e => `${e.instanceLocation.replace(/^#/, '') || '(root)'}: ${e.error}`);
  const more = errors.length > 3 ? `; and ${errors.length - 3} more` : '';
  const why = `the reply is JSON that does not validate${from}: ${said.join('; ')}${more}`;
  return [false, why, diff(JSON.stringify(schema, null, 2), text)];
}

/** ` (its patterns: /^a+$/, /^b/)`: the schema's `pattern` values, the first three, for a time limit's message. */
function patternsOf(schema: unknown): string {
  const found: string[] = [];
  const stack: unknown[] = [schema];
  for (let v = stack.pop(); v !== undefined && found.length < 4; v = stack.pop()) {
    if (!v || typeof v !== 'object') continue;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (k === 'pattern' && typeof x === 'string') found.push(`/${x}/`);
      else if (k === 'patternProperties' && x && typeof x === 'object')
        found.push(...Object.keys(x).map(p => `/${p}/`));
      stack.push(x);
    }
  }
  if (!found.length) return '';
  return ` (its patterns: ${found.slice(0, 3).join(', ')}${found.length > 3 ? '…' : ''})`;
}

function draftOf(schema: Record<string, unknown>): SchemaDraft {
  const s = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (s.includes('draft-04')) return '4';
  if (s.includes('draft-06') || s.includes('draft-07')) return '7';
  if (s.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/** `first 80 characters: "…"`, or the whole reply when it is short, or `the reply is empty`. */
function preview(text: string): string {
  if (!text) return 'the reply is empty';
  return text.length <= PREVIEW_CHARS
    ? `the reply: ${JSON.stringify(text)}`
    : `first ${PREVIEW_CHARS} characters: ${JSON.stringify(`${text.slice(0, PREVIEW_CHARS)}…`)}`;
}

const quote = (s: string, max: number) => JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);

/** The text around a position, quoted: `"…ce qui est remboursé…"`. */
function quoteAround(text: string, at: number, length: number): string {
  const from = Math.max(0, at - 20);
  const to = Math.min(text.length, at + length + 20);
  return JSON.stringify(`${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`);
}
