// `promptwright lsp --stdio`: the language server over stdin and stdout. Loaded only by this command (dist/lsp.js,
// a bundle of its own), so the CLI's other commands and the VS Code extension never carry it.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { Server } from './server';

const LSP_USAGE = `usage: promptwright lsp --stdio
  the language server for request, count and case files, speaking LSP over stdin and stdout: diagnostics as
  \`promptwright check\` gives them, completion, hover, quick fixes, and token and cache-breakpoint lenses.
  Settings come from the client (initializationOptions and workspace/didChangeConfiguration, section
  "promptwright"), else from PROMPTWRIGHT_BASE_URL, PROMPTWRIGHT_API_KEY, PROMPTWRIGHT_BETAS and
  PROMPTWRIGHT_MODELS. Editor setups: docs/editors.md
`;

/** Runs the server; resolves with an exit code only when it cannot start (it exits with the client otherwise). */
export function runLsp(
  args: readonly string[],
  io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  env: NodeJS.ProcessEnv,
): number | undefined {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(LSP_USAGE);
    return 0;
  }
  const unknown = args.filter(a => a !== '--stdio');
  if (!args.includes('--stdio') || unknown.length) {
    io.stderr.write(
      `promptwright lsp: ${unknown.length ? `unknown option ${unknown.join(' ')}` : '--stdio is the transport'}\n` +
        LSP_USAGE,
    );
    return 2;
  }
  const connection = createConnection(ProposedFeatures.all, io.stdin, io.stdout);
  new Server(connection, env).listen();
  return undefined;
}
