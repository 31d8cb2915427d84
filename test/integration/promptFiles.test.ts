// The Prompts view: the workspace's request, count and case files, each with its last count and the outcome
// of its last run; Send from a node runs that file.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PromptFileNode } from '../../src/vscode/promptFiles/promptFilesTree';
import { api, closeEditors, countShownAfter, useFake, workspaceUri, waitFor } from './helpers';

describe('Prompts view (real extension host)', () => {
  const env = useFake({ apiKey: 'sk-prompts-test' });
  afterEach(closeEditors);

  async function nodes(): Promise<PromptFileNode[]> {
    const f = await (await api()).features();
    f.promptFiles.refresh();
    return f.promptFiles.getChildren();
  }
  const byName = (list: PromptFileNode[], name: string) => list.find(n => n.uri.path.endsWith(`/${name}`));

  it("lists the workspace's request, count and case files, each by its kind", async () => {
    const uri = workspaceUri('listed.cases.yaml');
    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode('request: hello.prompt.json\ncases:\n  - name: a\n    assert: [{ contains: x }]\n'),
    );
    try {
      const list = await waitFor('the new case file listed', async () => {
        const l = await nodes();
        return byName(l, 'listed.cases.yaml') ? l : undefined;
      });
      assert.equal(byName(list, 'hello.prompt.json')?.kind, 'request');
      assert.equal(byName(list, 'hello.count.json')?.kind, 'count');
      assert.equal(byName(list, 'listed.cases.yaml')?.kind, 'cases');
      const f = await (await api()).features();
      const item = f.promptFiles.getTreeItem(byName(list, 'listed.cases.yaml')!);
      assert.equal(item.contextValue, 'promptFile.cases');
      assert.equal(item.command?.command, 'vscode.open');
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('Send from a node runs that file; the node then shows its count and how its run ended', async () => {
    const a = await api();
    const f = await a.features();
    const name = `prompts-${Date.now()}.prompt.json`;
    const uri = workspaceUri(name);
    const body = { model: 'model-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content: `Hi ${name}` }] };
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(body, null, 2)));
    try {
      // counted while it is the active editor
      await countShownAfter(
        () => vscode.window.showTextDocument(uri),
        s => !s.cached,
      );
      const node = await waitFor('its node', async () => byName(await nodes(), name));
      await vscode.commands.executeCommand('promptwright.sendRequest', node);
      assert.equal(f.runner.current?.view.file, name);
      assert.equal(f.runner.current?.view.outcome, 'done');
      assert.ok(env.fake.requests.some(r => r.path === '/v1/messages'));
      const description = String(f.promptFiles.getTreeItem(node).description);
      assert.match(description, /^\d[\d,]* tokens · ✓ end_turn$/);
    } finally {
      await closeEditors();
      await vscode.workspace.fs.delete(uri);
    }
  });
});
