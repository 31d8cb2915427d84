// The one way a Promptwright class owns what it listens to: it registers each listener, emitter, provider or
// watcher as it makes it, and one dispose releases them all, in the order they were made, once.
import type * as vscode from 'vscode';

/** Disposables held together and released together; `clear` releases them and keeps the store for more. */
export class DisposableStore implements vscode.Disposable {
  private items: vscode.Disposable[] = [];

  /** Keeps every one given; returns the first, so a field can be made and owned in one line. */
  add<T extends vscode.Disposable>(first: T, ...more: vscode.Disposable[]): T {
    this.items.push(first, ...more);
    return first;
  }

  clear(): void {
    const items = this.items;
    this.items = [];
    for (const d of items) d.dispose();
  }

  dispose(): void {
    this.clear();
  }
}

/** A class that owns listeners: what it registers is released by its dispose (a subclass's calls super's last). */
export abstract class Disposable implements vscode.Disposable {
  private readonly owned = new DisposableStore();

  /** Owns every one given until dispose; returns the first. */
  protected register<T extends vscode.Disposable>(first: T, ...more: vscode.Disposable[]): T {
    return this.owned.add(first, ...more);
  }

  dispose(): void {
    this.owned.dispose();
  }
}
