// How a command's options are declared, once: each with its name, whether it takes a value (and which values), a
// one-letter alias and its help. The argv reader, the usage `--help` prints, the closest match offered for a
// misspelt option and the docs test (test/unit/cli/docs.test.ts) all read that declaration, so a command takes
// exactly the options its usage lists and nothing is ignored in silence.
//
// A command declares itself as a `Command`:
//
//   export const RUN: Command = {
//     name: 'run', args: 'FILE', summary: 'Sends one request file …',
//     options: [{ name: 'force', help: 'send a file with rule errors anyway' }, PRICES, …],
//     exits: { 0: '…', 1: '…', 2: '…', 130: CTRL_C },
//   };
//
// and reads its argv with `parseArgs(argv, RUN)`. An option that takes a value names it (`value: 'N'`); one that
// takes one of a few (`choices`) is checked here; `repeatable` keeps every value (`all`), otherwise the last counts.
import { closest as closestIn } from '../core/models/table';

export interface Option {
  /** the long name, without its dashes: `repeat` for `--repeat` */
  name: string;
  /** a one-letter alias: `x` for `-x` */
  short?: string;
  /** what its value is called in the usage (`N`, `FILE`); without it the option is a switch and takes no value */
  value?: string;
  /** the values it takes (`text`, `json`): another is a usage error */
  choices?: readonly string[];
  /** given more than once, each value counts (`--model A --model B`) */
  repeatable?: boolean;
  /** the command needs it (the synopsis shows it without brackets; the command checks it) */
  required?: boolean;
  /** what it does, in a line (the usage's text) */
  help: string;
}

export interface Command {
  /** the words that name it: `test`, `batch collect`, `admin users list` */
  name: string;
  /** its arguments as the usage writes them: `FILE...`, `ID`, `[ID]` (none: empty) */
  args?: string;
  /** what it does, in a sentence or two */
  summary: string;
  options: readonly Option[];
  /** what each exit code means for it (README, docs/cli.md and `--help` say the same: the docs test reads this) */
  exits?: Readonly<Record<number, string>>;
}

export interface Parsed {
  positionals: string[];
  values: Map<string, string[]>;
  switches: Set<string>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/** What `--help` and `-h` stand for on every command. */
const HELP: Option = { name: 'help', short: 'h', help: 'print this usage and exit' };

/** `--format`, with the values a command prints (the first is the default). */
export function formatOption(choices: readonly string[], help = `the output format (default ${choices[0]})`): Option {
  return { name: 'format', value: 'FORMAT', choices, help };
}

/** `-h`/`--help` given (before `--`): the command prints its usage instead of running. */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

/**
 * Reads argv by the command's declaration: positionals, `--name value`, `--name=value`, `-x`, switches; `--` ends
 * the options. An option the command does not declare is a usage error naming the closest one it does.
 */
export function parseArgs(argv: readonly string[], command: Command): Parsed {
  const out: Parsed = { positionals: [], values: new Map(), switches: new Set() };
  const byName = new Map(command.options.map(o => [o.name, o]));
  const byShort = new Map(command.options.filter(o => o.short).map(o => [o.short!, o]));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    let option: Option | undefined;
    let inline: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      if (eq >= 0) inline = a.slice(eq + 1);
      option = byName.get(name);
      if (!option) throw new UsageError(unknownOption(`--${name}`, command));
    } else if (/^-[A-Za-z]$/.test(a)) {
      option = byShort.get(a.slice(1));
      if (!option) throw new UsageError(unknownOption(a, command));
    } else {
      out.positionals.push(a);
      continue;
    }
    const flag = `--${option.name}`;
    if (option.value === undefined) {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
      out.switches.add(option.name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value (${option.value})`);
    if (option.choices && !option.choices.includes(value)) {
      const near = closest(value, option.choices);
      throw new UsageError(
        `${flag} must be ${orList(option.choices)}, got "${value}"${near ? `; did you mean ${near}?` : ''}`,
      );
    }
    out.values.set(option.name, option.repeatable ? [...(out.values.get(option.name) ?? []), value] : [value]);
  }
  return out;
}

/** `a, b or c` */
function orList(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

/** One line: the closest option the command has, or the options it takes. */
function unknownOption(given: string, command: Command): string {
  const names = command.options.map(o => `--${o.name}`);
  const near = closest(given.replace(/=.*$/, ''), names);
  if (near) return `unknown option ${given}; did you mean ${near}?`;
  const takes = names.length ? `it takes ${names.join(', ')}` : 'it takes no options';
  return `unknown option ${given}: ${takes} (promptwright ${command.name} --help)`;
}

/**
 * The candidate nearest to `given` (its case aside), when near enough to be a slip: at most a third of its length
 * (its leading dashes aside) and at most 3 edits, an adjacent swap counting as one.
 */
export function closest(given: string, candidates: readonly string[]): string | undefined {
  const bound = Math.min(3, Math.max(1, Math.floor(given.replace(/^-+/, '').length / 3)));
  return closestIn(given, candidates, bound, { ignoreCase: true });
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

// ---- the usage, from the declaration --------------------------------------------------------------------------

/** An option as the synopsis writes it: `[--repeat N]`, `[-x|--fail-fast]`, `[--model M]...`. */
function synopsisOf(o: Option): string {
  const value = o.choices ? ` ${o.choices.join('|')}` : o.value ? ` ${o.value}` : '';
  const more = o.repeatable ? '...' : '';
  return o.required ? `--${o.name}${value}${more}` : `[--${o.name}${value}]${more}`;
}

/** The command's synopsis, wrapped at `width` with its options under one another: what docs/cli.md shows too. */
export function synopsis(c: Command, width = 118): string {
  const head = `promptwright ${c.name}${c.args ? ` ${c.args}` : ''}`;
  const lines = [head];
  const indent = ' '.repeat(Math.min(head.length + 1, 40));
  for (const part of c.options.map(synopsisOf)) {
    const last = lines.at(-1)!;
    if (last.length + 1 + part.length > width && last.trim() !== '') lines.push(`${indent}${part}`);
    else lines[lines.length - 1] = `${last} ${part}`;
  }
  return lines.join('\n');
}

/** `0 done; 1 …; 2 …; 130 Ctrl-C`: the exit codes of a command in one line. */
export function exitLine(exits: Readonly<Record<number, string>>): string {
  return Object.entries(exits)
    .map(([code, meaning]) => `${code} ${meaning}`)
    .join('; ');
}

/** Text in lines of at most `width` characters, every line after the first indented by `indent` more spaces. */
export function wrap(text: string, width: number, indent = 0): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** What `promptwright COMMAND --help` prints: the synopsis, what it does, each option, the exit codes. */
export function usageOf(c: Command): string {
  const options = [...c.options, HELP];
  const left = (o: Option) => {
    const value = o.choices ? ` ${o.choices.join('|')}` : o.value ? ` ${o.value}` : '';
    return `${o.short ? `-${o.short}, ` : '    '}--${o.name}${value}`;
  };
  const width = Math.min(28, Math.max(...options.map(o => left(o).length)));
  const rows = options.map(o => {
    const l = left(o);
    const help = wrap(`${o.help}${o.repeatable ? ' (repeatable)' : ''}`, 116 - width, width + 4);
    return l.length > width ? `  ${l}\n  ${' '.repeat(width)}  ${help}` : `  ${l.padEnd(width)}  ${help}`;
  });
  const exits = c.exits
    ? `\nexit codes:\n${Object.entries(c.exits)
        .map(([code, m]) => `  ${code.padEnd(3)}  ${wrap(m, 111, 7)}`)
        .join('\n')}\n`
    : '';
  const head = `usage: ${synopsis(c).replace(/\n/g, '\n       ')}`;
  return `${head}\n\n${wrap(c.summary, 118)}\n\noptions:\n${rows.join('\n')}\n${exits}`;
}

// ---- groups of commands (`admin …`, `batch …`) --------------------------------------------------------------

/** Commands under one word (`batch list`, `batch collect`): each declared as any other command. */
export interface Group {
  name: string;
  summary: string;
  commands: readonly Command[];
  /** lines the group's usage adds (its environment, its conventions) */
  notes?: string;
}

/** What a group's usage prints: each command's synopsis, then its notes. */
export function groupUsage(g: Group): string {
  const lines = g.commands.map(c => `  ${synopsis(c, 116).replace(/\n/g, '\n  ')}`);
  const more = `promptwright ${g.name} COMMAND --help prints a command's options.`;
  return `usage:\n${lines.join('\n')}\n\n${wrap(g.summary, 118)}\n${more}\n${g.notes ? `\n${g.notes}` : ''}`;
}

/**
 * The command of a group that argv names, and the rest of argv; or, when argv names none, the usage (with no
 * command, or `--help`) or a usage error that names the closest command.
 */
export function pickCommand(
  g: Group,
  argv: readonly string[],
): { command: Command; rest: string[] } | { usage: 'help' | 'missing' } {
  if (!argv.length) return { usage: 'missing' };
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') return { usage: 'help' };
  let best: Command | undefined;
  for (const c of g.commands) {
    const words = c.name.split(' ').slice(1);
    if (words.every((w, i) => argv[i] === w) && words.length > (best?.name.split(' ').length ?? 1) - 1) best = c;
  }
  if (best) return { command: best, rest: argv.slice(best.name.split(' ').length - 1) };
  const names = g.commands.map(c => c.name.split(' ').slice(1).join(' '));
  const given = argv.slice(0, Math.max(...names.map(n => n.split(' ').length))).filter(w => !w.startsWith('-'));
  const tries = [...new Set([given.join(' '), given[0] ?? ''])];
  const near =
    tries.map(t => closest(t, names)).find(Boolean) ??
    closest(given[0] ?? '', [...new Set(names.map(n => n.split(' ')[0]!))]);
  const said = given.join(' ') || argv[0]!;
  throw new UsageError(
    `unknown command '${g.name} ${said}'` +
      (near ? `; did you mean '${g.name} ${near}'?` : ` (promptwright ${g.name} --help lists its commands)`),
  );
}
