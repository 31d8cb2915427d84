// What `promptwright count` counts, and the counting itself: a request file's body, or every case of a case
// file with its values filled in, each checked for count_tokens first (no max_tokens needed); then each body
// sent to POST /v1/messages/count_tokens once, however many files hold it.
import * as path from 'node:path';
import type { ApiClient } from '../core/api/client';
import { isCaseFile } from '../core/fileNames';
import type { CellKey } from '../core/cases/types';
import { pickCountFields } from '../core/api/countFields';
import { OTHER_TOOL_FILE } from '../core/request/otherTools';
import { formatOf } from '../core/fileNames';
import { validateText } from '../core/request/validate';
import { bodyHash } from '../core/request/hash';
import { count, thousands } from '../core/text';
import type { IncreaseLimit } from '../core/tokens/deltas';
import { prepareCaseFile, readText, recordLine, type FileSource, type LoadedCaseFile } from './caseFiles';
import type { CliIo } from './io';
import { toRecords } from '../core/request/records';

/** What one count is of: a request file, or one case of a case file. */
export interface Counted {
  file: string;
  case?: string;
  body: Record<string, unknown>;
}

/**
 * The bodies of one file to count: a request or count file's own, or one per case of a case file. Problems
 * go to `io.stderr`; `errors` counts what stops the file. `source` and `display` read another version of it
 * (`--base`).
 */
export function countedOf(
  abs: string,
  cwd: string,
  betas: string[],
  io: CliIo,
  o: { source?: FileSource; display?: string } = {},
): { counted: Counted[]; errors: number } {
  return isCaseFile(abs) ? casesOf(abs, cwd, betas, io, o) : requestOf(abs, cwd, betas, io, o);
}

/** One request file, checked for count_tokens. */
function requestOf(
  abs: string,
  cwd: string,
  betas: string[],
  io: CliIo,
  o: { source?: FileSource; display?: string },
): { counted: Counted[]; errors: number } {
  const display = o.display ?? (path.relative(cwd, abs) || abs);
  const read = o.source ? o.source(abs, display) : readText(abs, display);
  if (!read) {
    io.stderr.write(`${display}: error: there is no such file\n`);
    return { counted: [], errors: 1 };
  }
  if ('record' in read) {
    io.stderr.write(recordLine(read.record));
    return { counted: [], errors: 1 };
  }
  const v = validateText(read.text, formatOf(abs), { betas, endpoint: 'count_tokens' });
  const other = v.problems.find(p => p.code === OTHER_TOOL_FILE);
  if (other) {
    // another tool's prompt file a folder or a glob caught: left out, and said
    io.stderr.write(`${display}: skipped: ${other.message.replace(/:.*$/, '')}\n`);
    return { counted: [], errors: 0 };
  }
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
function casesOf(
  abs: string,
  cwd: string,
  betas: string[],
  io: CliIo,
  o: { source?: FileSource; display?: string },
): { counted: Counted[]; errors: number } {
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
    ...o,
  });
  const counted = loaded ? cells.map(c => ({ file: loaded.display, case: c.caseName, body: c.body })) : [];
  return { counted, errors };
}

/**
 * Counts bodies through the service, each distinct body once (the fields count_tokens takes decide what is
 * the same), at most `concurrency` calls at once.
 */
export class BodyCounter {
  private readonly memo = new Map<string, Promise<number>>();
  /** calls made to count_tokens */
  calls = 0;

  constructor(
    private readonly client: ApiClient,
    private readonly signal?: AbortSignal,
  ) {}

  count(body: Record<string, unknown>): Promise<number> {
    const key = bodyHash(pickCountFields(body));
    let n = this.memo.get(key);
    if (!n) {
      this.calls++;
      n = this.client.countTokens(body, this.signal ? { signal: this.signal } : {}).then(r => r.input_tokens);
      this.memo.set(key, n);
    }
    return n;
  }

  /** Every body's count, in order; the first failure rejects (the others are not waited for). */
  async countAll(bodies: readonly Record<string, unknown>[], concurrency = 4): Promise<number[]> {
    const out = new Array<number>(bodies.length);
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (next < bodies.length && !failed) {
        const i = next++;
        try {
          out[i] = await this.count(bodies[i]!);
        } catch (e) {
          failed = true;
          throw e;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, bodies.length) }, worker));
    return out;
  }
}

/** An io that keeps what a command would print on stderr (a base version's problems, said otherwise). */
export function capturingIo(io: CliIo): { io: CliIo; lines: string[] } {
  const lines: string[] = [];
  return { io: { ...io, stderr: { write: (s: string) => lines.push(...s.split('\n').filter(Boolean)) } }, lines };
}

/** Folders given as FILE stand for the files in them that match this. */
export const COUNT_FOLDER_GLOB = '**/*.{prompt,cases,count}.{json,yaml,yml}';

export interface CountOptions {
  format: 'text' | 'json' | 'markdown';
  /** --budget N: exit 1 when any count is over */
  budget?: number;
  /** --base REF: compare with the files at this git revision */
  base?: string;
  /** --changed: the files that differ from the base (FILE narrows them) */
  changed: boolean;
  /** --cache: each file's cache breakpoints and what they cache */
  cache: boolean;
  /** --max-increase N|P%: exit 1 when a count that existed at the base grew by more */
  maxIncrease?: IncreaseLimit;
  files: string[];
}

/** Says each count over the budget on stderr; true when there is one. */
export function overBudget(
  io: CliIo,
  budget: number | undefined,
  rows: readonly { file: string; case?: string; input_tokens: number | null }[],
): boolean {
  if (budget === undefined) return false;
  let over = false;
  for (const r of rows) {
    if (r.input_tokens === null || r.input_tokens <= budget) continue;
    over = true;
    const what = `${r.file}${r.case !== undefined ? ` (case "${r.case}")` : ''}`;
    const by = thousands(r.input_tokens - budget);
    io.stderr.write(
      `${what}: ${count(r.input_tokens, 'input token')}, over the budget of ` + `${thousands(budget)} by ${by}\n`,
    );
  }
  return over;
}
