// The `regex` assertion's pattern: a JavaScript regular expression, written either bare (`^Bonjour`, no
// flags) or as a literal with flags (`/^bonjour/i`). Shared by the case-file check (a pattern that does not
// compile is an error at its range) and the assertion that runs it.
//
// A pattern comes from a case file, which may come from a stranger's pull request, and backtracking can take
// exponential time (`^.*"(a+)+!` on 34 `a` ran for over a minute). So a pattern runs with a time limit: inside
// `vm`'s `runInContext` with `timeout`, whose watchdog stops the script, regular expression included, and throws.
// It is V8's own engine, so every flag, named group and lookbehind means what it means in JavaScript; the call
// is synchronous (no worker to start, keep or end on Ctrl-C); and it costs about 0.1 ms a call, for the
// watchdog's thread, paid only by the assertions that run a pattern.
import * as vm from 'node:vm';
import { count } from '../text';

const LITERAL = /^\/([\s\S]+)\/([a-z]*)$/;

/** The longest one assertion may spend in a case file's patterns (a `regex`, or a json-schema's validation). */
export const PATTERN_TIME_LIMIT_MS = 1000;

/** Compiles a `regex` assertion's pattern; throws a SyntaxError that says what is wrong with it. */
export function compileRegex(source: string): RegExp {
  const literal = LITERAL.exec(source);
  // `g` and `y` make test() remember where it stopped: an assertion asks once, from the start
  if (literal) return new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, ''));
  return new RegExp(source);
}

/** The pattern as the messages show it: `/^Bonjour/`, or the literal as written. */
export function showRegex(source: string): string {
  return LITERAL.test(source) ? source : `/${source}/`;
}

/** A pattern (or a schema's patterns) ran past the time limit: what ran, and on how much text. */
export class PatternTimeout extends Error {
  constructor(what: string, textLength: number, limitMs: number) {
    super(
      `${what} ran for more than ${count(limitMs, 'ms', 'ms')} on a reply of ${count(textLength, 'character')} ` +
        'and was stopped: a pattern with nested repetition, such as (a+)+, can take exponential time. ' +
        'Simplify the pattern.',
    );
    this.name = 'PatternTimeout';
  }
}

/** The work `withPatternTimeLimit` is running, and the script that calls it under the watchdog (made once). */
let current: (() => unknown) | undefined;
let sandbox: { context: vm.Context; script: vm.Script } | undefined;

/**
 * Runs `job` (synchronous work that runs a case file's patterns) with a time limit: its result, or a
 * PatternTimeout naming `what()` when it runs past `limitMs`.
 */
export function withPatternTimeLimit<T>(
  what: () => string,
  textLength: number,
  job: () => T,
  limitMs = PATTERN_TIME_LIMIT_MS,
): T {
  // the context holds one function of ours, which the script only calls
  sandbox ??= { context: vm.createContext({ run: () => current?.() }), script: new vm.Script('run()') };
  current = job;
  try {
    return sandbox.script.runInContext(sandbox.context, { timeout: limitMs }) as T;
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new PatternTimeout(what(), textLength, limitMs);
    throw e;
  } finally {
    current = undefined;
  }
}
