// The columns of a comparison: each a model and a version of the request (the working copy, the file at a
// git revision, or another request file), chosen in a few quick picks, and made into the body each sends:
// the version's text parsed, its model set, and checked as Send checks a request. A version that is not
// there, does not parse or has errors is not sent; its column says why.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { pointer } from '../../core/request/types';
import { formatOf } from '../../core/fileNames';
import { MODELS } from '../../core/models/table';
import { MAX_COLUMNS } from '../../protocol/compare';
import type { Config } from '../platform/config';
import { coreBundle } from '../platform/lazy';
import type { Prompts } from '../platform/prompts';
import type { GitBase } from '../git/gitBase';

type VersionSpec = { kind: 'working' } | { kind: 'ref'; ref: string } | { kind: 'file'; uri: vscode.Uri };

/** One column as chosen: a model and a version. */
export interface ColumnSpec {
  model: string;
  version: VersionSpec;
}

/** A column made ready: its version's name, and its body or why it has none. */
export interface ResolvedColumn {
  spec: ColumnSpec;
  version: string;
  body?: Record<string, unknown>;
  problems?: string[];
}

function versionName(v: VersionSpec): string {
  if (v.kind === 'working') return 'working copy';
  if (v.kind === 'ref') return v.ref;
  return vscode.workspace.asRelativePath(v.uri);
}

/** The working copy against the base revision, both on the file's model: what Compare does by default. */
function defaultColumns(model: string, base: string): ColumnSpec[] {
  return [
    { model, version: { kind: 'working' } },
    { model, version: { kind: 'ref', ref: base } },
  ];
}

/** Each column's body for `uri`, or its problems. */
export async function resolveColumns(
  uri: vscode.Uri,
  specs: readonly ColumnSpec[],
  deps: { git: GitBase; config: Config },
): Promise<ResolvedColumn[]> {
  return Promise.all(
    specs.map(async spec => {
      const version = versionName(spec.version);
      const text = await textOf(uri, spec.version, deps.git);
      if (typeof text !== 'string') return { spec, version, problems: [text.problem] };
      const fileName = spec.version.kind === 'file' ? spec.version.uri.fsPath : uri.fsPath;
      return { spec, version, ...bodyOf(text, fileName, spec.model, deps.config.betas) };
    }),
  );
}

async function textOf(uri: vscode.Uri, v: VersionSpec, git: GitBase): Promise<string | { problem: string }> {
  if (v.kind !== 'ref') {
    try {
      return (await vscode.workspace.openTextDocument(v.kind === 'file' ? v.uri : uri)).getText();
    } catch (e) {
      return { problem: `The file cannot be read: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  const base = await git.textAt(uri, v.ref);
  switch (base.kind) {
    case 'text':
      return base.text;
    case 'new':
      return { problem: `${path.basename(uri.fsPath)} is not in ${v.ref}: it is new since.` };
    case 'none':
      return { problem: `The file is not in a git repository: there is no ${v.ref} to compare with.` };
    case 'error':
      return { problem: `The version in ${v.ref} cannot be read: ${base.message}` };
  }
}

/** The body a version sends on `model`, checked for the messages endpoint; errors keep it from being sent. */
function bodyOf(
  text: string,
  fileName: string,
  model: string,
  betas: string[],
): { body: Record<string, unknown> } | { problems: string[] } {
  const v = coreBundle();
  const parsed = v.validateText(text, formatOf(fileName), { betas, endpoint: 'messages' }).parsed;
  const value = parsed.value;
  if (parsed.problems.some(p => p.severity === 'error') || !value || typeof value !== 'object' || Array.isArray(value))
    return { problems: ['The file does not parse as one object (the body of POST /v1/messages).'] };
  const body = { ...(value as Record<string, unknown>), model };
  const errors = v
    .validateText(JSON.stringify(body), 'json', { betas, endpoint: 'messages' })
    .problems.filter(p => p.severity === 'error');
  if (errors.length) return { problems: errors.map(p => `${p.code} at ${pointer(p.path) || '/'}: ${p.message}`) };
  return { body };
}

type Choice<T> = vscode.QuickPickItem & { value: T };

/**
 * Asks which columns to compare: the default (the working copy against the base, on the file's model), or
 * columns chosen one by one (a version, then a model), at least two. Undefined when the person cancels.
 */
export async function chooseColumns(
  prompts: Prompts,
  o: { fileModel: string; base: string; requestFiles: () => Thenable<vscode.Uri[]>; current: vscode.Uri },
): Promise<ColumnSpec[] | undefined> {
  const start = await prompts.pick<Choice<'default' | 'choose'>>(
    [
      {
        label: `$(git-compare) Working copy vs ${o.base}`,
        description: o.fileModel,
        detail: `The file as it is now beside the file in ${o.base}, on its own model`,
        value: 'default',
      },
      { label: '$(add) Choose columns…', detail: 'Models and versions of your choice, side by side', value: 'choose' },
    ],
    { title: 'Compare', placeHolder: 'What to compare?' },
  );
  if (!start) return undefined;
  if (start.value === 'default') return defaultColumns(o.fileModel, o.base);
  const columns: ColumnSpec[] = [];
  while (columns.length < MAX_COLUMNS) {
    const done: Choice<'done'>[] =
      columns.length >= 2 ? [{ label: `$(check) Compare these ${columns.length} columns`, value: 'done' }] : [];
    const chosen = columns.map((c, i) => `${i + 1}: ${versionName(c.version)} · ${c.model}`).join('  ');
    const kind = await prompts.pick<Choice<'done' | 'working' | 'ref' | 'file'>>(
      [
        ...done,
        { label: '$(edit) Working copy', detail: 'The file as it is in the editor', value: 'working' },
        { label: '$(git-commit) A git revision…', detail: 'HEAD, a branch, a tag or a commit', value: 'ref' },
        { label: '$(file) Another request file…', value: 'file' },
      ],
      { title: `Compare: column ${columns.length + 1}`, placeHolder: chosen || 'The version of this column' },
    );
    if (!kind) return undefined;
    if (kind.value === 'done') break;
    let version: VersionSpec;
    if (kind.value === 'working') version = { kind: 'working' };
    else if (kind.value === 'ref') {
      const ref = await prompts.input({
        title: `Compare: column ${columns.length + 1}`,
        prompt: 'A git revision: HEAD, HEAD~1, a branch, a tag or a commit',
        value: o.base,
        validateInput: v => (v.trim() && !v.trim().startsWith('-') ? undefined : 'A revision name.'),
      });
      if (!ref?.trim()) return undefined;
      version = { kind: 'ref', ref: ref.trim() };
    } else {
      const files = (await o.requestFiles()).filter(u => u.toString() !== o.current.toString());
      const file = await prompts.pick<Choice<vscode.Uri>>(
        files.map(u => ({ label: vscode.workspace.asRelativePath(u), value: u })),
        { title: `Compare: column ${columns.length + 1}`, placeHolder: 'Another request file' },
      );
      if (!file) return undefined;
      version = { kind: 'file', uri: file.value };
    }
    const models = [o.fileModel, ...MODELS.filter(m => m.status !== 'retired' && !m.base).map(m => m.id)];
    const model = await prompts.pick<Choice<string>>(
      [...new Set(models.filter(Boolean))].map((id, i) => ({
        label: id,
        ...(i === 0 && id === o.fileModel ? { description: 'the file’s model' } : {}),
        value: id,
      })),
      { title: `Compare: column ${columns.length + 1} (${versionName(version)})`, placeHolder: 'The model' },
    );
    if (!model) return undefined;
    columns.push({ model: model.value, version });
  }
  return columns;
}
