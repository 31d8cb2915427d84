// The core bundle (loaded by coreBundle(), src/vscode/platform/lazy.ts): zod, yaml and jsonc-parser, most of the
// extension's bytes, and the core work that reads files with them (checks, language features, the case and compare
// engines). It is loaded when a request file is first checked, not when the extension activates (VS Code activates
// Promptwright for every JSON file). It is dist/core.js.
export { appendItems, appendReply } from './core/run/append';
export { answerCall, answerText, callLabel, DEFAULT_MAX_TURNS, MAX_ANSWER_CHARS } from './core/tools/answers';
export { ToolLoop } from './core/tools/loop';
export { fixEdits } from './core/request/fixes';
export { validateText } from './core/request/validate';
export { cacheViewOf, checkRequestText, requestProblems } from './core/language/diagnostics';
// the language features both front ends share (core/language): they read the file with the same parsers
export { caseFixActions, fixActions } from './core/language/fixActions';
export { templateCompletions } from './core/language/templateCompletion';
// what requestTemplates() returns, computed when this bundle is built (scripts/bundles.mjs): no JSON Schema writer
export { requestTemplates } from './core/request/requestTemplates';
export { schemaCompletions, schemaHover } from './core/language/schemaAssist';
export {
  chooseModelFix,
  modelCompletions,
  modelHover,
  modelLimits,
  modelsSource,
  modelValueAt,
} from './core/language/modelAssist';
export { checkCaseText, couldNotCheck } from './core/language/caseCheck';
export { caseFileSize, placeholderHover, varsCompletions } from './core/language/caseAssist';
// Case files are read with the same parser and checked with zod too: they share this bundle
// rather than carry a second copy of both into the features bundle.
export { CaseFileSchema, parseCaseFile, requestNotFound } from './core/cases/caseFile';
export { crossCheck, valuesByCase } from './core/cases/crossCheck';
export { cellsOf } from './core/cases/runner';
// the case-run engine: samples, the judge and cost, the same as the CLI's
export { cellToolsOf, requestCount, requestCountWords, runCells } from './core/cases/engine';
export { fixturesPathOf, parseFixtures } from './core/tools/fixtures';
// its second transport, Message Batches: a resumable run, the transport (the CLI's, the same)
export { BatchRounds } from './core/cases/batchRounds';
export { BatchSession } from './core/batches/session';
// the Batches view's store, poller and client: one copy, with the runs' (vscode/batches/batchesView.ts)
export { BatchesClient } from './core/api/batches';
export { waitUntilEnded } from './core/batches/poll';
export { BatchStore } from './core/batches/store';
export { batchTransport } from './core/cases/batchTransport';
export { DirectoryVerdictCache } from './core/cases/verdictCache';
export { costOf, costWords } from './core/cost/cost';
export { parsePrices, priceTable } from './core/cost/prices';
export {
  compareResults,
  gradeFor,
  keptFolder,
  mergeResults,
  parseResults,
  resultsName,
  resultsPath,
  serializeResults,
  withGrade,
  writeKept,
} from './core/cases/results';
// The service's model list merged over the built-in table: the editor builds it here, where the rules that
// read it already are, rather than carry a second copy of the table into the features bundle.
export { builtinEntries, capabilityLines, ModelCatalog, parseModelList } from './core/models/catalog';
export { lookupModel } from './core/models/table';
// The compare runner sends through the cases' engine: it shares this bundle for the same reason.
export { runColumns, sampleDifferences, sendWith } from './core/compare/runner';
// Reading git revisions spawns processes: loaded with the first check, never at activation.
export { GitError, GitRepo } from './core/git/git';
// A case file at a git revision (the Cases grid's "Compare with…"), read and checked as `test --base` does.
export { caseFileAt, revisionSource } from './core/cases/versions';
// A run made ready as every front end makes it (core/cases/session.ts), the files read as the editor has them.
export { readText } from './core/cases/load';
export { recordText } from './core/request/records';
export {
  batchJobsOf,
  directRun,
  filledCells,
  openCaseFile,
  rubricsWithoutJudge,
  versionCells,
} from './core/cases/session';
// the grid's cases from a dataset, and Run Sample…'s choice of them: the same as `test --sample N --seed S`
export { datasetFormatOf } from './core/cases/caseFile';
export { scanSuite } from './core/cases/suite';
export { Chooser } from './core/cases/choose';
// Generated test cases and improved prompts (Generate Test Cases…, Improve Prompt…): the prompts, the answers
// read, and the edits of the author's files, which need yaml and jsonc-parser like the rest of this bundle.
export { casesRequest, generateCases, improvementRequest, improvePrompt, withCases } from './core/coauthor/coauthor';
export { DEFAULT_CASES, MAX_CASES } from './core/coauthor/generate';
