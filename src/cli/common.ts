// What the command groups (admin, batch, cache, cases, compliance) share: which of their commands argv names, the
// output format, positional arguments, list options and the answer to a declined confirmation.
import { limitProblem } from '../core/admin/rules';
import { InputError } from '../core/api/errors';
import {
  formatOption,
  groupUsage,
  limitOf,
  one,
  pickCommand,
  UsageError,
  usageOf,
  wantsHelp,
  type Command,
  type Group,
  type Option,
  type Parsed,
} from './args';
import { EXIT } from './guard';
import type { CliIo } from './io';

/**
 * The command of a group that argv names, with the rest of argv; or the exit code once what argv asked instead is
 * printed: the group's usage (no command: exit 2; `--help`: 0), a command's usage (`--help` after it: 0), or the
 * closest command to a misspelt one (exit 2).
 */
export function groupCommand(
  g: Group,
  argv: readonly string[],
  io: CliIo,
): { command: Command; rest: string[] } | number {
  let picked: ReturnType<typeof pickCommand>;
  try {
    picked = pickCommand(g, argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`promptwright ${g.name}: ${e.message}\n`);
    return EXIT.refused;
  }
  if ('usage' in picked) {
    io.stdout.write(groupUsage(g));
    return picked.usage === 'help' ? EXIT.ok : EXIT.refused;
  }
  if (wantsHelp(picked.rest)) {
    io.stdout.write(usageOf(picked.command));
    return EXIT.ok;
  }
  return picked;
}

/** `--format`, whose values the parser checked against the command's declaration: text by default. */
export function format<F extends string = 'text' | 'json'>(p: Parsed): F {
  return (one(p, 'format') ?? 'text') as F;
}

export function positionals(p: Parsed, names: string[]): string[] {
  if (p.positionals.length !== names.length) {
    throw new UsageError(`expected ${names.join(' ') || 'no arguments'}, got ${p.positionals.join(' ') || 'nothing'}`);
  }
  return p.positionals;
}

/** `--format text|json`, the choice of most commands (text for people, json for scripts). */
export const TEXT_OR_JSON = formatOption(['text', 'json']);

/** `--yes` of a destructive command: `what` it does without asking; a script without it is refused. */
export const yesOption = (what: string): Option => ({
  name: 'yes',
  help: `${what} without asking (a script without it is refused)`,
});

/** `--limit N` of a list (admin, compliance), read by `listOptions`. */
export const LIMIT: Option = {
  name: 'limit',
  value: 'N',
  help: 'at most N in all, 1 to 1000 (the page size too; default: every page, 1000 a page)',
};

/** `--limit N`: in 1..1000; it caps the total and sets the page size to min(N, 1000). */
export function listOptions(p: Parsed, io: CliIo) {
  const limit = limitOf(p);
  const problem = limitProblem(limit);
  if (problem) throw new InputError(problem);
  return {
    pageSize: limit ?? 1000,
    ...(limit !== undefined ? { max: limit } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  };
}

export function notConfirmed(io: CliIo): number {
  io.stderr.write('Not confirmed: nothing was done.\n');
  return EXIT.refused;
}
