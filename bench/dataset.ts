// A dataset of a million rows (about 26 MB of CSV) read a row at a time and each row filled into a request, as `test`
// prepares a suite from data: the reader (UTF-8 checked, csv-parse, each record's line), the row as a case (promptfoo's
// columns), its case_id and the request filled with its vars (the request compiled once, placeholderFiller), against
// csv-parse alone on the same chunks. Run alone: `node out/bench/main.js dataset`.
import { parse } from 'csv-parse';
import { readDataset } from '../src/core/cases/dataset';
import { placeholderFiller } from '../src/core/cases/placeholders';
import { casesOfBatch } from '../src/core/cases/suite';
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

export async function datasetBench(figs: Figure[]): Promise<void> {
  const data = chunks();
  let rows = 0;
  figs.push(
    await ratioAsync(
      `a dataset of ${ROWS.toLocaleString('en-US')} rows: read, each row a case with its id, the request filled`,
      {
        name: 'csv-parse alone',
        run: async () => {
          const parser = parse({});
          let n = 0;
          const done = (async () => {
            for await (const _ of parser) n++;
          })();
          for (const c of data) if (!parser.write(c)) await new Promise(r => parser.once('drain', r));
          parser.end();
          await done;
          return n;
        },
      },
      {
        name: 'readDataset + case + case_id + fill',
        run: async () => {
          rows = 0;
          const fill = placeholderFiller(REQUEST);
          // as the suite's scan reads them: a batch's rows as cases with their ids, then each one's request
          for await (const batch of readDataset(data, 'csv'))
            for (const row of casesOfBatch(batch)[0]) {
              if (!row?.testCase) continue;
              fill(row.testCase.vars ?? {});
              rows++;
            }
        },
      },
      2,
      3,
    ),
  );
  figs.push({
    name: 'the same: rows read',
    value: rows.toLocaleString('en-US'),
    target: `= ${ROWS}`,
    ok: rows === ROWS,
  });
}
