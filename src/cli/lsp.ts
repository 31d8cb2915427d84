// `promptwright lsp --stdio`: declared here with the other commands (its usage, its options, the docs test), and
// checked before src/cli.ts loads the server's own bundle (dist/lsp.js, src/lsp/main.ts) for it.
import { parseArgs, UsageError, usageOf, wantsHelp, type Command } from './args';
import { EXIT } from './guard';
import type { CliIo } from './io';

export const LSP: Command = {
  name: 'lsp',
  summary:
    'The language server for request, count and case files, speaking LSP over stdin and stdout: diagnostics as ' +
    '`promptwright check` gives them, completion, hover, quick fixes, and token and cache-breakpoint lenses. ' +
    'Settings come from the client (section "promptwright"), else from PROMPTWRIGHT_BASE_URL, ' +
    'PROMPTWRIGHT_API_KEY, PROMPTWRIGHT_BETAS and PROMPTWRIGHT_MODELS. Editor setups: docs/editors.md.',
  options: [{ name: 'stdio', required: true, help: 'speak on stdin and stdout (the only transport)' }],
  exits: { 0: 'the client said exit after shutdown', 1: 'the client went away without shutdown', 2: 'a usage error' },
};

/** `undefined` when the server may start; otherwise the exit code, its usage or the usage error printed. */
export function lspArgs(argv: readonly string[], io: Pick<CliIo, 'stdout' | 'stderr'>): number | undefined {
  if (wantsHelp(argv)) {
    io.stdout.write(usageOf(LSP));
    return EXIT.ok;
  }
  try {
    const p = parseArgs(argv, LSP);
    if (p.positionals.length) throw new UsageError(`unexpected ${p.positionals.join(' ')}`);
    if (!p.switches.has('stdio')) throw new UsageError('--stdio is the transport: promptwright lsp --stdio');
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`promptwright lsp: ${e.message}\n`);
    return EXIT.refused;
  }
  return undefined;
}
