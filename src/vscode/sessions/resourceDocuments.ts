import * as vscode from 'vscode';
import type { Api } from '../platform/api';
import type { SessionNode } from './sessionsTree';

/** Read-only JSON documents of resource details (GET …/resources/{id}). */
export class ResourceDocuments implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'promptwright-resource';
  private readonly cache = new Map<string, string>();
  constructor(private readonly api: Api) {}

  async open(node: SessionNode): Promise<vscode.TextDocument | undefined> {
    if (node.kind !== 'resource') return undefined;
    const r = node.resource;
    const name = r.id ?? (typeof r.memory_store_id === 'string' ? r.memory_store_id : 'resource');
    const uri = vscode.Uri.from({ scheme: ResourceDocuments.scheme, path: `/${node.sessionId}/${name}.json` });
    try {
      // the memory_store variant has no id in its documented shape: show what the list returned
      const full = r.id ? await (await this.api.client()).getResource(node.sessionId, r.id) : r;
      this.cache.set(uri.toString(), `${JSON.stringify(full, null, 2)}\n`);
    } catch (e) {
      await this.api.showError(e, `Could not read ${name}`);
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.cache.get(uri.toString()) ?? '';
  }
}
