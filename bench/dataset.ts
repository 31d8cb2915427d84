// A dataset of a million rows (about 26 MB of CSV) read a row at a time and each row filled into a request, as `test`
// prepares a suite from data, against csv-parse alone on the same chunks. Two figures:
// - reading and filling (#43's figure): the reader (UTF-8 checked, csv-parse, each record's line), the row as a case
//   (promptfoo's columns) and the request filled with its vars (the request compiled once, placeholderFiller);
// - all that `test`'s scan does with a row: the same, and each case's case_id (suite.ts's casesOfBatch). An id is a
//   SHA-256 of the case's content, one call of node:crypto a row that costs 300 to 600 ns however the text is made
//   (MD5 and SHA-1 cost the same: the call is the cost), a third of the time of csv-parse itself; so this figure's
//   floor is csv-parse and a SHA-256 of each record's text.
// Each run is a million rows, so few are taken: three of each to warm, then five in turns. Run alone:
// `node out/bench/main.js dataset`.
import { hash } from 'node:crypto';
import { parse } from 'csv-parse';
import { readDataset, type DatasetItem } from '../src/core/cases/dataset';
import type { RowCase } from '../src/core/cases/datasetRows';
import { placeholderFiller } from '../src/core/cases/placeholders';
import { casesOfBatch, rowCasesOf } from '../src/core/cases/suite';
import { ratioAsync, type Figure } from './bench';

const ROWS = 1_000_000;

/** The file, as the 64 KB chunks a read stream hands out. */
function chunks(): Uint8Array[] {
  const rows: string[] = ['word,__expected\n'];
  for (let i = 0; i < ROWS; i++) rows.push(`w${i},contains: w${i}\n`);
  const bytes = Buffer.from(rows.join(''));
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 65_536) out.push(bytes.subarray(i, i + 65_536));
  return out;
}

const REQUEST = {
  model: 'model-haiku-4-5',
  max_tokens: 50,
  system: 'You answer in one word.',
  messages: [{ role: 'user', content: 'Say {{word}}' }],
};

/** csv-parse's stream fed the chunks, each record handed to `each`; the number of records. */
async function csvParse(data: Uint8Array[], each: (record: string[]) => unknown): Promise<number> {
  const parser = parse({});
  let n = 0;
  const done = (async () => {
    for await (const record of parser) {
      each(record as string[]);
      n++;
    }
  })();
  for (const c of data) if (!parser.write(c)) await new Promise(r => parser.once('drain', r));
  parser.end();
  await done;
  return n;
}

/** Reads the dataset, each batch's rows made cases by `cases`, and fills the request with each one's vars. */
async function readAndFill(
  data: Uint8Array[],
  cases: (batch: readonly DatasetItem[]) => readonly (RowCase | undefined)[],
): Promise<number> {
  let rows = 0;
  const fill = placeholderFiller(REQUEST);
  for await (const batch of readDataset(data, 'csv'))
    for (const row of cases(batch)) {
      if (!row?.testCase) continue;
      fill(row.testCase.vars ?? {});
      rows++;
    }
  return rows;
}

export async function datasetBench(figs: Figure[]): Promise<void> {
  const data = chunks();
  const read = { filled: 0, withIds: 0 };
  const rows = `a dataset of ${ROWS.toLocaleString('en-US')} rows`;
  figs.push(
    await ratioAsync(
      `${rows}: read, each row a case, the request filled`,
      { name: 'csv-parse alone', run: () => csvParse(data, () => undefined) },
      { name: 'readDataset + case + fill', run: async () => (read.filled = await readAndFill(data, rowCasesOf)) },
      2,
      5,
      3,
    ),
  );
  figs.push(
    await ratioAsync(
      `${rows}: the same, and each case's case_id`,
      { name: 'csv-parse and a SHA-256 a record', run: () => csvParse(data, r => hash('sha256', r.join(','))) },
      {
        name: 'readDataset + case + case_id + fill',
        run: async () => (read.withIds = await readAndFill(data, batch => casesOfBatch(batch)[0])),
      },
      2,
      5,
      3,
    ),
  );
  figs.push({
    name: 'the same: rows read',
    value: `${read.filled.toLocaleString('en-US')}, ${read.withIds.toLocaleString('en-US')}`,
    target: `= ${ROWS} each`,
    ok: read.filled === ROWS && read.withIds === ROWS,
  });
}
