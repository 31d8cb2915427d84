// The model as a co-author, as the CLI and the editor run it: the request file read, the model asked through
// the client (key, address, retry rules, cancellation), and the answer made into what is offered: generated
// cases for a case file, or the request file with new texts. Nothing here writes a file; the front ends show or
// write what comes back.
import * as path from 'node:path';
import type { ApiClient } from '../api/client';
import { AbortedError, InputError } from '../api/errors';
import { deltaOf, type Delta } from '../tokens/deltas';
import { parseCaseFile } from '../cases/caseFile';
import { fillPlaceholders } from '../cases/placeholders';
import { loadCaseFileFrom } from '../cases/load';
import type { TestCase } from '../cases/types';
import { applyEdits, type TextEdit } from '../request/fixes';
import { parseRequest } from '../request/parse';
import type { Format } from '../request/types';
import { validateText } from '../request/validate';
import { singleEdit } from '../run/append';
import { ask, AnswerError, type Answer } from './answer';
import { appendCases, caseFileText, judgeEdit, newProblems, replaceTexts } from './edits';
import { casesBody, MAX_CASES, readCases, type GeneratedCase, type GeneratedCases } from './generate';
import { improvableTexts, requestParts } from './request';
import { improvementBody, nothingToImprove, readImprovement, type Change } from './improve';

/** The request file the co-author works on. */
export interface RequestFile {
  /** as the person named it (messages say it) */
  name: string;
  text: string;
  format: Format;
}

function requestValue(file: RequestFile): Record<string, unknown> {
  const parsed = parseRequest(file.text, file.format);
  const v = parsed.value;
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new InputError(
      `${file.name} cannot be read as a request (${parsed.problems[0]?.message ?? 'not an object'})`,
    );
  return v as Record<string, unknown>;
}

/** The model asked: the one given, else the request's own. */
function modelFor(file: RequestFile, value: Record<string, unknown>, model: string | undefined): string {
  const m = model?.trim() || (typeof value.model === 'string' ? value.model : '');
  if (!m) throw new InputError(`${file.name} has no "model": say which model writes (--model M)`);
  return m;
}

export interface GenerateInput {
  count: number;
  rubrics: boolean;
  model?: string;
  /** the cases of the case file they are for */
  existing?: readonly TestCase[];
  signal?: AbortSignal;
}

/** The body asking for cases, or why none is asked for (no placeholders, no model, a count out of range). */
export function casesRequest(
  file: RequestFile,
  o: GenerateInput,
): { body: Record<string, unknown>; placeholders: string[] } {
  if (!Number.isInteger(o.count) || o.count < 1 || o.count > MAX_CASES)
    throw new InputError(`the number of cases must be a whole number from 1 to ${MAX_CASES}, not ${o.count}`);
  const value = requestValue(file);
  const parts = requestParts(value);
  if (!parts.placeholders.length)
    throw new InputError(
      `${file.name} has no {{placeholders}}: add a \`{{name}}\` where cases should differ ` +
        '(the question, the customer, the document), then generate cases for it',
    );
  const body = casesBody(modelFor(file, value, o.model), parts, { ...o, existing: o.existing ?? [] });
  return { body, placeholders: parts.placeholders };
}

/** Asks for cases of the request: the cases to add, what was said of the answer, and the answer's usage. */
export async function generateCases(
  client: ApiClient,
  file: RequestFile,
  o: GenerateInput,
): Promise<GeneratedCases & { answer: Answer }> {
  const { body, placeholders } = casesRequest(file, o);
  const answer = await ask(client, body, o.signal);
  const read = { ...o, existing: o.existing ?? [], refused: refusedWith(requestValue(file)) };
  return { ...readCases(answer.value, placeholders, read, answer.requestId), answer };
}

/**
 * Why the request filled with a case's values would be refused when the request as written is not (an empty
 * question, a value that breaks a rule): such a case would make `test` refuse the whole file.
 */
function refusedWith(request: Record<string, unknown>): (vars: Record<string, string>) => string | undefined {
  const errors = (value: unknown) =>
    validateText(JSON.stringify(value), 'json').problems.filter(p => p.severity === 'error');
  const before = new Set(errors(request).map(p => `${p.code} ${p.path.join('/')}`));
  return vars => {
    const filled = fillPlaceholders(request, vars).value;
    const added = errors(filled).find(p => !before.has(`${p.code} ${p.path.join('/')}`));
    return added && `${added.code}: ${added.message}`;
  };
}

/** Where generated cases go: an existing case file (its `text`), or a new one at `abs`. */
export interface CaseFileTarget {
  abs: string;
  format: Format;
  text?: string;
}

/**
 * The case file with the cases appended (its comments and formatting kept), or a new case file of them, as the
 * edit that makes it and the text it makes; checked against its request with the case-file check, and refused
 * (an AnswerError: nothing is written) when that finds an error the file did not have. `judge`: the judge model a
 * file with rubrics and none of its own is given, so that it runs as written.
 */
export function withCases(
  target: CaseFileTarget,
  request: { abs: string; text: string },
  cases: readonly GeneratedCase[],
  answer: Pick<Answer, 'model' | 'requestId'>,
  o: { judge?: string } = {},
): { text: string; edit: TextEdit } {
  const rubrics = cases.some(c => c.assert?.length);
  const judge = rubrics ? o.judge : undefined;
  let edit: TextEdit;
  if (target.text !== undefined) {
    edit = appendCases(target.text, target.format, cases);
    const has = parseCaseFile(target.text, target.format).file?.judge?.model;
    const extra = judge && !has ? judgeEdit(target.text, target.format, judge) : undefined;
    // one edit for both: the whole text, the judge's line and the cases in it
    if (extra) edit = { start: 0, end: target.text.length, newText: applyEdits(target.text, [extra, edit]) };
  } else {
    const rel = path.relative(path.dirname(target.abs), request.abs).split(path.sep).join('/');
    edit = { start: 0, end: 0, newText: caseFileText(rel, cases, target.format, answer.model, judge) };
  }
  const text = applyEdits(target.text ?? '', [edit]);
  const errors = (caseText: string) => {
    const display = 'case file';
    const texts = new Map([
      [target.abs, caseText],
      [request.abs, request.text],
    ]);
    const source = (abs: string) => (texts.has(abs) ? { text: texts.get(abs)! } : undefined);
    const { records } = loadCaseFileFrom(target.abs, path.dirname(target.abs), source, display);
    return records.filter(r => r.severity === 'error' && r.file === display).map(r => `${r.code}: ${r.message}`);
  };
  const before = target.text === undefined ? [] : errors(target.text);
  const added = errors(text).filter(e => {
    const at = before.indexOf(e);
    if (at >= 0) before.splice(at, 1);
    return at < 0;
  });
  if (added.length)
    throw new AnswerError(
      `the cases would not pass the case-file check (${added[0]}): nothing written`,
      answer.requestId,
    );
  return { text, edit };
}

export interface ImproveInput {
  goal?: string;
  model?: string;
  /** the betas the request is checked with */
  betas?: readonly string[];
  signal?: AbortSignal;
}

/** The improved request file, what changed and why, and how many of its texts changed. */
export interface Improved {
  text: string;
  /** the one edit that turns the file's text into `text` */
  edit: TextEdit;
  changes: Change[];
  /** the texts that changed (0: the model left the prompt as it was, and `text` is the file's) */
  changed: number;
  answer: Answer;
  /** the request's input tokens before and after (count_tokens, placeholders as written); absent when uncounted */
  tokens?: Delta;
}

/** The body asking for better texts, and the texts it shows; or why there is nothing to ask. */
export function improvementRequest(file: RequestFile, o: ImproveInput) {
  const value = requestValue(file);
  const texts = improvableTexts(value);
  if (!texts.length) throw nothingToImprove(file.name);
  const parts = requestParts(value);
  return { body: improvementBody(modelFor(file, value, o.model), parts, texts, o.goal), texts, parts };
}

/**
 * Asks for better texts of the request, and writes them into its file: offered only when nothing but the texts
 * changed, every placeholder is kept, and the check finds no problem the file did not have (else an AnswerError
 * says why it is not offered).
 */
export async function improvePrompt(client: ApiClient, file: RequestFile, o: ImproveInput): Promise<Improved> {
  const { body, texts, parts } = improvementRequest(file, o);
  const answer = await ask(client, body, o.signal);
  const { texts: changedTexts, changes } = readImprovement(answer.value, texts, parts.placeholders, answer.requestId);
  const replaced = texts
    .filter(t => changedTexts.has(t.id))
    .map(t => ({ path: t.path, text: changedTexts.get(t.id)! }));
  let text: string;
  try {
    text = replaceTexts(file.text, file.format, replaced);
  } catch (e) {
    throw new AnswerError(
      `the new texts cannot be written into ${file.name}: ${(e as Error).message}`,
      answer.requestId,
    );
  }
  const added = newProblems(file.text, text, file.format, o.betas ?? []);
  if (added.length) {
    const first = added[0]!;
    throw new AnswerError(
      `the improved request would have ${added.length === 1 ? 'a problem' : `${added.length} problems`} the ` +
        `file does not have (${first.code}: ${first.message}): it is not offered`,
      answer.requestId,
    );
  }
  const tokens = replaced.length ? await countBoth(client, file, text, o.signal) : undefined;
  return {
    text,
    edit: singleEdit(file.text, text),
    changes,
    changed: replaced.length,
    answer,
    ...(tokens ? { tokens } : {}),
  };
}

/** The input tokens of the request and of its improved text, or undefined when the service cannot count them. */
async function countBoth(client: ApiClient, file: RequestFile, improved: string, signal?: AbortSignal) {
  try {
    const [before, after] = await Promise.all(
      [file.text, improved].map(text => client.countTokens(requestValue({ ...file, text }), signal ? { signal } : {})),
    );
    return deltaOf(before!.input_tokens, after!.input_tokens);
  } catch (e) {
    if (e instanceof AbortedError) throw e;
    return undefined;
  }
}
