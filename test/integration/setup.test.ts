// No dead ends: Send, Count Tokens, Token Breakdown or Run Cases with no service address or no key ask for what is
// missing, right there, with the offline demo first; never a failed run naming an internal error class.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { vscodePrompts } from '../../src/vscode/platform/prompts';
import {
  api,
  closeEditors,
  countShownAfter,
  openEditor,
  restoreKeysAfterEach,
  scripted,
  setKey,
  setSetting,
  workspaceUri,
} from './helpers';

describe('no service address and no key (real extension host)', () => {
  let restore: (() => Promise<void>) | undefined;
  afterEach(async () => {
    const a = await api();
    a.api.prompts = vscodePrompts;
    await (await a.features()).demo.stop();
    await restore?.();
    await closeEditors();
  });
  // the keys are read before the test clears the API key, and put back once the demo's own are gone
  restoreKeysAfterEach();
  beforeEach(async () => {
    const a = await api();
    restore = await setSetting('baseUrl', '');
    await (await a.features()).demo.stop();
    await setKey('api', undefined);
  });

  it('Send asks, offering the offline demo first; choosing it sends the request to the demo', async () => {
    const a = await api();
    const f = await a.features();
    const seen: string[] = [];
    const errors: string[] = [];
    const listening = a.api.onDidShowError(t => errors.push(t));
    a.api.prompts = scripted(['$(beaker) Use the offline demo'], seen);
    try {
      await openEditor('hello.prompt.json');
      await vscode.commands.executeCommand('promptwright.sendRequest');
      assert.equal(
        seen[0],
        'pick: Send Request needs a service address and an API key: ' +
          '$(beaker) Use the offline demo|$(globe) Enter the service address…|$(key) Set API Key…',
      );
      const run = f.runner.current!;
      assert.equal(run.view.outcome, 'done');
      assert.match(JSON.stringify(run.message?.content), /Offline demo: no model ran/);
      assert.deepEqual(errors, []);
    } finally {
      listening.dispose();
    }
  });

  it('the address and the key, asked for in turn, are what the request then uses', async () => {
    const a = await api();
    const f = await a.features();
    a.api.prompts = scripted(['$(globe) Enter the service address…', 'https://api.example.invalid/v1', 'sk-typed-key']);
    // the address is not reachable: what matters is that both were asked for, stored and used
    const before = f.runner.current;
    await openEditor('hello.prompt.json');
    await vscode.commands.executeCommand('promptwright.sendRequest');
    assert.equal(vscode.workspace.getConfiguration('promptwright').get('baseUrl'), 'https://api.example.invalid');
    assert.equal(await a.keys.get('api'), 'sk-typed-key');
    assert.notEqual(f.runner.current, before, 'the request was sent');
    // the panel names the failure in words, not by the class that carries it ("ConnectionError")
    assert.equal(f.runner.current?.view.error?.type, 'connection_error');
  });

  it('cancelling the question sends nothing and shows no error', async () => {
    const a = await api();
    const f = await a.features();
    const before = f.runner.current;
    const errors: string[] = [];
    const listening = a.api.onDidShowError(t => errors.push(t));
    a.api.prompts = scripted([undefined, undefined]);
    try {
      await openEditor('hello.prompt.json');
      await vscode.commands.executeCommand('promptwright.sendRequest');
      await vscode.commands.executeCommand('promptwright.countTokens');
      assert.equal(f.runner.current, before);
      assert.deepEqual(errors, []);
    } finally {
      listening.dispose();
    }
  });

  it('Run Cases asks as well; with the offline demo chosen, every cell runs', async () => {
    const a = await api();
    const f = await a.features();
    const dir = workspaceUri('setup-suite');
    await vscode.workspace.fs.createDirectory(dir);
    const write = (name: string, text: string) =>
      vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, name), new TextEncoder().encode(text));
    await write(
      'ask.prompt.yaml',
      'model: model-opus-4-7\nmax_tokens: 64\nmessages:\n  - role: user\n    content: Hi\n',
    );
    await write(
      'ask.cases.yaml',
      'request: ask.prompt.yaml\ncases:\n  - name: hello\n    assert:\n      - contains: Offline demo\n',
    );
    const seen: string[] = [];
    a.api.prompts = scripted(['$(beaker) Use the offline demo'], seen);
    try {
      await vscode.commands.executeCommand('promptwright.runCases', vscode.Uri.joinPath(dir, 'ask.cases.yaml'));
      assert.match(
        seen[0] ?? '',
        /^pick: Run Cases needs a service address and an API key: \$\(beaker\) Use the offline demo/,
      );
      const cells = f.cases.grid()?.cells ?? [];
      assert.deepEqual(
        cells.map(c => `${c.caseName} ${c.model}: ${c.status}`),
        ['hello model-opus-4-7: passed'],
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(dir, { recursive: true });
      await vscode.workspace.fs
        .delete(workspaceUri('.promptwright', 'results', 'setup-suite'), { recursive: true })
        .then(undefined, () => undefined);
    }
  });

  it('Count Tokens with the demo chosen counts with it', async () => {
    const a = await api();
    a.api.prompts = scripted(['$(beaker) Use the offline demo']);
    await openEditor('hello.prompt.json');
    await countShownAfter(() => vscode.commands.executeCommand('promptwright.countTokens'));
  });
});
