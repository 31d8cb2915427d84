// No dead ends: Send, Count Tokens or Token Breakdown with no service address or no key ask for what is
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

  it('Count Tokens with the demo chosen counts with it', async () => {
    const a = await api();
    a.api.prompts = scripted(['$(beaker) Use the offline demo']);
    await openEditor('hello.prompt.json');
    await countShownAfter(() => vscode.commands.executeCommand('promptwright.countTokens'));
  });
});
