// Message Batches at activation: the Batches view (its tree loads with the features), its commands, and the
// batches a window before this one left running.
import * as vscode from 'vscode';
import type { Activation } from '../platform/activation';
import { LazyTree } from '../platform/lazyTree';
import type { BatchesView, BatchNode } from './batchesView';
import { PENDING_BATCHES_KEY } from './pending';

export function registerBatches(a: Activation<{ batches: BatchesView }>): void {
  const { lazy, features } = a;
  const tree = new LazyTree(async () => (await features()).batches);
  const node = (n: unknown) => n as BatchNode | undefined;
  a.context.subscriptions.push(
    tree,
    vscode.window.registerTreeDataProvider('promptwright.batches', tree),
    lazy('promptwright.refreshBatches', f => f.batches.refresh()),
    lazy('promptwright.cancelBatch', (f, n) => f.batches.cancel(node(n))),
    lazy('promptwright.collectBatch', (f, n) => f.batches.collect(node(n))),
  );
  // batches submitted before a reload that have not ended: polled again from the start
  if (a.context.globalState.get<number>(PENDING_BATCHES_KEY, 0) > 0) void features().then(f => f.batches.reload());
}
