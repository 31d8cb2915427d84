// The response panel's Use Fixture and Run to End answer a reply's tool calls as a case file naming the request
// answers them in its cells: its `tools:` entries, then the answers recorded beside it (core/cases/engine.ts
// cellToolsOf, read by core/tools/answers.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CellTools } from '../../core/tools/answers';
import { readFixtures, type CaseDiagnostics } from '../cases/caseDiagnostics';
import type { Api } from '../platform/api';
import { coreBundle } from '../platform/lazy';

/** Where the panel's fixtures come from: a case file naming the request. */
export interface FixtureSource {
  /** `agent.cases.yaml` */
  label: string;
  tools: CellTools;
}

/**
 * The fixtures to answer from: the only case file with tool answers that names the request, the one `chosen`
 * before, or the one picked. Undefined when there is none (said why) or the pick is dismissed.
 */
export async function chooseFixtures(
  cases: CaseDiagnostics,
  requestUri: vscode.Uri,
  api: Api,
  what: string,
  chosen?: string,
): Promise<FixtureSource | undefined> {
  await cases.ready;
  const items: (vscode.QuickPickItem & { source: FixtureSource })[] = [];
  for (const e of cases.forRequest(requestUri)) {
    const recorded = await readFixtures(e.uri);
    if (typeof recorded === 'string') {
      void api.showError(recorded, what);
      return undefined;
    }
    const label = vscode.workspace.asRelativePath(e.uri);
    if (e.file && (e.file.tools || recorded))
      items.push({
        label,
        source: { label, tools: coreBundle().cellToolsOf({ file: e.file, ...(recorded ? { recorded } : {}) }) },
      });
  }
  const again = items.find(i => i.label === chosen);
  if (again) return again.source;
  if (items.length < 2) {
    if (!items.length) void api.showError(`no case file with tools: names ${path.basename(requestUri.path)}`, what);
    return items[0]?.source;
  }
  return (await vscode.window.showQuickPick(items, { title: `${what}: answer from which case file?` }))?.source;
}
