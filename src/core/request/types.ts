import type { RuleId, Severity } from './catalog';

export type { RuleId, Severity };

/** A path into the request value: object keys and array indexes (a JSON pointer's segments). */
export type Path = (string | number)[];

/**
 * A fix the editor can offer as a code action; turned into text edits by fixes.ts. `preferred` marks the one
 * clearly right among several (the editor's "auto fix"); a problem's only fix is preferred anyway.
 */
export type FixData =
  | { kind: 'replace-value'; title: string; path: Path; value: unknown; preferred?: boolean }
  | { kind: 'remove-property'; title: string; path: Path }
  | { kind: 'insert-property'; title: string; path: Path; key: string; value: unknown }
  | { kind: 'rename-property'; title: string; path: Path; key: string; preferred?: boolean }
  /** not a text edit: the editor adds the value to the setting promptwright.betas */
  | { kind: 'add-beta'; title: string; beta: string };

/** A diagnostic in plain offsets (UTF-16 code units into the text), independent of any editor. */
export interface Problem {
  start: number;
  end: number;
  severity: Severity;
  /** the rule's stable name (catalog.ts, RULES.md) */
  code: RuleId;
  message: string;
  path: Path;
  fixes?: FixData[];
}

/** Where a problem sits before it has offsets: on a value, on the key that holds it, or on its container. */
export type Anchor = 'value' | 'key' | 'container';

export interface PathProblem {
  path: Path;
  anchor: Anchor;
  severity: Severity;
  code: RuleId;
  message: string;
  fixes?: FixData[];
}

export type Format = 'json' | 'yaml';

/** JSON pointer (RFC 6901) of a path. */
export function pointer(path: Path): string {
  let out = '';
  for (const p of path) {
    const s = String(p);
    // escaped only where needed: every record of a check has a pointer
    out += s.includes('~') || s.includes('/') ? `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}` : `/${s}`;
  }
  return out;
}
