import { createInterface } from 'node:readline/promises';
import { lspArgs } from './cli/lsp';
import { terminalText } from './cli/io';
import { keysFromEnv } from './cli/env';
import { runCli } from './cli/main';
import { redactKnown } from './core/redact';

const argv = process.argv.slice(2);
if (argv[0] === 'lsp') {
  // the language server is a bundle of its own, loaded by this command only (src/lsp.ts); it speaks on stdin and
  // stdout until its client says exit, or goes away
  const code = lspArgs(argv.slice(1), process);
  if (code !== undefined) process.exitCode = code;
  else (require('./lsp.js') as typeof import('./lsp')).runLsp(process, process.env);
} else cli(argv);

function cli(args: string[]): void {
  // Ctrl-C aborts the signal every command passes to its requests: the request is cancelled, its connection
  // closed, and the command prints what it had and exits 130. A second Ctrl-C exits at once, should anything
  // still be running.
  const ctl = new AbortController();
  let interrupted = false;
  function cancel(): void {
    if (interrupted) process.exit(130);
    interrupted = true;
    ctl.abort();
  }
  process.on('SIGINT', cancel);
  // a reader that goes away (`promptwright run … | head`) leaves nothing to write to, so nothing left to do:
  // exit at once, as a command in a pipe does, rather than with an unhandled EPIPE and its stack trace
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });

  /** A yes/no question on the terminal (destructive verbs without --yes). */
  async function confirm(question: string): Promise<boolean> {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    // while readline reads, the terminal is in raw mode: Ctrl-C arrives as a key, not as SIGINT to the process
    rl.on('SIGINT', cancel);
    try {
      return /^y(es)?$/i.test((await rl.question(question, { signal: ctl.signal })).trim());
    } finally {
      rl.close();
    }
  }

  runCli(args, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signal: ctl.signal,
    interactive: !!process.stdin.isTTY,
    progress: !!process.stderr.isTTY,
    confirm,
    // the MCP client, a bundle of its own: loaded when a run first needs a server
    mcp: () => Promise.resolve((require('./mcp.js') as typeof import('./mcp')).connectMcp),
  })
    .then(code => {
      process.exitCode = code;
    })
    .catch((e: unknown) => {
      const message = redactKnown(e instanceof Error ? e.message : String(e), keysFromEnv(process.env));
      process.stderr.write(`promptwright: ${terminalText(message)}\n`);
      process.exitCode = 2;
    });
}
