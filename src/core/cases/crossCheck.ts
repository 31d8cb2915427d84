// A case file against its request file: a placeholder a case gives no value is sent as written,
// so it is an error in both files; a value no placeholder uses is probably a typo, so it is a warning.
//
// Both files may come from a stranger's pull request, and this runs on opening a folder and in CI's `check .`: it
// takes time linear in the two files whatever they hold. Every (placeholder, case) pair without a value is counted,
// from the cases' vars, but only the first MAX_PER_RULE problems of each rule are built and placed (perRule.ts), and
// "did you mean" weighs a bounded set of names. (Pair by pair, 1,000 placeholders and 1,000 cases made a million
// problems: 22 s and an internal error.)
import { closest } from '../models/table';
import { parseRequest, type Locate, type Parsed, type Span } from '../request/parse';
import { MAX_PER_RULE, moreOfRule } from '../request/perRule';
import type { Format, Path, Problem, RuleId, Severity } from '../request/types';
import { findPlaceholders, forEachString, namesIn } from './placeholders';
import type { CaseFile, TestCase, VarValue } from './types';

export interface CrossCheck {
  /** problems in the case file (at its cases and their `vars`) */
  caseProblems: Problem[];
  /** problems in the request file (at each `{{name}}` that some case leaves without a value) */
  requestProblems: Problem[];
  /** the request's own `model`: what a case file without `models` runs on */
  requestModel?: string;
}

/** The placeholder names the request uses, in the order first met, with how many cases give each a value. */
type Uses = Map<string, { defined: number }>;

/** A string value of the request that holds placeholders: where it is, and the names it uses. */
interface Holder {
  path: Path;
  names: Set<string>;
}

/** How many names of each length a var is compared with for "did you mean": of its length and ±2, 80 at most. */
const NEAR_PER_LENGTH = 16;

export function crossCheck(
  file: CaseFile,
  caseLocateMany: (paths: readonly Path[]) => Locate,
  requestText: string,
  requestFormat: Format,
): CrossCheck {
  const parsed = parseRequest(requestText, requestFormat);
  const model = (parsed.value as { model?: unknown } | null | undefined)?.model;
  const requestModel = typeof model === 'string' && model ? { requestModel: model } : {};
  // a request that cannot be read has its own errors; what it uses is unknown, so nothing is said here
  if (parsed.value === undefined || parsed.problems.some(p => p.severity === 'error'))
    return { caseProblems: [], requestProblems: [], ...requestModel };
  const uses: Uses = new Map();
  const holders: Holder[] = [];
  forEachString(parsed.value, (s, pathOf) => {
    const names = namesIn(s);
    if (!names.size) return;
    holders.push({ path: pathOf(), names });
    for (const name of names) if (!uses.has(name)) uses.set(name, { defined: 0 });
  });
  const cases = file.cases;
  for (const c of cases) for (const key of Object.keys(c.vars ?? {})) if (uses.has(key)) uses.get(key)!.defined++;
  const lacking = (name: string) => cases.length - uses.get(name)!.defined;
  const messageOf = (name: string) =>
    lacking(name) === cases.length ? noCaseDefines(name) : someCasesLack(name, cases, lacking(name));
  const inCases = [...lackingInCases(cases, uses), ...unusedVars(cases, uses)];
  return {
    caseProblems: placeInCases(inCases, caseLocateMany).sort(byPosition),
    requestProblems: lackingInRequest(requestText, parsed, holders, name => lacking(name) > 0, messageOf),
    ...requestModel,
  };
}

const byPosition = (a: Problem, b: Problem) => a.start - b.start || a.end - b.end;

/** A problem in the case file before it is placed: at the key or value of `path`, else at `orElse`. */
interface CaseProblem {
  path: Path;
  key: boolean;
  orElse?: Path;
  severity: Severity;
  code: RuleId;
  message: string;
}

/** Problems of one rule as they are found: the first MAX_PER_RULE in full, the others counted in one more. */
class Bounded<T extends { code: RuleId; message: string }> {
  readonly said: T[] = [];
  private first: T | undefined;
  private more = 0;

  get full(): boolean {
    return this.said.length >= MAX_PER_RULE;
  }

  /** `n` problems not said, the first of them `at()` (asked for the first one left out only) */
  count(n: number, at: () => T): void {
    if (!n) return;
    this.first ??= at();
    this.more += n;
  }

  problems(): T[] {
    return this.first ? [...this.said, moreOfRule(this.first, this.more)] : this.said;
  }
}

/** In the request, each `{{name}}` some case gives no value, in the order of the text: each string read once. */
function lackingInRequest(
  text: string,
  parsed: Parsed,
  holders: readonly Holder[],
  lacks: (name: string) => boolean,
  messageOf: (name: string) => string,
): Problem[] {
  const out = new Bounded<Problem>();
  const messages = new Map<string, string>();
  const locate = parsed.locateMany(holders.map(h => h.path));
  for (const { path, names } of holders) {
    const lacking = new Set([...names].filter(lacks));
    if (!lacking.size) continue;
    for (const { name, span } of occurrences(text, locate(path), lacking)) {
      const problem = (message: string): Problem => ({
        ...span,
        severity: 'error',
        code: 'undefined-placeholder',
        path,
        message,
      });
      if (out.full) {
        out.count(1, () => problem(''));
        continue;
      }
      let message = messages.get(name);
      if (message === undefined) messages.set(name, (message = messageOf(name)));
      out.said.push(problem(message));
    }
  }
  return out.problems().sort(byPosition);
}

/**
 * In the case file, each case at each placeholder it gives no value. What a case lacks is counted from its vars
 * (the names used, less those it gives), so the names are looked through only for the problems said.
 */
function lackingInCases(cases: readonly TestCase[], uses: Uses): CaseProblem[] {
  const out = new Bounded<CaseProblem>();
  cases.forEach((c, i) => {
    let lacking = uses.size;
    for (const key of Object.keys(c.vars ?? {})) if (uses.has(key)) lacking--;
    if (!lacking) return;
    const problem = (message: string): CaseProblem => ({
      path: c.vars ? ['cases', i, 'vars'] : ['cases', i, 'name'],
      key: !!c.vars,
      orElse: ['cases', i],
      severity: 'error',
      code: 'undefined-placeholder',
      message,
    });
    for (const name of uses.keys()) {
      if (!lacking || out.full) break;
      if (hasVar(c, name)) continue;
      lacking--;
      out.said.push(
        problem(
          `The request uses {{${name}}}, and case "${c.name}" gives it no value: it would be sent as written. ` +
            `Add "${name}" to its vars.`,
        ),
      );
    }
    out.count(lacking, () => problem(''));
  });
  return out.problems();
}

/** In the case file, each value no placeholder uses, with the nearest placeholder of about its length. */
function unusedVars(cases: readonly TestCase[], uses: Uses): CaseProblem[] {
  const out = new Bounded<CaseProblem>();
  let byLength: Map<number, string[]> | undefined;
  cases.forEach((c, i) => {
    for (const key of Object.keys(c.vars ?? {})) {
      if (uses.has(key)) continue;
      const problem = (message: string): CaseProblem => ({
        path: ['cases', i, 'vars', key],
        key: true,
        severity: 'warning',
        code: 'unused-var',
        message,
      });
      if (out.full) {
        out.count(1, () => problem(''));
        continue;
      }
      byLength ??= namesByLength(uses);
      out.said.push(problem(`The request has no {{${key}}}: this value is not used.${nearUse(key, byLength)}`));
    }
  });
  return out.problems();
}

/** The case file's problems at their places, found together (one by one, each would walk the file). */
function placeInCases(problems: readonly CaseProblem[], locateMany: (paths: readonly Path[]) => Locate): Problem[] {
  const locate = locateMany(problems.flatMap(p => (p.orElse ? [p.path, p.orElse] : [p.path])));
  return problems.map(({ path, key, orElse, severity, code, message }) => {
    const span = locate(path, key) ?? (orElse && locate(orElse)) ?? { start: 0, end: 1 };
    return { start: span.start, end: span.end, severity, code, path, message };
  });
}

/** The names the request uses, by length, at most NEAR_PER_LENGTH of each. */
function namesByLength(uses: Uses): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const name of uses.keys()) {
    const same = out.get(name.length) ?? [];
    if (same.length < NEAR_PER_LENGTH) same.push(name);
    out.set(name.length, same);
  }
  return out;
}

/** Each case's value of a placeholder (hover on `{{name}}`): undefined where a case gives none. */
export function valuesByCase(file: CaseFile, name: string): { caseName: string; value: VarValue | undefined }[] {
  return file.cases.map(c => ({ caseName: c.name, value: hasVar(c, name) ? c.vars![name] : undefined }));
}

const hasVar = (c: TestCase, name: string) => !!c.vars && Object.hasOwn(c.vars, name);

function noCaseDefines(name: string): string {
  return `No case gives {{${name}}} a value: every case would send it as written. Add "${name}" to the cases' vars.`;
}

/** The message for a name `lacking` cases give no value: the first three of them named (found by looking on). */
function someCasesLack(name: string, cases: readonly TestCase[], lacking: number): string {
  const names: string[] = [];
  for (const c of cases) {
    if (names.length === 3) break;
    if (!hasVar(c, name)) names.push(`"${c.name}"`);
  }
  const more = lacking > 3 ? ` and ${lacking - 3} more` : '';
  return (
    `{{${name}}} has no value in ${lacking} of ${cases.length} cases (${names.join(', ')}${more}): ` +
    'they would send it as written.'
  );
}

/**
 * The ranges of the `{{name}}` of `names` in the source of one string value, in the order of the text. A string
 * written with escapes (JSON `\u007b`) or folded over lines may not show a placeholder as such: then the whole value
 * is its range.
 */
function occurrences(text: string, span: Span | undefined, names: Set<string>): { name: string; span: Span }[] {
  const found: { name: string; span: Span }[] = [];
  const seen = new Set<string>();
  if (span)
    for (const p of findPlaceholders(text.slice(span.start, span.end))) {
      if (!names.has(p.name)) continue;
      seen.add(p.name);
      found.push({ name: p.name, span: { start: span.start + p.start, end: span.start + p.end } });
    }
  const whole = span ?? { start: 0, end: Math.min(1, text.length) };
  const unseen = [...names].filter(name => !seen.has(name)).map(name => ({ name, span: whole }));
  return unseen.length ? [...unseen, ...found] : found;
}

/** " Did you mean {{x}}?" when a name the request uses, of about the same length, is one edit or two away. */
function nearUse(key: string, byLength: Map<number, string[]>): string {
  const candidates: string[] = [];
  for (let n = key.length - 2; n <= key.length + 2; n++) candidates.push(...(byLength.get(n) ?? []));
  const near = closest(key, candidates, 2);
  return near ? ` Did you mean {{${near}}}?` : '';
}
