// `promptwright count FILE... [--budget N] [--format text|json]`: input tokens (POST
// /v1/messages/count_tokens) of request files and of case files, every case with its values filled in. With
// --budget it is a CI check: exit 1 when any count is over. Every file is checked before anything is sent;
// only what count_tokens takes is checked (no max_tokens needed). With --base REF each count is set beside
// the same file's at a git revision (countBase.ts); with --cache each file's cache breakpoints are shown with
// what they cache (countCache.ts).
import { count } from '../core/text';
import { parseIncreaseLimit } from '../core/tokens/deltas';
import { inputCostOf } from '../core/cost/cost';
import type { PriceTable } from '../core/cost/prices';
import { clientFromEnv } from './api';
import { formatOption, one, parseArgs, UsageError, type Command } from './args';
import { filesOf } from './caseFiles';
import { countAgainstBase } from './countBase';
import { printBreakpoints } from './countCache';
import { BodyCounter, COUNT_FOLDER_GLOB, countedOf, overBudget, type Counted, type CountOptions } from './counting';
import { cancelled, CTRL_C, EXIT, guarded } from './guard';
import { betasFromEnv, type CliIo } from './io';
import { printJsonArray, table } from './output';
import { PRICES, pricesOption } from './prices';

// ---- options ---------------------------------------------------------------------------------------------

export const COUNT: Command = {
  name: 'count',
  args: '[FILE...]',
  summary:
    'Counts the input tokens of request files and of case files (each case, its values filled in) with ' +
    'POST /v1/messages/count_tokens; only what that endpoint takes is checked first (no max_tokens needed). ' +
    'With --base REF each count is set beside the same file at a git revision.',
  options: [
    { name: 'budget', value: 'N', help: 'exit 1 when any count is over N tokens' },
    { name: 'cache', help: "each file's cache breakpoints: the prefix each caches, its ttl, the model's minimum" },
    formatOption(['text', 'json', 'markdown'], 'the output format (default text; markdown: with --base)'),
    PRICES,
    { name: 'base', value: 'REF', help: 'set each count beside the same file at git revision REF (HEAD, origin/main)' },
    { name: 'changed', help: 'with --base: the request, count and case files that differ from REF' },
    {
      name: 'max-increase',
      value: 'N|P%',
      help: 'with --base: exit 1 when a count that existed at REF grew by more than N tokens or P percent',
    },
  ],
  exits: {
    0: 'counted (within --budget and --max-increase)',
    1: 'a count is over --budget or grew more than --max-increase, or the service answered with an error',
    2: 'a usage error, a file with errors, or no key or address (nothing sent)',
    130: CTRL_C,
  },
};

function countOptions(args: string[], cwd: string): CountOptions & { prices: PriceTable } {
  const p = parseArgs(args, COUNT);
  const base = one(p, 'base');
  const changed = p.switches.has('changed');
  const cache = p.switches.has('cache');
  const rawLimit = one(p, 'max-increase');
  const o: CountOptions & { prices: PriceTable } = {
    prices: pricesOption(p, cwd),
    format: (one(p, 'format') ?? 'text') as CountOptions['format'],
    changed,
    cache,
    files: p.positionals,
    ...(base !== undefined ? { base } : {}),
  };
  const budget = budgetOf(one(p, 'budget'));
  if (budget !== undefined) o.budget = budget;
  if (rawLimit !== undefined) {
    const limit = parseIncreaseLimit(rawLimit);
    if (!limit)
      throw new UsageError(`--max-increase must be a number of tokens (N) or a percent (P%), got "${rawLimit}"`);
    o.maxIncrease = limit;
  }
  if (base === undefined) {
    for (const [flag, given] of [
      ['--changed', changed],
      ['--max-increase', rawLimit !== undefined],
      ['--format markdown', o.format === 'markdown'],
    ] as const)
      if (given) throw new UsageError(`${flag} compares with a revision: give --base REF too`);
  } else if (!base.trim()) throw new UsageError('--base needs a git revision (HEAD, origin/main, a commit)');
  else if (cache) throw new UsageError("--cache shows the working copy's breakpoints: leave out --base");
  if (cache && o.format === 'markdown') throw new UsageError('--cache prints text or json');
  return o;
}

function budgetOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--budget must be a whole number of tokens, got "${raw}"`);
  return Number(raw);
}

// ---- the command -----------------------------------------------------------------------------------------

interface Row {
  file: string;
  case?: string;
  input_tokens: number;
  /** what those tokens cost at the model's input price (null: no price for the model) */
  input_cost_usd: number | null;
}

export function runCount(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  return guarded(io, 'count', async () => {
    const o = countOptions(args, cwd);
    if (o.base !== undefined) return countAgainstBase({ ...o, base: o.base }, io, cwd);
    const files = filesOf(o.files, cwd, COUNT_FOLDER_GLOB);
    const betas = betasFromEnv(io.env);
    const counted: Counted[] = [];
    let errors = 0;
    for (const f of files) {
      const found = countedOf(f, cwd, betas, io);
      counted.push(...found.counted);
      errors += found.errors;
    }
    // a file with errors is not sent: refused before any request, as every command says it (exit 2)
    if (errors) {
      io.stderr.write(`promptwright count: nothing sent: ${count(errors, 'error')} (above)\n`);
      return EXIT.refused;
    }
    const client = clientFromEnv(io);
    const counter = new BodyCounter(client, io.signal);
    const rows: Row[] = [];
    try {
      for (const c of counted) {
        const tokens = await counter.count(c.body);
        const model = typeof c.body.model === 'string' ? c.body.model : '';
        rows.push({
          file: c.file,
          ...(c.case !== undefined ? { case: c.case } : {}),
          input_tokens: tokens,
          input_cost_usd: inputCostOf(tokens, model, o.prices),
        });
      }
    } catch (e) {
      // cancelled part way: the counts that came are printed, then the cancel goes through (exit 130)
      if (rows.length && cancelled(e, io)) await print(io, o.format, rows, files.length);
      throw e;
    }
    if (o.cache) await printBreakpoints(io, o.format === 'json' ? 'json' : 'text', counted, rows, client);
    else await print(io, o.format, rows, files.length);
    return overBudget(io, o.budget, rows) ? 1 : 0;
  });
}

// ---- output ----------------------------------------------------------------------------------------------

/** One request file in text: the number alone, as `count FILE` always printed; otherwise a table. */
async function print(
  io: CliIo,
  outputFormat: CountOptions['format'],
  rows: readonly Row[],
  files: number,
): Promise<void> {
  if (outputFormat === 'json') await printJsonArray(io, rows);
  else if (files === 1 && rows.length === 1 && rows[0]!.case === undefined)
    io.stdout.write(`${rows[0]!.input_tokens}\n`);
  else
    io.stdout.write(
      table(rows, [
        ['INPUT_TOKENS', r => String(r.input_tokens)],
        ['FILE', r => r.file],
        ['CASE', r => r.case],
      ]),
    );
}
