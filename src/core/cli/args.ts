// A small argv reader for the subcommands: positionals, `--flag value` / `--flag=value` (repeatable) and
// boolean switches. Unknown options are reported, never ignored.

export interface Parsed {
  positionals: string[];
  values: Map<string, string[]>;
  switches: Set<string>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * `options` names the flags that take a value, `switches` those that do not. `--format` is common to
 * all and takes a value.
 */
export function parseArgs(
  argv: readonly string[],
  options: readonly string[],
  switches: readonly string[] = [],
): Parsed {
  const out: Parsed = { positionals: [], values: new Map(), switches: new Set() };
  const takes = new Set([...options, 'format']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--') || a === '--') {
      out.positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (switches.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      out.switches.add(name);
    } else if (takes.has(name)) {
      const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      out.values.set(name, [...(out.values.get(name) ?? []), value]);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return out;
}

export const one = (p: Parsed, name: string): string | undefined => p.values.get(name)?.at(-1);
export const all = (p: Parsed, name: string): string[] => p.values.get(name) ?? [];

/** `--limit N` as a whole number (range checks are the command's). */
export function limitOf(p: Parsed): number | undefined {
  const v = one(p, 'limit');
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--limit must be a whole number, got "${v}"`);
  return Number(v);
}
