import * as vscode from 'vscode';
import type { PromptwrightApi } from '../../src/extension';
import type { Prompts } from '../../src/vscode/platform/prompts';
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
    await (await api()).keys.set('api', holder.fake.apiKey);
  });
  after(async () => {
    for (const r of restore.splice(0)) await r();
    const a = await api();
    await a.keys.clear('api');
    await a.keys.clear('admin');
    await a.keys.clear('compliance');
    await holder.fake.close();
  });
  return holder;
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
