// `promptwright count FILE... [--budget N] [--format text|json]`: input tokens (POST
// /v1/messages/count_tokens) of request files and of case files, every case with its values filled in. With
// --budget it is a CI check: exit 1 when any count is over. Every file is checked before anything is sent;
// only what count_tokens takes is checked (no max_tokens needed).
import * as path from 'node:path';
import { isCaseFile } from '../cases/caseFile';
import type { CellKey } from '../cases/types';
import { formatOf } from '../request/parse';
import { validateText } from '../request/validate';
import { count } from '../text';
import { clientFromEnv } from './api';
import { printBreakpoints } from './countCache';
import { one, parseArgs, UsageError } from './args';
import { filesOf, prepareCaseFile, readText, recordLine, type LoadedCaseFile } from './caseFiles';
import { toRecords } from './records';
import { format } from './common';
import { cancelled, EXIT, guarded } from './guard';
import { betasFromEnv, type CliIo } from './io';
import { table } from './output';

/** What one count is of: a request file, or one case of a case file. */
interface Counted {
  file: string;
  case?: string;
  body: Record<string, unknown>;
}

interface Row {
  file: string;
  case?: string;
  input_tokens: number;
}

export function runCount(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  return guarded(io, 'count', async () => {
    const p = parseArgs(args, ['budget'], ['cache']);
    const outputFormat = format(p);
    const budget = budgetOf(one(p, 'budget'));
    const files = filesOf(p.positionals, cwd, '**/*.{prompt,cases,count}.{json,yaml,yml}');
    const betas = betasFromEnv(io.env);
    const counted: Counted[] = [];
    let errors = 0;
    for (const f of files) {
      const found = isCaseFile(f) ? casesOf(f, cwd, betas, io) : requestOf(f, cwd, betas, io);
      counted.push(...found.counted);
      errors += found.errors;
    }
    // a file with errors is not sent: refused before any request, as every command says it (exit 2)
    if (errors) {
      io.stderr.write(`promptwright count: nothing sent: ${count(errors, 'error')} (above)\n`);
      return EXIT.refused;
    }
    const client = clientFromEnv(io);
    const rows: Row[] = [];
    try {
      for (const c of counted) {
        const r = await client.countTokens(c.body, io.signal ? { signal: io.signal } : {});
        rows.push({ file: c.file, ...(c.case !== undefined ? { case: c.case } : {}), input_tokens: r.input_tokens });
      }
    } catch (e) {
      // cancelled part way: the counts that came are printed, then the cancel goes through (exit 130)
      if (rows.length && cancelled(e, io)) print(io, outputFormat, rows, files.length);
      throw e;
    }
    // --cache: each file's breakpoints and what they cache (countCache.ts)
    if (p.switches.has('cache')) await printBreakpoints(io, outputFormat, counted, rows, client);
    else print(io, outputFormat, rows, files.length);
    if (budget === undefined) return 0;
    const over = rows.filter(r => r.input_tokens > budget);
    for (const r of over) {
      const what = `${r.file}${r.case !== undefined ? ` (case "${r.case}")` : ''}`;
      const by = (r.input_tokens - budget).toLocaleString('en-US');
      io.stderr.write(
        `${what}: ${count(r.input_tokens, 'input token')}, over the budget of ` +
          `${budget.toLocaleString('en-US')} by ${by}\n`,
      );
    }
    return over.length ? 1 : 0;
  });
}

function budgetOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--budget must be a whole number of tokens, got "${raw}"`);
  return Number(raw);
}

/** One request file, checked for count_tokens. */
function requestOf(abs: string, cwd: string, betas: string[], io: CliIo): { counted: Counted[]; errors: number } {
  const display = path.relative(cwd, abs) || abs;
  const read = readText(abs, display);
  if ('record' in read) {
    io.stderr.write(recordLine(read.record));
    return { counted: [], errors: 1 };
  }
  const v = validateText(read.text, formatOf(abs), { betas, endpoint: 'count_tokens' });
  const errors = toRecords(read.text, v.problems, display).filter(r => r.severity === 'error');
  for (const r of errors) io.stderr.write(recordLine(r));
  const value = v.parsed.value;
  if (errors.length || !value || typeof value !== 'object' || Array.isArray(value))
    return { counted: [], errors: Math.max(1, errors.length) };
  return { counted: [{ file: display, body: value as Record<string, unknown> }], errors: 0 };
}

/**
 * Every case of a case file, its values filled in, on the request's own model (else the first of the case
 * file's models): the count is of the prompt, and the model changes it little.
 */
function casesOf(abs: string, cwd: string, betas: string[], io: CliIo): { counted: Counted[]; errors: number } {
  const keysOf = (l: LoadedCaseFile) => {
    const model = l.requestModel ?? l.file.models?.[0];
    return model ? l.file.cases.map(c => ({ caseName: c.name, model })) : [];
  };
  const cellName = (key: CellKey) => `case "${key.caseName}"`;
  const { loaded, cells, errors } = prepareCaseFile(abs, cwd, io, {
    keysOf,
    cellName,
    betas,
    endpoint: 'count_tokens',
  });
  const counted = loaded ? cells.map(c => ({ file: loaded.display, case: c.caseName, body: c.body })) : [];
  return { counted, errors };
}

/** One request file in text: the number alone, as `count FILE` always printed; otherwise a table. */
function print(io: CliIo, outputFormat: 'text' | 'json', rows: readonly Row[], files: number): void {
  if (outputFormat === 'json') io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
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
