// The `model` of a request file, with the service's model list: completion of its value (JSON and YAML; the
// JSON Schema cannot list models that change), a hover with the model's limits and capabilities, and
// "Promptwright: Choose Model…", a quick pick that writes the choice as an undoable edit.
import * as vscode from 'vscode';
import type { ModelInfo } from '../../core/request/models';
import { formatOf } from '../../core/request/types';
import type { FixData } from '../../core/request/types';
import { isRequestFile, type Config } from '../platform/config';
import { validator } from '../platform/lazy';
import { vscodePrompts, type Prompts } from '../platform/prompts';
import type { RequestDiagnostics } from '../request/requestDiagnostics';
import type { LoadedModels, Models } from './models';

const fmt = (n: number) => n.toLocaleString('en-US');

/** Where the `model` value is (or is being typed), as offsets, and how it is written there. */
interface ValueAt {
  start: number;
  end: number;
  /** the quote a string value is written with in the text ('' for a YAML plain scalar or no value yet) */
  quote: string;
  /** the model id the file holds now */
  id?: string;
}

export class ModelEditing {
  /** the quick pick of Choose Model… (an extension-host test answers it with a script) */
  prompts: Prompts = vscodePrompts;

  constructor(
    private readonly models: Models,
    private readonly config: Config,
    private readonly diagnostics: RequestDiagnostics,
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
    const range = new vscode.Range(doc.positionAt(at.start), doc.positionAt(at.end));
    const json = formatOf(doc.fileName) === 'json';
    return this.models.entries(loaded).map((e, i) => {
      const item = new vscode.CompletionItem(
        { label: e.id, description: e.info.displayName ?? (e.aliasOf ? `alias of ${e.aliasOf}` : undefined) },
        vscode.CompletionItemKind.Value,
      );
      item.detail = limits(e.info);
      item.documentation = new vscode.MarkdownString(describe(e.id, e.info, loaded, e.aliasOf), true);
      item.range = range;
      item.insertText = json ? JSON.stringify(e.id) : e.id;
      item.filterText = `${at.quote}${e.id}`;
      item.sortText = String(i).padStart(4, '0'); // the service's order: newest first
      return item;
    });
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
    const found = (loaded.catalog ?? new (validator().ModelCatalog)([])).lookup(at.id);
    const text = found.info
      ? describe(at.id, found.info, loaded, found.info.resolved)
      : `\`${at.id}\` is in neither the service's model list nor the built-in table.\n\n*${source(loaded)}*`;
    const md = new vscode.MarkdownString(text, true);
    return new vscode.Hover(md, new vscode.Range(doc.positionAt(at.start), doc.positionAt(at.end)));
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
    const items = this.models.entries(loaded).map(e => ({
      label: e.id,
      description: [e.info.displayName, e.id === current ? '(current)' : undefined].filter(Boolean).join(' '),
      detail: limits(e.info),
      entry: e,
    }));
    const pick = await this.prompts.pick(items, {
      title: 'Choose Model',
      placeHolder: `${typeof current === 'string' ? `Now: ${current}. ` : ''}${source(loaded)}`,
      matchOnDescription: true,
    });
    if (!pick || pick.label === current) return;
    const text = doc.getText();
    const fix: FixData =
      current === undefined
        ? { kind: 'insert-property', title: 'Choose model', path: [], key: 'model', value: pick.label }
        : { kind: 'replace-value', title: 'Choose model', path: ['model'], value: pick.label };
    const edit = new vscode.WorkspaceEdit();
    for (const e of validator().fixEdits(text, parsed.format, parsed, fix))
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.newText);
    await vscode.workspace.applyEdit(edit);
  }

  /** The top-level `model` value at a position, or where one is being typed after `"model":` / `model:`. */
  private valueAt(doc: vscode.TextDocument, pos: vscode.Position): ValueAt | undefined {
    if (!isRequestFile(doc, this.config)) return undefined;
    const offset = doc.offsetAt(pos);
    const text = doc.getText();
    const parsed = this.diagnostics.current(doc)?.validation.parsed;
    const body = parsed?.value;
    const id = body && typeof body === 'object' ? (body as { model?: unknown }).model : undefined;
    const span = parsed?.locate(['model']);
    if (span && offset >= span.start && offset <= span.end) {
      const first = text[span.start];
      const quote = first === '"' || first === "'" ? first : '';
      return { start: span.start, end: span.end, quote, ...(typeof id === 'string' ? { id } : {}) };
    }
    // no value yet, or one the parser could not place: what follows the key on this line
    const line = doc.lineAt(pos.line).text;
    const typed =
      formatOf(doc.fileName) === 'json'
        ? /^(\s*\{?\s*"model"\s*:\s*)("?[^"\s,}]*)$/.exec(line.slice(0, pos.character))
        : /^(model\s*:\s*)(["']?[^\s"'#]*)$/.exec(line.slice(0, pos.character));
    if (!typed) return undefined;
    const start = doc.offsetAt(new vscode.Position(pos.line, typed[1]!.length));
    const rest = /^[^\s,}"'#]*["']?/.exec(line.slice(pos.character))?.[0] ?? '';
    const written = typed[2]!;
    const quote = written.startsWith('"') || written.startsWith("'") ? written[0]! : '';
    return { start, end: offset + rest.length, quote };
  }
}

/** "1M context · max_tokens up to 128,000" */
function limits(info: ModelInfo): string {
  const max =
    info.maxOutputTokens !== undefined ? `max_tokens up to ${fmt(info.maxOutputTokens)}` : 'max_tokens: no limit known';
  return `${fmt(info.contextWindow)} context · ${max}`;
}

/** Where the facts come from, in a sentence. */
function source(loaded: LoadedModels): string {
  const when = loaded.fetchedAt ? new Date(loaded.fetchedAt).toLocaleString('en-US') : '';
  if (loaded.source === 'service') return `From the service's model list, fetched ${when}.`;
  if (loaded.source === 'kept')
    return loaded.problem
      ? `From the service's model list kept from ${when}: the service cannot be reached (${loaded.problem}).`
      : `From the service's model list, kept from ${when}.`;
  return `From the built-in table${loaded.problem ? ` (no model list from the service: ${loaded.problem})` : ''}.`;
}

/** A model in Markdown: its name, limits and capabilities, and where the facts come from. */
function describe(id: string, info: ModelInfo, loaded: LoadedModels, aliasOf?: string): string {
  const title = info.displayName ? `**${info.displayName}** \`${id}\`` : `\`${id}\``;
  const alias = aliasOf ? ` — alias of \`${aliasOf}\`` : '';
  const listed = !!info.service;
  const status =
    info.status === 'retired'
      ? '\n\n$(error) Retired: requests to it fail.'
      : info.status === 'deprecated'
        ? `\n\n$(warning) Deprecated${info.retires ? `; retirement scheduled for ${info.retires}` : ''}.`
        : '';
  const caps = validator()
    .capabilityLines(info)
    .map(l => `- ${l}`)
    .join('\n');
  const from =
    listed || loaded.source === 'builtin' ? source(loaded) : 'From the built-in table: the service does not list it.';
  return [
    `${title}${alias}${status}`,
    `Context window: **${fmt(info.contextWindow)}** tokens · ${limits(info).split(' · ')[1]}`,
    caps,
    `*${from}*`,
  ].join('\n\n');
}
