import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, workspaceUri, waitFor } from './helpers';

describe('activation (real extension host)', () => {
  it('activates when a request file is opened, and not before', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, 'extension is installed');
    // the test workspace holds *.prompt.json files, so workspaceContains activates it at startup;
    // opening one must leave it active
    const doc = await vscode.workspace.openTextDocument(workspaceUri('hello.prompt.json'));
    await vscode.window.showTextDocument(doc);
    await waitFor('activation', () => ext.isActive);
    assert.equal(ext.isActive, true);
  });

  it('contributes the Show Log command and it runs', async () => {
    const cmds = await vscode.commands.getCommands(true);
    assert.ok(cmds.includes('promptwright.showLog'));
    await vscode.commands.executeCommand('promptwright.showLog');
  });

  it('runs on a Node 22+ extension host', () => {
    const major = Number(process.versions.node.split('.')[0]);
    assert.ok(major >= 22, `extension host runs Node ${process.version}`);
  });
});
