// Activation inside the real extension host. That it does not activate before a JSON or YAML file (or a
// request file in the workspace) is checked through the DOM, in a workspace without one
// (test/ui/activation.test.mjs): here the workspace holds request files from the start.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FORMER_COMMAND_IDS } from '../../src/vscode/platform/formerCommands';
import { api, closeEditors, EXTENSION_ID, openEditor, waitFor } from './helpers';

describe('activation (real extension host)', () => {
  afterEach(closeEditors);

  it('a workspace holding request files activates it, and an opened request file is checked', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, 'extension is installed');
    // workspaceContains:**/*.prompt.json: active without any file of ours having been opened by this test
    await waitFor('activation', () => ext.isActive);
    const a = await api();
    const { document: doc } = await openEditor('hello.prompt.json');
    const state = await waitFor('the check of the opened file', () => a.diagnostics.current(doc));
    assert.equal(state.version, doc.version);
  });

  it('every command id from before the one scheme is registered, beside the command it runs', async () => {
    await api();
    const registered = new Set(await vscode.commands.getCommands(true));
    const former = Object.entries(FORMER_COMMAND_IDS);
    assert.ok(former.length >= 29);
    for (const [id, runs] of former) {
      assert.ok(registered.has(id), `${id} is registered`);
      assert.ok(registered.has(runs), `${runs} is registered`);
    }
  });
});
