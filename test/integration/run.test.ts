import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as YAML from 'yaml';
import type { Fake } from '../fake/server';
import { api, closeEditors, openEditor, removeWrittenFiles, useFake, waitFor, writeWorkspaceFile } from './helpers';

/** Writes a request file and makes it the active editor. */
async function openRequest(name: string, text: string): Promise<vscode.Uri> {
  await writeWorkspaceFile(name, text);
  return (await openEditor(name)).document.uri;
}
/** Writes a request file, makes it the active editor, and sends it (resolves when the run ends). */
async function send(name: string, text: string): Promise<void> {
  await openRequest(name, text);
  await vscode.commands.executeCommand('promptwright.sendRequest');
}
const req = (content: string) =>
  JSON.stringify({ model: 'model-opus-4-7', max_tokens: 100, messages: [{ role: 'user', content }] }, null, 2);

describe('Send Request (real extension host)', () => {
  const env = useFake({ apiKey: 'sk-run-test' }, { maxRetries: 1 });
  let fake: Fake;
  /** transcripts a test saved */
  const saved: vscode.Uri[] = [];
  before(() => {
    fake = env.fake;
  });
  beforeEach(() => fake.clear());
  afterEach(async () => {
    await closeEditors();
    await removeWrittenFiles(...saved.splice(0));
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
    const { document: doc } = await openEditor('chat.prompt.yaml');
    const before = doc.getText();
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
    await openRequest('run3.prompt.json', req('slow #slow=30 #long=400'));
    const p = vscode.commands.executeCommand('promptwright.sendRequest');
    // 400 words, one each 30 ms: the stream runs 12 s unless cancelled
    const arrived = await waitFor('the first words', () => {
      const text = f.runner.current?.posted.snapshot()?.content[0]?.text;
      return f.runner.current?.view.outcome === 'running' && typeof text === 'string' && text.startsWith('w0 w1 ')
        ? text
        : undefined;
    });
    await vscode.commands.executeCommand('promptwright.cancelRequest');
    await p;
    assert.equal(f.runner.current!.view.outcome, 'cancelled');
    const kept = f.runner.current!.message?.content[0]?.text as string;
    assert.match(kept, /^w0 /);
    assert.ok(kept.startsWith(arrived), 'what arrived is kept');
    // the connection was closed by the extension, before the fake had sent the whole reply
    const sent = fake.requests.find(r => r.path === '/v1/messages')!;
    await waitFor('the connection closed', () => sent.closedAt !== undefined);
    assert.equal(sent.answeredAt, undefined, 'the stream was cut before its end');
    assert.ok(!kept.includes('w399'));
  });

  it('saves a transcript beside the file', async () => {
    const f = await (await api()).features();
    await send('transcript.prompt.json', req('hello'));
    const run = f.runner.current!;
    assert.equal(run.view.outcome, 'done');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('promptwright.saveTranscript');
    saved.push(uri);
    assert.equal(path.posix.dirname(uri.path), path.posix.dirname(run.uri.path), 'beside the request file');
    const t = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    assert.equal(t.file, 'transcript.prompt.json');
    assert.equal(t.outcome, 'done');
    assert.equal(t.requestId, run.view.requestId);
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
    const panels = () => {
      const tabs = vscode.window.tabGroups.all.flatMap(g => g.tabs);
      const found = tabs.filter(
        t => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('promptwright.response'),
      );
      return { count: found.length, tabs: tabs.map(t => t.label).join(',') };
    };
    await send('panel1.prompt.json', req('first'));
    await waitFor('the panel as a tab', () => panels().count > 0);
    const first = panels();
    assert.equal(first.count, 1, first.tabs);
    await send('panel2.prompt.json', req('second'));
    await waitFor('the panel as a tab', () => panels().count > 0);
    const second = panels();
    assert.equal(second.count, 1, second.tabs);
  });
});
