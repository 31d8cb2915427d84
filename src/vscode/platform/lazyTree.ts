import * as vscode from 'vscode';

/**
 * A tree view's data provider registered at activation, whose real provider is built on first use
 * (it lives in the features bundle): the view shows as soon as VS Code asks for its first children.
 */
export class LazyTree<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private real: Promise<vscode.TreeDataProvider<T>> | undefined;
  private forwarding: vscode.Disposable | undefined;

  constructor(private readonly load: () => Promise<vscode.TreeDataProvider<T>>) {}

  private provider(): Promise<vscode.TreeDataProvider<T>> {
    this.real ??= this.load().then(p => {
      this.forwarding = p.onDidChangeTreeData?.(e => this.changed.fire(e));
      return p;
    });
    return this.real;
  }

  async getChildren(element?: T): Promise<T[]> {
    return (await (await this.provider()).getChildren(element)) ?? [];
  }

  async getTreeItem(element: T): Promise<vscode.TreeItem> {
    return (await this.provider()).getTreeItem(element);
  }

  /** Needed to reveal an element (TreeView.reveal). */
  async getParent(element: T): Promise<T | undefined> {
    return (await (await this.provider()).getParent?.(element)) ?? undefined;
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}
