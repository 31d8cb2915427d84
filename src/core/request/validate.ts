// parse -> schema (zod) -> rules -> problems with exact source ranges. Pure: no editor, no I/O.
import { pickCountFields } from '../api/countFields';
import { issuesToProblems } from './issues';
import { emptyFileProblem, locateNothing, parseRequest, type Locate, type Parsed } from './parse';
import { otherToolFile } from './otherTools';
import { boundPerRule } from './perRule';
import { checkRules, type RuleContext } from './rules';
import { CountTokensBody, RequestBody } from './schema';
import { schemaIssues } from './schemaCheck';
import type { Format, PathProblem, Problem } from './types';

/** Which endpoint the body is checked for: the create-message body, or what count_tokens takes of it. */
export type Endpoint = 'messages' | 'count_tokens';

export interface ValidateOptions extends Partial<RuleContext> {
  endpoint?: Endpoint;
}

export interface Validation {
  parsed: Parsed;
  problems: Problem[];
}

/**
 * Validates a request file's text. Never throws: a failure of Promptwright's own code becomes one
 * `internal-error` problem (with the exception's message), so one bad file never costs the others.
 */
export function validateText(text: string, format: Format, opts: ValidateOptions = {}): Validation {
  try {
    return validateUnguarded(text, format, opts);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const problem: Problem = {
      start: 0,
      end: Math.min(1, text.length),
      severity: 'warning',
      code: 'internal-error',
      path: [],
      message: `Promptwright could not check this file (${message}). Please report it with the file attached.`,
    };
    return { parsed: { format, value: undefined, problems: [], ...locateNothing }, problems: [problem] };
  }
}

function validateUnguarded(text: string, format: Format, opts: ValidateOptions): Validation {
  const parsed = parseRequest(text, format);
  // another tool's prompt file (GitHub Models, Prompty) caught by a request-file pattern: said once, not checked
  const other = otherToolFile(text, parsed.value);
  if (other) return { parsed, problems: [other] };
  const ctx: RuleContext = {
    now: opts.now ?? new Date(),
    betas: opts.betas ?? [],
    ...(opts.models ? { models: opts.models } : {}),
  };
  const problems: Problem[] = [...parsed.problems, ...loneSurrogates(text, format)];
  const v = parsed.value;
  if (v === undefined) {
    if (!parsed.problems.length) {
      problems.push(emptyFileProblem(text, 'a request needs "model", "max_tokens" and "messages"'));
    }
    return { parsed, problems: clamp(problems, text.length) };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    const r = parsed.locate([]) ?? { start: 0, end: 1 };
    problems.push({
      ...r,
      severity: 'error',
      code: 'not-an-object',
      path: [],
      message:
        'A request file holds one object: the body of POST /v1/messages with "model", "max_tokens" and "messages".',
    });
    return { parsed, problems: clamp(problems, text.length) };
  }
  const count = opts.endpoint === 'count_tokens';
  const body = count ? pickCountFields(v as Record<string, unknown>) : v;
  const schema = count ? CountTokensBody : RequestBody;
  // zod's issues without the copy of the body its safeParse would build (most of a check's time, then garbage)
  const issues = schemaIssues(schema, body);
  const found: PathProblem[] = issues.length ? issuesToProblems(issues, body, ctx, schema) : [];
  for (const p of checkRules(body, ctx)) found.push(p);
  // the first of each rule (a problem past the bound has no message: it is only counted), then placed together:
  // one by one, each would walk the file from its start
  const pathProblems = boundPerRule(found);
  const locate = parsed.locateMany(pathProblems.map(p => p.path));
  for (const p of pathProblems) problems.push(place(locate, p));
  return { parsed, problems: clamp(problems, text.length) };
}

/**
 * Strings that hold half of a surrogate pair: raw in the text (an editor can hold them) or written as a
 * `\uD800`-style escape. JSON allows them, but the service refuses the body as invalid JSON (RULES.md).
 */
function loneSurrogates(text: string, format: Format): Problem[] {
  const raw = text.isWellFormed() ? -1 : firstLoneSurrogate(text);
  // in YAML only double-quoted strings have escapes; the escape check is for JSON
  const escaped = format === 'json' && mayHaveSurrogateEscape(text) ? firstLoneEscape(text) : -1;
  const at = [raw, escaped].filter(i => i >= 0).sort((a, b) => a - b)[0];
  if (at === undefined) return [];
  const end = at === escaped ? at + 6 : at + 1;
  return [
    {
      start: at,
      end,
      severity: 'error',
      code: 'lone-surrogate',
      path: [],
      message:
        `A string holds half of a UTF-16 surrogate pair (${JSON.stringify(text.slice(at, end)).slice(1, -1)}): ` +
        'the service refuses the body ("not valid JSON: no low surrogate in string"). Write the character itself, ' +
        'or both halves of the pair.',
    },
  ];
}

/**
 * Whether the text has a `\uD800`–`\uDFFF` escape at all (the exact check, firstLoneEscape, runs only then).
 * indexOf over a 1 MB file is several times faster than the regular expression `/\\u[dD][89a-fA-F]/`.
 */
function mayHaveSurrogateEscape(text: string): boolean {
  for (let i = text.indexOf('\\u'); i >= 0; i = text.indexOf('\\u', i + 2)) {
    const d = text.charCodeAt(i + 2);
    const h = text.charCodeAt(i + 3) | 0x20; // lower case for letters; 8 and 9 stay what they are
    if ((d === 0x64 || d === 0x44) && (h === 0x38 || h === 0x39 || (h >= 0x61 && h <= 0x66))) return true;
  }
  return false;
}

function firstLoneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const n = text.charCodeAt(i + 1);
      if (n >= 0xdc00 && n <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

/** Offset of the first `\uXXXX` escape that is half of a pair without its other half (-1 if none). */
function firstLoneEscape(text: string): number {
  const re = /\\u([dD][89a-fA-F][0-9a-fA-F]{2})/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (precededByOddBackslashes(text, m.index)) continue;
    const unit = parseInt(m[1]!, 16);
    if (unit >= 0xdc00) return m.index; // a low half with no high half before it (pairs are skipped below)
    const next = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(text.slice(m.index + 6, m.index + 12));
    if (!next) return m.index;
    re.lastIndex = m.index + 12;
  }
  return -1;
}

function precededByOddBackslashes(text: string, i: number): boolean {
  let n = 0;
  for (let j = i - 1; j >= 0 && text.charCodeAt(j) === 92; j--) n++;
  return n % 2 === 1;
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
function place(locate: Locate, p: PathProblem): Problem {
  const { path, anchor } = p;
  let span;
  if (anchor === 'container') {
    const last = path[path.length - 1];
    if (typeof last === 'string') span = locate(path, true);
    if (!span) {
      const whole = locate(path);
      if (whole) span = { start: whole.start, end: whole.start + 1 };
    }
  } else {
    span = locate(path, anchor === 'key');
  }
  for (let n = path.length - 1; !span && n >= 0; n--) span = locate(path.slice(0, n), typeof path[n - 1] === 'string');
  span ??= { start: 0, end: 1 };
  // built field by field, not by spreading the rest of `p`: one of these per problem, and a file can have thousands
  const placed: Problem = {
    start: span.start,
    end: span.end,
    path,
    severity: p.severity,
    code: p.code,
    message: p.message,
  };
  if (p.fixes) placed.fixes = p.fixes;
  return placed;
}
