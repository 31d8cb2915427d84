// Rate limits at activation: the view (its tree loads with the features) and its commands.
import * as vscode from 'vscode';
import { textOf, type Activation } from '../platform/activation';
import { LazyTree } from '../platform/lazyTree';
import type { RateLimitNode, RateLimitsTree } from './rateLimitsTree';

/** Registers the view and its commands; returns the view (Show Rate Limits reveals a workspace in it). */
export function registerRateLimits(a: Activation<{ rateLimits: RateLimitsTree }>): vscode.TreeView<RateLimitNode> {
  const { lazy, features } = a;
  const tree = new LazyTree(async () => (await features()).rateLimits);
  const view = vscode.window.createTreeView('promptwright.rateLimits', { treeDataProvider: tree });
  a.context.subscriptions.push(
    tree,
    view,
    lazy('promptwright.addRateLimitWorkspace', (f, id) => f.rateLimits.addWorkspace(textOf(id))),
    lazy('promptwright.removeRateLimitWorkspace', (f, n) => f.rateLimits.removeWorkspace(n as RateLimitNode)),
    lazy('promptwright.refreshRateLimits', f => f.rateLimits.refresh()),
  );
  return view;
}
