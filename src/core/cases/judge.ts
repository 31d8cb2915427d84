// The judge of `rubric` assertions: a model asked, in one non-streaming request, whether a reply meets criteria
// written in words. A public contract, since people write their own judge prompts:
//
// - The default prompt puts each piece in its own XML tag: <criteria>, <reply> (the reply's text blocks
//   joined), <reference> (only when the rubric gives one) and <input> (the filled request's last user turn, as
//   text). A prompt of one's own (`judge.prompt: FILE`) is a text file with {{criteria}}, {{reply}},
//   {{reference}} and {{input}}; {{reply}} is required, {{reference}} is empty without a reference.
// - The verdict is asked for through `output_config.format` (json_schema) as {pass, score, reason}, all
//   required, no other key, and no minimum/maximum (structured outputs refuse them): the prompt asks for a
//   score from 0 to 1, and a score outside it makes the verdict malformed.
// - A verdict is data: parsed and checked. One that is not that JSON, or a judge request that failed, makes the
//   assertion an error (error.type, message, request-id), never a pass.
import { answerJson } from '../api/answer';
import type { Message } from '../api/types';
import type { Locate } from '../request/parse/types';
import type { Problem } from '../request/types';
import { findPlaceholders } from './placeholders';
import { rubricLabel } from './assertions';
import type { AssertionResult, CaseFile, OutcomeError, Rubric } from './types';

/** The placeholders a judge prompt of one's own may use. */
export const JUDGE_PLACEHOLDERS = ['criteria', 'reply', 'reference', 'input'] as const;
type JudgePart = (typeof JUDGE_PLACEHOLDERS)[number];

/** Room for the verdict (and a thinking model's reasoning before it). */
export const JUDGE_MAX_TOKENS = 4096;

/** The verdict's JSON Schema: every key required, no other, and no minimum or maximum on the score. */
export const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    pass: { type: 'boolean', description: 'Whether the reply meets every part of the criteria.' },
    score: { type: 'number', description: 'How well the reply meets the criteria, from 0 (not at all) to 1 (fully).' },
    reason: { type: 'string', description: 'One or two sentences: what the reply did or missed.' },
  },
  required: ['pass', 'score', 'reason'],
  additionalProperties: false,
} as const;

/** A judge's verdict on one reply. */
export interface Verdict {
  pass: boolean;
  score: number;
  reason: string;
}

/** The pieces a judge prompt is filled with. */
export interface JudgeParts {
  criteria: string;
  reply: string;
  /** absent: the default prompt leaves its <reference> section out, and {{reference}} is empty */
  reference?: string;
  input: string;
}

/** A rubric as written, either form. */
export function rubricOf(argument: string | Rubric): Rubric {
  return typeof argument === 'string' ? { criteria: argument } : argument;
}

/** The default prompt: each piece in its own XML tag, then what to answer. */
export function defaultJudgePrompt(p: JudgeParts): string {
  const section = (tag: string, text: string) => `<${tag}>\n${text}\n</${tag}>\n\n`;
  const reference = p.reference !== undefined;
  return (
    'You are grading the reply of an AI assistant against criteria. Grade the reply only; the input is what ' +
    'the assistant was asked' +
    (reference ? ', and the reference is a reply that meets the criteria, to compare with' : '') +
    '.\n\n' +
    section('criteria', p.criteria) +
    section('reply', p.reply) +
    (reference ? section('reference', p.reference!) : '') +
    section('input', p.input) +
    'Answer with `pass`: true only when the reply meets every part of the criteria; `score`: a number from 0 ' +
    'to 1 saying how well it meets them (1: fully); and `reason`: one or two sentences saying what the reply ' +
    'did or missed, quoting it where that helps.'
  );
}

/**
 * A prompt of one's own filled in: each {{criteria}}, {{reply}}, {{reference}} and {{input}} replaced once, in
 * one pass (a value that holds `{{reply}}` is not filled again). Other placeholders stay as written: the
 * case-file check reports them.
 */
export function fillJudgePrompt(template: string, p: JudgeParts): string {
  let out = '';
  let at = 0;
  for (const ph of findPlaceholders(template)) {
    if (!(JUDGE_PLACEHOLDERS as readonly string[]).includes(ph.name)) continue;
    out += template.slice(at, ph.start) + (p[ph.name as JudgePart] ?? '');
    at = ph.end;
  }
  return out + template.slice(at);
}

/** The filled request's last user turn, as text: its text blocks (and tool results' text), other blocks named. */
export function lastUserTurn(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown; content?: unknown } | undefined;
    if (m?.role !== 'user') continue;
    return contentText(m.content);
  }
  return '';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map(b => {
      const block = (b ?? {}) as { type?: unknown; text?: unknown; content?: unknown };
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      if (block.type === 'tool_result') return contentText(block.content);
      return `[${typeof block.type === 'string' ? block.type : 'block'}]`;
    })
    .filter(Boolean)
    .join('\n\n');
}

/** The judge's request: one user turn, the verdict asked for through output_config.format. */
export function judgeRequest(model: string, prompt: string): Record<string, unknown> {
  return {
    model,
    max_tokens: JUDGE_MAX_TOKENS,
    messages: [{ role: 'user', content: prompt }],
    output_config: { format: { type: 'json_schema', schema: VERDICT_SCHEMA } },
  };
}

/** The verdict in the judge's reply, or why it is not one. */
export function parseVerdict(reply: Message): { verdict: Verdict } | { problem: string } {
  const answer = answerJson(reply, 'the judge');
  if ('problem' in answer) return answer;
  const v = answer.value;
  const extra = Object.keys(v).filter(k => k !== 'pass' && k !== 'score' && k !== 'reason');
  if (extra.length) return { problem: `the verdict has keys it should not: ${extra.join(', ')}` };
  if (typeof v.pass !== 'boolean') return { problem: 'the verdict has no pass (true or false)' };
  if (typeof v.score !== 'number' || !Number.isFinite(v.score))
    return { problem: 'the verdict has no score (a number)' };
  if (v.score < 0 || v.score > 1) return { problem: `the verdict's score ${v.score} is not from 0 to 1` };
  if (typeof v.reason !== 'string') return { problem: 'the verdict has no reason (text)' };
  return { verdict: { pass: v.pass, score: v.score, reason: v.reason } };
}

/** What a verdict says of the assertion: it holds when the judge passes it and the score reaches the threshold. */
export function verdictResult(r: Rubric, v: Verdict, cached: boolean): AssertionResult {
  const below = r.threshold !== undefined && v.score < r.threshold;
  const pass = v.pass && !below;
  const score =
    r.threshold === undefined ? `score ${v.score}` : `score ${v.score}, ${below ? 'below' : 'at least'} ${r.threshold}`;
  const why = v.pass && below ? `the judge passed it, but its score is below the threshold: ${v.reason}` : v.reason;
  return { type: 'rubric', pass, message: `${rubricLabel(r)}: ${why} (${score})`, score: v.score, cached };
}

/** A rubric that could not be graded: an error of the sample, with what the judge's request said. */
export function judgeError(r: Rubric, e: OutcomeError): AssertionResult {
  const id = e.requestId ? ` (request-id ${e.requestId})` : '';
  const what = e.type === 'malformed_verdict' ? "the judge's verdict is malformed" : "the judge's request failed";
  return { type: 'rubric', pass: false, message: `${rubricLabel(r)}: ${what}: ${e.type}: ${e.message}${id}`, error: e };
}

// ---- the case-file check of a judge prompt -----------------------------------------------------------------

/**
 * What is wrong with a judge prompt of one's own: a placeholder that is not one of the four (it would be sent
 * as written), or no {{reply}} (the judge would not see the reply).
 */
export function judgePromptProblems(template: string): string[] {
  const used = findPlaceholders(template).map(p => p.name);
  const unknown = [...new Set(used.filter(n => !(JUDGE_PLACEHOLDERS as readonly string[]).includes(n)))];
  const known = JUDGE_PLACEHOLDERS.map(n => `{{${n}}}`).join(', ');
  const out = unknown.map(n => `{{${n}}} is not a judge placeholder (${known}): it would reach the judge as written.`);
  if (!used.includes('reply')) out.push('It has no {{reply}}: the judge would grade without seeing the reply.');
  return out;
}

/**
 * The case file's problems with its judge prompt, at `judge.prompt`: the file cannot be read (`text`
 * undefined), or its placeholders are wrong.
 */
export function judgePromptCheck(file: CaseFile, locate: Locate, text: string | undefined): Problem[] {
  const name = file.judge?.prompt;
  if (!name) return [];
  const span = locate(['judge', 'prompt']) ?? locate(['judge'], true) ?? { start: 0, end: 1 };
  const at = { start: span.start, end: span.end, path: ['judge', 'prompt'] };
  if (text === undefined)
    return [
      {
        ...at,
        severity: 'error',
        code: 'judge-prompt-not-found',
        message: `The judge prompt "${name}" cannot be read. The path is relative to this case file.`,
      },
    ];
  return judgePromptProblems(text).map(why => ({
    ...at,
    severity: 'error' as const,
    code: 'judge-prompt-placeholder' as const,
    message: `The judge prompt "${name}": ${why}`,
  }));
}
