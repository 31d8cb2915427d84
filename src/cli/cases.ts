// `promptwright cases generate REQUEST [--count N] [--model M] [--rubrics] [--out FILE | --append FILE]`: test cases
// for a request's {{placeholders}}, written by a model (core/coauthor/). The result is a case file that passes the
// case-file check, or nothing: to stdout, a new file (--out) or the end of an existing one's cases (--append,
// its comments and formatting kept). Exit 0 written; 1 the request failed or the answer is not what was asked
// (nothing written); 2 a usage error, or a request without placeholders (nothing sent).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../core/api/errors';
import { parseCaseFile, requestPathOf } from '../core/cases/caseFile';
import { isCaseFile } from '../core/fileNames';
import type { TestCase } from '../core/cases/types';
import { generateCases, withCases } from '../core/coauthor/coauthor';
import { DEFAULT_CASES, MAX_CASES } from '../core/coauthor/generate';
import { formatOf } from '../core/fileNames';
import { count } from '../core/text';
import { one, parseArgs, UsageError, type Command, type Group } from './args';
import { clientFromEnv, requireService } from './api';
import { readText } from './caseFiles';
import { answerLine, readRequestFile } from './coauthor';
import { groupCommand, positionals } from './common';
import { PRICES, pricesOption } from './prices';
import { CTRL_C, EXIT, guarded } from './guard';
import type { CliIo } from './io';

const GENERATE: Command = {
  name: 'cases generate',
  args: 'REQUEST',
  summary:
    "Test cases for a request file's {{placeholders}}, written by a model (default: the request's own): typical, " +
    "edge, adversarial, other languages. A case file to stdout, a new FILE, or the end of an existing one's cases; " +
    'it passes `check` and runs with `test` as written (with --rubrics, a judge model is named in it).',
  options: [
    { name: 'count', value: 'N', help: `how many cases, 1 to ${MAX_CASES} (default ${DEFAULT_CASES})` },
    { name: 'model', value: 'M', help: "the model that writes them (default: the request's own)" },
    { name: 'rubrics', help: 'give each case one or two rubric assertions, and the file a judge model' },
    { name: 'out', value: 'FILE', help: 'write a new case file (*.cases.yaml, .yml or .json); it must not exist' },
    { name: 'append', value: 'FILE', help: "add the cases to the end of an existing case file's cases" },
    PRICES,
  ],
  exits: {
    0: 'written',
    1: 'the request failed, or the answer is not what was asked (nothing written)',
    2: 'a usage error, a request without placeholders, or no key or address (nothing sent)',
    130: CTRL_C,
  },
};

export const CASES: Group = {
  name: 'cases',
  summary: 'Test cases written by a model (PROMPTWRIGHT_API_KEY).',
  commands: [GENERATE],
};

export function runCases(args: string[], io: CliIo): Promise<number> {
  const picked = groupCommand(CASES, args, io);
  if (typeof picked === 'number') return Promise.resolve(picked);
  return guarded(io, 'cases generate', () => generate(picked.rest, io));
}

/** Where the cases go: a new case file, the end of an existing one, or stdout. */
type Target =
  | { kind: 'new'; abs: string; display: string }
  | { kind: 'append'; abs: string; display: string; text: string; existing: TestCase[] }
  | { kind: 'stdout' };

async function generate(args: string[], io: CliIo): Promise<number> {
  const p = parseArgs(args, GENERATE);
  const [requestArg] = positionals(p, ['REQUEST']);
  const cwd = process.cwd();
  const n = one(p, 'count') ?? String(DEFAULT_CASES);
  if (!/^\d+$/.test(n) || Number(n) < 1 || Number(n) > MAX_CASES)
    throw new UsageError(`--count must be a whole number from 1 to ${MAX_CASES}, got "${n}"`);
  if (isCaseFile(requestArg!))
    throw new UsageError(
      `${requestArg} is a case file: give the request file it names, and --append ${requestArg} to add the cases to it`,
    );
  const request = readRequestFile(requestArg!, cwd);
  const prices = pricesOption(p, cwd);
  const target = targetOf(one(p, 'out'), one(p, 'append'), request.abs, cwd);
  requireService(io);
  const model = one(p, 'model');
  const existing = target.kind === 'append' ? target.existing : [];
  const generated = await generateCases(clientFromEnv(io), request, {
    count: Number(n),
    rubrics: p.switches.has('rubrics'),
    existing,
    ...(model ? { model } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  const { cases, notes, answer } = generated;
  // stdout: a case file in the working directory (what `> FILE` makes of it)
  const at =
    target.kind === 'stdout'
      ? { abs: path.join(cwd, 'generated.cases.yaml'), format: 'yaml' as const }
      : { abs: target.abs, format: formatOf(target.abs), ...(target.kind === 'append' ? { text: target.text } : {}) };
  // rubrics are graded as written: by the judge this machine names, else by the model that wrote them
  const judge = io.env.PROMPTWRIGHT_JUDGE_MODEL || answer.model;
  const { text } = withCases(at, request, cases, answer, { judge });
  if (target.kind === 'stdout') io.stdout.write(text);
  else fs.writeFileSync(target.abs, text);
  const where =
    target.kind === 'stdout'
      ? 'written to stdout'
      : `${target.kind === 'new' ? 'written to' : 'added to'} ${target.display}`;
  io.stderr.write(
    `promptwright cases generate: ${count(cases.length, 'case')} ${where} (${answerLine(answer, prices)})\n`,
  );
  for (const note of notes) io.stderr.write(`  - ${note}\n`);
  return EXIT.ok;
}

function targetOf(out: string | undefined, append: string | undefined, requestAbs: string, cwd: string): Target {
  if (out && append) throw new UsageError('give --out FILE or --append FILE, not both');
  const file = out ?? append;
  if (!file) return { kind: 'stdout' };
  const abs = path.resolve(cwd, file);
  if (!isCaseFile(abs))
    throw new UsageError(`${file} is not a case file name (*.cases.yaml, *.cases.yml or *.cases.json)`);
  if (out) {
    if (fs.existsSync(abs)) throw new UsageError(`${out} exists: --append ${out} adds the cases to it`);
    return { kind: 'new', abs, display: out };
  }
  if (!fs.existsSync(abs)) throw new UsageError(`no such file: ${file} (--out ${file} writes a new one)`);
  const read = readText(abs, file);
  if ('record' in read) throw new InputError(`${file}: ${read.record.message}`);
  const parsed = parseCaseFile(read.text, formatOf(abs));
  if (!parsed.file) {
    const why = parsed.problems.find(q => q.severity === 'error')?.message ?? 'it is not a case file';
    throw new InputError(`${file} cannot be added to: ${why}`);
  }
  if (path.resolve(requestPathOf(abs, parsed.file)) !== requestAbs)
    throw new UsageError(`${file} runs ${parsed.file.request}, not ${path.relative(cwd, requestAbs)}`);
  return { kind: 'append', abs, display: file, text: read.text, existing: parsed.file.cases };
}
