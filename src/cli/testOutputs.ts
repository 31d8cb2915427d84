// `--junit FILE` and `--output FILE` of `test` (and `batch collect`): the run's report written to files beside what
// the terminal shows, so CI keeps the readable log and gets the file its dashboard reads. `--output` picks the
// report by the file's extension; each is checked before anything is sent (a run that cannot keep its report
// should not spend anything), and written once the run has ended (cancelled runs too: what finished).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { all, one, UsageError, type Option, type Parsed } from './args';
import type { CliIo } from './io';

/** What a report file holds: JSON (one array), JSON Lines (a record a line), Markdown, JUnit XML. */
export type ReportKind = 'json' | 'jsonl' | 'markdown' | 'junit';

const BY_EXTENSION: Record<string, ReportKind> = {
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.md': 'markdown',
  '.xml': 'junit',
};

export const REPORT_OPTIONS: readonly Option[] = [
  { name: 'junit', value: 'FILE', help: 'also write the JUnit XML report to FILE' },
  {
    name: 'output',
    value: 'FILE',
    repeatable: true,
    help: 'also write the report to FILE, by its extension: .json, .jsonl, .md or .xml (JUnit)',
  },
];

export interface ReportFile {
  /** as given (said on stderr) */
  name: string;
  abs: string;
  kind: ReportKind;
}

/** The report files asked for; a name whose extension says no report, or a folder that is not there, is refused. */
export function outputsOf(p: Parsed, cwd: string): ReportFile[] {
  const files: ReportFile[] = [];
  const junit = one(p, 'junit');
  if (junit !== undefined) files.push({ name: junit, abs: path.resolve(cwd, junit), kind: 'junit' });
  for (const name of all(p, 'output')) {
    const kind = BY_EXTENSION[path.extname(name).toLowerCase()];
    if (!kind) throw new UsageError(`--output ${name}: the extension says which report: .json, .jsonl, .md or .xml`);
    files.push({ name, abs: path.resolve(cwd, name), kind });
  }
  for (const f of files) {
    const dir = path.dirname(f.abs);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
      throw new UsageError(`${f.name}: the folder ${path.relative(cwd, dir) || dir} does not exist`);
  }
  return files;
}

/** Writes each report file; one that cannot be written is said, and the others are still written. */
export async function writeOutputs(
  io: CliIo,
  files: readonly ReportFile[],
  render: (kind: ReportKind) => string,
): Promise<boolean> {
  let ok = true;
  for (const f of files) {
    try {
      await fs.promises.writeFile(f.abs, render(f.kind));
      io.stderr.write(`promptwright test: wrote ${f.name}\n`);
    } catch (e) {
      ok = false;
      io.stderr.write(`promptwright test: ${f.name} could not be written: ${(e as Error).message}\n`);
    }
  }
  return ok;
}

/** A list as `--format json` prints it, and as JSON Lines. */
export function jsonList<T>(items: readonly T[], kind: 'json' | 'jsonl', json: (item: T) => unknown): string {
  if (kind === 'jsonl') return items.map(i => `${JSON.stringify(json(i))}\n`).join('');
  return `${JSON.stringify(items.map(json), null, 2)}\n`;
}
