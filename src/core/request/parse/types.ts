// What both parsers give: the value, its syntax problems, and where any path of it is in the text.
import type { Format, Path, Problem } from '../types';

export interface Span {
  start: number;
  end: number;
}

/** Range of the value at path; `key: true` gives the key that holds it (falls back to the value). */
export type Locate = (path: Path, key?: boolean) => Span | undefined;

export interface Parsed {
  format: Format;
  /** the request value, or undefined when the text could not be parsed at all */
  value: unknown;
  /** syntax problems (always errors or warnings with offsets) */
  problems: Problem[];
  locate: Locate;
  /**
   * `locate` for many paths at once, as placing every problem of a check needs: the paths and all their
   * prefixes are found together, at the cost of about one walk over the file, and each answer then costs
   * O(depth). Other paths are still answered, by `locate`.
   */
  locateMany(paths: readonly Path[]): Locate;
}

/** For text that has no value to look into. */
export const locateNothing: Pick<Parsed, 'locate' | 'locateMany'> = {
  locate: () => undefined,
  locateMany: () => () => undefined,
};

/** The most alias expansions a YAML file may make before it is refused (a "billion laughs" guard). */
export const MAX_YAML_ALIASES = 1000;

/**
 * Nesting Promptwright follows. Deeper values are still parsed (JSON.parse does not recurse) and checked
 * by the schema, which never descends into free-form values such as a tool's `input`; what recurses in
 * libraries (jsonc-parser's tree, the YAML composer) is not run on them. The spec states no depth limit,
 * so a deep body is a warning, not an error.
 */
export const MAX_DEPTH = 512;

/** A file that holds nothing at all: one problem at its start, saying what it needs (`"model", …`). */
export function emptyFileProblem(text: string, needs: string): Problem {
  return {
    start: 0,
    end: Math.min(1, text.length),
    severity: 'error',
    code: 'empty-file',
    path: [],
    message: `The file is empty: ${needs}.`,
  };
}
