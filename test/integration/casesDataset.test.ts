// A case file's dataset in the real extension host: its problems on the dataset file at their line and column (a
// ragged row, a placeholder no column fills, one warning for a column no placeholder uses), checked again as the
// dataset is typed in an editor.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { api, closeEditors, waitFor, workspaceUri } from './helpers';

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
