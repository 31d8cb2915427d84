// A change the model proposes to one of the author's files, reviewed as a diff: the file on the left, the
// proposal (a read-only document of ours) on the right, and a notification saying what changed and why, with
// Accept and Decline (also in the diff's title bar, which stays when the notification is dismissed). Accept applies
// it as one undoable edit, provided the file has not changed since; Decline or closing the diff leaves the file as
// it was. One proposal at a time: a new one declines the one before.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TextEdit } from '../../core/request/fixes';
import { notificationText } from '../../core/text';
import { Disposable } from '../platform/lifecycle';

/** How a proposal ended: applied, declined (or abandoned), or a further action the notification offered. */
export type Outcome = 'accepted' | 'declined' | { action: string };

export interface Offer {
  /** the file the change is for */
  doc: vscode.TextDocument;
  /** the edit, against the text the file had when it was asked for */
  edit: TextEdit;
  /** the file's version when it was asked for: a file changed since is not edited */
  version: number;
  /** the diff editor's title */
  title: string;
  /** what the notification says: the change, what was said of it */
  message: string;
  /** further buttons (Compare with the Improved Prompt) */
  actions?: readonly string[];
}

interface Pending {
  offer: Offer;
  uri: vscode.Uri;
  settle(outcome: Outcome): void;
}

/** The context key set while a proposal's diff is open: its title bar shows Accept and Decline. */
const OPEN_KEY = 'promptwright.proposalOpen';

export class Proposals extends Disposable implements vscode.TextDocumentContentProvider {
  static readonly scheme = 'promptwright-proposal';
  private readonly texts = new Map<string, string>();
  private pending: Pending | undefined;
  private next = 0;
  private readonly shown = new vscode.EventEmitter<vscode.Uri>();
  /** fires when a proposal's diff is open and its question asked (the extension-host tests wait for it) */
  readonly onDidShow = this.shown.event;

  /** `fail` shows a failure (the extension's error display) */
  constructor(private readonly fail: (e: unknown, what: string) => Promise<void>) {
    super();
    this.register(
      this.shown,
      vscode.workspace.registerTextDocumentContentProvider(Proposals.scheme, this),
      // closing the diff is declining it
      vscode.window.tabGroups.onDidChangeTabs(e => {
        const uri = this.pending?.uri.toString();
        if (
          uri &&
          e.closed.some(t => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === uri)
        )
          this.pending?.settle('declined');
      }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** The proposal whose diff is open, if any. */
  get current(): Offer | undefined {
    return this.pending?.offer;
  }

  /**
   * Opens the diff and asks; resolves when the proposal is accepted (and applied), declined, or a further action
   * is chosen (the diff stays open: `ask` again to go on).
   */
  async offer(o: Offer): Promise<Outcome> {
    const old = this.pending;
    if (old) {
      old.settle('declined');
      await this.close(old);
    }
    const before = o.doc.getText();
    const after = before.slice(0, o.edit.start) + o.edit.newText + before.slice(o.edit.end);
    const uri = vscode.Uri.from({
      scheme: Proposals.scheme,
      path: `/${path.basename(o.doc.uri.path) || 'proposal'}`,
      query: String(++this.next),
    });
    this.texts.set(uri.toString(), after);
    let settle!: (outcome: Outcome) => void;
    const outcome = new Promise<Outcome>(resolve => (settle = resolve));
    const pending: Pending = { offer: o, uri, settle: out => settle(out) };
    this.pending = pending;
    await vscode.commands.executeCommand('setContext', OPEN_KEY, true);
    await vscode.commands.executeCommand('vscode.diff', o.doc.uri, uri, o.title, { preview: false });
    return this.ask(pending, outcome);
  }

  /** Asks again about the open proposal (after a further action). */
  async again(): Promise<Outcome> {
    const pending = this.pending;
    if (!pending) return 'declined';
    let settle!: (outcome: Outcome) => void;
    const outcome = new Promise<Outcome>(resolve => (settle = resolve));
    pending.settle = out => settle(out);
    return this.ask(pending, outcome);
  }

  private async ask(pending: Pending, outcome: Promise<Outcome>): Promise<Outcome> {
    const buttons = ['Accept', 'Decline', ...(pending.offer.actions ?? [])];
    // the message quotes the model (what it changed and why): it links nothing
    void vscode.window.showInformationMessage(notificationText(pending.offer.message), ...buttons).then(pick => {
      // a notification outlives its proposal when the diff's own buttons ended it: then it does nothing
      if (this.pending !== pending) return;
      // dismissed (or cleared): the diff's title bar still has Accept and Decline
      if (pick === 'Accept') void this.accept();
      else if (pick === 'Decline') pending.settle('declined');
      else if (pick) pending.settle({ action: pick });
    });
    this.shown.fire(pending.uri);
    const result = await outcome;
    if (result === 'declined' || result === 'accepted') await this.close(pending);
    return result;
  }

  /** Applies the open proposal as one undoable edit (the title bar's Accept, the notification's). */
  async accept(): Promise<boolean> {
    const pending = this.pending;
    if (!pending) return false;
    const { doc, edit, version } = pending.offer;
    if (doc.isClosed || doc.version !== version) {
      void this.fail(
        `${path.basename(doc.uri.path)} changed since the proposal was made: it was not applied. ` +
          'Ask again for a proposal of the file as it is now.',
        'Accept',
      );
      pending.settle('declined');
      return false;
    }
    const we = new vscode.WorkspaceEdit();
    we.replace(doc.uri, new vscode.Range(doc.positionAt(edit.start), doc.positionAt(edit.end)), edit.newText);
    const applied = await vscode.workspace.applyEdit(we);
    pending.settle(applied ? 'accepted' : 'declined');
    return applied;
  }

  /** Leaves the file as it was (the title bar's Decline). */
  decline(): void {
    this.pending?.settle('declined');
  }

  /** Closes the proposal's diff and shows the file. */
  private async close(pending: Pending): Promise<void> {
    if (this.pending !== pending) return;
    this.pending = undefined;
    const key = pending.uri.toString();
    await vscode.commands.executeCommand('setContext', OPEN_KEY, false);
    const tabs = vscode.window.tabGroups.all
      .flatMap(g => g.tabs)
      .filter(t => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === key);
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
    this.texts.delete(key);
    const doc = pending.offer.doc;
    if (!doc.isClosed) await vscode.window.showTextDocument(doc, { preview: false });
  }

  override dispose(): void {
    this.pending?.settle('declined');
    super.dispose();
  }
}
