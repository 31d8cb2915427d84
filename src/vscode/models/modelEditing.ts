// The `model` of a request file, with the service's model list (core/language/modelAssist.ts): completion of its
// value, a hover with the model's limits and capabilities, and "Promptwright: Choose Model…", a quick pick that
// writes the choice as an undoable edit.
import * as vscode from 'vscode';
import type { LoadedModels } from '../../core/language/modelAssist';
import { formatOf } from '../../core/fileNames';
import { isRequestFile, type Config } from '../platform/config';
import { completionItem, hover, workspaceEdit } from '../platform/language';
import { coreBundle } from '../platform/lazy';
import { vscodePrompts, type Prompts } from '../platform/prompts';
import type { CheckedRequests, Models } from './models';

export class ModelEditing {
  /** the quick pick of Choose Model… (an extension-host test answers it with a script) */
  prompts: Prompts = vscodePrompts;

  constructor(
    private readonly models: Models,
    private readonly config: Config,
    private readonly diagnostics: CheckedRequests,
  ) {}

  async complete(
    doc: vscode.TextDocument,
    pos: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.CompletionItem[] | undefined> {
    const at = this.valueAt(doc, pos);
    if (!at) return undefined;
    // not cancelled with the completion: typing on cancels it, and the list would never arrive
    const loaded = await this.models.load({ network: vscode.workspace.isTrusted });
    if (token.isCancellationRequested) return undefined;
    const items = coreBundle().modelCompletions(at, this.models.entries(loaded), loaded, formatOf(doc.fileName));
    return items.map(c => completionItem(doc, c));
  }

  async hover(
    doc: vscode.TextDocument,
    pos: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    const at = this.valueAt(doc, pos);
    if (!at?.id || at.start === at.end) return undefined;
    const loaded = await this.models.load({ network: vscode.workspace.isTrusted });
    if (token.isCancellationRequested) return undefined;
    const found = coreBundle().modelHover(at, loaded);
    return found && hover(doc, found);
  }

  /** "Promptwright: Choose Model…": a quick pick of the list; the choice replaces `model` (one undoable edit). */
  async choose(): Promise<void> {
    const ed = vscode.window.activeTextEditor;
    const doc = ed?.document;
    const parsed =
      doc && isRequestFile(doc, this.config) ? this.diagnostics.current(doc)?.validation.parsed : undefined;
    const body = parsed?.value;
    if (!doc || !parsed || !body || typeof body !== 'object' || Array.isArray(body)) {
      void vscode.window.showInformationMessage('Promptwright: open a request file to choose its model.');
      return;
    }
    const current = (body as { model?: unknown }).model;
    let loaded: LoadedModels;
    try {
      loaded = await this.models.load({ network: true });
    } catch {
      loaded = this.models.current ?? { source: 'builtin' };
    }
    const v = coreBundle();
    const items = this.models.entries(loaded).map(e => ({
      label: e.id,
      description: [e.info.displayName, e.id === current ? '(current)' : undefined].filter(Boolean).join(' '),
      detail: v.modelLimits(e.info),
      entry: e,
    }));
    const pick = await this.prompts.pick(items, {
      title: 'Choose Model',
      placeHolder: `${typeof current === 'string' ? `Now: ${current}. ` : ''}${v.modelsSource(loaded)}`,
      matchOnDescription: true,
    });
    if (!pick || pick.label === current) return;
    const fix = v.chooseModelFix(current, pick.label);
    await vscode.workspace.applyEdit(workspaceEdit(doc, v.fixEdits(doc.getText(), parsed.format, parsed, fix)));
  }

  /** The top-level `model` value at a position, or where one is being typed after `"model":` / `model:`. */
  private valueAt(doc: vscode.TextDocument, pos: vscode.Position) {
    if (!isRequestFile(doc, this.config)) return undefined;
    const parsed = this.diagnostics.current(doc)?.validation.parsed;
    return coreBundle().modelValueAt(doc.getText(), doc.offsetAt(pos), formatOf(doc.fileName), parsed);
  }
}
