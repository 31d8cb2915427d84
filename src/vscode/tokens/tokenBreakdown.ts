import * as vscode from 'vscode';
import { partDeltas, signedTokens } from '../../core/tokens/deltas';
import { tokenBreakdown, type Count, type Part } from '../../core/tokens/breakdown';
import { formatOf } from '../../core/fileNames';
import { partLenses } from '../../core/language/lenses';
import type { GitBase } from '../git/gitBase';
import type { Api } from '../platform/api';
import { Config, endpointOf, isRequestFile } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import type { RequestDiagnostics } from '../request/requestDiagnostics';
import { count } from '../../core/text';
import { Disposable } from '../platform/lifecycle';

/** Each part's change against the same part of the file at the base revision. */
type BaseChange = { ref: string; deltas: Map<string, number | null> } | { ref: string; isNew: true };

/** "Promptwright: Token Breakdown": counts per part, shown as CodeLenses above each part. */
export class TokenBreakdown extends Disposable implements vscode.CodeLensProvider {
  private readonly results = new Map<string, { version: number; parts: Part[]; base?: BaseChange }>();
  private readonly cache = new Map<string, number>();
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly config: Config,
    private readonly api: Api,
    private readonly diagnostics: RequestDiagnostics,
    private readonly git?: GitBase,
  ) {
    super();
    this.register(
      vscode.languages.registerCodeLensProvider([{ language: 'json' }, { language: 'yaml' }], this),
      vscode.workspace.onDidChangeTextDocument(e => {
        if (this.results.has(e.document.uri.toString())) this.changed.fire();
      }),
    );
  }

  /** Runs the breakdown for the active request file; returns the parts (tests read them). */
  async run(): Promise<Part[] | undefined> {
    const ed = vscode.window.activeTextEditor;
    if (!ed || !isRequestFile(ed.document, this.config)) {
      void vscode.window.showInformationMessage('Promptwright: open a request file to see where its tokens go.');
      return undefined;
    }
    if (!(await this.api.ready('Token Breakdown'))) return undefined;
    const doc = ed.document;
    const st = this.diagnostics.current(doc);
    const body = st?.validation.parsed.value;
    if (
      !body ||
      typeof body !== 'object' ||
      Array.isArray(body) ||
      st.validation.parsed.problems.some(p => p.severity === 'error')
    ) {
      void this.api.showError(
        'fix the syntax errors first; the breakdown needs a request that parses.',
        'Token Breakdown',
      );
      return undefined;
    }
    const version = doc.version;
    try {
      const { parts, base } = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: 'Promptwright: counting tokens per part…',
          cancellable: true,
        },
        async (_p, token) => {
          const ctl = new AbortController();
          token.onCancellationRequested(() => ctl.abort());
          const client = await this.api.client();
          const countOne: Count = async (b, signal) =>
            (await client.countTokens(b, signal ? { signal } : {})).input_tokens;
          const o = { cache: this.cache, signal: ctl.signal, concurrency: 4 };
          const parts = await tokenBreakdown(body as Record<string, unknown>, countOne, o);
          const base = await this.baseChange(doc, parts, countOne, o);
          return { parts, base };
        },
      );
      this.results.set(doc.uri.toString(), { version, parts, ...(base ? { base } : {}) });
      this.changed.fire();
      return parts;
    } catch (e) {
      await this.api.showError(e, 'Token breakdown failed');
      return undefined;
    }
  }

  /**
   * The same breakdown of the file at the base revision, set against this one part by part (the counts go
   * through the same cache: the prefixes both versions share cost nothing). Undefined outside git, or when
   * the base version cannot be broken down (it does not parse).
   */
  private async baseChange(
    doc: vscode.TextDocument,
    parts: Part[],
    countOne: Count,
    o: { cache: Map<string, number>; signal: AbortSignal; concurrency: number },
  ): Promise<BaseChange | undefined> {
    const ref = this.config.compareBase;
    if (!this.git || !ref) return undefined;
    const base = await this.git.textAt(doc.uri, ref);
    if (base.kind === 'new') return { ref, isNew: true };
    if (base.kind !== 'text') return undefined;
    const v = coreBundle().validateText(base.text, formatOf(doc.fileName), {
      betas: this.config.betas,
      endpoint: endpointOf(doc, this.config) ?? 'messages',
    });
    const value = v.parsed.value;
    if (
      v.parsed.problems.some(p => p.severity === 'error') ||
      !value ||
      typeof value !== 'object' ||
      Array.isArray(value)
    )
      return undefined;
    const baseParts = await tokenBreakdown(value as Record<string, unknown>, countOne, o);
    return { ref, deltas: partDeltas(parts, baseParts) };
  }

  /** " · +12 vs HEAD", " · same as HEAD", " · new vs HEAD". */
  private static changeOf(base: BaseChange | undefined, label: string): string {
    if (!base) return '';
    if ('isNew' in base) return ` · new vs ${base.ref}`;
    const d = base.deltas.get(label);
    if (d === undefined) return '';
    if (d === null) return ` · new vs ${base.ref}`;
    return d === 0 ? ` · same as ${base.ref}` : ` · ${signedTokens(d)} vs ${base.ref}`;
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const r = this.results.get(doc.uri.toString());
    const st = this.diagnostics.state(doc);
    if (!r || !st) return [];
    const stale = r.version !== doc.version;
    const lenses = partLenses(r.parts, st.validation.parsed, p => ({
      // words only: an icon before the number reads as part of it ("#102 tokens")
      title:
        count(p.tokens, 'token') + TokenBreakdown.changeOf(r.base, p.label) + (stale ? ' (before your last edit)' : ''),
      tooltip:
        `${p.label}: input tokens counted by the service` +
        (r.base ? `, and the change against the same part in ${r.base.ref}` : '') +
        '. Run "Token Breakdown" again after editing.',
    }));
    return lenses.map(({ start, ...l }) => {
      const pos = doc.positionAt(start);
      return new vscode.CodeLens(new vscode.Range(pos, pos), { ...l, command: 'promptwright.tokenBreakdown' });
    });
  }
}
