import * as vscode from 'vscode';
import { formatOf } from '../../core/request/types';
import { requestTemplate } from '../../core/request/template';

/** "Promptwright: New Request File": asks for a name, writes a template, opens it. */
export async function newRequestFile(): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const name = await vscode.window.showInputBox({
    title: 'New request file',
    prompt: 'File name (.prompt.json, .prompt.yaml or .prompt.yml)',
    value: 'new.prompt.json',
    validateInput: v =>
      /\.prompt\.(json|ya?ml)$/i.test(v.trim())
        ? undefined
        : 'End the name with .prompt.json, .prompt.yaml or .prompt.yml',
  });
  if (!name) return undefined;
  const uri = folder ? vscode.Uri.joinPath(folder.uri, name.trim()) : vscode.Uri.file(name.trim());
  try {
    await vscode.workspace.fs.stat(uri);
    void vscode.window.showErrorMessage(`${name} already exists; choose another name.`);
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
