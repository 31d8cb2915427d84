// A case file as the Test Explorer shows it: the file, its cases, each case on each model, and where each is
// in the text (a case's gutter icon sits on its first line, a failure's message on the assertion that
// failed). Pure code over a parse that has already been made (core/cases/caseFile.ts): it costs a walk over
// the cases, no parsing, so the editor can redo it at every check of the file.
import type { Locate, Span } from '../request/parse/types';
import type { CaseFile } from './types';

interface OutlineCase {
  name: string;
  /** the case's place in the file's `cases` list */
  index: number;
  /** the case's item in the list */
  span: Span;
  /** each assertion's item in `assert`, in order (undefined where it cannot be found) */
  assertions: (Span | undefined)[];
}

export interface CaseOutline {
  /** the `cases` key: where the whole file's item sits */
  casesKey: Span | undefined;
  /** the models every case runs on (a case × model is an item under its case) */
  models: string[];
  /** the cases that can run: named, and each name once (a second case of the same name is an error) */
  cases: OutlineCase[];
}

/** The models a case file runs on: an override, else the file's `models`, else the request's own model. */
export function modelsOf(
  file: Pick<CaseFile, 'models'>,
  requestModel: string | undefined,
  modelsOverride?: readonly string[],
): string[] {
  const chosen = modelsOverride?.length ? modelsOverride : file.models?.length ? file.models : [requestModel];
  return [...new Set(chosen.filter((m): m is string => typeof m === 'string' && m !== ''))];
}

export function caseOutline(file: CaseFile, locate: Locate, requestModel: string | undefined): CaseOutline {
  const seen = new Set<string>();
  const cases: OutlineCase[] = [];
  file.cases.forEach((c, index) => {
    if (!c.name || seen.has(c.name)) return;
    seen.add(c.name);
    const span = locate(['cases', index]);
    if (!span) return;
    const assertions = (c.assert ?? []).map((_, j) => locate(['cases', index, 'assert', j]));
    cases.push({ name: c.name, index, span, assertions });
  });
  return { casesKey: locate(['cases'], true), models: modelsOf(file, requestModel), cases };
}
