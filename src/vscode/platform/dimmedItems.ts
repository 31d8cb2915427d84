import * as vscode from 'vscode';
import type { ItemView } from '../../core/admin/view';

/**
 * Tree items whose label can be shown dimmed (an archived workspace, an expired invite, a chat its user
 * deleted). A TreeItem has no colour of its own; a file decoration on its resource URI gives it one, so
 * each view marks dimmed items with `?dim` on a URI of its own scheme and registers this provider for it.
 */
export class DimmedItems implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly registration: vscode.Disposable;

  constructor(private readonly scheme: string) {
    this.registration = vscode.window.registerFileDecorationProvider(this);
  }

  /** A labelled item with its description and markdown tooltip, dimmed when the view says so. */
  item(view: ItemView, path: string): vscode.TreeItem {
    const it = new vscode.TreeItem(view.label);
    it.description = view.description;
    it.tooltip = new vscode.MarkdownString(view.tooltip);
    it.resourceUri = vscode.Uri.from({ scheme: this.scheme, path: `/${path}`, query: view.dim ? 'dim' : '' });
    return it;
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== this.scheme || uri.query !== 'dim') return undefined;
    return { color: new vscode.ThemeColor('disabledForeground') };
  }

  dispose(): void {
    this.registration.dispose();
  }
}
