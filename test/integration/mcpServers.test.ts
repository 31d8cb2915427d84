// The MCP servers VS Code runs, in the editor: Add Tools from MCP Server… against a real server no one here wrote
// (@modelcontextprotocol/server-everything, a devDependency), which VS Code starts from the workspace's
// .vscode/mcp.json; and what the command says in Restricted Mode, where VS Code starts no workspace server.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Features } from '../../src/features';
import { vscodePrompts } from '../../src/vscode/platform/prompts';
import {
  api,
  closeEditors,
  errorsDuring,
  openEditor,
  removeWrittenFiles,
  scripted,
  useFake,
  waitFor,
  writeWorkspaceFile,
} from './helpers';

const EVERYTHING = path.resolve(
  __dirname,
  '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

const chat = () => vscode.workspace.getConfiguration('chat');

/**
 * Sends a request whose reply (the fake's `echo` script) calls echo with the number given; that call. A file of its
 * own for each number: a document an earlier test left open under one name could still hold that test's text.
 */
async function echoCall(n: number) {
  await writeWorkspaceFile(
    `mcp-call-${n}.prompt.yaml`,
    'model: model-sonnet-4-6\nmax_tokens: 100\ntools:\n  - name: echo\n    input_schema: { type: object }\n' +
      `messages:\n  - role: user\n    content: "#script=echo Say ${n}"\n`,
  );
  await openEditor(`mcp-call-${n}.prompt.yaml`);
  await vscode.commands.executeCommand('promptwright.sendRequest');
  const features = await (await api()).features();
  return features.runner.current!.view.calls![0]!;
}

describe('MCP servers VS Code runs: Add Tools from MCP Server…, Call MCP Server', function () {
  this.timeout(90000);
  const env = useFake({ apiKey: 'sk-mcp-test' });
  let f: Features;
  let aiOff: boolean | undefined;

  before(async function () {
    f = await (await api()).features();
    if (!vscode.workspace.isTrusted) return; // VS Code starts no workspace server there
    const servers = { everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } };
    await writeWorkspaceFile('.vscode/mcp.json', JSON.stringify({ servers }, null, 2));
    // the harness turns VS Code's AI features off, and with them the MCP servers it runs
    aiOff = chat().inspect<boolean>('disableAIFeatures')?.globalValue;
    await chat().update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await waitFor(
      'the everything server’s tools',
      async () => {
        const start = vscode.commands.executeCommand('workbench.mcp.startServer', 'mcp.config.ws0.everything', {
          waitForLiveTools: true,
        });
        await Promise.race([start, new Promise(resolve => setTimeout(resolve, 3000))]);
        return vscode.lm.tools.some(t => (t as { fullReferenceName?: string }).fullReferenceName === 'everything/echo');
      },
      60000,
    );
  });

  afterEach(async () => {
    f.mcpTools.prompts = vscodePrompts;
    await closeEditors();
  });

  after(async () => {
    await chat().update('disableAIFeatures', aiOff, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.mcp.stopServer', 'mcp.config.ws0.everything').then(
      () => undefined,
      () => undefined,
    );
    await removeWrittenFiles();
  });

  it('adds the tools picked to a YAML file that has none, then to its tools list, each one undoable edit', async () => {
    await writeWorkspaceFile(
      'mcp-tools.prompt.yaml',
      'model: model-sonnet-4-6\nmax_tokens: 100\nmessages:\n  - role: user\n    content: hi\n',
    );
    const ed = await openEditor('mcp-tools.prompt.yaml');
    const seen: string[] = [];
    f.mcpTools.prompts = scripted(['everything', 'echo'], seen);
    await vscode.commands.executeCommand('promptwright.addToolsFromMcpServer');
    assert.match(seen[0]!, /^pick: Add Tools from MCP Server: .*everything/);
    assert.equal(
      ed.document.getText(),
      'model: model-sonnet-4-6\nmax_tokens: 100\nmessages:\n  - role: user\n    content: hi\n' +
        'tools:\n  - name: echo\n    description: Echoes back the input string\n    input_schema:\n' +
        '      type: object\n      properties:\n        message:\n          type: string\n' +
        '          description: Message to echo\n      required:\n        - message\n',
    );
    // echo is in the file now: it is not offered again; two picked go in together
    const picks = scripted(['everything'], seen);
    f.mcpTools.prompts = {
      ...picks,
      pick: (items, o) =>
        o.canPickMany
          ? Promise.resolve(items.filter(i => /^get-(sum|env)$/.test(i.label)) as never)
          : picks.pick(items, o),
    };
    await vscode.commands.executeCommand('promptwright.addToolsFromMcpServer');
    const text = ed.document.getText();
    assert.deepEqual(
      [...text.matchAll(/^ {2}- name: (.*)$/gm)].map(m => m[1]),
      ['echo', 'get-env', 'get-sum'],
    );
    await vscode.commands.executeCommand('undo');
    assert.deepEqual(
      [...ed.document.getText().matchAll(/^ {2}- name: (.*)$/gm)].map(m => m[1]),
      ['echo'],
    );
  });

  it('adds to a JSON file’s tools', async () => {
    await writeWorkspaceFile(
      'mcp-tools.prompt.json',
      '{\n  "model": "model-sonnet-4-6",\n  "max_tokens": 100,\n  "tools": [],\n' +
        '  "messages": [{ "role": "user", "content": "hi" }]\n}\n',
    );
    const ed = await openEditor('mcp-tools.prompt.json');
    f.mcpTools.prompts = scripted(['everything', 'echo']);
    await vscode.commands.executeCommand('promptwright.addToolsFromMcpServer');
    // the entry the YAML test reads in full, in the file's own two-space indentation
    const text = ed.document.getText();
    assert.match(
      text,
      /^ {2}"tools": \[\n {4}\{\n {6}"name": "echo",\n {6}"description": "Echoes back the input string",/m,
    );
    assert.deepEqual((JSON.parse(text) as { tools: { input_schema: unknown }[] }).tools[0]!.input_schema, {
      type: 'object',
      properties: { message: { type: 'string', description: 'Message to echo' } },
      required: ['message'],
    });
  });

  it('Call MCP Server answers a call with the server’s text, and Continue sends it', async () => {
    const call = await echoCall(42);
    assert.deepEqual([call.name, call.input], ['echo', { message: '42' }]);
    await f.runner.callMcp(call.id);
    assert.deepEqual([call.answer, call.isError, call.from], ['Echo: 42', false, 'everything (MCP)']);
    await vscode.commands.executeCommand('promptwright.continueRequest');
    const last = env.fake.requests.at(-1)!.body as { messages: { content: unknown }[] };
    assert.deepEqual(last.messages.at(-1)!.content, [
      { type: 'tool_result', tool_use_id: call.id, content: [{ type: 'text', text: 'Echo: 42' }] },
    ]);
    assert.match(String(f.runner.current!.message!.content[0]!.text), /Echo: 42/);
  });

  it('Call MCP Server: a call the server refuses gets is_error; no server with the tool says so', async () => {
    const call = await echoCall(7);
    call.input = { text: 7 }; // what echo's schema refuses (it wants a message)
    await f.runner.callMcp(call.id);
    assert.equal(call.isError, true);
    assert.match(call.answer!, /message/);
    call.name = 'lookup_order';
    const shown = await errorsDuring(() => f.runner.callMcp(call.id));
    assert.deepEqual(shown, [
      'Call MCP Server: no MCP server VS Code runs has a tool lookup_order: start one (MCP: List Servers)',
    ]);
  });

  it('in Restricted Mode, Add Tools from MCP Server says VS Code starts no workspace server', async function () {
    if (vscode.workspace.isTrusted) this.skip();
    await openEditor('hello.prompt.json');
    const shown = await errorsDuring(() => vscode.commands.executeCommand('promptwright.addToolsFromMcpServer'));
    assert.deepEqual(shown, [
      'Add Tools from MCP Server: VS Code starts no workspace MCP server in Restricted Mode: trust the workspace',
    ]);
  });
});
