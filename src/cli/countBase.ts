// `promptwright count --base REF [--changed] [FILE...]`: each count beside the same file's (or case's) at a
// git revision. A file new since REF has no count before, a deleted one none after. The working copies are
// checked first, as `count` does: one with errors stops everything (exit 2). A base version with errors is
// not counted (its problems are said, not held against the change). Each distinct body is counted once.
import { deltaOf, exceeds, limitWords, signedPercent, signedTokens } from '../core/tokens/deltas';
import { count } from '../core/text';
import { clientFromEnv } from './api';
import { UsageError } from './args';
import { baseSource, comparedFiles, isComparedFile, openBase, type ComparedFile } from './baseFiles';
import {
  BodyCounter,
  capturingIo,
  COUNT_FOLDER_GLOB,
  countedOf,
  overBudget,
  type Counted,
  type CountOptions,
} from './counting';
import { deltaReport, type DeltaRow } from './countReport';
import { EXIT } from './guard';
import { betasFromEnv, type CliIo } from './io';
import { printJsonArray } from './output';

interface Sides {
  file: ComparedFile;
  now: Counted[];
  /** undefined: not at the base */
  before?: Counted[];
  /** why the base version could not be counted */
  problems?: string[];
}

export async function countAgainstBase(o: CountOptions & { base: string }, io: CliIo, cwd: string): Promise<number> {
  if (!o.changed && !o.files.length) throw new UsageError('expected at least one FILE, or --changed');
  const base = await openBase(o.base, cwd, io.signal);
  const files = comparedFiles(base, {
    args: o.files,
    cwd,
    changed: o.changed,
    folderGlob: COUNT_FOLDER_GLOB,
    include: isComparedFile,
  });
  const betas = betasFromEnv(io.env);

  // the working copies, checked as `count` checks them: any error and nothing is sent
  const sides: Sides[] = [];
  let errors = 0;
  for (const file of files) {
    const now = file.abs ? countedOf(file.abs, cwd, betas, io, { display: file.display }) : { counted: [], errors: 0 };
    errors += now.errors;
    sides.push({ file, now: now.counted });
  }
  if (errors) {
    io.stderr.write(`promptwright count: nothing sent: ${count(errors, 'error')} (above)\n`);
    return EXIT.refused;
  }

  // the versions at the base; one with errors is reported, not counted
  const source = await baseSource(base, files);
  for (const s of sides) {
    const at = s.file.baseAbs;
    if (!at || !source(at, s.file.display)) continue;
    const captured = capturingIo(io);
    const before = countedOf(at, cwd, betas, captured.io, { source, display: s.file.display });
    if (before.errors) {
      s.problems = captured.lines;
      for (const line of captured.lines) io.stderr.write(`${base.ref}: ${line}\n`);
    } else s.before = before.counted;
  }

  const counter = new BodyCounter(clientFromEnv(io), io.signal);
  const bodies = sides.flatMap(s => [...s.now, ...(s.before ?? [])].map(c => c.body));
  const counts = await counter.countAll(bodies);
  const tokens = new Map(bodies.map((b, i) => [b, counts[i]!]));
  const rows = sides.flatMap(s => rowsOf(s, tokens));

  if (o.format === 'json') await printJsonArray(io, rows);
  else io.stdout.write(deltaReport(o.format, rows, { ref: base.ref, sha: base.sha, ...limitOption(o) }));
  const overLimit = o.maxIncrease ? tooMuch(io, rows, o.maxIncrease) : false;
  const over = overBudget(io, o.budget, rows);
  return overLimit || over ? 1 : 0;
}

const limitOption = (o: CountOptions) => (o.maxIncrease ? { limit: o.maxIncrease } : {});

/** One file's rows: each count now beside its count at the base, paired by case; then cases only the base had. */
function rowsOf(s: Sides, tokens: Map<Record<string, unknown>, number>): DeltaRow[] {
  const renamed = s.file.renamedFrom !== undefined ? { base_file: s.file.renamedFrom } : {};
  const problems = s.problems ? { base_problems: s.problems } : {};
  const key = (c: Counted) => c.case ?? '';
  const before = new Map((s.before ?? []).map(c => [key(c), c]));
  const row = (c: string | undefined, b: number | null, a: number | null): DeltaRow => ({
    file: s.file.display,
    ...(c !== undefined ? { case: c } : {}),
    ...renamed,
    base_input_tokens: b,
    input_tokens: a,
    delta: deltaOf(b, a).delta,
    ...problems,
  });
  const rows = s.now.map(c => {
    const b = before.get(key(c));
    before.delete(key(c));
    return row(c.case, b ? tokens.get(b.body)! : null, tokens.get(c.body)!);
  });
  for (const b of before.values()) rows.push(row(b.case, tokens.get(b.body)!, null));
  // a deleted file whose base version could not be counted still has its line
  if (!rows.length) rows.push(row(undefined, null, null));
  return rows;
}

/** Says each count that grew by more than the limit (only those that existed at the base); true when any did. */
function tooMuch(io: CliIo, rows: readonly DeltaRow[], limit: NonNullable<CountOptions['maxIncrease']>): boolean {
  let any = false;
  for (const r of rows) {
    const d = deltaOf(r.base_input_tokens, r.input_tokens);
    if (!exceeds(limit, d)) continue;
    any = true;
    const what = `${r.file}${r.case !== undefined ? ` (case "${r.case}")` : ''}`;
    const pct = d.percent === null ? '' : `, ${signedPercent(d.percent)}`;
    io.stderr.write(
      `${what}: ${signedTokens(d.delta!)} input tokens${pct}, more than the allowed increase of ${limitWords(limit)}\n`,
    );
  }
  return any;
}
