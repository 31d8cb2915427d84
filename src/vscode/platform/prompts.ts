import * as vscode from 'vscode';

/**
 * The questions a command asks (confirmations, picks, inputs) behind one small interface: the real one
 * shows VS Code's modal dialogs and input boxes; an extension-host test answers them with a script.
 */
export interface Prompts {
  /** A modal confirmation; true only when the person chose `action`. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined>;
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
  /** Where to save a file (the system's save dialog). */
  saveAs(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined>;
}

export const vscodePrompts: Prompts = {
  async confirm(message, detail, action) {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
  },
  pick: (items, options) => Promise.resolve(vscode.window.showQuickPick(items, options)),
  input: options => Promise.resolve(vscode.window.showInputBox(options)),
  saveAs: options => Promise.resolve(vscode.window.showSaveDialog(options)),
};
