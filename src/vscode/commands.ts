import * as vscode from 'vscode';
import { formatOf } from '../core/request/parse';
import { requestTemplate } from '../core/request/template';

/** "Promptwright: New Request File": asks for a name, writes a template, opens it. */
export async function newRequestFile(): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const name = await vscode.window.showInputBox({
    title: 'New request file', prompt: 'File name (.prompt.json, .prompt.yaml or .prompt.yml)', value: 'new.prompt.json',
    validateInput: v => (/\.prompt\.(json|ya?ml)$/i.test(v.trim()) ? undefined : 'End the name with .prompt.json, .prompt.yaml or .prompt.yml'),
  });
  if (!name) return undefined;
  const uri = folder ? vscode.Uri.joinPath(folder.uri, name.trim()) : vscode.Uri.file(name.trim());
  try {
    await vscode.workspace.fs.stat(uri);
    void vscode.window.showErrorMessage(`${name} already exists; choose another name.`);
    return undefined;
  } catch { /* does not exist: good */ }
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(requestTemplate(formatOf(uri.path))));
  await vscode.window.showTextDocument(uri);
  return uri;
}
