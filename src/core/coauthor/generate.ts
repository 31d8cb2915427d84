// Generated test cases: the prompt that asks a model for N cases of a request (its placeholders, system prompt,
// tools and turns shown), the answer's schema, and the answer read as cases that pass the case-file check: every
// placeholder filled, names unique (a clash gets a suffix), no case with the values of another, at most N. What
// does not fit is dropped and said; an answer with no usable case is an AnswerError.
import { count } from '../text';
import type { TestCase } from '../cases/types';
import { AnswerError, coauthorRequest, strictObject, type StrictSchema } from './answer';
import type { RequestParts } from './request';

/** The most cases one request asks for. */
export const MAX_CASES = 50;
/** The default number of cases. */
export const DEFAULT_CASES = 5;
/** The most rubrics a case is given. */
const MAX_RUBRICS = 2;
/** The existing cases the prompt shows (so the model writes others). */
const SHOWN_EXISTING = 30;

export interface GenerateOptions {
  count: number;
  /** one or two `rubric` assertions per case */
  rubrics: boolean;
  /** the cases the case file already has */
  existing: readonly TestCase[];
  /** why the request filled with a case's values would be refused by the service, if it would be */
  refused?: (vars: Record<string, string>) => string | undefined;
}

const SYSTEM =
  'You write test cases for a prompt that an application sends to a language model. The prompt is a template: ' +
  'each {{name}} in it is filled with a value from a test case before it is sent. Good cases differ in what ' +
  'matters to the prompt: typical inputs, edge cases (empty, very long, ambiguous or badly written input), ' +
  'adversarial ones (attempts to make the model ignore its instructions, off-topic or harmful requests), and ' +
  'inputs in other languages. Each case is realistic: a value reads as what a real user or system would send.';

/** The prompt asking for `o.count` cases of the request. */
export function casesPrompt(parts: RequestParts, o: GenerateOptions): string {
  const section = (tag: string, body: string) => (body ? `<${tag}>\n${body}\n</${tag}>\n\n` : '');
  const existing = o.existing
    .filter(c => c.name)
    .slice(0, SHOWN_EXISTING)
    .map(c => `- ${c.name}: ${JSON.stringify(c.vars ?? {})}`)
    .join('\n');
  const names = parts.placeholders.map(p => `{{${p}}}`).join(', ');
  return (
    section('system_prompt', parts.system) +
    section('tools', parts.tools) +
    section('turns', parts.turns) +
    section('output_format', parts.outputFormat ?? '') +
    section('existing_cases', existing) +
    // the stand-in co-author (core/demo/coauthor.ts) reads the count back from these words
    `Write ${o.count} test cases for this prompt. Each case gives a value for every placeholder (${names}), as ` +
    'text. Make them differ in what matters: typical, edge, adversarial and other languages. Name each case in ' +
    'a few words that say what it tests; every name is unique' +
    (existing ? ', and differs from the existing cases, whose values you do not repeat' : '') +
    '.' +
    (o.rubrics
      ? ' For each case, write one or two rubrics: criteria a judge model ' +
        'checks the reply to that case against, specific to the case (what a good reply does, or must not ' +
        'do). Where a phrase must appear in the reply, quote it in "double quotes".'
      : '')
  );
}

/** The answer's schema: the cases, each with its name and a value (text) for every placeholder. */
export function casesSchema(placeholders: readonly string[], rubrics: boolean): StrictSchema {
  const vars = strictObject(
    Object.fromEntries(placeholders.map(p => [p, { type: 'string', description: `The value of {{${p}}}.` }])),
    'A value for every placeholder.',
  );
  const item = strictObject({
    name: { type: 'string', description: 'A few words that say what the case tests; unique.' },
    vars,
    ...(rubrics
      ? {
          rubrics: {
            type: 'array',
            description: 'One or two criteria a judge checks the reply to this case against.',
            items: { type: 'string' },
          },
        }
      : {}),
  });
  return strictObject({ cases: { type: 'array', description: 'The test cases.', items: item } });
}

/** Room for the answer: about 300 tokens a case, and more with rubrics. */
function generateMaxTokens(o: Pick<GenerateOptions, 'count' | 'rubrics'>): number {
  return Math.min(32_000, 2048 + o.count * (o.rubrics ? 400 : 300));
}

/** The request asking `model` for cases of the request `parts` describes. */
export function casesBody(model: string, parts: RequestParts, o: GenerateOptions): Record<string, unknown> {
  return coauthorRequest(
    model,
    SYSTEM,
    casesPrompt(parts, o),
    casesSchema(parts.placeholders, o.rubrics),
    generateMaxTokens(o),
  );
}

/** A generated case, as the case file takes it: every value is text; rubrics are its only assertions. */
export interface GeneratedCase {
  name: string;
  vars: Record<string, string>;
  assert?: { rubric: string }[];
}

/** Generated cases ready for the case file, and what was said about the answer (dropped, cut, renamed). */
export interface GeneratedCases {
  cases: GeneratedCase[];
  notes: string[];
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The key of a case's values: equal for two cases that send the same request. */
function valuesKey(vars: Record<string, unknown> | undefined, placeholders: readonly string[]): string {
  return JSON.stringify(placeholders.map(p => (vars && Object.hasOwn(vars, p) ? String(vars[p]) : null)));
}

/** `name`, or `name (2)`, `name (3)`… the first that no case has. */
function uniqueName(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) if (!taken.has(`${name} (${n})`)) return `${name} (${n})`;
}

const quote = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

/**
 * The cases in an answer, as the case file takes them. Throws an AnswerError when the answer is not the shape
 * asked for, or has no usable case; otherwise says, in `notes`, what it dropped, cut, renamed or lacked.
 */
export function readCases(
  value: Record<string, unknown>,
  placeholders: readonly string[],
  o: GenerateOptions,
  requestId?: string,
): GeneratedCases {
  const list = value.cases;
  if (!Array.isArray(list)) throw new AnswerError('the answer has no "cases" list', requestId);
  const notes: string[] = [];
  const taken = new Set(o.existing.map(c => c.name));
  const seen = new Set(o.existing.map(c => valuesKey(c.vars, placeholders)));
  const cases: GeneratedCase[] = [];
  const dropped: string[] = [];
  let usable = 0;
  list.forEach((item: unknown, i) => {
    const what =
      isObj(item) && typeof item.name === 'string' && item.name.trim() ? quote(item.name.trim()) : `${i + 1}`;
    const drop = (why: string) => dropped.push(`case ${what} ${why}`);
    if (!isObj(item)) return drop('is not an object');
    const name = typeof item.name === 'string' ? item.name.replace(/\s+/g, ' ').trim() : '';
    if (!name) return drop('has no name');
    if (!isObj(item.vars)) return drop('has no values');
    const vars: Record<string, string> = {};
    const missing: string[] = [];
    for (const p of placeholders) {
      const v = Object.hasOwn(item.vars, p) ? item.vars[p] : undefined;
      if (typeof v === 'string') vars[p] = v;
      else if (typeof v === 'number' || typeof v === 'boolean') vars[p] = String(v);
      else missing.push(`{{${p}}}`);
    }
    if (missing.length) return drop(`gives no text for ${missing.join(', ')}`);
    const refused = o.refused?.(vars);
    if (refused) return drop(`would send a request the service refuses (${refused})`);
    const unknown = Object.keys(item.vars).filter(k => !placeholders.includes(k));
    if (unknown.length) notes.push(`case ${what}: values for ${unknown.join(', ')} dropped (no such placeholder)`);
    const key = valuesKey(vars, placeholders);
    if (seen.has(key)) return drop('has the same values as another case');
    seen.add(key);
    usable++;
    if (cases.length >= o.count) return;
    const unique = uniqueName(name, taken);
    if (unique !== name) notes.push(`case ${quote(name)} is named ${quote(unique)}: another case has that name`);
    taken.add(unique);
    const assert = o.rubrics ? rubricsOf(item.rubrics) : [];
    if (o.rubrics && !assert.length) notes.push(`case ${quote(unique)} came with no rubric`);
    cases.push({ name: unique, vars, ...(assert.length ? { assert: assert.map(r => ({ rubric: r })) } : {}) });
  });
  if (dropped.length) notes.push(`${count(dropped.length, 'case')} dropped: ${dropped.join('; ')}`);
  if (!cases.length)
    throw new AnswerError(`no usable case in the answer${dropped.length ? ` (${dropped.join('; ')})` : ''}`, requestId);
  if (usable > o.count) notes.push(`the model gave ${usable} usable cases: the first ${o.count} are kept`);
  else if (cases.length < o.count) notes.push(`${count(cases.length, 'case')} of the ${o.count} asked for`);
  return { cases, notes };
}

function rubricsOf(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const texts = v.filter((r): r is string => typeof r === 'string').map(r => r.trim());
  return [...new Set(texts.filter(Boolean))].slice(0, MAX_RUBRICS);
}
