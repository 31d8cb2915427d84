import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { CountState } from '../../src/core/tokens/scheduler';
import type { PromptwrightApi } from '../../src/extension';
import type { Prompts } from '../../src/vscode/platform/prompts';
import type { KeyKind } from '../../src/vscode/platform/secrets';
import { startFake, type Fake, type FakeOptions } from '../fake/server';

export const EXTENSION_ID = 'promptwright.promptwright';

export async function api(): Promise<PromptwrightApi> {
  const ext = vscode.extensions.getExtension<PromptwrightApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this extension host`);
  return ext.activate();
}

export function workspaceUri(...segments: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the test workspace has no folder');
  return vscode.Uri.joinPath(folder.uri, ...segments);
}

const written: vscode.Uri[] = [];

/** Writes a file into the test workspace for one test; `removeWrittenFiles` (in an afterEach) deletes it. */
export async function writeWorkspaceFile(name: string, text: string): Promise<vscode.Uri> {
  const uri = workspaceUri(name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  written.push(uri);
  // a document an earlier test left open (edited, or its file deleted since) keeps its text when the file is written
  // again: it is read again, so each test starts from the file it wrote whatever ran before it
  const doc = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri.toString());
  if (doc && doc.getText() !== text) {
    // reverted and closed in one command, which never asks whether to save
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor(`${name} read again`, () => doc.isClosed || doc.getText() === text);
  }
  return uri;
}

/** Deletes what `writeWorkspaceFile` wrote, and any other file a test names (`also`). */
export async function removeWrittenFiles(...also: vscode.Uri[]): Promise<void> {
  for (const uri of [...written.splice(0), ...also])
    await Promise.resolve(vscode.workspace.fs.delete(uri)).catch(() => undefined); // already gone is fine
}

/** Polls until fn returns a truthy value (or throws after timeoutMs with the last value in the message). */
export async function waitFor<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 10000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await new Promise(r => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
}

/**
 * Opens a file of the test workspace and makes it the active editor, focused (so that `undo` and the
 * commands that act on the active editor reach it).
 */
export async function openEditor(...segments: string[]): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(workspaceUri(...segments));
  const editor = await vscode.window.showTextDocument(doc);
  await waitFor(`${segments.join('/')} as the active editor`, () => vscode.window.activeTextEditor?.document === doc);
  return editor;
}

/**
 * Closes every editor and panel. Unsaved edits a test left are dropped first: closing a changed file would
 * ask whether to save it, a dialog the test workbench refuses to show.
 */
export async function closeEditors(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter(d => d.isDirty)) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

type Count = Extract<CountState, { kind: 'count' }>;

/**
 * Runs `action` (opening a file, typing, a command) and waits for the status bar to show a token count after
 * it, one that `accept` takes: the count an earlier file left in the status bar is not it.
 */
export async function countShownAfter(
  action: () => PromiseLike<unknown>,
  accept: (s: Count) => boolean = () => true,
): Promise<Count> {
  const tokens = (await api()).tokens;
  let shown: Count | undefined;
  const listening = tokens.onDidChangeState(s => {
    if (s.kind === 'count' && accept(s)) shown ??= s;
  });
  try {
    await action();
    return await waitFor('a token count', () => shown);
  } finally {
    listening.dispose();
  }
}

const KEY_KINDS: readonly KeyKind[] = ['api', 'admin', 'compliance'];

/**
 * Stores (a string) or clears (undefined) a key and waits until the extension has heard of it, so that the
 * views refreshing on a new key do so now and not in the middle of the next test.
 */
export async function setKey(kind: KeyKind, value: string | undefined): Promise<void> {
  const keys = (await api()).keys;
  if ((await keys.get(kind)) === value) return;
  let heard = false;
  const listening = keys.onDidChange(k => {
    if (k === kind) heard = true;
  });
  try {
    await (value === undefined ? keys.clear(kind) : keys.set(kind, value));
    await waitFor(`the extension to hear of the new ${kind} key`, () => heard);
  } finally {
    listening.dispose();
  }
}

/** Mocha hooks: whatever a test does to the keys, each is put back afterwards as it was before the test. */
export function restoreKeysAfterEach(): void {
  let saved: [KeyKind, string | undefined][] = [];
  beforeEach(async () => {
    const keys = (await api()).keys;
    saved = await Promise.all(KEY_KINDS.map(async k => [k, await keys.get(k)] as [KeyKind, string | undefined]));
  });
  afterEach(async () => {
    for (const [kind, value] of saved) await setKey(kind, value);
  });
}

/** Sets a promptwright user setting for a suite; the returned function puts the previous value back. */
export async function setSetting(key: string, value: unknown): Promise<() => Promise<void>> {
  const cfg = vscode.workspace.getConfiguration('promptwright');
  const previous = cfg.inspect(key)?.globalValue;
  await cfg.update(key, value, vscode.ConfigurationTarget.Global);
  return () =>
    Promise.resolve(
      vscode.workspace.getConfiguration('promptwright').update(key, previous, vscode.ConfigurationTarget.Global),
    );
}

/**
 * Mocha hooks for a suite that talks to its own fake service: starts it, points `promptwright.baseUrl`
 * (and any other settings given) at it, stores the API key, and undoes all of that afterwards.
 */
export function useFake(opts: FakeOptions, settings: Record<string, unknown> = {}): { fake: Fake } {
  const holder = {} as { fake: Fake };
  const restore: (() => Promise<void>)[] = [];
  before(async () => {
    holder.fake = await startFake(opts);
    restore.push(await setSetting('baseUrl', holder.fake.url));
    for (const [k, v] of Object.entries(settings)) restore.push(await setSetting(k, v));
    await setKey('api', holder.fake.apiKey);
  });
  after(async () => {
    for (const r of restore.splice(0)) await r();
    for (const kind of KEY_KINDS) await setKey(kind, undefined);
    await holder.fake.close();
  });
  return holder;
}

/** Every error a person was shown (Api.showError's text) while `run` ran. */
export async function errorsDuring(run: () => PromiseLike<unknown>): Promise<string[]> {
  const shown: string[] = [];
  const sub = (await api()).api.onDidShowError(t => shown.push(t));
  try {
    await run();
  } finally {
    sub.dispose();
  }
  return shown;
}

export type Answer = string | boolean | undefined;

/**
 * Answers dialogs in order (the commands' Prompts seam): a string picks the item with that label, types the
 * text or names the file to save; true confirms; false or undefined cancels. `seen` records what was asked.
 */
export function scripted(answers: Answer[], seen: string[] = []): Prompts {
  const next = () => {
    if (!answers.length) throw new Error('the command asked more than the script answers');
    return answers.shift();
  };
  return {
    confirm: (message, _detail, action) => {
      seen.push(`confirm: ${message} [${action}]`);
      return Promise.resolve(next() === true);
    },
    pick: (items, options) => {
      seen.push(`pick: ${options.title ?? ''}: ${items.map(i => i.label).join('|')}`);
      const a = next();
      return Promise.resolve(typeof a === 'string' ? items.find(i => i.label === a) : undefined);
    },
    input: async options => {
      seen.push(`input: ${options.title ?? ''}`);
      const a = next();
      if (typeof a !== 'string') return undefined;
      const problem = await options.validateInput?.(a);
      // an information or a warning lets the name through, as the input box does; an error does not
      if (problem && (typeof problem === 'string' || problem.severity === vscode.InputBoxValidationSeverity.Error)) {
        const why = typeof problem === 'string' ? problem : problem.message;
        throw new Error(`the input box would refuse "${a}": ${why}`);
      }
      return a;
    },
    saveAs: options => {
      seen.push(`saveAs: ${options.title ?? ''}`);
      const a = next();
      return Promise.resolve(typeof a === 'string' ? vscode.Uri.file(a) : undefined);
    },
  };
}

/** How a suite of case runs ends: the runner stopped and idle, no editor left open, its folders gone. */
export async function endCaseRuns(...folders: string[]): Promise<void> {
  const f = await (await api()).features();
  f.cases.cancel();
  await f.cases.idle();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  for (const folder of folders) fs.rmSync(workspaceUri(folder).fsPath, { recursive: true, force: true });
}
