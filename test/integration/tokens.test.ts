import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Fake } from '../fake/server';
import { api, setSetting, useFake, workspaceUri, waitFor } from './helpers';

const counts = (fake: Fake) => fake.requests.filter(r => r.path === '/v1/messages/count_tokens').length;

describe('live token count in the status bar (real extension host)', () => {
  // a debounce well above the 30 ms between keystrokes, so a loaded CI machine cannot split the burst
  const env = useFake({ apiKey: 'sk-tokens-test' }, { 'tokenCount.debounceMs': 1000 });
  let fake: Fake;
  before(() => {
    fake = env.fake;
  });

  it('counts the active request file, sending only the fields count_tokens takes', async () => {
    const a = await api();
    const doc = await vscode.workspace.openTextDocument(workspaceUri('hello.prompt.json'));
    await vscode.window.showTextDocument(doc);
    // this suite's fake is new (a new base URL clears the cache), so the count comes from a call to it
    await waitFor('a count_tokens call', () => fake.requests.some(r => r.path === '/v1/messages/count_tokens'), 10000);
    const s = await waitFor(
      'a count',
      () => (a.tokens.state.kind === 'count' && !a.tokens.state.cached ? a.tokens.state : undefined),
      10000,
    );
    assert.ok(s.tokens > 0);
    assert.match(a.tokens.item.text, new RegExp(`${s.tokens} tokens`));
    const sent = fake.requests.filter(r => r.path === '/v1/messages/count_tokens').at(-1)!;
    assert.deepEqual(Object.keys(sent.body as object).sort(), ['messages', 'model']);
  });

  it('a burst of keystrokes makes one call; undo costs none (cache)', async () => {
    const a = await api();
    const ed = vscode.window.activeTextEditor!;
    const doc = ed.document;
    await waitFor('settled', () => a.tokens.state.kind === 'count');
    const before = counts(fake);
    const at = doc.getText().indexOf('Hello') + 5;
    for (let i = 0; i < 20; i++) {
      await ed.edit(e => e.insert(doc.positionAt(at + i), 'x'));
      await new Promise(r => setTimeout(r, 30));
    }
    await waitFor(
      'count after burst',
      () => a.tokens.state.kind === 'count' && !a.tokens.state.cached && counts(fake) > before,
      10000,
    );
    await new Promise(r => setTimeout(r, 2000));
    assert.equal(counts(fake) - before, 1, 'one call for the burst');
    const withX = (a.tokens.state as { tokens: number }).tokens;
    for (let i = 0; i < 20; i++) await vscode.commands.executeCommand('undo');
    await waitFor('cached count', () => a.tokens.state.kind === 'count' && a.tokens.state.cached, 10000);
    assert.equal(counts(fake) - before, 1, 'undo made no call');
    assert.notEqual((a.tokens.state as { tokens: number }).tokens, withX);
  });

  it('syntax errors keep the last count, marked stale', async () => {
    const a = await api();
    const ed = vscode.window.activeTextEditor!;
    await ed.edit(e => e.insert(new vscode.Position(0, 0), '{'));
    await waitFor('stale', () => a.tokens.state.kind === 'count' && a.tokens.state.stale, 8000);
    assert.match(a.tokens.item.text, /\(stale\)/);
    await vscode.commands.executeCommand('undo');
  });

  it('an error shows error.type and request-id in the tooltip; a 429 shows the wait', async () => {
    const a = await api();
    fake.fail({ status: 400, errorType: 'invalid_request_error', message: 'messages: bad', path: '/count_tokens' });
    const ed = vscode.window.activeTextEditor!;
    await ed.edit(e => e.insert(ed.document.positionAt(ed.document.getText().indexOf('Hello')), 'Q'));
    const s = await waitFor('error state', () => (a.tokens.state.kind === 'error' ? a.tokens.state : undefined), 8000);
    assert.equal(s.type, 'invalid_request_error');
    const tip = (a.tokens.item.tooltip as vscode.MarkdownString).value;
    assert.match(tip, /invalid_request_error/);
    assert.match(tip, /request-id `req_fake_/);
    fake.fail({ status: 429, headers: { 'retry-after': '1' }, path: '/count_tokens' });
    await ed.edit(e => e.insert(ed.document.positionAt(ed.document.getText().indexOf('Hello')), 'R'));
    await waitFor('retrying state', () => a.tokens.state.kind === 'retrying', 8000);
    assert.match(a.tokens.item.text, /retrying in 1 s/);
    await waitFor('count after retry', () => a.tokens.state.kind === 'count', 8000);
    await vscode.commands.executeCommand('undo');
    await vscode.commands.executeCommand('undo');
  });

  it('with live counting off, an estimate marked ≈; "Count Tokens" sends once', async () => {
    const a = await api();
    const restoreLive = await setSetting('tokenCount.live', false);
    try {
      await waitFor('estimate', () => a.tokens.state.kind === 'estimate', 8000);
      assert.match(a.tokens.item.text, /≈ \d+ tokens/);
      const before = counts(fake);
      await vscode.commands.executeCommand('promptwright.countTokens');
      await waitFor('explicit count', () => a.tokens.state.kind === 'count', 8000);
      assert.ok(counts(fake) - before <= 1);
    } finally {
      await restoreLive();
    }
  });

  it('without a key: an estimate and a call to action, not an error loop', async () => {
    const a = await api();
    await a.keys.clear('api');
    await waitFor('estimate', () => a.tokens.state.kind === 'estimate' && a.tokens.state.reason === 'no-key', 8000);
    assert.match((a.tokens.item.tooltip as vscode.MarkdownString).value, /Set API Key/);
    await a.keys.set('api', fake.apiKey);
  });

  it('a count_tokens file (*.count.json): no error for its missing max_tokens, counted, and not sendable', async () => {
    const a = await api();
    const doc = await vscode.workspace.openTextDocument(workspaceUri('hello.count.json'));
    await vscode.window.showTextDocument(doc);
    const state = await waitFor('its check', () => a.diagnostics.current(doc));
    assert.deepEqual(
      state.validation.problems.filter(p => p.severity === 'error').map(p => p.message),
      [],
    );
    const before = counts(fake);
    await waitFor('a count of it', () =>
      a.tokens.state.kind === 'count' && counts(fake) > before ? a.tokens.state : undefined,
    );
    const sent = fake.requests.filter(r => r.path === '/v1/messages/count_tokens').at(-1)!;
    assert.deepEqual(Object.keys(sent.body as object).sort(), ['messages', 'model', 'system']);
    // Send refuses it: no request to /v1/messages, no run
    const f = await a.features();
    const lastRun = f.runner.current;
    await vscode.commands.executeCommand('promptwright.sendRequest', doc.uri);
    assert.equal(fake.requests.filter(r => r.path === '/v1/messages').length, 0);
    assert.equal(f.runner.current, lastRun, 'no run started');
    // the same body as a request file is missing max_tokens: the setting decides how a file is read
    const restoreCount = await setSetting('countTokensFilePatterns', []);
    const restoreRequest = await setSetting('requestFilePatterns', ['**/*.count.json']);
    try {
      await waitFor('checked as a create-message body', () =>
        a.diagnostics.current(doc)?.validation.problems.some(p => p.code === 'missing-field') ? true : undefined,
      );
    } finally {
      await restoreRequest();
      await restoreCount();
    }
  });

  it('appears only for request files', async () => {
    const a = await api();
    const other = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'not a request' });
    await vscode.window.showTextDocument(other);
    await waitFor('hidden', async () => {
      await new Promise(r => setTimeout(r, 100));
      return vscode.window.activeTextEditor?.document === other;
    });
    // the item hides itself; VS Code has no API to read visibility, so check the state it follows
    assert.equal((a.tokens as unknown as { doc?: unknown }).doc, undefined);
  });
});

describe('token breakdown (real extension host)', () => {
  useFake({ apiKey: 'sk-breakdown-test' });

  it('counts per part and shows each as a CodeLens above the part', async () => {
    const doc = await vscode.workspace.openTextDocument(workspaceUri('effort.prompt.yaml'));
    await vscode.window.showTextDocument(doc);
    const parts =
      await vscode.commands.executeCommand<{ label: string; tokens: number }[]>('promptwright.tokenBreakdown');
    assert.deepEqual(
      parts.map(p => p.label),
      ['messages[0] (user)'],
    );
    assert.ok(parts[0]!.tokens > 0);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const ours = lenses.filter(l => l.command?.command === 'promptwright.tokenBreakdown');
    assert.equal(ours.length, 1);
    assert.equal(ours[0]!.range.start.line, 6); // "  - role: user"
    assert.equal(ours[0]!.command!.title, `${parts[0]!.tokens.toLocaleString('en-US')} tokens`);
  });
});
