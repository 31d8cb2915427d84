import * as vscode from 'vscode';

/** Read-only JSON documents of objects from the service ("Open as JSON"). */
export class JsonDocuments implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'promptwright-json';
  private readonly content = new Map<string, string>();

  async open(name: string, value: unknown): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.from({ scheme: JsonDocuments.scheme, path: `/${name}.json` });
    this.content.set(uri.toString(), `${JSON.stringify(value, null, 2)}\n`);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.content.get(uri.toString()) ?? '';
  }
}
