// `promptwright test --merge FILE...`: the cell records of several runs (each shard of a CI matrix, written with
// `--format jsonl` or `json`) as one report: JUnit, a pull-request comment in Markdown, or the text summary. It
// sends nothing. A record read back is a cell as `test` printed it; a cell in two files (a shard run twice) counts
// once, the later file's. Exit 0 when every cell passed, 1 otherwise, 2 when a file cannot be read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CellResult, SampleResult } from '../core/cases/types';
import { count } from '../core/text';
import { UsageError } from './args';
import { EXIT } from './guard';
import type { CliIo } from './io';
import { markdownCode, markdownText } from './markdown';
import { cellRecord, summaryLine, toJunit, verdictWord, whyLines } from './testReport';

/** The first line of the merged comment: a workflow finds its own comment by it, to update it. */
const MERGED_COMMENT_MARKER = '<!-- promptwright:test-shards -->';

/** Failing cells listed in the comment at most (the JUnit files have them all). */
const MAX_ROWS = 50;

type CellRecord = ReturnType<typeof cellRecord>;

interface Merged {
  file: string;
  id: string | undefined;
  r: CellResult;
}

/** The reply part of a cell's or a sample's record, read back. */
function outcomeOf(
  r: Pick<CellRecord['samples'][number], 'text' | 'usage' | 'stop_reason' | 'latency_ms' | 'request_id' | 'error'>,
): SampleResult['outcome'] {
  return {
    text: r.text,
    ...(r.usage ? { usage: r.usage } : {}),
    ...(r.stop_reason !== null ? { stopReason: r.stop_reason } : {}),
    ...(r.latency_ms !== null ? { latencyMs: r.latency_ms } : {}),
    ...(r.request_id ? { requestId: r.request_id } : {}),
    ...(r.error ? { error: r.error } : {}),
  };
}

/** A sample's record read back. */
function sampleOf(s: CellRecord['samples'][number]): SampleResult {
  return { status: s.status, pass: s.pass, assertions: s.assertions, outcome: outcomeOf(s), costUsd: s.cost_usd };
}

/** A cell record (`--format json` / `jsonl`) read back as the result it was printed from. */
function resultOf(x: CellRecord): CellResult {
  const samples = Array.isArray(x.samples) ? x.samples.map(sampleOf) : undefined;
  return {
    caseName: x.case,
    model: x.model,
    status: x.status,
    pass: x.pass,
    assertions: x.assertions,
    outcome: { ...outcomeOf(x), ...(x.batch_id ? { batchId: x.batch_id } : {}) },
    ...(samples ? { samples } : {}),
    passedSamples: x.passed_samples,
    minPass: x.min_pass,
    flaky: x.flaky,
    costUsd: x.cost_usd,
    ...(x.judge_cost_usd !== null ? { judgeCostUsd: x.judge_cost_usd } : {}),
  };
}

const isRecord = (v: unknown): v is CellRecord =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as CellRecord).file === 'string' &&
  typeof (v as CellRecord).case === 'string' &&
  typeof (v as CellRecord).model === 'string' &&
  typeof (v as CellRecord).status === 'string';

/** The records of one file: JSON Lines (one a line) or a JSON array, read a line at a time. */
function recordsOf(file: string, display: string): CellRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${display}: cannot be read (${(e as Error).message})`);
  }
  const bad = (where: string) =>
    new UsageError(`${display}${where}: not a cell record of promptwright test --format jsonl or json`);
  if (text.trimStart().startsWith('[')) {
    let all: unknown;
    try {
      all = JSON.parse(text);
    } catch {
      throw bad('');
    }
    if (!Array.isArray(all) || !all.every(isRecord)) throw bad('');
    return all;
  }
  return text.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw bad(`:${i + 1}`);
    }
    if (!isRecord(v)) throw bad(`:${i + 1}`);
    return [v];
  });
}

export function mergeResults(files: readonly string[], outputFormat: string, io: CliIo, cwd: string): number {
  if (!files.length) throw new UsageError('--merge needs the files of cell records to merge');
  if (!['text', 'junit', 'markdown', 'json', 'jsonl'].includes(outputFormat))
    throw new UsageError(`--merge prints text, json, jsonl, junit or markdown, not ${outputFormat}`);
  const byCell = new Map<string, Merged>();
  for (const f of files) {
    const display = path.relative(cwd, path.resolve(cwd, f)) || f;
    for (const x of recordsOf(path.resolve(cwd, f), display)) {
      const key = JSON.stringify([x.file, x.case_id ?? x.case, x.model]);
      byCell.set(key, { file: x.file, id: x.case_id, r: resultOf(x) });
    }
  }
  const cells = [...byCell.values()];
  const results = cells.map(c => c.r);
  if (outputFormat === 'junit') io.stdout.write(toJunit(cells.map(c => ({ file: c.file, r: c.r }))));
  else if (outputFormat === 'json')
    io.stdout.write(
      `${JSON.stringify(
        cells.map(c => cellRecord(c.file, c.r, c.id)),
        null,
        2,
      )}\n`,
    );
  else if (outputFormat === 'jsonl')
    for (const c of cells) io.stdout.write(`${JSON.stringify(cellRecord(c.file, c.r, c.id))}\n`);
  else if (outputFormat === 'markdown') io.stdout.write(comment(cells, files.length));
  else {
    for (const c of cells.filter(x => !x.r.pass)) {
      io.stdout.write(`  ${verdictWord(c.r).padEnd(9)} ${c.file} · ${c.r.caseName} · ${c.r.model}\n`);
      for (const why of whyLines(c.r)) io.stdout.write(`            ${why}\n`);
    }
    io.stdout.write(summaryLine(results));
  }
  return results.every(r => r.pass) ? EXIT.ok : EXIT.service;
}

/** One pull-request comment for the shards of a run: the tally, then the cells that did not pass. */
function comment(cells: readonly Merged[], files: number): string {
  const results = cells.map(c => c.r);
  const failing = cells.filter(c => !c.r.pass);
  const lines = [
    MERGED_COMMENT_MARKER,
    '### Test cases',
    '',
    `${summaryLine(results).trim()} · merged from ${count(files, 'result file')}`,
  ];
  if (failing.length) {
    lines.push('', '| Verdict | File | Case | Model | Why |', '| :--- | :--- | :--- | :--- | :--- |');
    for (const c of failing.slice(0, MAX_ROWS)) {
      const why = (whyLines(c.r)[0] ?? '').replace(/^✗ /, '');
      const row = [
        verdictWord(c.r),
        markdownCode(c.file),
        markdownText(c.r.caseName),
        markdownCode(c.r.model),
        markdownText(why.length > 200 ? `${why.slice(0, 200)}…` : why),
      ];
      lines.push(`| ${row.join(' | ')} |`);
    }
    if (failing.length > MAX_ROWS)
      lines.push('', `…and ${count(failing.length - MAX_ROWS, 'more cell')} (the JUnit files list every one).`);
  }
  return `${lines.join('\n')}\n`;
}
