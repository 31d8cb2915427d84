// parse -> schema (zod) -> rules -> problems with exact source ranges. Pure: no editor, no I/O.
import { parseRequest, type Parsed } from './parse';
import { issuesToProblems } from './issues';
import { checkRules, type RuleContext } from './rules';
import { RequestBody } from './schema';
import type { Format, Path, PathProblem, Problem } from './types';

export interface ValidateOptions extends Partial<RuleContext> {}

export interface Validation {
  parsed: Parsed;
  problems: Problem[];
}

/** Which spec section a schema problem at this path belongs to (the diagnostic's code). */
export function sectionOf(path: Path): string {
  if (path.length <= 1) return 'doc1§2.1';
  const has = (k: string) => path.includes(k);
  if (has('cache_control')) return 'doc1§2.3';
  if (has('citations') && path[0] === 'messages') return 'doc1§2.5';
  if (path[0] === 'tools') return 'doc1§2.6';
  if (path[0] === 'messages' && path.length >= 4 && path[2] === 'content') return 'doc1§2.4';
  if (path[0] === 'messages') return 'doc1§2.2';
  if (path[0] === 'output_config' || path[0] === 'thinking') return 'doc1§4.3';
  if (path[0] === 'system' && path.length > 1) return 'doc1§2.4';
  return 'doc1§2.1';
}

export function validateText(text: string, format: Format, opts: ValidateOptions = {}): Validation {
  const parsed = parseRequest(text, format);
  const ctx: RuleContext = { now: opts.now ?? new Date(), betas: opts.betas ?? [] };
  const problems: Problem[] = [...parsed.problems];
  const v = parsed.value;
  if (v === undefined) {
    if (!parsed.problems.length) problems.push({ start: 0, end: Math.min(1, text.length), severity: 'error', code: 'doc1§2.1', message: 'The file is empty: a request needs "model", "max_tokens" and "messages".', path: [] });
    return { parsed, problems: clamp(problems, text.length) };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    const r = parsed.locate([]) ?? { start: 0, end: 1 };
    problems.push({ ...r, severity: 'error', code: 'doc1§2.1', message: 'A request file holds one object: the body of POST /v1/messages with "model", "max_tokens" and "messages".', path: [] });
    return { parsed, problems: clamp(problems, text.length) };
  }
  const result = RequestBody.safeParse(v, { reportInput: true });
  const pathProblems: PathProblem[] = result.success ? [] : issuesToProblems(result.error.issues, v, sectionOf);
  pathProblems.push(...checkRules(v, ctx));
  for (const p of pathProblems) problems.push(place(parsed, p));
  return { parsed, problems: clamp(problems, text.length) };
}

/** Keeps every range inside the text (parsers may point one past the end) and sorts by position. */
function clamp(problems: Problem[], length: number): Problem[] {
  for (const p of problems) {
    p.start = Math.max(0, Math.min(p.start, length));
    p.end = Math.max(p.start, Math.min(p.end, length));
  }
  return problems.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** Turns a path problem into offsets, falling back to the nearest enclosing node that can be found. */
function place(parsed: Parsed, p: PathProblem): Problem {
  const { path, anchor, ...rest } = p;
  let span;
  if (anchor === 'container') {
    const last = path[path.length - 1];
    if (typeof last === 'string') span = parsed.locate(path, true);
    if (!span) {
      const whole = parsed.locate(path);
      if (whole) span = { start: whole.start, end: whole.start + 1 };
    }
  } else {
    span = parsed.locate(path, anchor === 'key');
  }
  for (let n = path.length - 1; !span && n >= 0; n--) span = parsed.locate(path.slice(0, n), typeof path[n - 1] === 'string');
  span ??= { start: 0, end: 1 };
  return { start: span.start, end: span.end, path, ...rest };
}
