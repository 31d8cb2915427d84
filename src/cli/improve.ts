// `promptwright improve REQUEST [--goal TEXT] [--model M] [--out FILE [--force]]`: the request's system prompt (and
// the user turns that are templates) rewritten by a model toward the goal (core/coauthor/). Everything else in the
// file stays byte for byte; the result passes `check` with no problem the file did not have, or it is not offered.
// The improved request goes to --out (a file that exists only with --force, and never the request itself) or
// stdout, what changed and why to stderr. Exit 0 written; 1 the request failed or the answer is not offered
// (nothing written); 2 a usage error (nothing sent).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isCaseFile } from '../core/fileNames';
import { improvePrompt } from '../core/coauthor/coauthor';
import { deltaLine } from '../core/tokens/deltas';
import { count } from '../core/text';
import { one, parseArgs, UsageError, type Command } from './args';
import { clientFromEnv, requireService } from './api';
import { answerLine, readRequestFile } from './coauthor';
import { positionals } from './common';
import { PRICES, pricesOption } from './prices';
import { CTRL_C, EXIT, guarded } from './guard';
import { betasFromEnv, type CliIo } from './io';

export const IMPROVE: Command = {
  name: 'improve',
  args: 'REQUEST',
  summary:
    'The system prompt (and the user turns that are templates) rewritten by a model toward the goal, every ' +
    '{{placeholder}} and every other field kept: the request to --out or stdout, what changed and why to stderr.',
  options: [
    { name: 'goal', value: 'TEXT', help: 'what the new prompt should do better ("shorter", "answers in JSON")' },
    { name: 'model', value: 'M', help: "the model that rewrites it (default: the request's own)" },
    { name: 'out', value: 'FILE', help: 'write the improved request to FILE (a new file, never REQUEST itself)' },
    { name: 'force', help: 'with --out: replace FILE when it exists' },
    PRICES,
  ],
  exits: {
    0: 'written (also when the model changed nothing: stderr says so)',
    1: 'the request failed, or the answer is not offered (nothing written)',
    2: 'a usage error (--out names REQUEST, or a file that exists without --force), or no key or address',
    130: CTRL_C,
  },
};

export function runImprove(args: string[], io: CliIo): Promise<number> {
  return guarded(io, 'improve', () => improve(args, io));
}

async function improve(args: string[], io: CliIo): Promise<number> {
  const p = parseArgs(args, IMPROVE);
  const [requestArg] = positionals(p, ['REQUEST']);
  if (isCaseFile(requestArg!)) throw new UsageError(`${requestArg} is a case file: improve the request file it names`);
  const cwd = process.cwd();
  const request = readRequestFile(requestArg!, cwd);
  const prices = pricesOption(p, cwd);
  const out = one(p, 'out');
  if (out === undefined && p.switches.has('force')) throw new UsageError('--force replaces the --out FILE: give --out');
  if (out !== undefined) {
    const abs = path.resolve(cwd, out);
    if (abs === request.abs || (fs.existsSync(abs) && fs.realpathSync(abs) === fs.realpathSync(request.abs)))
      throw new UsageError(`--out ${out} is the request itself: write the improved one beside it, and compare`);
    if (fs.existsSync(abs) && !p.switches.has('force')) throw new UsageError(`${out} exists: --force replaces it`);
  }
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
