// The `regex` assertion's pattern: a JavaScript regular expression, written either bare (`^Bonjour`, no
// flags) or as a literal with flags (`/^bonjour/i`). Shared by the case-file check (a pattern that does not
// compile is an error at its range) and the assertion that runs it.

const LITERAL = /^\/([\s\S]+)\/([a-z]*)$/;

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
