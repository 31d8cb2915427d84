// An improved prompt: the request's texts (its system prompt, and the user turns that are templates) shown to a
// model with an optional goal, the new texts and what changed and why asked for through structured outputs, and
// the answer checked: every text answered, every {{placeholder}} of a text kept in it, none added. What is
// written back, and the guarantee that nothing but the texts changed, is edits.ts's.
import { InputError } from '../api/errors';
import { findPlaceholders } from '../cases/placeholders';
import { AnswerError, coauthorRequest, strictObject, type StrictSchema } from './answer';
import type { PromptText, RequestParts } from './request';

/** One change the model made, and why. */
export interface Change {
  change: string;
  reason: string;
}

/** The improved texts (by id; only those that changed) and the model's list of changes. */
export interface Improvement {
  texts: Map<string, string>;
  changes: Change[];
}

const SYSTEM =
  'You improve prompts that an application sends to a language model. You rewrite the texts you are given so ' +
  'that the model that receives them does its task better: clear instructions, the context it needs, the ' +
  'format of its answer, how to handle what is unclear or out of scope. You keep what the prompt is for, its ' +
  'language, and what its author decided (names, facts, rules). Each {{name}} is a placeholder the application ' +
  'fills in before sending: keep every one, written exactly so, in the text that has it, and add none.';

/** The refusal of a request with no text to improve. */
export function nothingToImprove(name: string): InputError {
  return new InputError(`${name} has no system prompt and no user turn with text: there is no prompt to improve.`);
}

/** The prompt showing the texts (and the rest of the request, for context) with the goal. */
export function improvementPrompt(parts: RequestParts, texts: readonly PromptText[], goal: string | undefined): string {
  const section = (tag: string, body: string) => (body ? `<${tag}>\n${body}\n</${tag}>\n\n` : '');
  const shown = texts.map(t => `<text id="${t.id}">\n${t.text}\n</text>`).join('\n\n');
  return (
    (parts.model ? `The request is sent to ${parts.model}.\n\n` : '') +
    section('tools', parts.tools) +
    section('output_format', parts.outputFormat ?? '') +
    section('turns', parts.turns) +
    section('texts', shown) +
    section('goal', goal?.trim() ?? '') +
    `Rewrite ${texts.length === 1 ? 'the text' : 'each text'} in <texts>` +
    (goal?.trim() ? ' toward the goal' : ' to make the prompt work better') +
    '. Answer with every text by its id (unchanged where it needs no change), and list your changes: what ' +
    'you changed, and why, one item per change. Keep every {{placeholder}} of a text in that text, and add ' +
    'no new placeholder.'
  );
}

/** The answer's schema: a new text for every id, and the list of changes. */
export function improvementSchema(texts: readonly PromptText[]): StrictSchema {
  return strictObject({
    texts: strictObject(
      Object.fromEntries(texts.map(t => [t.id, { type: 'string', description: `The new text of "${t.id}".` }])),
      'The new texts, by id.',
    ),
    changes: {
      type: 'array',
      description: 'What changed, and why: one item per change.',
      items: strictObject({
        change: { type: 'string', description: 'What changed, in a few words.' },
        reason: { type: 'string', description: 'Why it makes the prompt work better.' },
      }),
    },
  });
}

/** Room for the answer: the texts rewritten (about four characters a token), and the changes. */
function improvementMaxTokens(texts: readonly PromptText[]): number {
  const chars = texts.reduce((n, t) => n + t.text.length, 0);
  return Math.min(32_000, 2048 + Math.ceil((chars * 2) / 3));
}

/** The request asking `model` to improve `texts`. */
export function improvementBody(
  model: string,
  parts: RequestParts,
  texts: readonly PromptText[],
  goal: string | undefined,
): Record<string, unknown> {
  return coauthorRequest(
    model,
    SYSTEM,
    improvementPrompt(parts, texts, goal),
    improvementSchema(texts),
    improvementMaxTokens(texts),
  );
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const textOf = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const names = (list: readonly string[]) => list.map(n => `{{${n}}}`).join(', ');

/**
 * The improvement in an answer: the texts that changed, and the changes listed. An AnswerError when the answer
 * is not the shape asked for, lacks a text, or loses or adds a placeholder (a prompt that would send
 * `{{name}}` as written, or never send a value, is not offered).
 */
export function readImprovement(
  value: Json,
  texts: readonly PromptText[],
  known: readonly string[],
  requestId?: string,
): Improvement {
  const answered = value.texts;
  if (!isObj(answered)) throw new AnswerError('the answer has no "texts" object', requestId);
  const out = new Map<string, string>();
  for (const t of texts) {
    const v = answered[t.id];
    if (typeof v !== 'string') throw new AnswerError(`the answer has no text for "${t.id}"`, requestId);
    if (!v.trim()) throw new AnswerError(`the answer's text for "${t.id}" is empty`, requestId);
    const now = new Set(findPlaceholders(v).map(p => p.name));
    const lost = t.placeholders.filter(p => !now.has(p));
    if (lost.length)
      throw new AnswerError(`the new text of "${t.id}" drops ${names(lost)}: it is not offered`, requestId);
    const added = [...now].filter(p => !t.placeholders.includes(p) && !known.includes(p));
    if (added.length)
      throw new AnswerError(
        `the new text of "${t.id}" adds ${names(added)}, which no case fills: not offered`,
        requestId,
      );
    if (v !== t.text) out.set(t.id, v);
  }
  const changes = Array.isArray(value.changes)
    ? value.changes
        .filter(isObj)
        .map(c => ({ change: textOf(c.change), reason: textOf(c.reason) }))
        .filter(c => c.change)
    : [];
  return { texts: out, changes };
}
