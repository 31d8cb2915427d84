import * as vscode from 'vscode';
import { formatOf } from '../../core/fileNames';
import { requestFileName, requestTemplate } from '../../core/request/template';
import type { Api } from '../platform/api';

/** "Promptwright: New Request File": asks for a name, writes a template, opens it. */
export async function newRequestFile(api: Pick<Api, 'prompts' | 'showError'>): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const typed = await api.prompts.input({
    title: 'New request file',
    prompt: 'File name: my-first becomes my-first.prompt.json; end it with .yaml for YAML',
    value: 'new.prompt.json',
    valueSelection: [0, 3],
    // what the name becomes, said before Enter (information only: it does not stop the name)
    validateInput: v => {
      const name = requestFileName(v);
      if (!name) return 'Enter a file name, e.g. my-first';
      return name === v.trim()
        ? undefined
        : { message: `Creates ${name}`, severity: vscode.InputBoxValidationSeverity.Info };
    },
  });
  const name = typed === undefined ? undefined : requestFileName(typed);
  if (!name) return undefined;
  const uri = folder ? vscode.Uri.joinPath(folder.uri, name) : vscode.Uri.file(name);
  try {
    await vscode.workspace.fs.stat(uri);
    void api.showError(`${name} already exists; choose another name.`, 'New Request File');
    return undefined;
  } catch {
    /* does not exist: good */
  }
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(requestTemplate(formatOf(uri.path))));
  await vscode.window.showTextDocument(uri);
  return uri;
}

/**
 * "Add beta": the quick fix of a `beta-feature` warning. Adds the value to `promptwright.betas` where the
 * setting is already defined (workspace before user), so the request runs with it and the warning goes.
 */
export async function addBeta(beta?: string): Promise<void> {
  const value =
    beta ??
    (await vscode.window.showInputBox({
      title: 'Add a beta',
      prompt: 'A vendor-beta value, e.g. mcp-client-2025-11-20',
    }));
  if (!value?.trim()) return;
  const cfg = vscode.workspace.getConfiguration('promptwright');
  const inspect = cfg.inspect<string[]>('betas');
  const inWorkspace = inspect?.workspaceValue !== undefined;
  const current = (inWorkspace ? inspect?.workspaceValue : inspect?.globalValue) ?? [];
  if (current.includes(value.trim())) return;
  const target = inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await cfg.update('betas', [...current, value.trim()], target);
}
