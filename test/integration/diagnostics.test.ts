import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, workspaceUri, waitFor } from './helpers';

async function open(name: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(workspaceUri(name));
  await vscode.window.showTextDocument(doc);
  return doc;
}
const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter(d => d.source === 'Promptwright');

describe('request file diagnostics (real extension host)', () => {
  before(async () => { await api(); });

  it('a defective JSON file shows each problem at the expected line, with the spec rule as code', async () => {
    const doc = await open('defective.prompt.json');
    const diags = await waitFor('diagnostics', () => (ours(doc.uri).length >= 3 ? ours(doc.uri) : undefined));
    const at = (code: string) => diags.filter(d => d.code === code).map(d => `${d.range.start.line + 1}:${doc.getText(d.range)}`);
    assert.deepEqual(at('doc1§2.2-r5'), ['4:"temperature"', '5:"top_p"']);
    const bmp = diags.find(d => d.code === 'doc1§2.4')!;
    assert.equal(bmp.range.start.line + 1, 7);
    assert.equal(doc.getText(bmp.range), '"image/bmp"');
    assert.equal(bmp.severity, vscode.DiagnosticSeverity.Error);
  });

  it('the JSON language service adds no diagnostics of its own next to ours (the schema cannot fail)', async () => {
    const doc = await open('defective.prompt.json');
    await new Promise(r => setTimeout(r, 1500)); // give the JSON language server time to publish
    const others = vscode.languages.getDiagnostics(doc.uri).filter(d => d.source !== 'Promptwright');
    assert.deepEqual(others.map(d => `${d.source}: ${d.message}`), []);
  });

  it('a quick fix applied through the code action changes the document (remove top_p)', async () => {
    const doc = await open('defective.prompt.json');
    const diag = await waitFor('top_p diagnostic', () => ours(doc.uri).find(d => d.code === 'doc1§2.2-r5' && doc.getText(d.range) === '"top_p"'));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, diag.range, vscode.CodeActionKind.QuickFix.value);
    const remove = actions.find(a => a.title === 'Remove top_p (keep temperature)');
    assert.ok(remove?.edit, `actions: ${actions.map(a => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(remove.edit));
    assert.equal(doc.getText().includes('top_p'), false);
    assert.ok(doc.getText().includes('"temperature": 0.7'));
    await waitFor('diagnostic gone', () => !ours(doc.uri).some(d => d.code === 'doc1§2.2-r5'));
    // undoable: one undo restores the file
    await vscode.commands.executeCommand('undo');
    assert.ok(doc.getText().includes('"top_p": 0.9'));
  });

  it('YAML: an effort the model lacks is fixed to the nearest supported one, keeping comments', async () => {
    const doc = await open('effort.prompt.yaml');
    const diag = await waitFor('effort diagnostic', () => ours(doc.uri).find(d => d.code === 'doc1§4.3'));
    assert.equal(diag.range.start.line + 1, 5);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, diag.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find(a => a.title === 'Use effort "high"');
    assert.ok(fix?.edit);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.ok(doc.getText().includes('  effort: high\n'));
    assert.ok(doc.getText().includes('# a 1M-context model'));
  });

  it('re-validates as the author types, and clears when the problem is fixed', async () => {
    const doc = await open('hello.prompt.json');
    const editor = vscode.window.activeTextEditor!;
    const i = doc.getText().indexOf('"user"');
    await editor.edit(e => e.replace(new vscode.Range(doc.positionAt(i), doc.positionAt(i + 6)), '"system"'));
    const d = await waitFor('role diagnostic', () => ours(doc.uri).find(x => x.code === 'doc1§2.2'));
    assert.equal(doc.getText(d.range), '"system"');
    await vscode.commands.executeCommand('undo');
    await waitFor('cleared', () => ours(doc.uri).length === 0);
  });

  it('completion inside a content block comes from the generated schema (per block type)', async () => {
    const doc = await open('defective.prompt.json');
    const line = doc.lineAt(6).text;
    const pos = new vscode.Position(6, line.indexOf('"source"'));
    const list = await waitFor('completions', async () => {
      const l = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, pos);
      return l.items.length ? l : undefined;
    });
    const labels = list.items.map(i => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.some(l => l.includes('cache_control')), labels.join(','));
    // `citations` belongs to text blocks, not images: completion follows the block's type
    assert.ok(!labels.some(l => l.includes('citations')), labels.join(','));
  });

  it('"New Request File" writes a valid template', async () => {
    const p = vscode.commands.executeCommand<vscode.Uri | undefined>('promptwright.newRequestFile');
    await new Promise(r => setTimeout(r, 300));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const uri = await p;
    assert.ok(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.deepEqual(JSON.parse(doc.getText()).model, 'model-opus-4-7');
    await new Promise(r => setTimeout(r, 500));
    assert.deepEqual(ours(uri), []);
  });
});
