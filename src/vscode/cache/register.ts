// Cache breakpoints at activation: Count Cache Breakpoints, whose lenses come with the editor bundle.
import * as vscode from 'vscode';
import { uriOf, type Activation } from '../platform/activation';
import type { CacheBreakpoints } from './cacheBreakpoints';

export function registerCache(a: Activation<unknown, { cache: CacheBreakpoints }>): void {
  a.context.subscriptions.push(
    vscode.commands.registerCommand('promptwright.countCacheBreakpoints', (arg?: unknown) =>
      a.editor().cache.countNow(uriOf(arg)),
    ),
  );
}
