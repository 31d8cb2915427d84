// The request-file checker as a bundle of its own (dist/validator.js): it holds zod, yaml and
// jsonc-parser, most of the extension's bytes, so it is loaded when a request file is first checked, not
// when the extension activates (VS Code activates Promptwright for every JSON file).
export { appendReply } from './core/run/append';
export { fixEdits } from './core/request/fixes';
export { renderTemplate, slotAt } from './core/request/templates';
export { validateText } from './core/request/validate';
// completion and hover of YAML files where no YAML extension reads the JSON Schema (vscode/request/yamlAssist.ts)
export { requestValueHints, yamlCompletions, yamlHover } from './core/request/yamlAssist';
export { CountTokensBody, RequestBody } from './core/request/schema';
// Case files are read with the same parser and checked with zod too: they share this bundle
// rather than carry a second copy of both into the features bundle.
export { CaseFileSchema, parseCaseFile, requestNotFound } from './core/cases/caseFile';
export { crossCheck, valuesByCase } from './core/cases/crossCheck';
export { cellsOf, prepareCell, runCell, samplingOf } from './core/cases/runner';
// the case-run engine: samples, the judge and cost, the same as the CLI's
export { directTransport, runCellOf, runCells, sampleJobs } from './core/cases/engine';
// its second transport, Message Batches: custom ids, a resumable run, the transport (the CLI's, the same)
export { customIds } from './core/batches/requests';
export { BatchSession } from './core/batches/session';
// the Batches view's store, poller and client: one copy, with the runs' (vscode/batches/batchesView.ts)
export { BatchesClient } from './core/api/batches';
export { waitUntilEnded } from './core/batches/poll';
export { BatchStore } from './core/batches/store';
export { batchTransport } from './core/batches/transport';
export { judgePromptCheck } from './core/cases/judge';
export { DirectoryVerdictCache } from './core/cases/verdictCache';
export { costOf } from './core/cost/cost';
export { parsePrices, priceTable } from './core/cost/prices';
export {
  compareResults,
  gradeFor,
  mergeResults,
  parseResults,
  resultsName,
  resultsPath,
  serializeResults,
  withGrade,
} from './core/cases/results';
// The service's model list merged over the built-in table: the editor builds it here, where the rules that
// read it already are, rather than carry a second copy of the table into the features bundle.
export { builtinEntries, capabilityLines, ModelCatalog, parseModelList } from './core/models/catalog';
export { lookupModel } from './core/request/models';
// The compare runner sends through the cases' engine: it shares this bundle for the same reason.
export { runColumns, sampleDifferences, sendWith } from './core/compare/runner';
// Reading git revisions spawns processes: loaded with the first check, never at activation.
export { GitError, GitRepo } from './core/compare/git';
// A case file at a git revision (the Cases grid's "Compare with…"), read and checked as `test --base` does.
export { caseFileAt, revisionSource } from './core/compare/versions';
export { loadCaseFileFrom } from './core/cases/load';
