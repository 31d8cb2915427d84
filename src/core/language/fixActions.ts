// Quick fixes as both front ends offer them: each fix of a problem as text edits that keep the file's layout
// (core/request/fixes.ts), or for a beta the value to add to the `betas` setting; and which problem a
// diagnostic the editor hands back stands for.
import { parseCaseFile } from '../cases/caseFile';
import type { Parsed } from '../request/parse';
import { fixEdits } from '../request/fixes';
import type { FixData, Format, Problem } from '../request/types';
import type { FixAction } from './types';

/** The actions of one problem's fixes. The preferred one: the one a fix marks clearly right, or an only fix. */
export function fixActions(
  text: string,
  format: Format,
  parsed: Pick<Parsed, 'locate'>,
  fixes: readonly FixData[],
): FixAction[] {
  return fixes.map(fix => {
    const preferred = ('preferred' in fix && fix.preferred === true) || fixes.length === 1;
    if (fix.kind === 'add-beta') return { title: fix.title, preferred, beta: fix.beta };
    return { title: fix.title, preferred, edits: fixEdits(text, format, parsed, fix) };
  });
}

/** The problem a diagnostic stands for: the one at the same range with the same message. */
export function problemAt(
  problems: Iterable<Problem>,
  at: { start: number; end: number; message: string },
): Problem | undefined {
  for (const p of problems) if (p.start === at.start && p.end === at.end && p.message === at.message) return p;
  return undefined;
}

/**
 * The fixes of a case file's problem (a stop_reason or an assertion the spec does not know): the file is read
 * again as it is now, and the problem at the diagnostic's range gives its fixes.
 */
export function caseFixActions(
  text: string,
  format: Format,
  at: { start: number; end: number; message: string },
): FixAction[] {
  const parsed = parseCaseFile(text, format);
  const problem = problemAt(parsed.problems, at);
  return problem?.fixes ? fixActions(text, format, parsed, problem.fixes) : [];
}
