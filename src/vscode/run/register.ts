// Send Request and the response panel at activation: the commands, and the panel VS Code restores after a reload.
import * as vscode from 'vscode';
import { RESPONSE_VIEW_TYPE } from '../../protocol/response';
import { uriOf, type Activation } from '../platform/activation';
import type { ResponsePanel } from './responsePanel';
import type { Runner } from './runner';
import type { McpTools } from '../tools/mcpServers';

export function registerRun(a: Activation<{ runner: Runner; panel: ResponsePanel; mcpTools: McpTools }>): void {
  const { lazy, features } = a;
  a.context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(RESPONSE_VIEW_TYPE, {
      deserializeWebviewPanel: async panel => (await features()).panel.adopt(panel),
    }),
    lazy('promptwright.sendRequest', (f, arg) => f.runner.send(uriOf(arg))),
    lazy('promptwright.cancelRequest', f => f.runner.cancel()),
    lazy('promptwright.rerunRequest', f => f.runner.rerun()),
    lazy('promptwright.continueRequest', f => f.runner.continueRun()),
    lazy('promptwright.appendReply', f => f.runner.append()),
    lazy('promptwright.copyReplyText', f => f.runner.copyText()),
    lazy('promptwright.copyAsCurl', f => f.runner.copyCurl()),
    lazy('promptwright.saveTranscript', f => f.runner.saveTranscript()),
    lazy('promptwright.addToolsFromMcpServer', f => f.mcpTools.add()),
  );
}
