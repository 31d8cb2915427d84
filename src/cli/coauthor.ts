// What `cases generate` and `improve` share: the request file read from disk, and the line that says what the
// model's answer cost and where it came from.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../core/api/errors';
import { usageWords } from '../core/api/usage';
import type { Answer } from '../core/coauthor/answer';
import { costOf, costWords } from '../core/cost/cost';
import type { PriceTable } from '../core/cost/prices';
import type { RequestFile } from '../core/coauthor/coauthor';
import { formatOf } from '../core/fileNames';
import { decodeUtf8 } from '../core/files';

/** A request file on disk, named as the person gave it; a file that cannot be read is an InputError (exit 2). */
export function readRequestFile(file: string, cwd: string): RequestFile & { abs: string } {
  const abs = path.resolve(cwd, file);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isFile()) throw new InputError(`no such file: ${file}`);
  const decoded = decodeUtf8(fs.readFileSync(abs));
  if ('invalidAt' in decoded) throw new InputError(`${file}: invalid UTF-8 at byte ${decoded.invalidAt}`);
  return { name: file, text: decoded.text, format: formatOf(abs), abs };
}

/** `model-x · 1,204 input tokens (…) and 310 output tokens · $0.0081 · request-id req_…` */
export function answerLine(a: Answer, prices: PriceTable): string {
  const usage = usageWords(a.usage).replace(/\.$/, '');
  const cost = costWords(costOf(a.usage, a.model, prices));
  return [a.model, usage, cost, ...(a.requestId ? [`request-id ${a.requestId}`] : [])].join(' · ');
}
