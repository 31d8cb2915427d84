// Activation inside the real extension host. That it does not activate before a JSON or YAML file (or a
// request file in the workspace) is checked through the DOM, in a workspace without one
// (test/ui/activation.test.mjs): here the workspace holds request files from the start.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
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
});
