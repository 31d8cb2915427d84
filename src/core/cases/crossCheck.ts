// A case file against its request file: a placeholder a case gives no value is sent as written,
// so it is an error in both files; a value no placeholder uses is probably a typo, so it is a warning.
//
// Both files may come from a stranger's pull request, and this runs on opening a folder and in CI's `check .`: it
// takes time linear in the two files whatever they hold. Every (placeholder, case) pair without a value is counted,
// from the cases' vars, but only the first MAX_PER_RULE problems of each rule are built and placed (perRule.ts), and
// "did you mean" weighs a bounded set of names. (Pair by pair, 1,000 placeholders and 1,000 cases made a million
// problems: 22 s and an internal error.)
import { closest } from '../models/table';
import { parseRequest, type Locate, type Parsed } from '../request/parse';
import { keysOf } from '../request/parse/keys';
import { MAX_PER_RULE, moreOfRule } from '../request/perRule';
import type { Format, Path, Problem, RuleId, Severity } from '../request/types';
import { forEachString, scanPlaceholders } from './placeholders';
import type { CaseFile, TestCase, VarValue } from './types';

export interface CrossCheck {
  /** problems in the case file (at its cases and their `vars`) */
  caseProblems: Problem[];
  /** problems in the request file (at each `{{name}}` that some case leaves without a value) */
  requestProblems: Problem[];
  /** the request's own `model`: what a case file without `models` runs on */
  requestModel?: string;
}

/** A placeholder name the request uses: how many cases give it a value, and the last string whose text shows it. */
interface Use {
  name: string;
  defined: number;
  /** the index of the last string (of `holders`) whose value holds it */
  in: number;
  /** where it is in the `uses` of that string */
  at: number;
  /** the index of the last string (of `holders`) where it was found as written, -1 before */
  seen: number;
}

/** The placeholder names the request uses, in the order first met. */
type Uses = Map<string, Use>;

/**
 * A string value of the request that holds placeholders: where it is, the names it uses (each once), and how many
 * times its value holds each.
 */
interface Holder {
  path: Path;
  uses: Use[];
  times: number[];
}

/** How many names of each length a var is compared with for "did you mean": of its length and ±2, 80 at most. */
const NEAR_PER_LENGTH = 16;

/**
 * How many different unused vars of a file are weighed for "did you mean" (the same var in many cases is weighed
 * once): a file of a thousand different typos is not one a person wrote, and each costs up to 80 comparisons.
 */
const NEAR_KEYS = 100;

/**
 * `requestParsed`: the request text as parseRequest reads it, when the caller has it already (parsed once, not
 * twice).
 */
export function crossCheck(
  file: CaseFile,
  caseLocateMany: (paths: readonly Path[]) => Locate,
  requestText: string,
  requestFormat: Format,
  requestParsed?: Parsed,
): CrossCheck {
  const parsed = requestParsed ?? parseRequest(requestText, requestFormat);
  const model = (parsed.value as { model?: unknown } | null | undefined)?.model;
  const requestModel = typeof model === 'string' && model ? { requestModel: model } : {};
  // a request that cannot be read has its own errors; what it uses is unknown, so nothing is said here
  if (parsed.value === undefined || parsed.problems.some(p => p.severity === 'error'))
    return { caseProblems: [], requestProblems: [], ...requestModel };
  const uses: Uses = new Map();
  const holders: Holder[] = [];
  forEachString(parsed.value, (s, pathOf) => {
    const index = holders.length;
    let holder: Holder | undefined;
    scanPlaceholders(s, 0, s.length, (_start, _end, nameStart, nameEnd) => {
      const name = s.slice(nameStart, nameEnd);
      let use = uses.get(name);
      if (!use) uses.set(name, (use = { name, defined: 0, in: -1, at: 0, seen: -1 }));
      holder ??= { path: [], uses: [], times: [] };
      if (use.in === index) holder.times[use.at]!++;
      else {
        use.in = index;
        use.at = holder.uses.push(use) - 1;
        holder.times.push(1);
      }
    });
    if (holder) {
      holder.path = pathOf();
      holders.push(holder);
    }
  });
  const cases = file.cases;
  // each case's vars, listed once (a case may have a hundred thousand), and how many of them are placeholders
  const vars = cases.map(c => (c.vars ? keysOf(c.vars) : []));
  const given = vars.map(keys => {
    let n = 0;
    for (const key of keys) {
      const use = uses.get(key);
      if (use) {
        use.defined++;
        n++;
      }
    }
    return n;
  });
  const lacks = (use: Use) => use.defined < cases.length;
  const messageOf = (name: string) => {
    const lacking = cases.length - uses.get(name)!.defined;
    return lacking === cases.length ? noCaseDefines(name) : someCasesLack(name, cases, lacking);
  };
  const inCases = [...lackingInCases(cases, uses, given), ...unusedVars(cases, uses, vars, given)];
  return {
    caseProblems: placeInCases(inCases, caseLocateMany).sort(byPosition),
    requestProblems: lackingInRequest(requestText, parsed, holders, uses, lacks, messageOf),
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

  /** whether a problem left out is known: those after it need no place */
  get overflowed(): boolean {
    return this.first !== undefined;
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

/**
 * In the request, each `{{name}}` some case gives no value, in the order of the text: each string's text read
 * until as many problems are found as can be said (and one more, the first left out); the others are counted from
 * what the first pass found in the string's value. A name the value holds but its text does not show as written
 * (JSON `\u007b`, a line folded inside the braces) is said at the whole string, before those found.
 */
function lackingInRequest(
  text: string,
  parsed: Parsed,
  holders: readonly Holder[],
  uses: Uses,
  lacks: (use: Use) => boolean,
  messageOf: (name: string) => string,
): Problem[] {
  const out = new Bounded<Problem>();
  const messages = new Map<string, string>();
  const locate = parsed.locateMany(holders.map(h => h.path));
  holders.forEach(({ path, uses: held, times }, index) => {
    // occurrences of names some case lacks, in the string's value
    let lacking = 0;
    held.forEach((use, k) => {
      use.in = index; // as the first pass left it for the last string that holds it
      if (lacks(use)) lacking += times[k]!;
    });
    if (!lacking) return;
    const problem = (start: number, end: number, message: string): Problem => ({
      start,
      end,
      severity: 'error',
      code: 'undefined-placeholder',
      path,
      message,
    });
    const span = locate(path);
    const whole = span ?? { start: 0, end: Math.min(1, text.length) };
    if (out.overflowed) return out.count(lacking, () => problem(whole.start, whole.end, ''));
    const say = (name: string, start: number, end: number) => {
      if (out.full) return out.count(1, () => problem(start, end, ''));
      let message = messages.get(name);
      if (message === undefined) messages.set(name, (message = messageOf(name)));
      out.said.push(problem(start, end, message));
    };
    // the occurrences in the string's text (what is searched ends with the string): as many as can be said, and
    // one more (the first left out); the scan stops there
    const room = MAX_PER_RULE - out.said.length + 1;
    const found: Use[] = [];
    const at: number[] = [];
    if (span) {
      const source = text.slice(span.start, span.end);
      scanPlaceholders(source, 0, source.length, (start, end, nameStart, nameEnd) => {
        const use = uses.get(source.slice(nameStart, nameEnd));
        if (use?.in !== index || !lacks(use)) return;
        use.seen = index;
        found.push(use);
        at.push(span.start + start, span.start + end);
        return found.length < room;
      });
    }
    const stopped = found.length === room;
    if (!stopped) for (const use of held) if (lacks(use) && use.seen !== index) say(use.name, whole.start, whole.end);
    found.forEach((use, k) => say(use.name, at[2 * k]!, at[2 * k + 1]!));
    if (stopped) out.count(Math.max(0, lacking - room), () => problem(whole.start, whole.end, ''));
  });
  return out.problems().sort(byPosition);
}

/**
 * In the case file, each case at each placeholder it gives no value. What a case lacks is counted from its vars
 * (the names used, less those it gives), so the names are looked through only for the problems said.
 */
function lackingInCases(cases: readonly TestCase[], uses: Uses, given: readonly number[]): CaseProblem[] {
  const out = new Bounded<CaseProblem>();
  cases.forEach((c, i) => {
    let lacking = uses.size - given[i]!;
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

/**
 * In the case file, each value no placeholder uses, with the nearest placeholder of about its length. Past the
 * bound, a case's unused values are counted from its vars (all of them, less those the request uses).
 */
function unusedVars(
  cases: readonly TestCase[],
  uses: Uses,
  vars: readonly (readonly string[])[],
  given: readonly number[],
): CaseProblem[] {
  const out = new Bounded<CaseProblem>();
  let byLength: Map<number, string[]> | undefined;
  const suggested = new Map<string, string>();
  const suggestion = (key: string) => {
    let near = suggested.get(key);
    if (near === undefined && suggested.size < NEAR_KEYS)
      suggested.set(key, (near = nearUse(key, (byLength ??= namesByLength(uses)))));
    return near ?? '';
  };
  const problem = (i: number, key: string, message: string): CaseProblem => ({
    path: ['cases', i, 'vars', key],
    key: true,
    severity: 'warning',
    code: 'unused-var',
    message,
  });
  vars.forEach((keys, i) => {
    let unused = keys.length - given[i]!;
    let k = 0;
    for (; unused && !out.full; k++) {
      const key = keys[k]!;
      if (uses.has(key)) continue;
      unused--;
      out.said.push(problem(i, key, `The request has no {{${key}}}: this value is not used.${suggestion(key)}`));
    }
    out.count(unused, () => {
      while (uses.has(keys[k]!)) k++;
      return problem(i, keys[k]!, '');
    });
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

/** " Did you mean {{x}}?" when a name the request uses, of about the same length, is one edit or two away. */
function nearUse(key: string, byLength: Map<number, string[]>): string {
  const candidates: string[] = [];
  for (let n = key.length - 2; n <= key.length + 2; n++) candidates.push(...(byLength.get(n) ?? []));
  const near = closest(key, candidates, 2);
  return near ? ` Did you mean {{${near}}}?` : '';
}
