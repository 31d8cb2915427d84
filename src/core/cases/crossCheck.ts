// A case file against its request file: a placeholder a case gives no value is sent as written,
// so it is an error in both files; a value no placeholder uses is probably a typo, so it is a warning.
import { closest } from '../models/table';
import { parseRequest, type Locate, type Span } from '../request/parse';
import type { Format, Path, Problem } from '../request/types';
import { findPlaceholders, forEachString } from './placeholders';
import type { CaseFile, TestCase, VarValue } from './types';

export interface CrossCheck {
  /** problems in the case file (at its cases and their `vars`) */
  caseProblems: Problem[];
  /** problems in the request file (at each `{{name}}` that some case leaves without a value) */
  requestProblems: Problem[];
  /** the request's own `model`: what a case file without `models` runs on */
  requestModel?: string;
}

/** Where each placeholder name is used in the request: the string values (paths) that hold it. */
interface Use {
  paths: Path[];
}

export function crossCheck(file: CaseFile, caseLocate: Locate, requestText: string, requestFormat: Format): CrossCheck {
  const parsed = parseRequest(requestText, requestFormat);
  const model = (parsed.value as { model?: unknown } | null | undefined)?.model;
  const requestModel = typeof model === 'string' && model ? { requestModel: model } : {};
  // a request that cannot be read has its own errors; what it uses is unknown, so nothing is said here
  if (parsed.value === undefined || parsed.problems.some(p => p.severity === 'error'))
    return { caseProblems: [], requestProblems: [], ...requestModel };
  const uses = new Map<string, Use>();
  forEachString(parsed.value, (s, pathOf) => {
    if (!s.includes('{{')) return;
    const names = new Set(findPlaceholders(s).map(p => p.name));
    if (!names.size) return;
    const at = pathOf();
    for (const name of names) {
      const use = uses.get(name) ?? { paths: [] };
      use.paths.push(at);
      uses.set(name, use);
    }
  });

  const caseProblems: Problem[] = [];
  const requestProblems: Problem[] = [];
  const cases = file.cases;
  const locateRequest = parsed.locateMany([...uses.values()].flatMap(u => u.paths));
  for (const [name, use] of uses) {
    const lacking = cases.map((c, i) => ({ c, i })).filter(({ c }) => !hasVar(c, name));
    if (!lacking.length) continue;
    const message = lacking.length === cases.length ? noCaseDefines(name) : someCasesLack(name, lacking, cases.length);
    for (const at of use.paths) {
      for (const span of occurrences(requestText, locateRequest(at), name))
        requestProblems.push({ ...span, severity: 'error', code: 'undefined-placeholder', path: at, message });
    }
    for (const { c, i } of lacking) {
      const where: Path = c.vars ? ['cases', i, 'vars'] : ['cases', i, 'name'];
      const span = caseLocate(where, !!c.vars) ?? caseLocate(['cases', i]) ?? { start: 0, end: 1 };
      caseProblems.push({
        start: span.start,
        end: span.end,
        severity: 'error',
        code: 'undefined-placeholder',
        path: where,
        message:
          `The request uses {{${name}}}, and case "${c.name}" gives it no value: it would be sent as written. ` +
          `Add "${name}" to its vars.`,
      });
    }
  }
  cases.forEach((c, i) => {
    for (const key of Object.keys(c.vars ?? {})) {
      if (uses.has(key)) continue;
      const at: Path = ['cases', i, 'vars', key];
      const span = caseLocate(at, true) ?? { start: 0, end: 1 };
      caseProblems.push({
        start: span.start,
        end: span.end,
        severity: 'warning',
        code: 'unused-var',
        path: at,
        message: `The request has no {{${key}}}: this value is not used.${nearUse(key, uses)}`,
      });
    }
  });
  const byPosition = (a: Problem, b: Problem) => a.start - b.start || a.end - b.end;
  return {
    caseProblems: caseProblems.sort(byPosition),
    requestProblems: requestProblems.sort(byPosition),
    ...requestModel,
  };
}

/** Each case's value of a placeholder (hover on `{{name}}`): undefined where a case gives none. */
export function valuesByCase(file: CaseFile, name: string): { caseName: string; value: VarValue | undefined }[] {
  return file.cases.map(c => ({ caseName: c.name, value: hasVar(c, name) ? c.vars![name] : undefined }));
}

const hasVar = (c: TestCase, name: string) => !!c.vars && Object.hasOwn(c.vars, name);

function noCaseDefines(name: string): string {
  return `No case gives {{${name}}} a value: every case would send it as written. Add "${name}" to the cases' vars.`;
}

function someCasesLack(name: string, lacking: { c: TestCase }[], total: number): string {
  const names = lacking.slice(0, 3).map(({ c }) => `"${c.name}"`);
  const more = lacking.length > 3 ? ` and ${lacking.length - 3} more` : '';
  return (
    `{{${name}}} has no value in ${lacking.length} of ${total} cases (${names.join(', ')}${more}): ` +
    'they would send it as written.'
  );
}

/**
 * The ranges of `{{name}}` in the source of one string value. A string written with escapes (JSON `\u007b`)
 * or folded over lines may not show the placeholder as such: then the whole value is the range.
 */
function occurrences(text: string, span: Span | undefined, name: string): Span[] {
  if (!span) return [{ start: 0, end: Math.min(1, text.length) }];
  const found = findPlaceholders(text.slice(span.start, span.end))
    .filter(p => p.name === name)
    .map(p => ({ start: span.start + p.start, end: span.start + p.end }));
  return found.length ? found : [span];
}

/** " Did you mean {{x}}?" when a used placeholder is one edit or two away. */
function nearUse(key: string, uses: Map<string, Use>): string {
  const near = closest(key, [...uses.keys()], 2);
  return near ? ` Did you mean {{${near}}}?` : '';
}
