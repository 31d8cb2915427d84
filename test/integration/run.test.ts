import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as YAML from 'yaml';
import type { Fake } from '../fake/server';
import { api, useFake, workspaceUri, waitFor } from './helpers';

async function writeRequest(name: string, text: string): Promise<vscode.Uri> {
  const uri = workspaceUri(name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}
/** Writes a request file, makes it the active editor, and sends it (resolves when the run ends). */
async function send(name: string, text: string): Promise<void> {
  await vscode.window.showTextDocument(await writeRequest(name, text));
  await vscode.commands.executeCommand('promptwright.sendRequest');
}
const req = (content: string) =>
  JSON.stringify({ model: 'model-opus-4-7', max_tokens: 100, messages: [{ role: 'user', content }] }, null, 2);

describe('Send Request (real extension host)', () => {
  const env = useFake({ apiKey: 'sk-run-test' }, { maxRetries: 1 });
  let fake: Fake;
  before(() => {
    fake = env.fake;
  });

  it('streams text, thinking and tool use into the run, with request-id and timings', async () => {
    const a = await api();
    const f = await a.features();
    await send('run1.prompt.json', req('Weather? #thinking #tool'));
    const run = f.runner.current!;
    assert.equal(run.view.outcome, 'done');
    assert.deepEqual(
      run.message!.content.map(b => b.type),
      ['thinking', 'text', 'tool_use'],
    );
    assert.match(run.view.requestId!, /^req_fake_stream_/);
    assert.ok(run.view.timings.totalMs! >= 0 && run.view.timings.firstTokenMs !== undefined);
    assert.equal((fake.requests.at(-1)!.body as { stream: boolean }).stream, true);
  });

  it('appends reply and tool_result stubs to YAML, keeping comments, cursor in the stub; undo restores', async () => {
    const a = await api();
    const f = await a.features();
    const uri = workspaceUri('chat.prompt.yaml');
    const doc = await vscode.workspace.openTextDocument(uri);
    const before = doc.getText();
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('promptwright.sendRequest');
    assert.equal(f.runner.current!.message!.stop_reason, 'tool_use');
    assert.equal(await vscode.commands.executeCommand('promptwright.appendReply'), true);
    const text = doc.getText();
    assert.ok(text.includes('# a conversation kept in YAML') && text.includes('# the question'));
    const v = YAML.parse(text);
    assert.equal(v.messages.length, 3);
    assert.equal(v.messages[1].role, 'assistant');
    assert.deepEqual(
      v.messages[2].content.map((b: { tool_use_id: string }) => b.tool_use_id),
      ['toolu_fake_01'],
    );
    const sel = vscode.window.activeTextEditor!.selection;
    assert.equal(doc.getText(sel), 'TODO: the tool result');
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), before);
  });

  it('an error event mid-stream keeps the partial text and reports the error', async () => {
    const a = await api();
    const f = await a.features();
    await send('run2.prompt.json', req('go #error #long=50'));
    const run = f.runner.current!;
    assert.equal(run.view.outcome, 'error');
    assert.equal(run.view.error!.type, 'overloaded_error');
    assert.equal(run.view.midStream, true);
    assert.match(String(run.message!.content[0]!.text), /^w0 w1 w2/);
  });

  it('a failure before the stream shows the hint in the panel: a 500 the service asked not to retry', async () => {
    const a = await api();
    const f = await a.features();
    fake.fail({ path: '/v1/messages', status: 500, headers: { 'x-should-retry': 'false' }, message: 'cap exceeded' });
    // only the sends: opening the file also counts its tokens (count_tokens), at a time the load decides
    const sends = () => fake.requests.filter(r => r.path === '/v1/messages').length;
    const before = sends();
    await send('run-noretry.prompt.json', req('hello'));
    const run = f.runner.current!;
    assert.equal(run.view.outcome, 'error');
    assert.equal(sends() - before, 1, 'not retried');
    assert.equal(run.view.error!.type, 'api_error');
    assert.match(run.view.error!.hint!, /asked not to retry this request/);
  });

  it('cancel stops a slow stream at once and keeps what arrived', async () => {
    const a = await api();
    const f = await a.features();
    const uri = await writeRequest('run3.prompt.json', req('slow #slow=30 #long=400'));
    await vscode.window.showTextDocument(uri);
    const p = vscode.commands.executeCommand('promptwright.sendRequest');
    await waitFor(
      'streaming',
      () => f.runner.current?.view.outcome === 'running' && fake.requests.some(r => r.path === '/v1/messages'),
      5000,
    );
    await new Promise(r => setTimeout(r, 400));
    const t0 = Date.now();
    await vscode.commands.executeCommand('promptwright.cancelRequest');
    await p;
    assert.ok(Date.now() - t0 < 1000);
    assert.equal(f.runner.current!.view.outcome, 'cancelled');
    assert.match(f.runner.current!.message?.content[0]?.text as string, /^w0 /);
  });

  it('saves a transcript beside the file', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('promptwright.saveTranscript');
    const t = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    assert.equal(t.file, 'run3.prompt.json');
    assert.equal(t.outcome, 'cancelled');
    assert.deepEqual(Object.keys(t).sort(), [
      'error',
      'file',
      'outcome',
      'request',
      'requestId',
      'response',
      'savedAt',
      'startedAt',
      'timings',
      'usage',
    ]);
  });

  it('the response panel opens as one webview tab, reused across runs', async () => {
    const tabs = vscode.window.tabGroups.all.flatMap(g => g.tabs);
    const panels = tabs.filter(
      t => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('promptwright.response'),
    );
    assert.equal(panels.length, 1, tabs.map(t => t.label).join(','));
  });
});
