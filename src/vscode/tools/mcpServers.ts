// MCP servers in the editor are the ones VS Code itself runs (the workspace's `.vscode/mcp.json`, the user's, an
// extension's), reached through its language-model tools API: `vscode.lm.tools` lists every tool VS Code knows, an
// MCP server's tagged `mcp` and named `SERVER/TOOL` in `fullReferenceName`, and `vscode.lm.invokeTool` calls one.
// VS Code starts each server and asks the user to trust it, and starts no workspace server in Restricted Mode:
// Promptwright starts no process here (the CLI does, through dist/mcp.js, which the extension does not carry).
import * as vscode from 'vscode';
import type { ToolCall, ToolResultContent } from '../../core/tools/answers';
import { toolEntry, toolTimeoutMs, type McpTool } from '../../core/tools/mcpPool';
import { formatOf } from '../../core/fileNames';
import type { RequestDiagnostics } from '../request/requestDiagnostics';
import type { Api } from '../platform/api';
import { workspaceEdit } from '../platform/language';
import { coreBundle } from '../platform/lazy';
import { vscodePrompts, type Prompts } from '../platform/prompts';

/** A tool of an MCP server VS Code runs: `id` is its name in `vscode.lm.tools`. */
export interface ServerTool extends McpTool {
  server: string;
  id: string;
}

/** The MCP servers' tools VS Code knows now (a server it has not started lists none). */
export function serverTools(): ServerTool[] {
  return vscode.lm.tools.flatMap(t => {
    const ref = (t as { fullReferenceName?: string }).fullReferenceName ?? '';
    const cut = ref.lastIndexOf('/');
    if (!t.tags.includes('mcp') || cut <= 0) return [];
    const schema = t.inputSchema as Record<string, unknown> | undefined;
    const { description } = t;
    return [{ server: ref.slice(0, cut), name: ref.slice(cut + 1), id: t.name, description, inputSchema: schema }];
  });
}

/** Why no server offers what is needed, and what to do. */
export function noServer(what: string): string {
  if (!vscode.workspace.isTrusted)
    return 'VS Code starts no workspace MCP server in Restricted Mode: trust the workspace';
  return vscode.workspace.getConfiguration('chat').get('disableAIFeatures')
    ? 'VS Code runs no MCP server while chat.disableAIFeatures is on'
    : `no MCP server VS Code runs has ${what}: start one (MCP: List Servers)`;
}

/** Calls a server's tool with the call's input: its text, and is_error; throws on timeout or cancellation. */
export async function callServerTool(
  tool: ServerTool,
  call: ToolCall,
  token: vscode.CancellationToken,
): Promise<{ content: ToolResultContent; isError: boolean }> {
  const ms = toolTimeoutMs(process.env);
  let timer: NodeJS.Timeout | undefined;
  let cancelled: vscode.Disposable | undefined;
  try {
    const result = await Promise.race([
      vscode.lm.invokeTool(tool.id, { input: call.input ?? {}, toolInvocationToken: undefined }, token),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (PROMPTWRIGHT_TOOL_TIMEOUT_MS)`)), ms);
        cancelled = token.onCancellationRequested(() => reject(new vscode.CancellationError()));
      }),
    ]);
    const content = result.content.flatMap(p =>
      p instanceof vscode.LanguageModelTextPart ? [{ type: 'text', text: p.value }] : [],
    );
    // VS Code hands on a result the server marked isError as its text: `MCP error -32602: …`
    return { content: content.length ? content : '', isError: /^MCP error -?\d+:/.test(content[0]?.text ?? '') };
  } finally {
    clearTimeout(timer);
    cancelled?.dispose();
  }
}

const TITLE = 'Add Tools from MCP Server';

/** "Add Tools from MCP Server…": a server's tools picked, added to the request file's `tools` (one undoable edit). */
export class McpTools {
  /** the picks (an extension-host test answers them with a script) */
  prompts: Prompts = vscodePrompts;

  constructor(
    private readonly diagnostics: RequestDiagnostics,
    private readonly api: Api,
  ) {}

  async add(): Promise<void> {
    const doc = vscode.window.activeTextEditor?.document;
    const parsed = doc && this.diagnostics.current(doc)?.validation.parsed;
    const body = parsed?.value as { tools?: unknown } | undefined;
    if (!doc || !parsed || !body || typeof body !== 'object' || Array.isArray(body)) {
      void vscode.window.showInformationMessage('Promptwright: open a request file to add tools to it.');
      return;
    }
    const all = serverTools();
    if (!all.length) {
      void this.api.showError(noServer('tools'), TITLE);
      return;
    }
    const servers = [...new Set(all.map(t => t.server))].map(label => ({ label }));
    const server = (await this.prompts.pick(servers, { title: TITLE }))?.label;
    const have = new Set(Array.isArray(body.tools) ? body.tools.map(t => (t as { name?: unknown })?.name) : []);
    const items = all
      .filter(t => t.server === server && !have.has(t.name))
      .map(t => ({ label: t.name, detail: t.description, tool: t }));
    if (!server) return;
    if (!items.length) {
      void vscode.window.showInformationMessage(`Promptwright: the file has every tool of ${server} already.`);
      return;
    }
    const picked = await this.prompts.pick(items, { title: `Add Tools from ${server}`, canPickMany: true });
    const entries = ([] as (typeof items)[number][]).concat(picked ?? []).map(i => toolEntry(i.tool));
    if (!entries.length) return;
    const core = coreBundle();
    const text = doc.getText();
    const format = formatOf(doc.fileName);
    try {
      const edits =
        body.tools === undefined
          ? core.fixEdits(text, format, parsed, {
              kind: 'insert-property',
              title: '',
              path: [],
              key: 'tools',
              value: entries,
            })
          : [core.appendItems(text, format, 'tools', entries)];
      await vscode.workspace.applyEdit(workspaceEdit(doc, edits));
    } catch (e) {
      void this.api.showError(e, TITLE);
    }
  }
}
