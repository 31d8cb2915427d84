import * as vscode from 'vscode';
import { tokenBreakdown, type Part } from '../../core/tokens/breakdown';
import type { Api } from '../platform/api';
import { Config, isRequestFile } from '../platform/config';
import type { RequestDiagnostics } from '../request/requestDiagnostics';
import { count } from '../../core/text';

/** "Promptwright: Token Breakdown": counts per part, shown as CodeLenses above each part. */
export class TokenBreakdown implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly results = new Map<string, { version: number; parts: Part[] }>();
  private readonly cache = new Map<string, number>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly config: Config,
    private readonly api: Api,
    private readonly diagnostics: RequestDiagnostics,
  ) {
    this.disposables.push(
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
      void vscode.window.showWarningMessage(
        'Promptwright: fix the syntax errors first; the breakdown needs a request that parses.',
      );
      return undefined;
    }
    const version = doc.version;
    try {
      const parts = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: 'Promptwright: counting tokens per part…',
          cancellable: true,
        },
        async (_p, token) => {
          const ctl = new AbortController();
          token.onCancellationRequested(() => ctl.abort());
          const client = await this.api.client();
          return tokenBreakdown(
            body as Record<string, unknown>,
            async (b, signal) => (await client.countTokens(b, signal ? { signal } : {})).input_tokens,
            { cache: this.cache, signal: ctl.signal, concurrency: 4 },
          );
        },
      );
      this.results.set(doc.uri.toString(), { version, parts });
      this.changed.fire();
      return parts;
    } catch (e) {
      await this.api.showError(e, 'Token breakdown failed');
      return undefined;
    }
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const r = this.results.get(doc.uri.toString());
    const st = this.diagnostics.state(doc);
    if (!r || !st) return [];
    const stale = r.version !== doc.version;
    const lenses: vscode.CodeLens[] = [];
    // one walk of the text for every part's place (a message list can be long)
    const locate = st.validation.parsed.locateMany(r.parts.map(p => p.path));
    for (const p of r.parts) {
      const span = locate(p.path, p.path.length === 1) ?? locate(p.path);
      if (!span) continue;
      const pos = doc.positionAt(span.start);
      lenses.push(
        new vscode.CodeLens(new vscode.Range(pos, pos), {
          // words only: an icon before the number reads as part of it ("#102 tokens")
          title: count(p.tokens, 'token') + (stale ? ' (before your last edit)' : ''),
          tooltip: `${p.label}: input tokens counted by the service. Run "Token Breakdown" again after editing.`,
          command: 'promptwright.tokenBreakdown',
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
