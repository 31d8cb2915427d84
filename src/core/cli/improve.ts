// `promptwright improve REQUEST [--goal TEXT] [--model M] [--out FILE]`: the request's system prompt (and the user
// turns that are templates) rewritten by a model toward the goal (core/coauthor/). Everything else in the file
// stays byte for byte; the result passes `check` with no problem the file did not have, or it is not offered.
// The improved request goes to --out or stdout, what changed and why to stderr. Exit 0 written; 1 the request
// failed or the answer is not offered (nothing written); 2 a usage error (nothing sent).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isCaseFile } from '../cases/fileNames';
import { improvePrompt } from '../coauthor/coauthor';
import { deltaLine } from '../compare/deltas';
import { count } from '../text';
import { one, parseArgs, UsageError } from './args';
import { clientFromEnv, requireService } from './api';
import { answerLine, readRequestFile } from './coauthor';
import { positionals } from './common';
import { pricesOption } from './prices';
import { EXIT, guarded } from './guard';
import { betasFromEnv, type CliIo } from './io';

export function runImprove(args: string[], io: CliIo): Promise<number> {
  return guarded(io, 'improve', () => improve(args, io));
}

async function improve(args: string[], io: CliIo): Promise<number> {
  const p = parseArgs(args, ['goal', 'model', 'out', 'prices']);
  const [requestArg] = positionals(p, ['REQUEST']);
  if (isCaseFile(requestArg!)) throw new UsageError(`${requestArg} is a case file: improve the request file it names`);
  const cwd = process.cwd();
  const request = readRequestFile(requestArg!, cwd);
  const prices = pricesOption(p, cwd);
  const out = one(p, 'out');
  requireService(io);
  const goal = one(p, 'goal');
  const model = one(p, 'model');
  const improved = await improvePrompt(clientFromEnv(io), request, {
    betas: betasFromEnv(io.env),
    ...(goal ? { goal } : {}),
    ...(model ? { model } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  if (out) fs.writeFileSync(path.resolve(cwd, out), improved.text);
  else io.stdout.write(improved.text);
  const what = improved.changed
    ? `${count(improved.changed, 'text')} improved${out ? `, written to ${out}` : ''}`
    : 'the model changed no text: the request is as it was';
  io.stderr.write(`promptwright improve: ${what} (${answerLine(improved.answer, prices)})\n`);
  if (improved.tokens) io.stderr.write(`  input tokens: ${deltaLine(improved.tokens)}\n`);
  if (improved.changed)
    for (const c of improved.changes) io.stderr.write(`  - ${c.change}${c.reason ? `: ${c.reason}` : ''}\n`);
  return EXIT.ok;
}
