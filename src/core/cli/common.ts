// What the command groups (admin, compliance) share: the output format, positional arguments, list options
// and the answer to a declined confirmation.
import { limitProblem } from '../admin/rules';
import { InputError } from '../api/errors';
import { limitOf, one, UsageError, type Parsed } from './args';
import { EXIT } from './guard';
import type { CliIo } from './io';

/** `--format`: one of `allowed` (text or json unless the command says more), text by default. */
export function format(p: Parsed): 'text' | 'json';
export function format<F extends string>(p: Parsed, allowed: readonly F[]): F;
export function format(p: Parsed, allowed: readonly string[] = ['text', 'json']): string {
  const f = one(p, 'format') ?? 'text';
  if (!allowed.includes(f)) {
    const names = `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1) ?? ''}`;
    throw new UsageError(`--format must be ${names}, got "${f}"`);
  }
  return f;
}

export function positionals(p: Parsed, names: string[]): string[] {
  if (p.positionals.length !== names.length) {
    throw new UsageError(`expected ${names.join(' ') || 'no arguments'}, got ${p.positionals.join(' ') || 'nothing'}`);
  }
  return p.positionals;
}

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
