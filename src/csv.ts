// The CSV parser's bundle (dist/csv.js; dist/csv.js.br in the .vsix): csv-parse, which the extension loads only when
// it reads a case file's CSV or TSV dataset (the core bundle's `csv-parse` is a stub that requires this file on first
// use, through loadBundle; scripts/bundles.mjs).
// The CLI and the language server bundle csv-parse itself.
export { Parser } from 'csv-parse';
