// The token count of the active file's version at the base revision (promptwright.compare.base, HEAD by
// default), for the status bar's "+56 vs HEAD". The base version is read with git when asked (never at
// activation), parsed with the validator's parser, and counted through the status bar's own cache, which
// keys every count by its body: the base costs one call once, and none when it equals a body counted before.
import * as vscode from 'vscode';
import type { CountResult } from '../../core/tokens/scheduler';
import type { BaseCount } from '../../core/tokens/status';
import { formatOf } from '../../core/fileNames';
import { endpointOf, type Config } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import type { BaseText, GitBase } from '../git/gitBase';

export class BaseCounter {
  /** the parsed body of each base text (texts are kept by GitBase, so this follows them) */
  private readonly bodies = new WeakMap<BaseText, Record<string, unknown> | string>();

  constructor(
    private readonly git: GitBase,
    private readonly config: Config,
    private readonly count: (body: Record<string, unknown>, signal: AbortSignal) => Promise<CountResult>,
  ) {}

  /** The count of `doc` at the base; undefined outside git (or with no base set). */
  async countAt(doc: vscode.TextDocument, signal: AbortSignal): Promise<BaseCount | undefined> {
    const ref = this.config.compareBase;
    if (!ref) return undefined;
    const base = await this.git.textAt(doc.uri, ref);
    if (base.kind === 'none') return undefined;
    if (base.kind === 'new') return { ref, kind: 'new' };
    if (base.kind === 'error') return { ref, kind: 'error', message: base.message };
    const body = this.bodyOf(base, doc);
    if (typeof body === 'string') return { ref, kind: 'error', message: body };
    try {
      return { ref, kind: 'count', tokens: (await this.count(body, signal)).tokens };
    } catch (e) {
      return { ref, kind: 'error', message: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The base text's body, or why there is none. */
  private bodyOf(
    base: Extract<BaseText, { kind: 'text' }>,
    doc: vscode.TextDocument,
  ): Record<string, unknown> | string {
    let body = this.bodies.get(base);
    if (body === undefined) {
      const v = coreBundle().validateText(base.text, formatOf(doc.fileName), {
        betas: this.config.betas,
        endpoint: endpointOf(doc, this.config) ?? 'messages',
      });
      const value = v.parsed.value;
      const parses = !v.parsed.problems.some(p => p.severity === 'error');
      body =
        parses && value && typeof value === 'object' && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : 'it does not parse there';
      this.bodies.set(base, body);
    }
    return body;
  }
}
