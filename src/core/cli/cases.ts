// `promptwright cases generate REQUEST [--count N] [--model M] [--rubrics] [--out FILE | --append FILE]`: test cases
// for a request's {{placeholders}}, written by a model (core/coauthor/). The result is a case file that passes the
// case-file check, or nothing: to stdout, a new file (--out) or the end of an existing one's cases (--append,
// its comments and formatting kept). Exit 0 written; 1 the request failed or the answer is not what was asked
// (nothing written); 2 a usage error, or a request without placeholders (nothing sent).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../api/errors';
import { isCaseFile, parseCaseFile, requestPathOf } from '../cases/caseFile';
import type { TestCase } from '../cases/types';
import { AnswerError } from '../coauthor/answer';
import { generateCases, type RequestFile } from '../coauthor/coauthor';
import { appendCases, caseFileText } from '../coauthor/edits';
import { DEFAULT_CASES, MAX_CASES, type GeneratedCase } from '../coauthor/generate';
import { applyEdits } from '../request/fixes';
import { formatOf } from '../request/parse';
import { count } from '../text';
import { one, parseArgs, UsageError } from './args';
import { clientFromEnv, requireService } from './api';
import { loadCaseFile, readText } from './caseFiles';
import { answerLine, readRequestFile } from './coauthor';
import { positionals } from './common';
import { EXIT, guarded } from './guard';
import type { CliIo } from './io';

const USAGE =
  'usage: promptwright cases generate REQUEST [--count N] [--model M] [--rubrics] [--out FILE | --append FILE]\n';

export function runCases(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'generate') {
    io.stderr.write(`${sub ? `promptwright cases: unknown command '${sub}'\n` : ''}${USAGE}`);
    return Promise.resolve(EXIT.refused);
  }
  return guarded(io, 'cases generate', () => generate(rest, io));
}

/** Where the cases go: a new case file, the end of an existing one, or stdout. */
type Target =
  | { kind: 'new'; abs: string; display: string }
  | { kind: 'append'; abs: string; display: string; text: string; existing: TestCase[] }
  | { kind: 'stdout' };

async function generate(args: string[], io: CliIo): Promise<number> {
  const p = parseArgs(args, ['count', 'model', 'out', 'append'], ['rubrics']);
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
  const text = written(target, request, cases, answer.model, cwd);
  checked(target, request, text, cwd, answer.requestId);
  if (target.kind === 'stdout') io.stdout.write(text);
  else fs.writeFileSync(target.abs, text);
  const where =
    target.kind === 'stdout'
      ? 'written to stdout'
      : `${target.kind === 'new' ? 'written to' : 'added to'} ${target.display}`;
  io.stderr.write(`promptwright cases generate: ${count(cases.length, 'case')} ${where} (${answerLine(answer)})\n`);
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

/** The text the target will hold. */
function written(
  target: Target,
  request: RequestFile & { abs: string },
  cases: GeneratedCase[],
  model: string,
  cwd: string,
) {
  if (target.kind === 'append') return applyEdits(target.text, [appendCases(target.text, formatOf(target.abs), cases)]);
  const from = target.kind === 'new' ? path.dirname(target.abs) : cwd;
  const rel = path.relative(from, request.abs).split(path.sep).join('/');
  return caseFileText(rel, cases, target.kind === 'new' ? formatOf(target.abs) : 'yaml', model);
}

/**
 * The result passes the case-file check against its request, with no error the file did not have before, or
 * nothing is written.
 */
function checked(target: Target, request: { abs: string }, text: string, cwd: string, requestId?: string): void {
  const abs = target.kind === 'stdout' ? path.join(cwd, 'generated.cases.yaml') : target.abs;
  const errors = (caseText: string) => {
    const display = 'case file';
    const { records } = loadCaseFile(abs, cwd, {
      display,
      source: (p, d) => (p === abs ? { text: caseText } : p === request.abs ? readText(p, d) : undefined),
    });
    return records.filter(r => r.severity === 'error' && r.file === display).map(r => `${r.code}: ${r.message}`);
  };
  const before = target.kind === 'append' ? errors(target.text) : [];
  const added = errors(text).filter(e => {
    const at = before.indexOf(e);
    if (at < 0) return true;
    before.splice(at, 1);
    return false;
  });
  if (added.length)
    throw new AnswerError(`the cases would not pass the case-file check (${added[0]}): nothing written`, requestId);
}
