// The language server as a bundle of its own (dist/lsp.js): `promptwright lsp` loads it (src/cli.ts); nothing
// else does. It holds vscode-languageserver and the language features (core/language).
export { runLsp } from './lsp/main';
