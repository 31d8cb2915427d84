// A case file's dataset in the Test Explorer, in the real extension host against the fake (it answers "Hello! You
// said: <the question>"): the dataset one item whose rows are listed a page at a time as it is expanded, each row
// at its lines in the dataset file (the gutter, Go to Test); a row run alone, the dataset's item running every row
// (listed or not) and saying how many passed; and a grid run of 10,000 rows making no item per row.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { parseCaseFile } from '../../src/core/cases/caseFile';
import { cellsOf } from '../../src/core/cases/runner';
import { scanSuite } from '../../src/core/cases/suite';
import type { Features } from '../../src/features';
import { api, endCaseRuns, useFake, waitFor, workspaceUri } from './helpers';

const DIR = 'cases-dataset-tests';
const HAIKU = 'model-haiku-4-5';
const at = (name: string) => workspaceUri(DIR, name);

/** How many items an item is, with those under it. */
function size(item: vscode.TestItem): number {
  let n = 1;
  item.children.forEach(c => (n += size(c)));
  return n;
}

function labels(item: vscode.TestItem): string[] {
  const kids: vscode.TestItem[] = [];
  item.children.forEach(c => kids.push(c));
  return kids.sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label)).map(k => k.label);
}

describe('a case file’s dataset in the Test Explorer (real extension host)', () => {
  const holder = useFake({});
  let f: Features;

  before(async () => {
    f = await (await api()).features();
    fs.mkdirSync(workspaceUri(DIR).fsPath, { recursive: true });
    fs.writeFileSync(
      at('say.prompt.yaml').fsPath,
      'model: model-haiku-4-5\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "Say {{word}}"\n',
    );
    // 250 rows, the third over two lines
    const words = Array.from({ length: 250 }, (_, i) => (i === 2 ? '"two\nlines"' : `w${i + 1}`));
    fs.writeFileSync(at('words.csv').fsPath, ['word', ...words, ''].join('\n'));
    fs.writeFileSync(
      at('paged.cases.yaml').fsPath,
      'request: say.prompt.yaml\ndataset: words.csv\ncases:\n  - name: listed\n    vars: { word: hi }\n',
    );
    // 12 rows, one expecting what the fake does not say
    const few = Array.from({ length: 12 }, (_, i) => `v${i + 1},${i === 6 ? 'contains: nope' : 'contains: You said'}`);
    fs.writeFileSync(at('few.csv').fsPath, ['word,__expected', ...few, ''].join('\n'));
    fs.writeFileSync(at('few.cases.yaml').fsPath, 'request: say.prompt.yaml\ndataset: few.csv\n');
    const big = Array.from({ length: 10_000 }, (_, i) => `w${i + 1}`);
    fs.writeFileSync(at('big.csv').fsPath, ['word', ...big, ''].join('\n'));
    fs.writeFileSync(at('big.cases.yaml').fsPath, 'request: say.prompt.yaml\ndataset: big.csv\n');
  });
  after(() => endCaseRuns(DIR));

  /** A case file's item and its dataset's, as the Test Explorer first sees them. */
  async function items(name: string) {
    const u = at(name);
    await f.caseDiagnostics.checkNow(u);
    await f.casesTests.controller.resolveHandler?.(undefined);
    const file = await waitFor(`the item of ${name}`, () => f.casesTests.controller.items.get(u.toString()));
    const dataset = await waitFor('its dataset item', () => f.casesTests.datasetItem(u));
    return { file, dataset };
  }

  const resolve = (item: vscode.TestItem) => f.casesTests.controller.resolveHandler!(item);

  it('lists a dataset’s rows a page at a time as it is expanded, each at its lines in the dataset file', async () => {
    const { file, dataset } = await items('paged.cases.yaml');
    assert.deepEqual(labels(file), ['listed', 'words.csv']);
    assert.equal(dataset.uri?.toString(), at('words.csv').toString());
    assert.equal(dataset.canResolveChildren, true);
    assert.equal(dataset.children.size, 0, 'nothing is read before it is expanded');

    await resolve(dataset);
    let rows = labels(dataset);
    assert.equal(rows.length, 101);
    assert.deepEqual(rows.slice(0, 4), ['row 2', 'row 3', 'row 4', 'row 6']);
    assert.equal(rows.at(-1), 'More rows…');
    assert.equal(dataset.description, '100 rows listed, more when expanded');
    // a row: at its lines in the dataset (the quoted value's row over two), its models under it
    const row = (name: string) => dataset.children.get(name)!;
    assert.equal(row('row 2').uri?.toString(), at('words.csv').toString());
    assert.deepEqual([row('row 2').range?.start.line, row('row 2').range?.end.line], [1, 1]);
    assert.deepEqual([row('row 4').range?.start.line, row('row 4').range?.end.line], [3, 4]);
    assert.deepEqual(labels(row('row 4')), [HAIKU]);
    assert.equal(row('row 4').description, 'word=two lines');

    // "More rows…" expanded: the next page, then the last
    let more = dataset.children.get(firstMore(dataset))!;
    await resolve(more);
    rows = labels(dataset);
    assert.equal(rows.length, 201);
    more = dataset.children.get(firstMore(dataset))!;
    await resolve(more);
    rows = labels(dataset);
    assert.equal(rows.length, 250, 'every row, no More');
    assert.equal(rows.at(-1), 'row 252');
    assert.equal(dataset.description, '250 rows');

    // the dataset changes: what was listed is listed again, as it now is
    fs.writeFileSync(at('words.csv').fsPath, 'word,__description\nhi,first\nyo,second\n');
    await f.caseDiagnostics.checkNow(at('paged.cases.yaml'));
    await waitFor('the rows listed again', () => labels(dataset).join() === 'first,second');
    assert.deepEqual(labels(row('second')), [HAIKU]);
    assert.equal(row('second').range?.start.line, 2);
  });

  it('runs one row from its item; the dataset’s item runs every row and says how many passed', async () => {
    const { dataset } = await items('few.cases.yaml');
    const sent = () => holder.fake.requests.filter(r => r.method === 'POST' && r.path === '/v1/messages');
    const token = new vscode.CancellationTokenSource().token;

    // the dataset's item, its rows not listed: every row runs
    holder.fake.clear();
    await f.casesTests.runProfile.runHandler(new vscode.TestRunRequest([dataset]), token);
    assert.equal(sent().length, 12);
    const said = f.casesTests.reported()[`${DIR}/few.cases.yaml › dataset`];
    assert.equal(said?.state, 'failed');
    assert.equal(said.messages[0]?.message, "11 of 12 rows' cells passed; not: row 8 on model-haiku-4-5 (failed)");

    // a row, listed: it alone runs, its failure at its line in the dataset
    await resolve(dataset);
    holder.fake.clear();
    const row = dataset.children.get('row 8')!;
    await f.casesTests.runProfile.runHandler(new vscode.TestRunRequest([row]), token);
    assert.equal(sent().length, 1);
    assert.match(JSON.stringify(sent()[0]!.body), /Say v7/);
    const cell = f.casesTests.reported()[`${DIR}/few.cases.yaml › row 8 › ${HAIKU}`];
    assert.equal(cell?.state, 'failed');
    assert.equal(cell.messages[0]?.line, 7, 'at the row’s line in few.csv');
  });

  it('a grid run of 10,000 rows makes no item per row: rows are items only when listed', async () => {
    const { file, dataset } = await items('big.cases.yaml');
    const caseUri = at('big.cases.yaml');
    const text = fs.readFileSync(caseUri.fsPath, 'utf8');
    const parsed = parseCaseFile(text, 'yaml');
    const scan = await scanSuite({
      listed: [],
      dataset: { chunks: [fs.readFileSync(at('big.csv').fsPath, 'utf8')], format: 'csv' },
      keep: true,
    });
    const caseFile = { ...parsed.file!, cases: scan.chosen };
    const cells = cellsOf(caseFile, HAIKU);
    assert.equal(cells.length, 10_000);
    const times: number[] = [];
    for (let k = 0; k < 3; k++) {
      const reporter = f.casesTests.forRun(caseUri, () => {})!;
      const t0 = performance.now();
      reporter.begin({ caseUri, file: caseFile, text, locate: parsed.locate, requestModel: HAIKU, cells });
      for (const c of cells) {
        reporter.started(c);
        reporter.ended({ ...c, status: 'passed', text: 'ok', assertions: [] });
      }
      reporter.end();
      times.push(performance.now() - t0);
    }
    console.log(`      a 10,000-row run told to the Test Explorer: ${times.map(t => t.toFixed(0)).join(', ')} ms`);
    assert.equal(size(file), 2, 'the file and its dataset');
    assert.equal(f.casesTests.reported()[`${DIR}/big.cases.yaml › dataset`]?.state, 'passed');
    await resolve(dataset);
    assert.equal(size(file), 2 + 100 * 2 + 1, 'a page of rows, each with its model, and More');
  });
});

/** The id of a dataset item's "More rows…" item. */
function firstMore(dataset: vscode.TestItem): string {
  let id = '';
  dataset.children.forEach(c => {
    if (c.label === 'More rows…') id = c.id;
  });
  return id;
}
