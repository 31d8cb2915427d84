// The Test Explorer's entry to case files, made at activation so that VS Code lists Promptwright's cases in
// the Testing view and in the gutter. It costs nothing there: no file is searched or read until VS Code asks
// for the tests (the Testing view opens, or a run is asked for), and what answers (casesTests.ts) is in the
// features bundle, loaded then.
import * as vscode from 'vscode';

const CASES_TEST_CONTROLLER_ID = 'promptwright.cases';

/** What answers the Test Explorer (casesTests.ts, in the features bundle). */
export interface CasesTestHandlers {
  /** undefined: every case file of the workspace (found then, not at activation) */
  resolve(item: vscode.TestItem | undefined): Promise<void>;
  /** `batch`: the "Run as Batch (half price)" profile */
  run(request: vscode.TestRunRequest, token: vscode.CancellationToken, batch?: boolean): Promise<void>;
}

export interface CasesTestController extends vscode.Disposable {
  controller: vscode.TestController;
  /** the Run profile (the Test Explorer's and the gutter's run buttons) */
  runProfile: vscode.TestRunProfile;
  /** the second Run profile: the cells as a Message Batch, at half the price (they fill when it ends) */
  batchProfile: vscode.TestRunProfile;
}

export function createCasesTestController(handlers: () => Promise<CasesTestHandlers>): CasesTestController {
  const controller = vscode.tests.createTestController(CASES_TEST_CONTROLLER_ID, 'Promptwright Cases');
  controller.resolveHandler = async item => (await handlers()).resolve(item);
  controller.refreshHandler = async () => (await handlers()).resolve(undefined);
  const runProfile = controller.createRunProfile(
    'Run Cases',
    vscode.TestRunProfileKind.Run,
    async (request, token) => (await handlers()).run(request, token),
    true,
  );
  const batchProfile = controller.createRunProfile(
    'Run as Batch (half price)',
    vscode.TestRunProfileKind.Run,
    async (request, token) => (await handlers()).run(request, token, true),
    false,
  );
  return { controller, runProfile, batchProfile, dispose: () => controller.dispose() };
}
