// Prompt test cases at activation: the Test Explorer's controller (it lists case files from the start and asks for
// them, loading the features, when shown), the grid's commands, and the grid VS Code restores after a reload.
import * as vscode from 'vscode';
import { CASES_VIEW_TYPE } from '../../protocol/cases';
import { textOf, uriOf, type Activation } from '../platform/activation';
import type { CasesPanel } from './casesPanel';
import { createCasesTestController, type CasesTestController, type CasesTestHandlers } from './casesTestController';

/** Registers the controller and the commands; returns the controller (the features bundle fills its items). */
export function registerCases(
  a: Activation<{ cases: CasesPanel; casesTests: CasesTestHandlers }>,
): CasesTestController {
  const { lazy, features } = a;
  const casesTesting = createCasesTestController(async () => (await features()).casesTests);
  a.context.subscriptions.push(
    casesTesting,
    vscode.window.registerWebviewPanelSerializer(CASES_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => (await features()).cases.adopt(panel, state),
    }),
    lazy('promptwright.runCases', (f, arg) => f.cases.runCases(uriOf(arg))),
    // from the palette (the active case file or the grid's) or the grid's toolbar; a string argument answers N
    lazy('promptwright.runCasesSample', (f, arg, answer) => f.cases.runSample(uriOf(arg), textOf(answer))),
    // from the editor's title (its file), the palette (the active case file or the grid's) or the grid's toolbar
    lazy('promptwright.compareCases', (f, arg, ref) => f.cases.compareCases(uriOf(arg), textOf(ref))),
    lazy('promptwright.cancelCases', f => f.cases.cancel()),
    lazy('promptwright.showCases', (f, arg) => f.cases.show(uriOf(arg))),
  );
  return casesTesting;
}
