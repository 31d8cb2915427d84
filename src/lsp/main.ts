// `promptwright lsp --stdio`: the language server over stdin and stdout. Loaded only by this command (dist/lsp.js,
// a bundle of its own), so the CLI's other commands and the VS Code extension never carry it. Its options and
// usage are the CLI's (src/cli/lsp.ts), checked before this bundle is loaded.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { Server } from './server';

/** Runs the server: it exits with its client. */
export function runLsp(
  io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
  env: NodeJS.ProcessEnv,
): void {
  const connection = createConnection(ProposedFeatures.all, io.stdin, io.stdout);
  new Server(connection, env).listen();
}
