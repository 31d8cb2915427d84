// A case file's dataset in the real extension host: its problems on the dataset file at their line and column (a
// ragged row, a placeholder no column fills, one warning for a column no placeholder uses), checked again as the
// dataset is typed in an editor; Run Sample… running exactly the rows `test --sample N --seed S` chooses.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { Chooser } from '../../src/core/cases/choose';
import { scanSuite } from '../../src/core/cases/suite';
import { api, closeEditors, endCaseRuns, useFake, waitFor, workspaceUri } from './helpers';

const DIR = 'cases-dataset';
const uri = (name: string) => workspaceUri(DIR, name);
const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? d.code.value : d.code);
const said = (u: vscode.Uri) =>
  vscode.languages
    .getDiagnostics(u)
    .map(d => `${d.range.start.line + 1}:${d.range.start.character + 1} ${codeOf(d)}`)
    .sort();

describe('a case file’s dataset (real extension host)', () => {
  before(() => {
    fs.mkdirSync(workspaceUri(DIR).fsPath, { recursive: true });
    fs.writeFileSync(
      uri('say.prompt.yaml').fsPath,
      'model: model-haiku-4-5\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "{{word}} {{tone}}"\n',
    );
    fs.writeFileSync(uri('words.csv').fsPath, 'word,extra\nhello,x\nragged\nbye,y\n');
    fs.writeFileSync(uri('say.cases.yaml').fsPath, 'request: say.prompt.yaml\ndataset: words.csv\n');
  });
  afterEach(closeEditors);
  after(() => fs.rmSync(workspaceUri(DIR).fsPath, { recursive: true, force: true }));

  it('its problems land on the dataset at their line and column, and follow its edits as they are typed', async () => {
    const f = await (await api()).features();
    await f.caseDiagnostics.checkNow(uri('say.cases.yaml'));
    const data = uri('words.csv');
    await waitFor('the dataset’s diagnostics', () => said(data).length === 3);
    assert.deepEqual(said(data), ['1:1 undefined-placeholder', '1:6 unused-column', '3:1 dataset-syntax']);
    const unused = vscode.languages.getDiagnostics(data).find(d => codeOf(d) === 'unused-column')!;
    assert.equal(unused.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(unused.message, 'The request has no {{extra}}: the column "extra" is not used.');
    // typed in an editor, unsaved: the ragged row mended, the missing column added
    const doc = await vscode.workspace.openTextDocument(data);
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(data, new vscode.Range(0, 0, doc.lineCount, 0), 'word,tone\nhello,warm\nragged,dry\nbye,cold\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor('the edited dataset clean', () => said(data).length === 0, 15_000);
  });
});

describe('Run Sample… on a dataset’s rows (real extension host)', () => {
  const SAMPLE = 'cases-sample';
  const at = (name: string) => workspaceUri(SAMPLE, name);
  const holder = useFake({});
  before(() => {
    fs.mkdirSync(workspaceUri(SAMPLE).fsPath, { recursive: true });
    fs.writeFileSync(
      at('say.prompt.yaml').fsPath,
      'model: model-haiku-4-5\nmax_tokens: 50\nmessages:\n  - role: user\n    content: "Say {{word}}"\n',
    );
    const rows = Array.from({ length: 40 }, (_, i) => `w${i + 1}`);
    fs.writeFileSync(at('words.csv').fsPath, ['word', ...rows, ''].join('\n'));
    fs.writeFileSync(at('say.cases.yaml').fsPath, 'request: say.prompt.yaml\ndataset: words.csv\n');
  });
  after(() => endCaseRuns(SAMPLE));

  it('runs exactly N rows, those `test --sample N --seed S` chooses, the same ones for the same seed', async () => {
    const f = await (await api()).features();
    const caseFile = at('say.cases.yaml');
    // the cases the CLI's sample chooses: the same Chooser over the same stable ids
    const all = await scanSuite({
      listed: [],
      dataset: { chunks: [fs.readFileSync(at('words.csv').fsPath, 'utf8')], format: 'csv' },
      keep: true,
    });
    const chooser = new Chooser<string>({ sample: 7, seed: 42 });
    for (const c of all.chosen) chooser.offer(c.name, c.id, c.name);
    const expected = chooser.chosen(name => all.chosen.find(c => c.name === name)!.id).sort();
    const sent = () => holder.fake.requests.filter(r => r.method === 'POST' && r.path === '/v1/messages');
    const words = () => sent().map(r => JSON.stringify(r.body).match(/Say (w\d+)/)![1]!);

    holder.fake.clear();
    assert.deepEqual(await vscode.commands.executeCommand('promptwright.runCasesSample', caseFile, '7 42'), {
      n: 7,
      seed: 42,
    });
    assert.equal(sent().length, 7, 'exactly N requests');
    const grid = f.cases.grid()!;
    assert.equal(grid.cases.length, 40, 'the grid shows every row');
    const ran = grid.cells.filter(c => c.status !== 'queued');
    assert.equal(ran.length, 7);
    assert.deepEqual(ran.map(c => c.caseName).sort(), expected);
    // each row's own value was sent: row N (its data line) holds w(N-1)
    assert.deepEqual(words().sort(), expected.map(n => `w${Number(n.replace('row ', '')) - 1}`).sort());
    const first = words().sort();

    // the same seed: the same rows
    holder.fake.clear();
    await vscode.commands.executeCommand('promptwright.runCasesSample', caseFile, '7 42');
    assert.deepEqual(words().sort(), first);
    // a number out of range runs nothing
    holder.fake.clear();
    assert.equal(await vscode.commands.executeCommand('promptwright.runCasesSample', caseFile, '41'), undefined);
    assert.equal(sent().length, 0);
  });
});
